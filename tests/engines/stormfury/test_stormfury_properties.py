"""Property tests over many random and policy games (1-4 seats, random options).

Set STORMFURY_EXAMPLES to run more (the default keeps the suite quick).
"""

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from stormfury_helpers import play_out

from scenarios.base import IllegalAction
from scenarios.stormfury import ENGINE, rules
from scenarios.stormfury.bots import BOTS

EXAMPLES = int(os.environ.get("STORMFURY_EXAMPLES", "150"))

options = st.fixed_dictionaries(
    {
        "turn_order": st.sampled_from(["simultaneous", "round_table"]),
        "hold_storm": st.booleans(),
        "hits": st.sampled_from(["per_turn", "per_step"]),
        "land_decay": st.booleans(),
        "final_move_damage": st.booleans(),
        "open_hands": st.booleans(),
        "turn_cap": st.sampled_from([6, 12, 20]),
        "storm_seed": st.integers(0, 2**31 - 1),
    }
)


def _candidates(state, seat):
    """Actions to try: this seat's own, other seats', and broken variants."""
    out = list(ENGINE.actions(state, seat))
    for other in range(state["seats"]):
        if other != seat:
            out.extend(ENGINE.actions(state, other)[:5])
    out += [{"type": "move", "to": c} for c in rules.CITY_IDS[:4]]
    out += [
        {"type": "fortify", "card": "fortify_3", "space": "mob_port"},
        {"type": "dam", "road": "gulfport-mobile", "city": "mobile"},
        {"type": "use_role"},
        {"type": "draw_more", "from": "deck"},
        {"type": "accept_trade", "offer": 1},
        {"type": "evacuate", "people": 2, "discard": ["dam", "dam", "dam", "dam"]},
    ]
    return out


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31 - 1),
    seats=st.integers(1, 4),
    opts=options,
    bot=st.sampled_from(["random", "cooperative"]),
    probe=st.integers(0, 10**6),
)
def test_random_games_keep_the_invariants(seed, seats, opts, bot, probe):
    """Storm on the map, category 1-5 moving one step a turn, hands <= 5 after a turn,
    damage never decreasing, the game ending; dump/load and replay reproduce the state;
    a refused action changes nothing and accepted actions are exactly the listed ones."""
    state = ENGINE.setup(seed, seats, opts)
    start = ENGINE.dump(state)
    log = []
    damage = 0
    n = 0
    while not ENGINE.finished(state):
        n += 1
        assert n < 5000
        seats_now = ENGINE.to_act(state)
        if not seats_now:
            action, seat = {"type": "storm_moves"}, None
        else:
            seat = seats_now[(probe + n) % len(seats_now)]
            if n % 7 == 0:  # probe: every candidate is accepted iff it is listed
                legal = ENGINE.actions(state, seat)
                before = ENGINE.dump(state)
                for cand in _candidates(state, seat)[(probe % 3) :: 3]:
                    trial = ENGINE.load(before)
                    try:
                        ENGINE.apply(trial, seat, cand)
                        assert cand in legal, cand
                    except IllegalAction:
                        assert cand not in legal, cand
                        assert ENGINE.dump(trial) == before
            action = BOTS[bot](state, seat)
        cat_before = state["storm"]["category"]
        rounds_before = state["round"]
        ENGINE.apply(state, seat, action)
        log.append((seat, action))
        assert tuple(state["storm"]["at"]) in rules.TERRAIN
        assert 1 <= state["storm"]["category"] <= 5
        if state["round"] == rounds_before or state["phase"] != "over":
            assert abs(state["storm"]["category"] - cat_before) <= 1
        assert state["damage"]["total"] >= damage
        damage = state["damage"]["total"]
        assert damage == sum(state["damage"][k] for k in ("infrastructure", "population", "roads"))
        for p in state["players"]:
            if p["status"] == "ended" and state["phase"] == "player":
                assert sum(p["hand"].values()) <= rules.HAND_LIMIT
        cards = (
            len(state["deck"])
            + len(state["discards"])
            + len(state["pile"])
            + sum(sum(p["hand"].values()) for p in state["players"])
        )
        assert cards == 84
    assert state["round"] <= opts["turn_cap"]
    assert ENGINE.load(ENGINE.dump(state)) == state
    replay = ENGINE.load(start)
    for seat, action in log:
        ENGINE.apply(replay, seat, action)
    assert replay == state
    for h in state["storm"]["history"]:
        assert abs(h["after"] - h["category"]) <= 1
    res = ENGINE.results(state)
    assert len(res) == seats and len({str(r["breakdown"]["team"]) for r in res}) == 1


@settings(max_examples=max(10, EXAMPLES // 5), deadline=None)
@given(seed=st.integers(0, 2**31 - 1), seats=st.integers(1, 4))
def test_bots_only_play_listed_actions(seed, seats):
    """Both bots only ever choose an action listed by ``actions`` for that seat."""
    for bot in BOTS:
        state = ENGINE.setup(seed, seats)
        while not ENGINE.finished(state):
            seats_now = ENGINE.to_act(state)
            if not seats_now:
                ENGINE.apply(state, None, {"type": "storm_moves"})
                continue
            action = BOTS[bot](state, seats_now[0])
            assert action in ENGINE.actions(state, seats_now[0])
            ENGINE.apply(state, seats_now[0], action)


def test_policy_bot_does_clearly_better_than_random():
    """Over the same storms, the cooperative bot leaves clearly less damage."""
    totals = {}
    for bot in ("random", "cooperative"):
        total = 0
        for seed in range(60):
            s = ENGINE.setup(seed, 4)
            play_out(s, bot)
            total += s["damage"]["total"]
        totals[bot] = total / 60
    assert totals["cooperative"] < 0.75 * totals["random"], totals
