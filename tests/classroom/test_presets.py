"""The "As printed" preset: chosen on the new-session form, played by every table, named on
every results screen and report."""

import pytest
from django.urls import reverse

from classroom import services
from classroom.consumers import token_cookie
from classroom.forms import SessionForm
from classroom.models import Seat, Session
from games.models import Game
from scenarios import registry
from scenarios.evacuation import PRESETS as EVACUATION_PRESETS
from scenarios.registry import ENGINES
from tests.factories import PASSWORD, make_teacher, started_session

pytestmark = pytest.mark.django_db

AS_PRINTED = "As printed in the rule book"
TUNED = "Tuned for class (default)"


def form_data(**changes):
    """What the new-session form posts when the teacher changes nothing but ``changes``."""
    form = SessionForm(
        scenario_options={k: ENGINES[k].options() for k in ("evacuation", "stormfury")},
        scenario_presets={"evacuation": EVACUATION_PRESETS},
    )
    data = {}
    for name, field in form.fields.items():
        value = field.initial
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
    data.update(scenario="evacuation", seed="7")
    data.update(changes)
    return data


def test_the_book_preset_sets_its_options_over_the_teachers_choices(client):
    """Choosing "As printed" plays the book's scoring even where the form's fields say
    otherwise; the options it does not name (reasons) keep the teacher's choice."""
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    page = client.get(reverse("classroom:session_new")).content.decode()
    assert AS_PRINTED in page and TUNED in page
    answer = client.post(
        reverse("classroom:session_new"),
        form_data(evacuation__preset="as_printed", evacuation__race_points="half", evacuation__reasons="off"),
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    session = Session.objects.get(teacher=teacher)
    assert session.preset == "as_printed" and session.get_preset_display() == AS_PRINTED
    assert session.options["race_points"] == "on" and session.options["bank_scoring"] == "book"
    assert session.options["timeline"] == "off" and session.options["reasons"] == "off"
    assert "preset" not in services.table_options(session, 1), "the engine never sees the preset key"


def test_the_default_keeps_the_tuned_options(client):
    teacher = make_teacher()
    client.login(email=teacher.email, password=PASSWORD)
    answer = client.post(reverse("classroom:session_new"), form_data())
    assert answer.status_code == 302
    session = Session.objects.get(teacher=teacher)
    assert session.preset == "" and session.get_preset_display() == TUNED
    assert session.options["race_points"] == "clock" and session.options["bank_scoring"] == "net"


def test_tuned_rules_with_a_changed_option_are_not_called_the_default():
    session = services.create_session(
        teacher=make_teacher(), scenario="evacuation", options={"race_points": "on", "reasons": "on"}
    )
    assert session.changed_options() == ["race_points"]
    assert session.get_preset_display() == "Tuned for class, with options changed by the teacher"


def test_a_scenario_without_presets_offers_no_rules_choice():
    """An engine with no PRESETS gets no "Rules" field, and its sessions play its defaults."""
    options = {k: ENGINES[k].options() for k in ("evacuation", "stormfury")}
    form = SessionForm(
        form_data(scenario="stormfury", seats_per_table="4"),
        scenario_options=options,
        scenario_presets={"evacuation": EVACUATION_PRESETS, "stormfury": {}},
    )
    assert "stormfury__preset" not in form.fields and "evacuation__preset" in form.fields
    assert form.is_valid(), form.errors
    assert form.preset() == ""
    with pytest.raises(ValueError):
        services.create_session(teacher=make_teacher(), scenario="evacuation", preset="no_such_preset")


def test_a_preset_naming_an_option_the_engine_lacks_is_refused():
    options = {"evacuation": ENGINES["evacuation"].options()}
    form = SessionForm(
        form_data(evacuation__preset="as_printed"),
        scenario_options=options,
        scenario_presets={"evacuation": {"as_printed": {"no_such_option": 1}}},
    )
    assert not form.is_valid() and "evacuation__preset" in form.errors


def test_every_results_screen_names_the_preset_played(client):
    """Tablet, dashboard, projector, class debrief and the student report all say "As printed"."""
    assert registry.get("evacuation").presets["as_printed"] == EVACUATION_PRESETS["as_printed"]
    session, devices = started_session(students=4, preset="as_printed")
    for game in Game.objects.filter(table__session=session):
        assert {k: game.options[k] for k in EVACUATION_PRESETS["as_printed"]} == EVACUATION_PRESETS["as_printed"]
    services.finish_with_bots(session=session)

    participant, token = devices[0]
    client.cookies[token_cookie(session.pk)] = token
    tablet = client.get(reverse("classroom:play", args=[session.pk])).content.decode()
    assert AS_PRINTED in tablet

    client.login(email=session.teacher.email, password=PASSWORD)
    for name in ("classroom:session", "classroom:session_screen", "scoring:session_debrief"):
        page = client.get(reverse(name, args=[session.pk])).content.decode()
        assert AS_PRINTED in page, name

    from scoring import reports

    seat = Seat.objects.filter(table__session=session, participant=participant).first()
    html, _data = reports.seat_report(session, seat)
    assert AS_PRINTED in html
    html, _data = reports.class_packet(session)
    assert AS_PRINTED in html
