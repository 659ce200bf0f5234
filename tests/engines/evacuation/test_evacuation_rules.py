"""One rule of "Hurricane Approaching!" per test, with fixed dice and cards."""

import json
import re
from pathlib import Path

import pytest
from evacuation_helpers import fresh, place, play

from scenarios.base import IllegalAction, roll
from scenarios.evacuation import ENGINE, rules
from scenarios.evacuation.points import _arrival_points
from scenarios.evacuation.roads import _routes
from scenarios.evacuation.state import _add_change, _die, _draw_card
from scenarios.registry import ENGINES

DRIVE = lambda to: {"type": "drive", "to": to}  # noqa: E731


def refused(state, seat, action, code):
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, seat, action)
    assert info.value.code == code, info.value.as_dict()
    assert ENGINE.dump(state) == before, "a refused action changed the state"
    assert info.value.message
    return info.value


# --- Setup and the contract --------------------------------------------------------------------


def test_registry_and_attributes():
    """The registry hands out the engine with its key, version, schema and content hash."""
    assert ENGINES["evacuation"] is ENGINE
    assert ENGINE.key == "evacuation" and ENGINE.version and isinstance(ENGINE.schema_version, int)
    state = fresh()
    assert state["content_hash"] == ENGINE.content_hash and state["version"] == ENGINE.version
    assert state["schema"] == ENGINE.schema_version


def test_start_of_game_rolls():
    """Fuel is 10 + d10, cash $100 x d10, supplies 50, everyone at home at hour 0."""
    state = fresh(seats=4, seed=42)
    for s in state["seats"]:
        assert s["fuel"] == 10 + roll(42, "setup", s["seat"], 0)
        assert s["cash"] == 100 * roll(42, "setup", s["seat"], 1)
        assert s["supplies"] == 50 and s["pos"] == "H" and s["clock"] == 0
    assert ENGINE.to_act(state) == [0, 1, 2, 3]


def test_die_is_the_base_stream():
    """The engine's fast die gives exactly base.roll(seed, 'move', seat, n)."""
    state = fresh(seats=2, seed=9)
    s = state["seats"][1]
    assert [_die(state, s) for _ in range(30)] == [roll(9, "move", 1, n) for n in range(30)]


def test_the_board_gives_each_road_its_roll_and_odds_as_numbers():
    """A road marked 3 needs a roll of 3 or more on a d10 (0 counts as 10): 8 in 10. The board
    carries the numbers for every numbering and contraflow; the tablet writes the words, so the
    board holds no English odds sentence and never a percentage."""
    board = ENGINE.board()
    assert board["chance_in_10"]["3"] == 8 and board["chance_in_10"]["1"] == 10
    link = next(lk for lk in board["links"] if lk["black"] == 3 and not lk["bridge"])
    assert link["needs"]["black"] == 3
    text = json.dumps(board["links"])
    assert "%" not in text and "needs" not in text.replace('"needs"', "") and " in 10" not in text


def test_no_django_under_engines():
    """Engines import nothing from Django (or any web layer). The scenario's folder also holds its
    debrief part, which may use Django's templates: the engine is ``__init__``, rules and the
    modules it gathers, and bots."""
    root = Path(rules.__file__).parent
    engine = ["__init__", "rules", "tables", "roads", "state", "moves", "points", "screens", "bots"]
    for path in [*(root / f"{name}.py" for name in engine), root.parent / "base.py"]:
        assert not re.search(r"^\s*(from|import)\s+(django|channels|celery)", path.read_text(), re.M), path


def test_options_listed_and_validated():
    """Options carry name, default, choices and description; unknown values are refused."""
    names = {o["name"] for o in ENGINE.options()}
    assert {"destination_points", "bank_scoring", "race_points", "timeline", "reasons"} <= names
    for option in ENGINE.options():
        assert option["default"] in option["choices"] and option["description"]
    with pytest.raises(IllegalAction):
        ENGINE.setup(1, 4, {"destination_points": "nope"})


# --- Travel ------------------------------------------------------------------------------------


def test_each_link_costs_a_gallon_and_thirty_minutes():
    """Passing a link uses 1 gallon and 30 minutes; the move goes on to the target."""
    state = fresh()
    rules.force(state, 0, dice=[10, 10, 10])
    events = play(state, 0, DRIVE("BK"))
    s = state["seats"][0]
    assert s["pos"] == "BK" and s["clock"] == 90 and s["fuel"] == 17
    assert [e["to"] for e in events if e["type"] == "moved"] == ["N1", "N3", "BK"]


def test_roll_must_reach_the_black_number():
    """H-N2 is black 2: a 2 passes, a 1 fails (30 minutes, no fuel, the move stops)."""
    state = fresh(timeline="off")
    place(state, 0, pos="N1")
    rules.force(state, 0, dice=[1])
    events = play(state, 0, DRIVE("N3"))  # N1-N3 is black 2
    s = state["seats"][0]
    assert s["pos"] == "N1" and s["clock"] == 30 and s["fuel"] == 20
    assert events[0]["type"] == "stuck" and events[0]["needs"] == 2
    rules.force(state, 0, dice=[2])
    play(state, 0, DRIVE("N3"))
    assert s["pos"] == "N3" and s["clock"] == 60 and s["fuel"] == 19


def test_zero_counts_as_ten():
    """The die is 1..10: a 0 face counts as 10 and always passes."""
    values = {roll(1, "move", 0, n) for n in range(500)}
    assert values == set(range(1, 11))


def test_red_numbers_after_a_card():
    """Once the system says red, links need the red number (N1-N3: red 4)."""
    state = fresh(timeline="off")
    place(state, 0, pos="N1")
    _add_change(state, 0, "numbers", "red", "C03", None)
    rules.force(state, 0, dice=[3])
    play(state, 0, DRIVE("N3"))
    assert state["seats"][0]["pos"] == "N1"
    rules.force(state, 0, dice=[4])
    play(state, 0, DRIVE("N3"))
    assert state["seats"][0]["pos"] == "N3"


def test_open_bridge_needs_no_roll_and_closed_bridge_blocks():
    """An open bridge is crossed without rolling; a closed one cannot be used."""
    state = fresh(timeline="off")
    place(state, 0, pos="N18")
    events = play(state, 0, DRIVE("N21"))  # no dice forced: none may be drawn
    assert state["seats"][0]["pos"] == "N21" and events[0]["roll"] is None
    assert state["seats"][0]["dice"] == 0
    state = fresh(timeline="off")
    place(state, 0, pos="N18")
    for bridge in ("west", "bay", "east"):
        _add_change(state, 0, "bridge." + bridge, False, "C14", None)
    refused(state, 0, DRIVE("N21"), "no_route")


def test_contraflow_lowers_numbers_and_blocks_the_way_home():
    """With contraflow, contraflow roads need 2 less, and cannot be driven toward home."""
    state = fresh(timeline="off")
    place(state, 0, pos="N11")
    _add_change(state, 0, "contraflow", True, "C01", None)
    rules.force(state, 0, dice=[2])  # N11-N18 is black 4, 2 with contraflow
    play(state, 0, DRIVE("N18"))
    assert state["seats"][0]["pos"] == "N18"
    refused(state, 0, DRIVE("N11"), "no_route")


def test_activity_on_the_way_ends_the_move():
    """Reaching an activity location ends the move even if the target is farther."""
    state = fresh(timeline="off")
    place(state, 0, pos="N3")
    rules.force(state, 0, dice=[10] * 5)
    play(state, 0, DRIVE("N4"))  # the road goes through the gas station
    assert state["seats"][0]["pos"] == "GS"


def test_chance_node_draws_a_card_and_stop_cards_stop():
    """Landing on a chance node draws a card; a 'stop' card ends the move there."""
    state = fresh(timeline="off")
    rules.force(state, 0, dice=[10] * 5, cards=["C26"])  # flat tire: 1 hour, stop
    events = play(state, 0, DRIVE("N11"))  # H-N2 (chance)-N11
    s = state["seats"][0]
    assert s["pos"] == "N2" and s["clock"] == 30 + 60
    assert any(e["type"] == "card" and e["card"] == "C26" for e in events)
    assert ENGINE.view(state, 0)["last_card"] == {"id": "C26", "hour": 0.5}


def test_non_stop_card_lets_the_move_go_on():
    state = fresh(timeline="off")
    rules.force(state, 0, dice=[10] * 5, cards=["C35"])
    play(state, 0, DRIVE("N11"))
    assert state["seats"][0]["pos"] == "N11"


def test_system_change_reaches_each_seat_at_that_hour_of_its_own_clock():
    """A card drawn at hour 5 by one seat changes the roads for another seat from its hour 5."""
    state = fresh(seats=2, timeline="off")
    place(state, 0, pos="N1", clock=300)
    rules.force(state, 0, dice=[10], cards=["C03"])  # gridlock: red numbers
    place(state, 0, pos="H", clock=300)
    play(state, 0, DRIVE("N2"))  # draws at minute 330
    stamp = next(c for c in state["changes"] if c[2] == "numbers")[0]
    assert stamp == 330
    assert rules.system_at(state, 329)["numbers"] == "black"
    assert rules.system_at(state, 330)["numbers"] == "red"
    assert ENGINE.view(state, 1)["system"]["numbers"] == "black"  # seat 1 is still at hour 0
    state["seats"][1]["clock"] = 330
    assert ENGINE.view(state, 1)["system"]["numbers"] == "red"


def test_warning_timeline():
    """Hour 0 watch, hour 12 warning, contraflow at 14, red 16-30, bridges shut by 44, TS at 48."""
    state = fresh()
    items = ENGINE.board()["timeline"]
    marks = {
        items[i]["mark"]: items[i]["minute"] for i in ENGINE.view(state, 0)["timeline"]["shown"] if items[i].get("mark")
    }
    assert marks == {"watch": 0, "warning": 720, "ts_winds": 2880}
    assert not rules.system_at(state, 839)["contraflow"] and rules.system_at(state, 840)["contraflow"]
    assert rules.system_at(state, 1000)["numbers"] == "red" and rules.system_at(state, 1800)["numbers"] == "black"
    assert not any(rules.system_at(state, 2640)["bridge." + b] for b in ("west", "bay", "east"))
    assert rules.system_at(fresh(timeline="off"), 2879)["bridge.east"]


# --- Fuel --------------------------------------------------------------------------------------


def test_cannot_drive_on_an_empty_tank():
    state = fresh()
    place(state, 0, pos="N7", fuel=0)
    error = refused(state, 0, DRIVE("N12"), "not_enough_fuel")
    assert error.params == {"need": 1, "have": 0}


def test_running_dry_mid_drive_stops_the_move():
    state = fresh(timeline="off")
    place(state, 0, fuel=1)
    rules.force(state, 0, dice=[10] * 5)
    events = play(state, 0, DRIVE("BK"))
    assert state["seats"][0]["pos"] == "N1" and events[-1]["type"] == "out_of_fuel"


def test_tow_costs_500_and_the_next_fill_is_double():
    """A tow: $500, 1 hour, to the nearest gas station, next fill at twice the price."""
    state = fresh(timeline="off")
    s = place(state, 0, pos="N7", fuel=0, cash=900)
    play(state, 0, {"type": "tow"})
    assert s["pos"] == "GS" and s["cash"] == 400 and s["clock"] == 60 and s["tow_price"]
    play(state, 0, {"type": "buy_fuel", "gallons": 10})
    assert s["cash"] == 400 - 10 * 5 * 2 and not s["tow_price"]
    refused(state, 0, {"type": "tow"}, "not_empty")


def test_tow_can_leave_cash_negative():
    state = fresh(timeline="off")
    s = place(state, 0, pos="N7", fuel=0, cash=100)
    play(state, 0, {"type": "tow"})
    assert s["cash"] == -400


def test_gas_station_fills_to_twenty_at_the_current_price():
    state = fresh(timeline="off")
    s = place(state, 0, pos="GS", fuel=12, cash=900)
    refused(state, 0, {"type": "buy_fuel", "gallons": 9}, "tank_full")
    play(state, 0, {"type": "buy_fuel", "gallons": 8})
    assert s["fuel"] == 20 and s["cash"] == 860 and s["clock"] == 30


def test_fuel_limit_and_price_follow_the_system():
    state = fresh(timeline="off")
    s = place(state, 0, pos="GS", fuel=2, cash=900)
    _add_change(state, 0, "fuel_limit", 5, "C10", None)
    _add_change(state, 0, "fuel_price", 8, "C07", None)
    refused(state, 0, {"type": "buy_fuel", "gallons": 6}, "fuel_limit")
    play(state, 0, {"type": "buy_fuel", "gallons": 5})
    assert s["cash"] == 900 - 40


def test_fuel_elsewhere_costs_three_times():
    state = fresh(timeline="off")
    s = place(state, 0, pos="BK", fuel=10, cash=900)
    play(state, 0, {"type": "buy_fuel", "gallons": 2})
    assert s["cash"] == 900 - 2 * 15
    place(state, 0, pos="N7")
    refused(state, 0, {"type": "buy_fuel", "gallons": 2}, "wrong_place")


def test_not_enough_cash_for_fuel():
    state = fresh(timeline="off")
    place(state, 0, pos="GS", fuel=0, cash=20)
    error = refused(state, 0, {"type": "buy_fuel", "gallons": 5}, "not_enough_cash")
    assert error.params == {"need": 25, "have": 20, "gallons": 5}


# --- Store, bank, home supplies, friends -------------------------------------------------------


def test_supplies_in_25s_and_both_at_one_stop_costs_the_next_turn():
    state = fresh(timeline="off")
    s = place(state, 0, pos="GS", fuel=10, cash=900)
    refused(state, 0, {"type": "buy_supplies", "units": 10}, "bad_amount")
    play(state, 0, {"type": "buy_supplies", "units": 25})
    assert s["supplies"] == 75 and s["cash"] == 650 and s["clock"] == 30
    events = play(state, 0, {"type": "buy_fuel", "gallons": 10})
    assert any(e["type"] == "lost_turn" for e in events)
    assert s["clock"] == 30 + 30 + 60
    play(state, 0, {"type": "buy_supplies", "units": 25})  # a third purchase: no second penalty
    assert s["clock"] == 150


def test_bank_2000_a_trip_4000_in_all():
    state = fresh(timeline="off")
    s = place(state, 0, pos="BK", cash=100)
    refused(state, 0, {"type": "withdraw", "amount": 2500}, "bad_amount")
    play(state, 0, {"type": "withdraw", "amount": 2000})
    assert s["cash"] == 2100 and s["clock"] == 30
    refused(state, 0, {"type": "withdraw", "amount": 500}, "bank_trip_used")
    rules.force(state, 0, dice=[10, 10])
    play(state, 0, DRIVE("N7"), DRIVE("BK"))
    play(state, 0, {"type": "withdraw", "amount": 2000})
    assert s["withdrawn"] == 4000
    rules.force(state, 0, dice=[10, 10])
    play(state, 0, DRIVE("N7"), DRIVE("BK"))
    refused(state, 0, {"type": "withdraw", "amount": 500}, "bank_limit")


def test_home_supplies_must_be_put_up_at_home():
    """Home supplies cost $500; leaving for a destination is refused until home is secured."""
    state = fresh(timeline="off")
    s = place(state, 0, pos="HS", cash=400, destination="shelter")
    refused(state, 0, {"type": "buy_home_supplies"}, "not_enough_cash")
    s["cash"] = 900
    play(state, 0, {"type": "buy_home_supplies"})
    assert s["cash"] == 400 and s["home_supplies"] and s["clock"] == 60
    refused(state, 0, DRIVE("SH"), "secure_home_first")
    rules.force(state, 0, dice=[10] * 10, cards=["C35"] * 3)
    play(state, 0, DRIVE("H"))
    assert s["pos"] == "GS" and s["clock"] == 120  # HS-N4-GS: the gas station ends the move
    play(state, 0, DRIVE("H"))
    assert s["pos"] == "H" and s["secured"] and not s["home_supplies"]
    assert s["clock"] == 120 + 2 * 30 + 120  # GS-N1-H, then two hours putting up shutters
    play(state, 0, {"type": "stay_home"})


def test_friends_pay_half_gas_and_accommodation_and_double_supplies():
    state = fresh(timeline="off")
    s = place(state, 0, pos="FR", fuel=10, cash=900)
    play(state, 0, {"type": "pick_up_friends"})
    assert s["friends"] and s["clock"] == 60
    play(state, 0, {"type": "buy_fuel", "gallons": 2})  # 3x elsewhere, half paid by friends
    assert s["cash"] == 900 - 15
    rules.force(state, 0, dice=[10] * 3, cards=["C22"])  # hot car: 10 supplies, doubled
    play(state, 0, DRIVE("N14"))
    assert s["supplies"] == 30


def test_tired_driver_rests_unless_friends_drive():
    for friends, clock in ((False, 30 + 120), (True, 30)):
        state = fresh(timeline="off")
        s = place(state, 0, friends=friends)
        rules.force(state, 0, dice=[10], cards=["C24"])
        play(state, 0, DRIVE("N2"))
        assert s["clock"] == clock


def test_cash_only_card_costs_time_without_cash():
    for cash, clock, after in ((500, 30, 400), (50, 150, 50)):
        state = fresh(timeline="off")
        s = place(state, 0, cash=cash)
        rules.force(state, 0, dice=[10, 10], cards=["C27"])
        play(state, 0, DRIVE("N11"))
        assert (s["clock"], s["cash"]) == (clock + 30, after)


def test_card_sending_home_means_no_damage():
    state = fresh(timeline="off")
    rules.force(state, 0, dice=[10], cards=["C21"], damage=10)
    play(state, 0, DRIVE("N2"))
    s = state["seats"][0]
    assert s["pos"] == "H" and s["card_home"]
    play(state, 0, {"type": "stay_home"})
    assert ENGINE.results(state)[0]["breakdown"]["cash"]["home_damage"] == 0


def test_going_back_home_drives_the_open_roads_for_time_and_fuel():
    """ "Go back HOME" from Route 1 junction: N12-N7-N2-H, three links of 30 minutes and a
    gallon each, without dice, and the move ends at home."""
    state = fresh(timeline="off")
    s = place(state, 0, pos="N7", fuel=10)
    rules.force(state, 0, dice=[10], cards=["C20"])
    events = play(state, 0, DRIVE("N12"))
    assert [e["to"] for e in events if e["type"] == "drove_back"] == ["N7", "N2", "H"]
    assert (s["pos"], s["clock"], s["fuel"], s["card_home"]) == ("H", 30 + 3 * 30, 10 - 1 - 3, True)
    assert s["dice"] == 0, "the way home rolled dice"


def test_going_back_home_never_crosses_a_closed_bridge_or_contraflow():
    """On the mainland with the bridges closed, or with contraflow on, no road leads home:
    the family stays where the card found it, and its home is rolled for damage as usual."""
    for change in ({"bridge.west": False, "bridge.bay": False, "bridge.east": False}, {"contraflow": True}):
        state = fresh(timeline="off")
        for field, value in change.items():
            _add_change(state, 0, field, value, "test", None)
        s = place(state, 0, pos="N19", fuel=10)
        rules.force(state, 0, dice=[10], cards=["C21"])
        events = play(state, 0, DRIVE("N22"))
        assert events[-1]["type"] == "no_way_home"
        assert (s["pos"], s["clock"], s["fuel"], s["card_home"]) == ("N22", 30, 9, False)


def test_going_back_home_stops_when_the_tank_runs_dry():
    state = fresh(timeline="off")
    s = place(state, 0, pos="N7", fuel=2)
    rules.force(state, 0, dice=[10], cards=["C20"])
    events = play(state, 0, DRIVE("N12"))
    assert events[-1]["type"] == "out_of_fuel"
    assert (s["pos"], s["fuel"], s["card_home"]) == ("N7", 0, False)


def test_a_friend_at_the_wheel_keeps_the_car_moving():
    """ "Long night" stops a tired driver for 2 hours; with friends one of them drives on."""
    for friends, pos, clock in ((False, "N2", 30 + 120), (True, "N7", 60)):
        state = fresh(timeline="off")
        s = place(state, 0, friends=friends)
        rules.force(state, 0, dice=[10, 10], cards=["C24"])
        play(state, 0, DRIVE("N7"))
        assert (s["pos"], s["clock"]) == (pos, clock)


def test_double_fuel_price_only_at_the_station_the_tow_reached():
    state = fresh(timeline="off")
    s = place(state, 0, pos="TS", fuel=0, cash=400, tow_price="GS")
    play(state, 0, {"type": "buy_fuel", "gallons": 10})
    assert s["cash"] == 400 - 10 * 5


# --- Destinations, arrival, end ----------------------------------------------------------------


def test_destination_must_be_chosen_and_open():
    state = fresh(timeline="off")
    place(state, 0, pos="N10")
    refused(state, 0, DRIVE("SH"), "choose_destination_first")
    _add_change(state, 0, "destination.hotel", False, "C18", None)
    refused(state, 0, {"type": "set_destination", "destination": "hotel"}, "destination_closed")
    play(state, 0, {"type": "set_destination", "destination": "shelter"})
    rules.force(state, 0, dice=[10])
    play(state, 0, DRIVE("SH"))
    s = state["seats"][0]
    assert s["status"] == "arrived" and s["arrived_at"] == 30
    refused(state, 0, {"type": "wait"}, "not_playing")


def test_short_supplies_on_arrival_are_bought_at_three_times():
    state = fresh(timeline="off")
    s = place(state, 0, pos="N10", supplies=2, cash=100, destination="shelter")
    rules.force(state, 0, dice=[10])
    events = play(state, 0, DRIVE("SH"))
    assert s["supplies"] == 5 and s["cash"] == 100 - 3 * 10 * 3 and s["short"] == 3
    assert any(e["type"] == "supplies_short" for e in events)


def test_clock_stops_at_48_hours():
    state = fresh(timeline="off")
    s = place(state, 0, pos="N7", clock=2850)
    play(state, 0, {"type": "wait"})
    assert s["clock"] == 2880 and s["status"] == "out_of_time" and ENGINE.finished(state)
    row = ENGINE.results(state)[0]
    assert row["breakdown"]["points"]["destination"] == 0 and row["breakdown"]["points"]["in_time"] == 0
    assert row["breakdown"]["safety"]["outcome"] == "caught on the road"


def test_stay_home_is_a_choice_with_its_consequence():
    state = fresh(seats=2)
    play(state, 0, {"type": "stay_home"})
    assert state["seats"][0]["status"] == "stayed" and ENGINE.to_act(state) == [1]
    place(state, 1, pos="N1")
    refused(state, 1, {"type": "stay_home"}, "not_home")
    assert "stay_home" in ENGINE.board()["consequences"]


def test_wait_costs_an_hour():
    state = fresh()
    play(state, 0, {"type": "wait"})
    assert state["seats"][0]["clock"] == 60 and state["seats"][0]["pos"] == "H"


def test_arrival_ties_split_the_points():
    state = fresh(seats=4, timeline="off")
    for seat, at in enumerate((100, 100, 200, 300)):
        place(state, seat, status="arrived", arrived_at=at, destination="shelter", pos="SH")
    points = _arrival_points(state)
    assert points == {0: 25, 1: 25, 2: 10, 3: 0}
    for seat, at in enumerate((100, 200, 200, 200)):
        state["seats"][seat]["arrived_at"] = at
    assert _arrival_points(state) == {0: 30, 1: 10, 2: 10, 3: 10}


def test_damage_roll_minus_five_when_secured():
    for secured, die, damage in ((False, 7, 3500), (True, 7, 1000), (True, 3, 0)):
        state = fresh()
        state["seats"][0]["secured"] = secured
        rules.force(state, 0, damage=die)
        play(state, 0, {"type": "stay_home"})
        assert ENGINE.results(state)[0]["breakdown"]["cash"]["home_damage"] == damage


def test_destination_points_option():
    for option, points in (("scoring", 25), ("table", 50)):
        state = fresh(destination_points=option)
        place(state, 0, status="arrived", arrived_at=600, destination="relative", pos="RE")
        rules.force(state, 0, damage=1)
        ENGINE.apply(state, None, {"type": "end_now"})
        assert ENGINE.results(state)[0]["breakdown"]["points"]["destination"] == points


def test_bank_scoring_option():
    """'net' does not score withdrawn savings; 'book' does."""
    scores = {}
    for option in ("net", "book"):
        state = fresh(bank_scoring=option)
        place(state, 0, withdrawn=4000, cash=4900)
        rules.force(state, 0, damage=1)
        play(state, 0, {"type": "stay_home"})
        scores[option] = ENGINE.results(state)[0]["score"]
    assert scores["book"] - scores["net"] == 40


# --- Reasons and the teacher -------------------------------------------------------------------


def test_reason_prompt_after_leaving_and_choosing():
    state = fresh()
    refused(state, 0, {"type": "reason", "about": "leave", "choice": "traffic"}, "no_question")
    play(state, 0, {"type": "set_destination", "destination": "hotel"})
    view = ENGINE.view(state, 0)
    assert view["reason_prompt"] == {"about": "destination", "choices": ["cost", "safe", "close", "family", "skip"]}
    play(state, 0, {"type": "reason", "about": "destination", "choice": "close"})
    assert state["seats"][0]["reasons"] == {"destination": "close"}
    rules.force(state, 0, dice=[10])
    play(state, 0, DRIVE("N1"))
    assert ENGINE.view(state, 0)["reason_prompt"]["about"] == "leave"
    refused(state, 0, {"type": "reason", "about": "leave", "choice": "because"}, "bad_choice")
    rules.force(state, 0, dice=[10])
    play(state, 0, DRIVE("N3"))  # any other action clears the prompt
    assert ENGINE.view(state, 0)["reason_prompt"] is None
    assert "leave" not in state["seats"][0]["reasons"]


def test_teacher_skip_and_end_now():
    state = fresh(seats=2)
    ENGINE.apply(state, None, {"type": "skip", "seat": 1})
    assert state["seats"][1]["clock"] == 30
    refused(state, None, {"type": "skip", "seat": 7}, "no_such_seat")
    refused(state, None, {"type": "shuffle"}, "unknown_action")
    ENGINE.apply(state, None, {"type": "end_now"})
    assert ENGINE.finished(state) and ENGINE.to_act(state) == []
    rows = ENGINE.results(state)
    assert all(r["breakdown"]["safety"]["outcome"] == "stayed home" for r in rows)
    refused(state, None, {"type": "end_now"}, "game_over")


def test_unknown_and_malformed_actions_are_refused():
    state = fresh()
    refused(state, 0, {"type": "fly"}, "unknown_action")
    refused(state, 0, {"kind": "drive"}, "bad_action")
    refused(state, 0, DRIVE(["H"]), "no_such_place")
    refused(state, 0, DRIVE("H"), "already_there")
    refused(state, 0, {"type": "buy_fuel", "gallons": True}, "wrong_place")
    refused(state, 5, {"type": "wait"}, "no_such_seat")


# --- Board and view ----------------------------------------------------------------------------


def test_board_content():
    board = ENGINE.board()
    assert 30 <= len(board["nodes"]) <= 45
    kinds = {n["kind"] for n in board["nodes"]}
    assert kinds == {"home", "destination", "activity", "chance", "free"}
    assert all(0 <= n["x"] <= 1000 and 0 <= n["y"] <= 1000 for n in board["nodes"])
    assert sum(1 for lk in board["links"] if lk["bridge"]) == 3
    assert len(board["cards"]) >= 30
    assert sum(1 for c in board["cards"] if c["basis"]) >= 30
    ids = {n["id"] for n in board["nodes"]}
    assert all(lk["a"] in ids and lk["b"] in ids for lk in board["links"])
    json.dumps(board)


def test_every_node_reachable_from_home():
    state = fresh(timeline="off")
    config = rules.system_at(state, 0)["config"]
    for node in rules.NODE_IDS:
        if node != "H":
            assert "H" in _routes(config, node), node


def test_view_keys():
    state = fresh(seats=2)
    view = ENGINE.view(state, 0)
    for key in (
        "tally",
        "position",
        "clock",
        "timeline",
        "system",
        "last_card",
        "feed",
        "actions",
        "reason_prompt",
        "roads",
        "status",
    ):
        assert key in view
    teacher = ENGINE.view(state, None)
    assert len(teacher["tables"]) == 2 and "actions" not in teacher["tables"][0]
    json.dumps(view), json.dumps(teacher)


def test_the_teachers_households_are_small():
    """The dashboard gets every household after every move: its state and last few events, not
    the tablet's road choices or timeline."""
    state = fresh(seats=2)
    for _ in range(12):
        ENGINE.apply(state, 0, {"type": "wait"})
    household = ENGINE.view(state, None)["tables"][0]
    assert {"tally", "position", "hour", "status", "feed"} <= household.keys()
    assert not {"roads", "timeline", "actions", "last_card"} & household.keys()
    assert len(household["feed"]) == rules.TEACHER_FEED
    assert household["feed"] == ENGINE.view(state, 0)["feed"][-rules.TEACHER_FEED :]


def test_actions_listed_are_all_legal():
    state = fresh(seats=1)
    place(state, 0, pos="GS", fuel=3)
    for action in ENGINE.actions(state, 0):
        assert rules.legal(state, 0, action), action


def test_race_points_option():
    """Arrival order gives 30 (book), 15 (half) or 0 (off); by the clock (default), arriving at
    hour 10 gives 15; in time always gives 20."""
    assert rules.OPTION_DEFAULTS["race_points"] == "clock"
    for option, order in (("on", 30), ("half", 15), ("off", 0), ("clock", 15)):
        state = fresh(race_points=option)
        place(state, 0, status="arrived", arrived_at=600, destination="shelter", pos="SH")
        rules.force(state, 0, damage=1)
        ENGINE.apply(state, None, {"type": "end_now"})
        points = ENGINE.results(state)[0]["breakdown"]["points"]
        assert (points["arrival_order"], points["in_time"]) == (order, 20)


def test_points_by_the_clock_count_the_hours_before_the_winds_not_the_other_households():
    """``race_points="clock"``: 15 by hour 24, 10 by hour 30, 5 by hour 36, none later, and
    the household arriving second scores by its own hour, not by its place at the table."""
    for minute, early in ((600, 15), (1440, 15), (1441, 10), (1800, 10), (2100, 5), (2160, 5), (2400, 0)):
        state = fresh(seats=2, race_points="clock")
        for seat in (0, 1):  # seat 0 half an hour ahead of seat 1
            place(state, seat, status="arrived", arrived_at=minute - 30 + 30 * seat, destination="shelter", pos="SH")
            rules.force(state, seat, damage=1)
        ENGINE.apply(state, None, {"type": "end_now"})
        points = ENGINE.results(state)[1]["breakdown"]["points"]
        assert points["arrival_order"] == early, minute


def test_deck_is_the_base_shuffle():
    """Each seat's deck is base.shuffled(cards, seed, 'deck', seat, pass), reshuffled after 36."""
    from scenarios.base import shuffled

    state = fresh(seats=2, seed=21)
    s = state["seats"][1]
    drawn = [_draw_card(state, s) for _ in range(2 * len(rules.CARD_IDS))]
    n = len(rules.CARD_IDS)
    assert drawn[:n] == shuffled(rules.CARD_IDS, 21, "deck", 1, 0)
    assert drawn[n:] == shuffled(rules.CARD_IDS, 21, "deck", 1, 1)
