"""Devices the teacher turns away, the device each student joined from, and the table the
embedded server counts its limits in (config.settings, CACHES)."""

from django.core.management import call_command
from django.db import migrations, models


def create_limits_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0008_participant_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="participant",
            name="device_hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="session",
            name="banned_devices",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(create_limits_table, migrations.RunPython.noop),
    ]
