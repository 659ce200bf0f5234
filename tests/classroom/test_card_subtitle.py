"""A resort table's dashboard card names the storm the teacher chose for it, "Katrina (2005)",
from the start; a surprise storm stays "a surprise storm" until the table has played it out,
then the card names the storm that was drawn. Other games' cards have no such line."""

import pytest
from django.utils import translation

from classroom import selectors, services
from tests.factories import started_session

pytestmark = pytest.mark.django_db


def subtitles(session):
    return [table["subtitle"] for table in selectors.dashboard(session)["tables"]]


def test_a_chosen_storm_is_on_the_card_from_the_start():
    session, _devices = started_session(students=2, scenario="resort", options={"storm": "katrina-2005"})
    assert subtitles(session) == ["Katrina (2005)"]


def test_a_surprise_storm_stays_a_surprise_until_the_table_is_done():
    session, _devices = started_session(students=2, scenario="resort", options={"storm": "surprise"})
    assert subtitles(session) == ["a surprise storm"]
    with translation.override("es"):
        assert subtitles(session) == ["una tormenta sorpresa"]
    services.finish_with_bots(session=session)
    drawn = session.tables.get().game.state["program"]
    from scenarios.resort.rules import PROGRAMS

    program = PROGRAMS[drawn]
    assert subtitles(session) == [f"{program['name']} ({program['year']})"]


def test_a_game_without_a_teacher_choice_to_show_has_no_line():
    session, _devices = started_session(students=2)
    assert subtitles(session) == [None]
