"""The class debrief page asks only what applies to this class, counts in words ("1 household",
not "1 households"), keeps the game's mechanics for the teacher's details, and Tornado Alert!
replays the same deals played carefully ("what if"), like the other games."""

import pytest
from django.urls import reverse
from django.utils import translation

from scenarios.evacuation import analysis
from scenarios.tornado_alert import ENGINE, whatif
from scenarios.tornado_alert.debrief import SHELTERED
from tests.factories import PASSWORD, ended_session

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


def test_the_what_if_replays_the_same_deals_played_safe():
    state = ENGINE.setup(77, 4, None)
    tables = [{"table": 1, "seed": 77, "state": ENGINE.dump(state)}]
    first = whatif.what_if(tables, SHELTERED)
    assert first == whatif.what_if(tables, SHELTERED)  # the same table, the same replay
    safe = first["safe"]
    reckless = whatif.measure(whatif.replay(77, 4, state["options"], "daredevil"), SHELTERED)
    assert safe["photos"] and reckless["photos"]
    assert safe["risky_share"] < reckless["risky_share"]  # taking care shows on the same cards
    assert first["class"]["photos"] == 0  # the class had not played yet


def test_playing_it_safe_on_the_same_deal_draws_fewer_strikes_and_a_lower_score():
    """Like with like: each table's own seed, seats and rules dealt again, only the way of playing
    changed. A class that played the greedy photographer's way (taking every pile worth its
    average) is struck on its own photos; the same deals with everyone keeping a safe place on
    top are never struck, and score less: what the debrief's lesson says the book built."""
    from scenarios.base import play_out
    from scenarios.tornado_alert.bots import BOTS

    tables = []
    for seed in (3, 77, 101):
        state = ENGINE.setup(seed, 4, None)
        play_out(ENGINE, state, BOTS["photographer"], unblock=whatif._system_step)
        tables.append({"table": len(tables) + 1, "seed": seed, "state": ENGINE.dump(state)})
    replays = whatif.what_if(tables, SHELTERED)
    assert replays["class"]["tornado_per_player"] > 0 == replays["safe"]["tornado_per_player"]
    assert replays["safe"]["risky_share"] < replays["class"]["risky_share"]
    assert replays["safe"]["score"] < replays["class"]["score"]
    dealt = ENGINE.setup(77, 4, tables[1]["state"]["options"])
    assert dealt["hands"] == ENGINE.setup(77, 4, None)["hands"]  # the same deal for the replay


def test_the_tornado_debrief_shows_the_what_if_and_keeps_slap_races_for_the_teacher(client):
    session = ended_session(3, scenario="tornado_alert", seats_per_table=3, seed=42)
    client.login(email=session.teacher.email, password=PASSWORD)
    answer = client.get(reverse("scoring:session_debrief", args=[session.pk]))
    page = answer.content.decode()
    assert "What if we had played it safe?" in page
    replays = answer.context["whatif"]
    assert f"<td>{replays['safe']['risky_share']}%</td>" in page
    assert "everyone keeping a safe place on top" in page
    assert "What the winning strategy teaches" in page and "a player who keeps a safe place on top scores less" in page
    client.cookies["django_language"] = "es"
    spanish = client.get(
        reverse("scoring:session_debrief", args=[session.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Lo que enseña la estrategia ganadora" in spanish
    discussion = page[page.index('id="ask"') : page.index("For the teacher: how the game ran")]
    assert "slap race" not in discussion
    teacher_part = page[page.index("For the teacher: how the game ran") :]
    assert "settled by a fair draw" in teacher_part


def test_the_tablets_end_screen_says_what_the_winning_strategy_teaches_in_every_language():
    """The tablet's end screen carries the debrief's own lesson, word for word, translated for
    Spanish and Dutch tablets as for the debrief page."""
    from pathlib import Path

    import polib

    from scenarios.tornado_alert import debrief

    folder = Path(debrief.__file__).parent
    assert f'gettext("{debrief.LESSON}")' in (folder / "static" / "renderer.js").read_text(encoding="utf-8")
    for language in ("es", "nl"):
        for domain in ("django", "djangojs"):
            catalog = polib.pofile(str(folder / "locale" / language / "LC_MESSAGES" / f"{domain}.po"))
            entry = catalog.find(debrief.LESSON)
            assert entry and entry.msgstr and "fuzzy" not in entry.flags, (language, domain)
    with translation.override("nl"):
        assert translation.gettext(debrief.LESSON).startswith("Wat de winnende strategie leert")


def test_the_winners_photos_are_the_students_who_played_not_the_stand_ins():
    """'The winners' photos' on the debrief counts only seats a student played: a first place the
    stand-in took for an idle student is the stand-in's, not that student's."""
    from types import SimpleNamespace

    from scenarios.base import play_out
    from scenarios.tornado_alert import debrief
    from scenarios.tornado_alert.bots import BOTS

    state = ENGINE.setup(5, 4, None)
    play_out(ENGINE, state, BOTS["photographer"], unblock=whatif._system_step)
    results = ENGINE.results(state)
    first = next(r["seat"] for r in results if r["rank"] == 1)
    holders = {seat: {"name": f"kid {seat}", "stand_in": seat == first} for seat in range(4)}
    table = {"table": 1, "seed": 5, "state": ENGINE.dump(state), "holders": holders, "status": "finished", "moves": []}
    rows = debrief.players(SimpleNamespace(tables=[table]))
    winners = [r for r in rows if r["rank"] == 1 and r["seat"] != first]
    expected = round(sum(r["risky_share"] for r in winners) / len(winners)) if winners else 0
    stood_in = next(r for r in rows if r["seat"] == first)
    assert debrief.summary(SimpleNamespace(tables=[table]))["winner_risky_share"] == expected
    holders[first]["stand_in"] = False  # the same seat played by its student is a winner again
    assert debrief.summary(SimpleNamespace(tables=[table]))["winner_risky_share"] != expected
    assert stood_in["risky_share"] != expected


@pytest.mark.parametrize("key", ["evacuation", "resort", "bermuda", "stormfury", "tornado_alert"])
def test_every_class_debrief_says_what_the_winning_strategy_teaches(client, key):
    """The projector's debrief of each game says, in the class's language, what the strategy that
    wins the game teaches (RULES.md, "Balance"), once."""
    from scenarios import registry

    session = ended_session(2, scenario=key, seed=7)
    client.login(email=session.teacher.email, password=PASSWORD)
    teaches = registry.get(key).debrief.teaches
    for language, heading in (
        ("en", "What the winning strategy teaches"),
        ("es", "Lo que enseña la estrategia ganadora"),
    ):
        client.cookies["django_language"] = language
        page = client.get(reverse("scoring:session_debrief", args=[session.pk]), HTTP_ACCEPT_LANGUAGE=language)
        text = page.content.decode()
        with translation.override(language):
            sentence = translation.gettext(teaches)
        # the sentence opens with the heading's words (a tablet's end screen shows it alone); under
        # the heading the panel gives the rest
        assert sentence.startswith(f"{heading}: "), (language, sentence)
        rest = sentence.removeprefix(f"{heading}: ")
        assert text.count(f">{heading}</h2>") == 1, language
        assert f"<p>{rest[:1].upper()}{rest[1:]}</p>" in text.replace("&#x27;", "'"), language
        assert f"{heading}: " not in text, language
