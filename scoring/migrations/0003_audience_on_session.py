"""What students may see (intensity, age band) moves from the debrief settings to the session,
where the new-session form sets it: each session keeps the choice its teacher made. The knowledge
base is loaded again, because its facts now say which ones students may see."""

from django.db import migrations


def copy_to_sessions(apps, schema_editor):
    DebriefSettings = apps.get_model("scoring", "DebriefSettings")
    Session = apps.get_model("classroom", "Session")
    for prefs in DebriefSettings.objects.all().only("session_id", "intensity", "age_band"):
        Session.objects.filter(pk=prefs.session_id).update(intensity=prefs.intensity, age_band=prefs.age_band)


def copy_back(apps, schema_editor):
    DebriefSettings = apps.get_model("scoring", "DebriefSettings")
    Session = apps.get_model("classroom", "Session")
    for session in Session.objects.all().only("pk", "intensity", "age_band"):
        DebriefSettings.objects.update_or_create(
            session_id=session.pk, defaults={"intensity": session.intensity, "age_band": session.age_band}
        )


def reload_facts(apps, schema_editor):
    from scoring.outcomes import load_facts

    load_facts(apps.get_model("scoring", "Fact"))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_load_facts"),
        ("classroom", "0010_session_audience"),
    ]

    operations = [
        migrations.RunPython(copy_to_sessions, copy_back),
        migrations.RemoveField(model_name="debriefsettings", name="age_band"),
        migrations.RemoveField(model_name="debriefsettings", name="intensity"),
        migrations.RunPython(reload_facts, migrations.RunPython.noop),
    ]
