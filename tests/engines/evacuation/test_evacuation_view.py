"""The numbers a seat's view shows are the ones the rules charge and require.

The tablet computes no rule: it shows prices, costs, the roll a road needs and its odds, the
phase of the warning timeline and whether a household has left home from the view and the
board. These tests hold the view to what ``apply`` and ``results`` then do.
"""

import pytest
from evacuation_helpers import fresh, place, play

from scenarios.evacuation import ENGINE, rules
from scenarios.evacuation.bots import BOTS
from scenarios.evacuation.roads import _config
from scenarios.evacuation.screens import _links_view
from scenarios.evacuation.state import _add_change

COSTED = {"buy_fuel": "gallons", "buy_supplies": "units", "tow": None, "buy_home_supplies": None}


def charged(state, seat, action):
    """The dollars ``action`` takes from the seat's cash when applied (on a copy)."""
    copy = ENGINE.load(ENGINE.dump(state))
    before = copy["seats"][seat]["cash"]
    ENGINE.apply(copy, seat, action)
    return before - copy["seats"][seat]["cash"]


def shown_cost(view, action):
    param = COSTED[action["type"]]
    cost = view["costs"][action["type"]]
    return cost if param is None else cost[str(action[param])]


def check_costs(state, seat):
    """Every costed action the seat is offered costs what its view says; returns how many."""
    view = ENGINE.view(state, seat)
    checked = 0
    for action in view["actions"]:
        if action["type"] in COSTED:
            assert charged(state, seat, action) == shown_cost(view, action), (action, view["costs"])
            checked += 1
        if action["type"] == "buy_fuel" and not view["tally"]["friends"]:
            assert charged(state, seat, action) == view["fuel_price_here"] * action["gallons"]
    return checked


@pytest.mark.parametrize("friends", [False, True])
@pytest.mark.parametrize("tow_price", [False, True])
@pytest.mark.parametrize("where", ["GS", "TS", "BK", "HS", "FR"])
def test_a_fill_up_costs_what_the_view_says_at_every_kind_of_stop(where, friends, tow_price):
    """At a gas station (after a tow: double price) or at the bank, the home supply store and the
    friends' house (three times the price), with friends sharing the bill or not, every fuel
    amount offered costs what the view shows, and the price a gallon is the view's."""
    state = fresh(seed=3)
    place(state, pos=where, fuel=2, cash=2000, friends=friends, tow_price=tow_price)
    view = ENGINE.view(state, 0)
    assert view["costs"]["buy_fuel"], view["actions"]
    assert check_costs(state, 0) >= len(view["costs"]["buy_fuel"])


def test_a_tow_and_home_supplies_cost_what_the_view_says():
    """The tow truck and the shutters are charged at the price on their buttons."""
    state = fresh(seed=3)
    place(state, pos="N11", fuel=0, cash=900)
    assert check_costs(state, 0) == 1 and "tow" in ENGINE.view(state, 0)["costs"]
    state = fresh(seed=3)
    place(state, pos="HS", cash=900)
    assert "buy_home_supplies" in ENGINE.view(state, 0)["costs"]
    assert check_costs(state, 0) >= 1


@pytest.mark.parametrize("friends", [False, True])
def test_a_destination_costs_on_arrival_what_its_button_says(friends):
    """The stay the view quotes for each destination is what the results charge when the
    household arrives there (half with friends in the car)."""
    state = fresh(seats=2, seed=3)
    place(state, pos="N11", friends=friends)
    quotes = ENGINE.view(state, 0)["costs"]["set_destination"]
    assert set(quotes) == set(rules.DESTINATIONS)
    for dest, quote in quotes.items():
        arrived = ENGINE.load(ENGINE.dump(state))
        place(arrived, destination=dest, status="arrived", arrived_at=arrived["seats"][0]["clock"])
        assert rules.results(arrived)[0]["breakdown"]["cash"]["accommodation"] == quote


@pytest.mark.parametrize("seed", range(12))
def test_in_whole_games_every_cost_shown_is_the_cost_charged(seed):
    """Bots play whole games; at every stop every costed choice is charged as shown."""
    state = ENGINE.setup(seed, 4)
    policies = [BOTS[name] for name in ("cautious", "random", "bank_farming", "last_minute")]
    checked = 0
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            checked += check_costs(state, seat)
            ENGINE.apply(state, seat, policies[seat](state, seat))
    assert checked


def test_the_board_lists_the_roll_each_road_needs_in_every_state_of_the_system():
    """The view names the column of the board's needs that applies; it is the rule's threshold."""
    board = ENGINE.board()
    for numbers in ("black", "red"):
        for contraflow in (False, True):
            system = {**rules.BASE_SYSTEM, "numbers": numbers, "contraflow": contraflow}
            column = _links_view({**system, "config": _config(system)})["needs"]
            for link, shown in zip(rules.LINKS, board["links"]):
                assert shown["needs"][column] == rules.threshold(link, system)


@pytest.mark.parametrize("seed", range(12))
def test_the_first_road_of_a_drive_needs_the_roll_the_view_showed(seed):
    """Over whole games, the first road of every drive needs exactly the roll the map showed
    for it, and a road the view listed as closed is never driven."""
    board = {link["id"]: link for link in ENGINE.board()["links"]}
    state = ENGINE.setup(seed, 3, {"timeline": "on"})
    policies = [BOTS[name] for name in ("cautious", "last_minute", "random")]
    seen = 0
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            view = ENGINE.view(state, seat)
            action = policies[seat](state, seat)
            events = ENGINE.apply(state, seat, action)
            roads = [e for e in events if e["type"] in ("moved", "stuck")]
            if roads and roads[0]["needs"] is not None:
                assert board[roads[0]["link"]]["needs"][view["links"]["needs"]] == roads[0]["needs"]
                seen += 1
            if roads:
                assert roads[0]["link"] not in view["links"]["closed"]
    assert seen


def test_the_odds_shown_for_a_road_are_the_faces_of_the_die_that_pass():
    """ "needs 3+ (8 in 10)": of the ten faces the engine's die can show, as many get through as
    the board's chance_in_10 says."""
    chance = ENGINE.board()["chance_in_10"]
    start = fresh(seed=3)
    view = ENGINE.view(start, 0)
    road = next(r for r in view["roads"] if r["open"] and r["needs"] is not None)
    passes = 0
    for face in range(1, 11):
        state = ENGINE.load(ENGINE.dump(start))
        rules.force(state, 0, dice=[face])
        events = ENGINE.apply(state, 0, {"type": "drive", "to": road["to"]})
        passes += any(e["type"] == "moved" for e in events)
    assert passes == chance[str(road["needs"])]


@pytest.mark.parametrize("seed", [7, 23])
def test_a_feed_line_carries_what_its_sentence_shows_as_ids_and_numbers(seed):
    """The tablet writes each feed line in its own words from the line alone: it carries the
    numbers the report's sentence of the same event shows and the id of the place, card or
    destination that sentence names, and no words."""
    named = {"place": ("to", "destination"), "title": ("card",)}
    policies = [BOTS[name] for name in ("cautious", "last_minute", "bank_farming", "random")]
    state = ENGINE.setup(seed, 4)
    seen = set()
    while not ENGINE.finished(state):
        seat = ENGINE.to_act(state)[0]
        ENGINE.apply(state, seat, policies[seat](state, seat))
        for line, event in zip(ENGINE.view(state, seat)["feed"], state["seats"][seat]["feed"], strict=True):
            assert line["hour"] == event["minute"] / 60 and line["type"] == event["type"]
            for name, value in rules.say(event)["params"].items():
                if name in named:
                    assert any(line.get(key) == event.get(key) is not None for key in named[name]), (name, line)
                else:
                    assert line[name] == value, (name, line)
            assert not {"text", "say"} & line.keys()
            seen.add(line["type"])
    assert {"moved", "stuck", "card", "arrived", "withdrew", "bought_fuel", "destination", "towed"} <= seen


def test_closed_and_one_way_roads_match_the_roads_from_here():
    """A road the map draws closed is closed from here; one drawn one-way (contraflow) is open
    only away from the coast."""
    state = fresh(seed=3)
    _add_change(state, 0, "bridge.west", False, "test", None)
    _add_change(state, 0, "contraflow", True, "test", None)
    for node in rules.NODE_IDS:
        place(state, pos=node)
        view = ENGINE.view(state, 0)
        closed, one_way = set(view["links"]["closed"]), set(view["links"]["one_way"])
        assert closed and one_way
        for road in view["roads"]:
            if road["link"] in closed:
                assert not road["open"]
            elif road["link"] not in one_way:
                assert road["open"]


def test_leaving_home_phase_and_hours_left_come_in_the_view():
    """The tally says whether the household has left home (a card sending it back does not
    undo that); the phase and the time left follow the warning timeline's marks."""
    state = fresh(seed=3)
    view = ENGINE.view(state, 0)
    assert view["tally"]["left_home"] is False and view["phase"] == "watch"
    assert view["minutes_left"] == rules.END
    while state["seats"][0]["clock"] < 12 * 60:
        play(state, 0, {"type": "wait"})
    view = ENGINE.view(state, 0)
    assert view["phase"] == "warning" and view["minutes_left"] == rules.END - state["seats"][0]["clock"]
    rules.force(state, 0, dice=[10] * 5)
    play(state, 0, {"type": "drive", "to": "BK"})
    assert ENGINE.view(state, 0)["tally"]["left_home"] is True
    place(state, pos=rules.HOME)
    assert ENGINE.view(state, 0)["tally"]["left_home"] is True


def test_supplies_short_is_what_arriving_would_make_the_household_buy():
    """The tally's shortfall is the number of supplies bought (at three times the price) on
    arrival."""
    state = fresh(seats=2, seed=3)
    dest_node = rules.DEST_NODE["shelter"]
    neighbour, li, _ = next(n for n in rules.ADJ[dest_node] if rules.LINKS[n[1]]["bridge"] is None)
    place(state, pos=neighbour, destination="shelter", supplies=1, fuel=5)
    short = ENGINE.view(state, 0)["tally"]["supplies_short"]
    assert short == rules.MIN_SUPPLIES - 1
    rules.force(state, 0, dice=[10])
    events = play(state, 0, {"type": "drive", "to": dest_node})
    assert [e["short"] for e in events if e["type"] == "supplies_short"] == [short]


def test_the_teacher_view_says_how_far_the_table_is():
    """The projector's bar: 0 at the watch, 100 when every household is done."""
    state = fresh(seats=2, seed=3)
    assert ENGINE.view(state, None)["progress"] == 0
    play(state, 0, {"type": "stay_home"})
    assert ENGINE.view(state, None)["progress"] == 50
    play(state, 1, {"type": "stay_home"})
    assert ENGINE.view(state, None)["progress"] == 100


@pytest.mark.parametrize("timeline", ["on", "off"])
def test_the_view_names_the_timeline_items_shown_and_those_passed(timeline):
    """The timeline's texts are the board's; the view lists the items this game shows (the
    marks always, the rest with the option on) and how many have passed on the seat's clock."""
    items = ENGINE.board()["timeline"]
    state = fresh(seed=3, timeline=timeline)
    for _ in range(40):
        clock = state["seats"][0]["clock"]
        shown = ENGINE.view(state, 0)["timeline"]
        assert [i for i in shown["shown"] if not items[i].get("mark")] == (
            [i for i, t in enumerate(items) if not t.get("mark")] if timeline == "on" else []
        )
        assert all((items[i]["minute"] <= clock) == (i < shown["passed"]) for i in range(len(items)))
        if state["seats"][0]["status"] != "playing":
            break
        play(state, 0, {"type": "wait"})
