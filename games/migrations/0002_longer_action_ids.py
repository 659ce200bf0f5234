"""A device's tap is saved under its own id in the device's namespace
(``games.pipeline.device_action_id``): up to 64 characters of its own, with the namespace
before them. Widening a varchar rewrites nothing in PostgreSQL."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="move",
            name="action_id",
            field=models.CharField(max_length=96),
        ),
    ]
