from django.db import migrations, models

import classroom.regions


class Migration(migrations.Migration):
    """Where the class lives: the region chooses the family plan's emergency number, alert
    channels, official links, units and paper size. Sessions made before it are on the US Gulf
    coast, as every plan was then."""

    dependencies = [("classroom", "0008_participant_language")]

    operations = [
        migrations.AddField(
            model_name="session",
            name="region",
            field=models.CharField(choices=classroom.regions.choices, default="us_gulf", max_length=20,
                                   verbose_name="region"),
        ),
    ]
