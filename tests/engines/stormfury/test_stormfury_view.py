"""The numbers and flags a Stormfury view shows are the ones the rules then apply.

The tablet computes no rule: where the storm is, which roads dams seal, how many cards must go
before a turn can end, how many may go on the Relief pile, what an evacuation costs and what
the team kept come in the view or the board. These tests hold them to what ``apply`` does.
"""

import pytest
from stormfury_helpers import hand, stack_deck, table

from scenarios.base import draw
from scenarios.stormfury import ENGINE, rules
from scenarios.stormfury.bots import BOTS
from scenarios.stormfury.hexes import distance

NO = "new_orleans"


def test_the_storm_says_which_city_it_is_nearest_and_how_wide_it_is():
    """The nearest city and its distance, and the width of the footprint, as the map draws it."""
    state = ENGINE.setup(5, 2)
    ENGINE.apply(state, None, {"type": "auto_roles"})
    storm = ENGINE.view(state, 0)["storm"]
    at = tuple(storm["at"])
    assert storm["nearest"]["hexes"] == min(distance(at, rules.CITY_HEX[c]) for c in rules.CITY_IDS)
    assert distance(at, rules.CITY_HEX[storm["nearest"]["city"]]) == storm["nearest"]["hexes"]
    widest = max(distance(tuple(a), tuple(b)) for a in storm["footprint"] for b in storm["footprint"])
    assert widest <= storm["across"] - 1 and storm["across"] == 2 * storm["radius"] + 1


def test_a_dam_the_view_says_seals_a_road_seals_it_and_a_sealed_road_is_listed():
    """The view marks the road one more dam seals; the dam that does it is the one whose event
    says sealed, and afterwards the road is in the view's sealed list."""
    s = table(seats=2, roles=["aquatic_engineer", "architect"])
    for p in s["players"]:
        p["hand"] = hand(dam=2, sandbag=2)
    road = "new_orleans-gulfport"
    assert road not in ENGINE.view(s, 1)["dam_seals"]
    first = ENGINE.apply(s, 0, {"type": "dam", "road": road, "city": "gulfport"})
    assert first[0]["sealed"] is False
    view = ENGINE.view(s, 1)
    assert road in view["dam_seals"] and road not in view["sealed"]
    second = ENGINE.apply(s, 1, {"type": "dam", "road": road, "city": NO})
    assert second[0]["sealed"] is True
    view = ENGINE.view(s, 1)
    assert road in view["sealed"] and road not in view["dam_seals"]


@pytest.mark.parametrize("seed", range(6))
def test_in_whole_games_sealed_roads_hold_and_others_flood(seed):
    """Over whole games: every road the storm spares for its dams was listed sealed before the
    storm, every road it floods was not; every dam the view said would seal did."""
    state = ENGINE.setup(seed, 4)
    ENGINE.apply(state, None, {"type": "auto_roles"})
    storms = 0
    for step in range(5000):
        if ENGINE.finished(state):
            break
        seats = ENGINE.to_act(state)
        seat = seats[draw(seed, "view-test", None, step) % len(seats)] if seats else None
        action = BOTS["cooperative"](state, seat) if seat is not None else {"type": "storm_moves"}
        view = ENGINE.view(state, None)
        sealed, last = set(view["sealed"]), list(state["last_storm"])
        events = ENGINE.apply(state, seat, action)
        for event in events:
            if event["type"] == "dammed":
                assert event["sealed"] == (action["road"] in view["dam_seals"])
        if state["last_storm"] != last:
            storms += 1
            for event in state["last_storm"]:
                if event["type"] == "dam_held":
                    assert event["road"] in sealed
                if event["type"] == "road_flooded":
                    assert event["road"] not in sealed
    assert ENGINE.finished(state) and storms


def test_the_cards_over_the_limit_are_the_discards_that_end_the_turn():
    """A player over the hand limit is told how many to discard; after exactly that many the
    turn can end, and not before."""
    s = table(roles=["architect"])
    s["players"][0]["hand"] = hand(material=4, sandbag=3)
    me = ENGINE.view(s, 0)["players"][0]
    assert me["over_limit"] == 7 - ENGINE.board()["hand_limit"] == 2
    for _ in range(me["over_limit"]):
        assert {"type": "end_turn"} not in ENGINE.actions(s, 0)
        ENGINE.apply(s, 0, {"type": "discard", "card": "material"})
    assert "over_limit" not in ENGINE.view(s, 0)["players"][0]
    assert {"type": "end_turn"} in ENGINE.actions(s, 0)


def test_the_relief_corps_may_put_as_many_cards_on_the_pile_as_the_view_says():
    """The Relief Corps' allowance is what the rules let her put on the pile this turn."""
    s = ENGINE.setup(5, 2)
    stack_deck(s, ["dam", "dam"])
    ENGINE.apply(s, 0, {"type": "pick_role", "role": "relief_corps", "city": NO})
    ENGINE.apply(s, 1, {"type": "pick_role", "role": "architect", "city": "mobile"})
    allowed = ENGINE.view(s, 0)["players"][0]["to_pile"]
    assert allowed == 2
    for n in range(allowed):
        ENGINE.apply(
            s,
            0,
            {
                "type": "use_role",
                "card": "dam"
                if s["players"][0]["hand"]["dam"]
                else next(k for k, v in s["players"][0]["hand"].items() if v),
            },
        )
        assert ENGINE.view(s, 0)["players"][0]["to_pile"] == allowed - n - 1
    assert not [a for a in ENGINE.actions(s, 0) if a["type"] == "use_role"]


def test_an_evacuation_costs_the_card_the_board_names_and_the_cards_per_person_it_says():
    """Every evacuation offered discards the board's cards per person for each person, and
    playing it also spends one of the board's Evacuate card."""
    rule = ENGINE.board()["evacuate"]
    s = table(roles=["architect"])
    s["players"][0]["hand"] = hand(evacuate=1, material=2, sandbag=2)
    offered = [a for a in ENGINE.actions(s, 0) if a["type"] == "evacuate"]
    assert offered and {a["people"] for a in offered} == {1, 2}
    for action in offered:
        assert len(action["discard"]) == rule["cards_per_person"] * action["people"]
        copy = ENGINE.load(ENGINE.dump(s))
        before = sum(copy["players"][0]["hand"].values())
        ENGINE.apply(copy, 0, action)
        after = copy["players"][0]["hand"]
        assert before - sum(after.values()) == len(action["discard"]) + 1
        assert after[rule["card"]] == 0


@pytest.mark.parametrize("seed", range(4))
def test_what_the_team_kept_and_the_projector_bar_at_the_end(seed):
    """At the end the view lists what held, in the results' terms, and the bar is full; while
    playing it grows with the storms played."""
    state = ENGINE.setup(seed, 3)
    ENGINE.apply(state, None, {"type": "auto_roles"})
    bars = []
    for _step in range(5000):
        if ENGINE.finished(state):
            break
        bars.append(ENGINE.view(state, None)["progress"])
        seats = ENGINE.to_act(state)
        seat = seats[0] if seats else None
        ENGINE.apply(state, seat, BOTS["cooperative"](state, seat) if seats else {"type": "storm_moves"})
    assert bars == sorted(bars) and bars[0] == 0
    view, team = ENGINE.view(state, 0), ENGINE.results(state)[0]["breakdown"]["team"]
    assert ENGINE.view(state, None)["progress"] == 100
    people, total = view["held"]["people_evacuated"]
    assert total - people == team["people_not_evacuated"]
    standing, infra = view["held"]["infrastructure"]
    assert infra - standing == sum(team["infrastructure_lost"].values())
    open_roads, roads = view["held"]["roads"]
    assert roads - open_roads == len(team["flooded_roads"]) == team["damage_by_type"]["roads"]
    assert view["held"]["sealed"] == len(view["sealed"])
    assert "held" not in ENGINE.view(ENGINE.setup(seed, 3), 0)
