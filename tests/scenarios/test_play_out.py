"""The one bot loop, ``scenarios.base.play_out``: the orders it plays seats in and where it stops
(the harnesses stop a game part-way to draw its screens)."""

from scenarios.base import play_out
from scenarios.stormfury import ENGINE
from scenarios.stormfury.bots import BOTS


def _first_round(**kwargs):
    state = ENGINE.setup(5, 4)
    ENGINE.apply(state, None, {"type": "auto_roles"})
    log = play_out(ENGINE, state, BOTS["cooperative"], until=lambda s: s["round"] >= 2, **kwargs)
    return state, log


def test_until_stops_the_game_where_it_stands():
    """The game stops at the first move after which ``until`` holds, not at its end."""
    state, log = _first_round()
    assert state["round"] == 2 and state["phase"] == "player" and not ENGINE.finished(state)
    replay = ENGINE.setup(5, 4)
    ENGINE.apply(replay, None, {"type": "auto_roles"})
    for seat, action in log[:-1]:
        ENGINE.apply(replay, seat, action)
    assert replay["round"] == 1


def test_by_default_the_seats_take_turns_move_by_move():
    """Every seat that may act moves once before any moves again."""
    _, log = _first_round()
    assert [seat for seat, _ in log[:4]] == [0, 1, 2, 3]


def test_with_first_seat_a_seat_plays_its_turn_before_the_next_begins():
    """Seat 0 plays its whole first turn (up to ending it) before seat 1 makes a move."""
    _, log = _first_round(first_seat=True)
    seat_0_ends = log.index((0, {"type": "end_turn"}))
    assert all(seat == 0 for seat, _ in log[: seat_0_ends + 1])
    assert log[seat_0_ends + 1][0] == 1
