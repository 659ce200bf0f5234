"""What students may see, chosen on the new-session form (``scenarios.audience``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0009_device_bans_and_limits_table"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="age_band",
            field=models.CharField(
                choices=[("10+", "10+"), ("13+", "13+"), ("16+", "16+")],
                default="10+",
                max_length=4,
                verbose_name="youngest students",
            ),
        ),
        migrations.AddField(
            model_name="session",
            name="intensity",
            field=models.CharField(
                choices=[
                    ("gentle", "Gentle: no death tolls"),
                    ("frank", "Frank: death tolls shown where a fact has them"),
                ],
                default="gentle",
                max_length=10,
                verbose_name="death tolls",
            ),
        ),
    ]
