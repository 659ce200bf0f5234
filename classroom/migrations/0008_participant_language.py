from django.db import migrations, models


class Migration(migrations.Migration):
    """Each tablet's chosen language, for its screens and its report; the teacher's, for the
    class packet."""

    dependencies = [("classroom", "0007_scenario_from_registry")]

    operations = [
        migrations.AddField(
            model_name="participant",
            name="language",
            field=models.CharField(default="en", max_length=8),
        ),
        migrations.AddField(
            model_name="session",
            name="language",
            field=models.CharField(default="en", max_length=8),
        ),
    ]
