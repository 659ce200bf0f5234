"""Table builders for the Stormfury engine tests: fixed decks, hands and storms."""

from scenarios.base import shuffled
from scenarios.stormfury import ENGINE, rules


def hand(**counts):
    """A hand holding exactly these cards, e.g. ``hand(material=2, fortify_1=1)``."""
    h = {k: 0 for k in rules.KINDS}
    h.update(counts)
    return h


def table(seats=1, roles=None, cities=None, options=None, seed=1):
    """A table past the role pick: round 1, Player Phase, everyone has drawn."""
    state = ENGINE.setup(seed, seats, options)
    roles = roles or rules.ROLE_IDS[:seats]
    cities = cities or ["new_orleans"] * seats
    for seat in range(seats):
        ENGINE.apply(state, seat, {"type": "pick_role", "role": roles[seat], "city": cities[seat]})
    return state


def stack_deck(state, cards):
    """Put ``cards`` on top of the resource deck: the first is drawn first."""
    state["deck"] = state["deck"][: max(0, len(state["deck"]) - len(cards))] + list(reversed(cards))


def force_storm(state, flips, at=None, category=None):
    """Set the storm so the Hurricane Phase flips exactly ``flips`` in that order.

    The forecast is ``flips`` plus fillers from the same deck; the storm seed is searched so the
    engine's own shuffle produces that order (no test-only code path in the engine).
    """
    storm = state["storm"]
    if at is not None:
        storm["at"] = list(at)
    if category is not None:
        storm["category"] = category
    assert len(flips) == rules.SPEED[storm["category"]]
    deck = "ocean" if rules.TERRAIN[tuple(storm["at"])] == "ocean" else "land"
    fillers = [c for c in rules.DECKS[deck] if c not in flips]
    forecast = list(flips) + fillers[: rules.FORECAST_SIZE - len(flips)]
    for seed in range(1_000_000):
        if shuffled(forecast, seed, "flip", None, state["round"])[: len(flips)] == list(flips):
            state["options"]["storm_seed"] = seed
            state["forecast"] = forecast
            return state
    raise AssertionError("no storm seed gives those flips")


def storm_moves(state):
    """The teacher's "storm moves": everyone still playing ends, the storm moves once."""
    return ENGINE.apply(state, None, {"type": "storm_moves"})


def play_out(state, bot, limit=20000):
    """Play ``state`` to the end with one bot for every seat; return the move log."""
    from scenarios.base import play_out as bots_play
    from scenarios.stormfury.bots import BOTS

    return bots_play(ENGINE, state, BOTS[bot], unblock=lambda state: {"type": "storm_moves"}, max_moves=limit)
