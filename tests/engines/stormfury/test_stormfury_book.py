"""Project Stormfury beside its rule book: storm geometry, setup, chits, Relief Corps, trades,
the "As printed" preset and games stored before map 2."""

import json
from pathlib import Path

import pytest
from stormfury_helpers import force_storm, hand, stack_deck, storm_moves, table

from scenarios.base import IllegalAction
from scenarios.stormfury import ENGINE, PRESETS, rules
from scenarios.stormfury.bots import BOTS

NO = "new_orleans"
FROZEN = Path(__file__).with_name("frozen") / "schema1_round5.json"


def refused(state, seat, action, code):
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.code == code, err.value.as_dict()
    assert ENGINE.dump(state) == before
    return err.value


def _quiet(s):
    for p in s["players"]:
        p["hand"] = hand()


def _hit_cities(events):
    return {e["city"] for e in events if e["type"] in ("held", "destroyed", "people_hit", "spared")}


# --- storm edition ----------------------------------------------------------------------------


def test_map_2_has_land_north_of_every_city_for_a_landfall_to_play_out():
    """Map 2 keeps map 1's hexes, cities and roads and adds eight land rows to the north."""
    old, new = rules.TERRAINS[1], rules.TERRAINS[2]
    assert all(new[h] == t for h, t in old.items())
    assert len(new) - len(old) == 8 * 24 and {new[h] for h in new.keys() - old.keys()} == {"land"}
    assert rules.MAPS[1]["cities"] == rules.MAPS[2]["cities"]
    for q, r in rules.CITY_HEX.values():
        assert all((q, r - k) in new for k in range(1, 9))


def test_a_storm_over_hattiesburg_moves_on_north_instead_of_stopping_at_the_edge():
    """From Hattiesburg, three steps north all play on map 2; on map 1 they were skipped."""
    for edition, blocked in ((2, 0), (1, 3)):
        s = table(options={"edition": edition})
        _quiet(s)
        force_storm(s, ["l4", "l8"], at=rules.CITY_HEX["hattiesburg"], category=1)
        ev = storm_moves(s)
        assert sum(e["type"] == "storm_blocked" for e in ev) == blocked
        assert s["storm"]["at"] == [16, -8 - 3 + blocked]


def test_a_city_the_storm_moves_away_from_is_not_hit_again_by_its_starting_footprint():
    """Lake Charles lies on the south rim of a category-1 storm that moves north: edition 2
    hits the hexes covered after each step, not the footprint the move started from (hit last
    turn); edition 1 hit it again."""
    for edition, hit in ((2, False), (1, True)):
        s = table(options={"edition": edition})
        _quiet(s)
        force_storm(s, ["l4", "l5"], at=(7, 0), category=1)
        ev = storm_moves(s)
        assert ("lake_charles" in _hit_cities(ev)) is hit


def test_a_storm_that_takes_no_step_hits_where_it_stands():
    """A storm that takes no step this turn lingers: the city under it is hit again, and the
    forecast counts that city as hit."""
    s = table()
    _quiet(s)
    s["fortifications"]["hou_port"] = 3
    force_storm(s, ["l9", "l3"], at=(0, 3), category=1)
    assert rules.forecast_outlook((0, 3), 1, ("l9", "l3"))["city_risk"] == {"houston": 1.0}
    ev = storm_moves(s)
    assert not [e for e in ev if e["type"] == "storm_step"]
    assert "houston" in _hit_cities(ev) and s["fortifications"]["hou_port"] == 2


def test_the_forecast_leaves_out_the_starting_footprint_the_storm_moves_away_from():
    """Edition 2's forecast risks count only centres the storm enters; edition 1's counted
    the starting footprint in every flip."""
    at = (7, 0)
    assert "lake_charles" not in rules.forecast_outlook(at, 1, ("l4", "l5"))["city_risk"]
    assert rules.forecast_outlook(at, 1, ("l4", "l5"), 1)["city_risk"]["lake_charles"] == 1.0


# --- games stored before map 2 -----------------------------------------------------------------


def _frozen():
    return json.loads(FROZEN.read_text())


def test_a_schema_1_game_loads_on_edition_1_and_plays_to_its_end():
    """A game stored by engine 1.0.0 mid-round loads as schema 2 on edition 1 (map 1), and plays
    on to its end with the storm still stopped by map 1's north edge and
    the Relief Corps still free to pile any card of her hand this turn."""
    frozen = _frozen()
    state = ENGINE.load(frozen["state"])
    assert state["schema"] == ENGINE.schema_version == 2
    assert state["options"]["edition"] == 1 and state["options"]["chits"] is False
    relief = next(p for p in state["players"] if p["role"] == "relief_corps")
    piles = {a["card"] for a in ENGINE.actions(state, relief["seat"]) if a["type"] == "use_role"}
    assert relief["to_pile"] == 2 and piles == {k for k, n in relief["hand"].items() if n}
    assert ENGINE.load(ENGINE.dump(state)) == state
    blocked = False
    for _ in range(2000):
        if ENGINE.finished(state):
            break
        seats = ENGINE.to_act(state)
        if seats:
            ev = ENGINE.apply(state, seats[0], BOTS["cooperative"](state, seats[0]))
        else:
            ev = ENGINE.apply(state, None, {"type": "storm_moves"})
        blocked |= any(e["type"] == "storm_blocked" for e in ev)
        assert tuple(state["storm"]["at"]) in rules.TERRAINS[1]
    assert ENGINE.finished(state) and blocked


def test_a_schema_1_move_log_replays_its_storm_and_damage_with_edition_1():
    """Replaying a stored game's log from setup with edition 1 gives the storm and damage it had."""
    frozen = _frozen()
    state = ENGINE.setup(frozen["seed"], frozen["seats"], {**frozen["options"], "edition": 1})
    for move in frozen["moves"]:
        ENGINE.apply(state, move["seat"], move["action"])
    old = frozen["state"]
    for key in (
        "storm",
        "damage",
        "damage_by_city",
        "destroyed",
        "flooded",
        "fortifications",
        "population",
        "dams",
        "round",
        "deck",
        "pile",
    ):
        assert state[key] == old[key], key


def test_an_unknown_schema_is_refused():
    """A state from an unknown schema is refused rather than guessed at."""
    with pytest.raises(ValueError):
        ENGINE.load({**_frozen()["state"], "schema": 99})


# --- setup ---------------------------------------------------------------------------------------


def test_category_2_at_setup_uses_the_medium_piece_and_draws_3():
    """The storm starts as category 2 with the chart's medium piece (5 across), drawing 3."""
    s = ENGINE.setup(3, 2)
    assert s["storm"]["category"] == 2
    assert rules.RADIUS[2] == 2 and rules.SPEED[2] == 3
    assert [rules.SPEED[c] for c in range(1, 6)] == [2, 3, 3, 4, 5]


def test_storm_start_single_always_uses_the_centre_hex():
    """With storm_start=single every storm seed starts on the centre hex; seeded uses all three."""
    single = {tuple(ENGINE.setup(1, 1, {"storm_seed": n, "storm_start": "single"})["storm"]["at"]) for n in range(30)}
    seeded = {tuple(ENGINE.setup(1, 1, {"storm_seed": n})["storm"]["at"]) for n in range(30)}
    assert single == {rules.STORM_STARTS[rules.CENTRE_START]}
    assert seeded == set(rules.STORM_STARTS)


def test_no_start_hex_has_a_city_or_road_within_the_largest_storm():
    """Every start hex is far enough out that even a category-5 footprint touches no city or road."""
    for q, r in rules.STORM_STARTS:
        assert rules.cover(q, r, rules.RADIUS[5]) == ((), ())


# --- Relief Corps and trades -------------------------------------------------------------------


def test_relief_corps_piles_only_the_cards_she_drew_this_turn():
    """Only the cards the Relief Corps drew this turn may go on her pile, not older ones."""
    s = ENGINE.setup(5, 2)
    stack_deck(s, ["dam", "sandbag"])
    ENGINE.apply(s, 0, {"type": "pick_role", "role": "relief_corps", "city": NO})
    ENGINE.apply(s, 1, {"type": "pick_role", "role": "architect", "city": "mobile"})
    rc = s["players"][0]
    rc["hand"] = hand(evacuate=2, dam=1, sandbag=1)
    err = refused(s, 0, {"type": "use_role", "card": "evacuate"}, "not_drawn")
    assert err.params == {"card": "evacuate", "card_name": "Evacuate"}
    assert {a["card"] for a in ENGINE.actions(s, 0) if a["type"] == "use_role"} == {"dam", "sandbag"}
    ENGINE.apply(s, 0, {"type": "use_role", "card": "dam"})
    refused(s, 0, {"type": "use_role", "card": "dam"}, "missing_card")
    ENGINE.apply(s, 0, {"type": "draw_more", "from": "deck"})
    drawn = [k for k in rules.KINDS for _ in range(rc["pile_cards"].get(k, 0))]
    assert len(drawn) == 3 and drawn.count("sandbag") >= 1
    assert s["pile"] == ["dam"]


def test_accepted_trades_are_unlimited_and_three_unaccepted_offers_end_offering():
    """Trading is unlimited as the book says; only offers nobody takes count toward the 3."""
    s = table(seats=2, roles=["architect", "relief_corps"])
    s["players"][0]["hand"] = hand(material=5)
    s["players"][1]["hand"] = hand(dam=5)
    for _ in range(4):
        ENGINE.apply(s, 0, {"type": "offer_trade", "to": 1, "give": "material", "get": "dam"})
        ENGINE.apply(s, 1, {"type": "accept_trade", "offer": s["offers"][0]["id"]})
    assert s["players"][0]["hand"] == hand(material=1, dam=4)
    for _ in range(3):
        ENGINE.apply(s, 0, {"type": "offer_trade", "to": 1, "give": "dam", "get": "material"})
        ENGINE.apply(s, 1, {"type": "decline_trade", "offer": s["offers"][0]["id"]})
    err = refused(s, 0, {"type": "offer_trade", "to": 1, "give": "dam", "get": "material"}, "too_many_offers")
    assert err.params == {"most": 3}
    assert not [a for a in ENGINE.actions(s, 0) if a["type"] == "offer_trade"]


# --- the box's chits ---------------------------------------------------------------------------


def test_without_the_chits_option_nothing_runs_out():
    """By default there is no chit limit: the view says so with no count."""
    s = table()
    assert ENGINE.view(s, 0)["chits_left"] is None
    s["fortifications"]["msy_pumps"] = 40
    s["players"][0]["hand"] = hand(fortify_1=1, material=1)
    ENGINE.apply(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"})


def test_fortification_tokens_run_out_at_30_on_the_board():
    """With chits on, a Fortify that needs more tokens than the box holds is refused and not
    offered; tokens a hit removes go back to the box."""
    s = table(options={"chits": True})
    s["fortifications"]["hou_port"] = 28
    s["players"][0]["hand"] = hand(fortify_3=1, fortify_2=1, material=5)
    assert ENGINE.view(s, 0)["chits_left"] == {"damage": 30, "fortification": 2, "dam": 30}
    err = refused(s, 0, {"type": "fortify", "card": "fortify_3", "space": "msy_pumps"}, "no_chits")
    assert err.params == {"left": 2, "need": 3, "card_name": "Fortify +3"}
    cards = {a["card"] for a in ENGINE.actions(s, 0) if a["type"] == "fortify"}
    assert cards == {"fortify_2"}
    ENGINE.apply(s, 0, {"type": "fortify", "card": "fortify_2", "space": "msy_pumps"})
    assert ENGINE.view(s, 0)["chits_left"]["fortification"] == 0
    _quiet(s)
    force_storm(s, ["o13", "o12", "o3"], at=(14, 1), category=2)
    storm_moves(s)
    assert s["fortifications"]["msy_pumps"] == 1
    assert ENGINE.view(s, 0)["chits_left"]["fortification"] == 1


def test_damage_stops_at_the_30_damage_chits():
    """With chits on, once 30 damage chits are on the board nothing more is destroyed, hit or
    flooded; without the option the damage goes past 30."""
    for chits in (True, False):
        s = table(options={"chits": chits})
        _quiet(s)
        s["damage"]["total"] = s["damage"]["population"] = 29
        force_storm(s, ["o13", "o12", "o3"], at=(14, 1), category=2)
        ev = storm_moves(s)
        assert any(e["type"] == "no_chits" for e in ev) is chits
        if chits:
            assert s["damage"]["total"] == 30
            assert len(s["destroyed"]) + len(s["flooded"]) <= 1
            assert ENGINE.view(s, 0)["chits_left"]["damage"] == 0
        else:
            assert s["damage"]["total"] > 31


def test_thirty_dam_chits_are_one_for_every_road_end():
    """The box's 30 dam chits are exactly one per road end, so dams never run out."""
    assert 2 * len(rules.ROADS) == rules.CHITS["dam"]


# --- the "As printed" preset -------------------------------------------------------------------


def test_as_printed_preset_sets_up_and_plays_a_whole_game():
    """The preset's options are engine options; a game with them plays to its end by the book:
    round the table, the box's chits, one start hex, no damage from the move that ends it."""
    preset = PRESETS["as_printed"]
    names = {o["name"] for o in ENGINE.options()}
    assert set(preset) <= names
    s = ENGINE.setup(4, 4, preset)
    assert s["storm"]["at"] == list(rules.STORM_STARTS[rules.CENTRE_START])
    assert s["options"]["turn_order"] == "round_table" and s["options"]["chits"]
    ENGINE.apply(s, None, {"type": "auto_roles"})
    for _ in range(5000):
        if ENGINE.finished(s):
            break
        seats = ENGINE.to_act(s)
        if not seats:
            ENGINE.apply(s, None, {"type": "storm_moves"})
            continue
        assert seats == [s["turn"]]
        ENGINE.apply(s, seats[0], BOTS["cooperative"](s, seats[0]))
    assert ENGINE.finished(s) and s["damage"]["total"] <= 30
