"""Properties every Tornado Alert! game keeps, checked after every move of many random games
(both variants, 2 to 6 seats, random legal actions): no card is ever lost or doubled, a point
stack never shows a zero or face-down card on top while it holds a photo, chips never go below
zero, a refused action changes nothing, and the same seed and log give the same game."""

import json
import random

import pytest

from scenarios.base import IllegalAction
from scenarios.tornado_alert import ENGINE, rules


def places(state):
    cards = state["draw"] + state["pile"] + state["gone"]
    for hand in state["hands"]:
        cards += hand
    for stack in state["stacks"]:
        cards += [c for c, _ in stack]
    return sorted(cards)


def check(state):
    assert places(state) == rules.DECK[rules.edition(state)]
    for stack in state["stacks"]:
        if any(up and rules.value(c) > 0 for c, up in stack):
            assert rules.top_card(stack) is not None
    assert all(plus >= 0 and minus >= 0 for plus, minus in state["chips"])
    if state["race"] is not None:
        assert state["phase"] == "play" and len(set(state["race"]["slaps"])) == len(state["race"]["slaps"])


@pytest.mark.parametrize("variant", ["turns", "free"])
@pytest.mark.parametrize("seats", [2, 3, 6])
def test_random_games_keep_every_card_and_replay_exactly(variant, seats):
    rng = random.Random(seats * 7 + len(variant))
    for seed in range(6):
        state = ENGINE.setup(seed, seats, {"variant": variant})
        log = []
        while not ENGINE.finished(state):
            due = ENGINE.due(state)
            if due and (not ENGINE.to_act(state) or rng.random() < 0.3):  # the race's deadline
                ENGINE.apply(state, None, due["action"])
                log.append((None, due["action"]))
                check(state)
                continue
            seat = rng.choice(ENGINE.to_act(state))
            options = ENGINE.actions(state, seat)
            action = rng.choice(options)
            if rng.random() < 0.05:  # now and then a slap aimed at an old pile, or a card not held
                bad = rng.choice(
                    [
                        {"type": "slap", "pile": state["pile_id"] - 1},
                        {"type": "play", "card": "gameover"},
                        {"type": "settle"},
                    ]
                )
                before = json.dumps(state, sort_keys=True)
                try:
                    ENGINE.apply(state, seat, bad)
                    log.append((seat, bad))
                except IllegalAction:
                    assert json.dumps(state, sort_keys=True) == before
            if seat not in ENGINE.to_act(state) or action not in ENGINE.actions(state, seat):
                continue
            ENGINE.apply(state, seat, action)
            log.append((seat, action))
            check(state)
        again = ENGINE.setup(seed, seats, {"variant": variant})
        for seat, action in log:
            ENGINE.apply(again, seat, action)
        assert ENGINE.dump(again) == ENGINE.dump(state)
        assert len(state["results"][0]) == rules.ROUNDS


def test_a_refused_slap_names_the_winner_and_changes_nothing():
    state = ENGINE.setup(1, 3, {"race_ms": 0})
    state["pile"] = ["cellar-1", "window-1"]
    state["last_player"] = 0
    aimed = state["pile_id"]
    ENGINE.apply(state, 2, {"type": "slap", "pile": aimed})
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as late:
        ENGINE.apply(state, 1, {"type": "slap", "pile": aimed})
    assert late.value.code == "too_slow" and late.value.params == {"player": 3}
    assert json.dumps(state, sort_keys=True) == before
    for bad in (
        {"type": "slap", "pile": aimed + 5},
        {"type": "slap", "pile": "x"},
        {"type": "slap"},
        {"type": "play", "card": "nope"},
        {"type": "keep"},
        {"type": "fly"},
        "slap",
    ):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 1, bad)
        assert json.dumps(state, sort_keys=True) == before
