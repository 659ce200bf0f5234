"""A written report is done once its page is stored: its PDF is printed when someone asks for it.
Reports written before then said "Printing the PDF" at 90 % until their PDF came; those still
waiting say "Done" at 100 % like the rest."""

from django.db import migrations


def written_is_done(apps, schema_editor):
    Report = apps.get_model("scoring", "Report")
    Report.objects.filter(status="done").exclude(progress=100).update(progress=100, step="Done")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_audience_on_session")]

    operations = [migrations.RunPython(written_is_done, migrations.RunPython.noop)]
