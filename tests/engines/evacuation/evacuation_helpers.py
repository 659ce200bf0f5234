"""Small helpers shared by the evacuation engine tests (no database, no Django)."""

from scenarios.evacuation import ENGINE, rules


def fresh(seats=1, seed=3, **options):
    """A new game; the default seed gives seat 0 20 gallons and $900, seat 1 17 gallons and $300."""
    return ENGINE.setup(seed, seats, options or None)


def place(state, seat=0, **fields):
    """Put a seat somewhere with given tally values (unit tests start mid-game this way)."""
    s = state["seats"][seat]
    s.update(fields)
    if fields.get("pos", rules.HOME) != rules.HOME:
        s["left_home"] = True
    return s


def play(state, seat, *actions):
    """Apply actions for one seat; the events of them all."""
    events = []
    for action in actions:
        events += ENGINE.apply(state, seat, action)
    return events


def play_out(state, policies, cap=20000):
    """Play every seat with its bot until the game ends; returns the move log."""
    from scenarios.base import play_out as bots_play

    return bots_play(ENGINE, state, lambda state, seat: policies[seat](state, seat), max_moves=cap)
