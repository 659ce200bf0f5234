"""Each participant gets a random secret of their own for their report link."""

from django.db import migrations, models

import classroom.models


def give_each_a_secret(apps, schema_editor):
    Participant = apps.get_model("classroom", "Participant")
    for participant in Participant.objects.only("pk").iterator():
        Participant.objects.filter(pk=participant.pk).update(report_secret=classroom.models.new_report_secret())


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0004_device_moves"),
    ]

    operations = [
        # Added empty first: a callable default is evaluated once for all existing rows.
        migrations.AddField(
            model_name="participant",
            name="report_secret",
            field=models.CharField(default="", editable=False, max_length=32),
            preserve_default=False,
        ),
        migrations.RunPython(give_each_a_secret, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="participant",
            name="report_secret",
            field=models.CharField(default=classroom.models.new_report_secret, editable=False, max_length=32),
        ),
    ]
