"""Load the knowledge base from scoring/outcomes/facts.json. After editing the file, run
``manage.py load_facts`` (idempotent) rather than adding a migration for every wording change."""

from django.db import migrations


def forwards(apps, schema_editor):
    from scoring.outcomes import load_facts

    load_facts(apps.get_model("scoring", "Fact"))


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
