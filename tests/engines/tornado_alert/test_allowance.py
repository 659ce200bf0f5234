"""The reaction allowance (RULES.md, "Reaction allowance"): a student who reacts slowly can still
win piles. The pile waits for every allowed student before the next card, a slap within the
allowance competes in the race's fair draw, and the teacher can set one student's allowance.

``simulate`` plays whole games on a clock, as the platform does: bots act after their reaction
time (``pace``), the server's steps at the deadlines ``due`` names (fixed when first named, at
once when no seat may act), and the student 2.5 s after every change of the pile (a screen
reader's pace)."""

import pytest

from scenarios.base import IllegalAction
from scenarios.tornado_alert import ENGINE, rules
from scenarios.tornado_alert.bots import photographer

STUDENT, REACTION = 0, 2.5


def simulate(seed, allowance_ms):
    """One four-seat game: the student (seat 0) plays the careful policy 2.5 s after each change
    of the pile; three policy bots at their reaction time. Returns the student's tally."""
    state = ENGINE.setup(seed, 4, {"allowance_ms": allowance_ms})
    now, changed, pile_seen = 0.0, 0.0, None
    due_at = {}  # the server's step key -> its fixed deadline
    tally = {"slaps": 0, "refused": 0, "races": 0, "won": 0, "expected": 0.0}
    for _ in range(20_000):
        if ENGINE.finished(state):
            break
        if state["pile_id"] != pile_seen or state["phase"] != "play":
            pile_seen, changed = state["pile_id"], now
        acting = ENGINE.to_act(state)
        step = ENGINE.due(state)
        plans = []
        if step:
            at = due_at.setdefault(step["key"], now + step["seconds"])
            plans.append((now if not acting else at, None))
        for seat in acting:
            if seat == STUDENT:
                plans.append((max(now, changed + REACTION), seat))
            else:
                plans.append((now + ENGINE.pace(state, seat, True, 1.0), seat))
        if not plans:
            raise AssertionError("nothing can happen")
        at, seat = min(plans, key=lambda plan: (plan[0], -1 if plan[1] is None else plan[1]))
        now = at
        if seat is None:
            events = ENGINE.apply(state, None, step["action"])
        else:
            action = photographer(state, seat)
            events = ENGINE.apply(state, seat, action)
            if seat == STUDENT and action["type"] == "slap":
                tally["slaps"] += 1
        for event in events:
            if event["type"] == "race" and STUDENT in event["slaps"]:
                tally["races"] += 1
                tally["expected"] += 1 / len(event["slaps"])
                tally["won"] += event["winner"] == STUDENT
    return tally, state


def totals(allowance_ms, games=40):
    out = {"slaps": 0, "races": 0, "won": 0, "expected": 0.0}
    for seed in range(games):
        tally, _state = simulate(seed, allowance_ms)
        for key in out:
            out[key] += tally[key]
    return out


def test_a_student_reacting_in_2_5_s_wins_a_fair_share_with_the_allowance_on():
    with_allowance = totals(3000)
    without = totals(0)
    # with the allowance the student races for piles and wins about what the fair draw gives
    assert with_allowance["races"] >= 100, with_allowance
    assert with_allowance["won"] >= 0.75 * with_allowance["expected"], with_allowance
    # without it the bots have played on before the student reacts: far fewer piles to slap at all
    assert without["slaps"] < 0.5 * with_allowance["slaps"], (without, with_allowance)


def test_the_pile_waits_for_the_allowance_and_slaps_in_it_compete():
    state = ENGINE.setup(4, 4, {"allowance_ms": 3000})
    state["turn"] = 0
    state["hands"][0][0] = "window.1"
    ENGINE.apply(state, 0, {"type": "play", "card": "window.1"})
    assert state["hold"] == {"pile": state["pile_id"], "ms": 3000}
    assert ENGINE.due(state)["action"] == {"type": "open"} and ENGINE.due(state)["seconds"] == 3
    assert ENGINE.to_act(state) == [1, 2, 3]  # nobody may play the next card: they may slap
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "play", "card": state["hands"][1][0]})
    aimed = state["pile_id"]
    ENGINE.apply(state, 2, {"type": "slap", "pile": aimed})  # a fast hand
    key = ENGINE.due(state)["key"]
    ENGINE.apply(state, 1, {"type": "slap", "pile": aimed})  # a slow hand, inside the allowance
    assert ENGINE.due(state)["key"] == key  # the race does not cut the allowance short
    events = ENGINE.apply(state, None, {"type": "open"})
    race = next(e for e in events if e["type"] == "race")
    assert race["slaps"] == [2, 1] and state["last_take"]["pile"] == aimed and state["last_take"]["how"] == "draw"
    # the pile left behind waits again for whoever may still slap it, or the next card may come
    assert state["hold"] is None or state["hold"]["pile"] == state["pile_id"]


def test_the_teacher_sets_one_students_allowance():
    state = ENGINE.setup(4, 4, {"allowance_ms": 0})
    assert state["allow"] == [0, 0, 0, 0]
    ENGINE.apply(state, None, {"type": "allow", "seat": 2, "ms": 5000})
    assert state["allow"] == [0, 0, 5000, 0]
    for bad in (
        {"type": "allow", "seat": 2, "ms": 99},
        {"type": "allow", "seat": 9, "ms": 1500},
        {"type": "allow", "seat": True, "ms": 1500},
    ):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, None, bad)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 2, {"type": "allow", "seat": 2, "ms": 5000})  # not the student's own choice
    assert rules.edition(state) == 3


def test_new_games_give_every_seat_the_class_allowance_and_edition_2_none():
    """Edition 3 gives the whole class time to react by default; a game set up by edition 2
    without choosing an allowance still has none, so its move log replays as it was played."""
    assert ENGINE.setup(4, 4)["allow"] == [rules.ALLOWANCE] * 4 and rules.ALLOWANCE >= 3000
    old = ENGINE.setup(4, 4, {"edition": 2})
    assert old["allow"] == [0] * 4 and "asked" not in old
    with pytest.raises(IllegalAction):
        ENGINE.apply(old, 1, {"type": "need_time"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(old, None, {"type": "allow", "seat": 1, "ms": rules.MORE_TIME})  # not edition 2's


def test_a_seat_asks_for_more_time_and_the_teacher_answers():
    state = ENGINE.setup(4, 4)
    before = {k: v for k, v in state.items() if k != "asked"}
    assert ENGINE.view(state, 1)["may_ask_time"] and not ENGINE.view(state, 1)["time_asked"]
    ENGINE.apply(state, 1, {"type": "need_time"})
    assert {k: v for k, v in state.items() if k != "asked"} == before  # asking changes no play
    assert ENGINE.view(state, 1)["time_asked"] and ENGINE.view(state, None)["allowance"]["asked"] == [1]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "need_time"})  # asked already
    assert {"type": "need_time"} not in ENGINE.actions(state, 1)  # never offered: no bot asks
    ENGINE.apply(state, None, {"type": "allow", "seat": 1, "ms": rules.MORE_TIME})
    teacher = ENGINE.view(state, None)["allowance"]
    assert teacher["asked"] == [] and teacher["seats"][1] == rules.MORE_TIME
    assert not ENGINE.view(state, 1)["may_ask_time"]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "need_time"})  # has the most already
