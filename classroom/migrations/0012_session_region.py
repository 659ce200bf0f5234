from django.db import migrations, models

import classroom.regions


class Migration(migrations.Migration):
    """Where the class lives: the region chooses the family plan's emergency number, alert
    channels, official links, units and paper size. Sessions made before it are on the US Gulf
    coast, as every plan was then."""

    dependencies = [("classroom", "0011_session_names_shown_at_once_and_two_minute_turns")]

    operations = [
        migrations.AddField(
            model_name="session",
            name="region",
            field=models.CharField(
                choices=classroom.regions.choices, default="us_gulf", max_length=20, verbose_name="region"
            ),
        ),
    ]
