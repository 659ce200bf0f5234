"""Games stored by engine 1.0.0 (rules edition 1) still load, replay and play on by their own
rules; new games play edition 2 (RULES.md, "Editions")."""

import json
from pathlib import Path

from scenarios.tornado_alert import ENGINE, rules
from scenarios.tornado_alert.bots import BOTS

FROZEN = Path(__file__).with_name("frozen_1_0_0.json")


def frozen():
    return json.loads(FROZEN.read_text())


def test_a_stored_edition_1_game_loads_and_its_race_opener_still_settles_it():
    stored = frozen()
    state = ENGINE.load(stored["state"])
    assert ENGINE.load(ENGINE.dump(state)) == state == stored["state"]
    assert rules.edition(state) == 1 and "edition" not in state["options"]
    opener = state["race"]["slaps"][0]
    assert opener in ENGINE.to_act(state) and {"type": "settle"} in ENGINE.actions(state, opener)
    assert ENGINE.due(state) is None  # edition 1 keeps its own clock: the opener's deadline
    events = ENGINE.apply(state, opener, {"type": "settle"})
    assert events[0]["type"] == "race" and "how" not in state["last_take"]
    for step in range(5000):  # and it plays on to its end by its own rules
        if ENGINE.finished(state):
            break
        acting = ENGINE.to_act(state)
        seat = acting[step % len(acting)]
        ENGINE.apply(state, seat, BOTS["photographer"](state, seat))
    assert ENGINE.finished(state) and len(state["results"][0]) == rules.ROUNDS


def test_a_stored_edition_1_move_log_replays_to_the_stored_state():
    stored = frozen()
    state = ENGINE.setup(stored["seed"], stored["seats"], {**stored["options"], "edition": 1})
    for newer in ("edition", "allowance_ms"):  # as engine 1.0.0 stored it: options it did not have
        del state["options"][newer]
    for move in stored["moves"]:
        ENGINE.apply(state, move["seat"], move["action"])
    assert ENGINE.dump(state) == stored["state"]


def test_new_games_play_edition_3():
    state = ENGINE.setup(1, 4)
    assert state["options"]["edition"] == rules.EDITION == 3


def test_a_stored_edition_2_move_log_replays_to_the_stored_state():
    """A game engine 2.0.0 stored (set up without an allowance: none then) replays move for move
    to the state it stored, although new games have a class allowance."""
    stored = json.loads(FROZEN.with_name("frozen_2_0_0.json").read_text())
    for options in (stored["options"], {"edition": 2}):  # as stored, or only its edition named
        state = ENGINE.setup(stored["seed"], stored["seats"], options)
        for move in stored["moves"]:
            ENGINE.apply(state, move["seat"], move["action"])
        assert ENGINE.dump(state) == stored["state"]
