"""The class debrief page asks only what applies to this class, counts in words ("1 household",
not "1 households"), keeps the game's mechanics for the teacher's details, and Tornado Alert!
replays the same deals played carefully ("what if"), like the other games."""

import pytest
from django.urls import reverse
from django.utils import translation

from classroom import services as classroom
from scenarios.evacuation import analysis
from scenarios.tornado_alert import ENGINE, whatif
from scenarios.tornado_alert.debrief import SHELTERED
from tests.factories import PASSWORD, join_students, make_session

pytestmark = pytest.mark.django_db


def _summary(**changes):
    base = {
        "households": 1,
        "left": 1,
        "left_before_warning": 1,
        "evacuated": 1,
        "caught": 0,
        "stayed": 0,
        "secured": 1,
        "destinations": [{"key": "relative", "share": 100.0, "count": 1}, {"key": "shelter", "share": 0.0, "count": 0}],
        "reasons": {"leave": {"answers": [{"key": "forecast", "text": "The forecast", "count": 1}]}},
    }
    return {**base, **changes}


def test_a_class_where_nobody_waited_is_not_asked_what_made_waiting_feel_safe():
    with translation.override("en"):
        asked = analysis.discussion_questions(_summary())
    assert "leave_time" not in [q["topic"] for q in asked]
    assert all("0 of" not in q["text"] for q in asked)


def test_one_household_is_one_household():
    with translation.override("en"):
        asked = analysis.discussion_questions(_summary(left_before_warning=0))
    texts = " ".join(q["text"] for q in asked)
    assert "1 of 1 household left after the hurricane warning" in texts
    assert "1 households" not in texts


def test_the_what_if_replays_the_same_deals_played_carefully():
    state = ENGINE.setup(77, 4, None)
    tables = [{"table": 1, "seed": 77, "state": ENGINE.dump(state)}]
    first = whatif.what_if(tables, SHELTERED)
    assert first == whatif.what_if(tables, SHELTERED)  # the same table, the same replay
    careful = first["photographer"]
    reckless = whatif.measure(whatif.replay(77, 4, state["options"], "daredevil"), SHELTERED)
    assert careful["photos"] and reckless["photos"]
    assert careful["risky_share"] < reckless["risky_share"]  # taking care shows on the same cards
    assert first["class"]["photos"] == 0  # the class had not played yet


def test_the_tornado_debrief_shows_the_what_if_and_keeps_slap_races_for_the_teacher(client):
    session = make_session(scenario="tornado_alert", seats_per_table=3, seed=42)
    join_students(session, 3)
    classroom.start(session=session)
    classroom.finish_with_bots(session=session)
    classroom.end(session=session)
    client.login(email=session.teacher.email, password=PASSWORD)
    answer = client.get(reverse("scoring:session_debrief", args=[session.pk]))
    page = answer.content.decode()
    assert "What if we had played it safe?" in page
    replays = answer.context["whatif"]
    assert f"<td>{replays['photographer']['risky_share']}%</td>" in page
    discussion = page[page.index('id="ask"') : page.index("For the teacher: how the game ran")]
    assert "slap race" not in discussion
    teacher_part = page[page.index("For the teacher: how the game ran") :]
    assert "settled by a fair draw" in teacher_part
