"""Each rule of Project Stormfury, with fixed decks, hands and storms."""

import pytest
from stormfury_helpers import force_storm, hand, stack_deck, storm_moves, table

from scenarios.base import IllegalAction
from scenarios.registry import ENGINES
from scenarios.stormfury import ENGINE, rules

NO = "new_orleans"


def refused(state, seat, action, code):
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, seat, action)
    assert err.value.code == code, err.value.as_dict()
    assert err.value.message
    assert ENGINE.dump(state) == before
    return err.value


# --- setup and roles -------------------------------------------------------------------------


def test_registry_and_content():
    """The registry finds the engine; the content has 27 hurricane and 84 resource cards."""
    assert ENGINES["stormfury"] is ENGINE
    assert len(rules.HCARDS) == 27
    assert sum(c["count"] for c in rules.CONTENT["resource_cards"]["cards"]) == 84
    assert 8 <= len(rules.CITY_IDS) <= 12
    for road in rules.ROADS.values():
        assert road["middle"] in road["hexes"]


def test_setup_starts_at_sea_as_category_2_with_five_cards_each():
    """The storm starts at sea as a category 2; each player holds 5 cards; roles come first."""
    s = ENGINE.setup(7, 3)
    assert s["phase"] == "roles" and ENGINE.to_act(s) == [0, 1, 2]
    assert s["storm"]["category"] == 2
    assert rules.TERRAIN[tuple(s["storm"]["at"])] == "ocean"
    assert [sum(p["hand"].values()) for p in s["players"]] == [5, 5, 5]
    assert len(s["deck"]) == 84 - 15
    assert all(v == 2 for v in s["population"].values())


def test_each_role_once_per_table_and_auto_roles_gives_the_rest():
    """A role already taken is refused; auto_roles hands out the rest and the game begins."""
    s = ENGINE.setup(1, 3)
    ENGINE.apply(s, 0, {"type": "pick_role", "role": "architect", "city": "mobile"})
    refused(s, 1, {"type": "pick_role", "role": "architect"}, "role_taken")
    refused(s, 0, {"type": "pick_role", "role": "relief_corps"}, "role_chosen")
    refused(s, 1, {"type": "pick_role", "role": "relief_corps", "city": "atlantis"}, "no_such_city")
    events = ENGINE.apply(s, None, {"type": "auto_roles"})
    roles = [p["role"] for p in s["players"]]
    assert roles[0] == "architect" and len(set(roles)) == 3
    assert s["players"][0]["city"] == "mobile"
    assert s["phase"] == "player" and s["round"] == 1
    assert any(e["type"] == "forecast" for e in events)


def test_forecast_deals_five_from_the_deck_where_the_storm_is():
    """Five forecast cards come from the ocean deck at sea and the land deck over land."""
    s = table()
    assert len(s["forecast"]) == 5 and all(c in rules.DECKS["ocean"] for c in s["forecast"])
    force_storm(s, ["l8", "l9"], at=rules.CITY_HEX["lafayette"], category=1)
    s["storm"]["category"] = 3  # a land storm that survives the move
    s["forecast"] = ["l8", "l9", "l7", "l11", "l10"]
    storm_moves(s)
    if s["phase"] == "player":
        deck = "ocean" if rules.TERRAIN[tuple(s["storm"]["at"])] == "ocean" else "land"
        assert all(c in rules.DECKS[deck] for c in s["forecast"])


# --- the Player Phase ------------------------------------------------------------------------


def test_turn_starts_with_two_cards_and_draw_more_forbids_playing():
    """Draw 2 at the start; drawing 2 more means no cards are played this turn."""
    s = ENGINE.setup(3, 1)
    stack_deck(s, ["dam", "sandbag", "material", "fortify_1"])
    s["players"][0]["hand"] = hand(material=1)
    ENGINE.apply(s, 0, {"type": "pick_role", "role": "architect", "city": NO})
    assert s["players"][0]["hand"] == hand(material=1, dam=1, sandbag=1)
    ENGINE.apply(s, 0, {"type": "draw_more", "from": "deck"})
    assert s["players"][0]["hand"] == hand(material=2, dam=1, sandbag=1, fortify_1=1)
    refused(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"}, "drew_more")
    refused(s, 0, {"type": "draw_more"}, "drew_more")


def test_playing_a_card_forbids_drawing_more():
    """After playing a card the player cannot draw 2 more."""
    s = table()
    s["players"][0]["hand"] = hand(material=1, fortify_1=1)
    ENGINE.apply(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"})
    refused(s, 0, {"type": "draw_more"}, "already_played")


def test_move_up_to_two_cities_along_open_roads():
    """Moves follow roads, at most two a turn, and never along a flooded road."""
    s = table()
    refused(s, 0, {"type": "move", "to": "mobile"}, "no_road")
    s["flooded"].append("new_orleans-gulfport")
    err = refused(s, 0, {"type": "move", "to": "gulfport"}, "road_flooded")
    assert "flooded" in err.message
    ENGINE.apply(s, 0, {"type": "move", "to": "houma"})
    ENGINE.apply(s, 0, {"type": "move", "to": NO})
    refused(s, 0, {"type": "move", "to": "baton_rouge"}, "no_moves_left")


def test_fortify_costs_materials_and_builds_in_your_city_only():
    """Fortify +N needs N Material, builds N tokens on one space of the player's city."""
    s = table(roles=["relief_corps"])
    s["players"][0]["hand"] = hand(material=1, fortify_2=1, fortify_1=1)
    err = refused(s, 0, {"type": "fortify", "card": "fortify_2", "space": "msy_pumps"}, "missing_resources")
    assert err.params == {"need": 2, "have": 1, "resource": "material", "card_name": "Fortify +2"}
    refused(s, 0, {"type": "fortify", "card": "fortify_1", "space": "mob_port"}, "wrong_city")
    refused(s, 0, {"type": "fortify", "card": "fortify_3", "space": "msy_pumps"}, "missing_card")
    ENGINE.apply(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"})
    assert s["fortifications"]["msy_pumps"] == 1
    assert s["players"][0]["hand"] == hand(fortify_2=1)
    assert sorted(s["discards"]) == ["fortify_1", "material"]


def test_architect_pays_one_material_with_a_sandbag_once_per_turn():
    """The Architect may use a Sandbag as a Material once per turn; twice is refused."""
    s = table(roles=["architect"])
    s["players"][0]["hand"] = hand(sandbag=2, fortify_1=2)
    ENGINE.apply(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"})
    assert s["players"][0]["hand"] == hand(sandbag=1, fortify_1=1)
    err = refused(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"}, "power_used")
    assert "already used" in err.message


def test_dam_both_ends_seals_a_road_and_the_aquatic_engineer_reaches_next_door():
    """A Dam costs a Dam card and a Sandbag; only the Aquatic Engineer dams a neighbour's end."""
    s = table(seats=2, roles=["aquatic_engineer", "architect"])
    for p in s["players"]:
        p["hand"] = hand(dam=2, sandbag=2)
    road = "new_orleans-gulfport"
    refused(s, 1, {"type": "dam", "road": road, "city": "gulfport"}, "wrong_city")
    refused(s, 1, {"type": "dam", "road": "gulfport-mobile", "city": "gulfport"}, "wrong_city")
    refused(s, 0, {"type": "dam", "road": "mobile-pensacola", "city": "mobile"}, "too_far")
    ENGINE.apply(s, 0, {"type": "dam", "road": road, "city": "gulfport"})
    refused(s, 1, {"type": "dam", "road": road, "city": "gulfport"}, "wrong_city")
    ev = ENGINE.apply(s, 1, {"type": "dam", "road": road, "city": NO})
    assert ev[0]["sealed"] is True and sorted(s["dams"][road]) == ["gulfport", NO]
    refused(s, 0, {"type": "dam", "road": road, "city": NO}, "already_dammed")
    s["players"][0]["hand"] = hand(dam=1)
    refused(s, 0, {"type": "dam", "road": "houma-new_orleans", "city": NO}, "missing_resources")


def test_evacuate_discards_two_more_cards_per_person():
    """Evacuate moves people out for 2 extra discards each; nobody left means nothing to do."""
    s = table(roles=["architect"])
    s["players"][0]["hand"] = hand(evacuate=1, material=2, sandbag=2)
    refused(s, 0, {"type": "evacuate", "people": 2, "discard": ["material", "material", "sandbag"]}, "bad_cards")
    refused(s, 0, {"type": "evacuate", "people": 1, "discard": ["evacuate", "material"]}, "missing_card")
    ENGINE.apply(s, 0, {"type": "evacuate", "people": 2, "discard": ["material", "material", "sandbag", "sandbag"]})
    assert s["population"][NO] == 0 and sum(s["players"][0]["hand"].values()) == 0
    s["players"][0]["hand"] = hand(evacuate=1, material=2)
    refused(s, 0, {"type": "evacuate", "people": 1, "discard": ["material", "material"]}, "nobody_home")


def test_evac_specialist_evacuates_for_two_cards_even_after_drawing_more():
    """The Evac Specialist's power needs no Evacuate card and works after drawing more."""
    s = table(roles=["evac_specialist"])
    s["players"][0]["hand"] = hand(material=1, dam=1)
    stack_deck(s, ["sandbag", "sandbag"])
    ENGINE.apply(s, 0, {"type": "draw_more"})
    ENGINE.apply(s, 0, {"type": "use_role", "discard": ["material", "dam"]})
    assert s["population"][NO] == 1
    refused(s, 0, {"type": "use_role", "discard": ["material", "material"]}, "missing_card")


def test_relief_corps_pile_lets_others_draw_chosen_cards():
    """Cards the Relief Corps drew go face up on her pile; others then draw from it by choice."""
    s = ENGINE.setup(5, 2)
    stack_deck(s, ["dam", "sandbag"])
    ENGINE.apply(s, 0, {"type": "pick_role", "role": "relief_corps", "city": NO})
    ENGINE.apply(s, 1, {"type": "pick_role", "role": "architect", "city": "mobile"})
    rc = s["players"][0]
    assert rc["to_pile"] == 2 and rc["hand"]["dam"] >= 1
    ENGINE.apply(s, 0, {"type": "use_role", "card": "dam"})
    ENGINE.apply(s, 0, {"type": "use_role", "card": "sandbag"})
    refused(
        s,
        0,
        {"type": "use_role", "card": "material"} if rc["hand"]["material"] else {"type": "use_role", "card": "dam"},
        "power_used" if rc["hand"]["material"] else "missing_card",
    )
    assert s["pile"] == ["dam", "sandbag"]
    refused(s, 1, {"type": "use_role"}, "passive_power")
    # Next turn the other player chooses where to draw from.
    for p in s["players"]:
        p["hand"] = hand(material=1)
    force_storm(s, ["o13", "o12", "o3"], at=(12, 6), category=2)
    storm_moves(s)
    assert s["players"][1]["status"] == "start" and s["players"][0]["status"] == "drawn"
    refused(s, 1, {"type": "move", "to": "gulfport"}, "draw_first")
    refused(s, 1, {"type": "draw", "from": "pile", "cards": ["material", "dam"]}, "missing_card")
    ENGINE.apply(s, 1, {"type": "draw", "from": "pile", "cards": ["dam", "sandbag"]})
    assert s["players"][1]["hand"] == hand(material=1, dam=1, sandbag=1) and s["pile"] == []


def test_trade_one_for_one_in_the_same_city_accept_and_decline():
    """Trades are offered to someone in the same city; declining changes no hand."""
    s = table(seats=3, roles=["architect", "relief_corps", "evac_specialist"], cities=[NO, NO, "mobile"])
    s["players"][0]["hand"] = hand(material=2)
    s["players"][1]["hand"] = hand(dam=1)
    s["players"][2]["hand"] = hand(dam=1)
    err = refused(s, 0, {"type": "offer_trade", "to": 2, "give": "material", "get": "dam"}, "not_same_city")
    assert "in your city" in err.message
    refused(s, 0, {"type": "offer_trade", "to": 1, "give": "sandbag", "get": "dam"}, "missing_card")
    ENGINE.apply(s, 0, {"type": "offer_trade", "to": 1, "give": "material", "get": "dam"})
    oid = s["offers"][0]["id"]
    assert 1 in ENGINE.to_act(s)
    hands = [dict(p["hand"]) for p in s["players"]]
    ENGINE.apply(s, 1, {"type": "decline_trade", "offer": oid})
    assert [p["hand"] for p in s["players"]] == hands and s["offers"] == []
    refused(s, 1, {"type": "accept_trade", "offer": oid}, "no_offer")
    ENGINE.apply(s, 0, {"type": "offer_trade", "to": 1, "give": "material", "get": "dam"})
    ENGINE.apply(s, 1, {"type": "accept_trade", "offer": s["offers"][0]["id"]})
    assert s["players"][0]["hand"] == hand(material=1, dam=1)
    assert s["players"][1]["hand"] == hand(material=1)


def test_trade_offers_expire_and_never_block_a_turn():
    """An unanswered offer expires after N actions, when a player leaves, or at phase end."""
    s = table(seats=2, roles=["architect", "relief_corps"], options={"trade_expiry": 4})
    s["players"][0]["hand"] = hand(material=2)
    s["players"][1]["hand"] = hand(dam=1)
    ENGINE.apply(s, 0, {"type": "offer_trade", "to": 1, "give": "material", "get": "dam"})
    ENGINE.apply(s, 0, {"type": "move", "to": "houma"})
    assert s["offers"] == []  # they are no longer in the same city
    ENGINE.apply(s, 0, {"type": "move", "to": NO})
    ENGINE.apply(s, 0, {"type": "offer_trade", "to": 1, "give": "material", "get": "dam"})
    ENGINE.apply(s, 0, {"type": "end_turn"})
    assert s["offers"] == []  # the offerer's turn is over
    s2 = table(
        seats=3,
        roles=["architect", "evac_specialist", "relief_corps"],
        cities=[NO, NO, "mobile"],
        options={"trade_expiry": 4},
    )
    s2["players"][0]["hand"] = hand(material=2)
    s2["players"][1]["hand"] = hand(dam=1)
    s2["players"][2]["hand"] = hand(dam=1, sandbag=1)
    s2["players"][2]["pile_cards"] = {"dam": 1, "sandbag": 1}
    ENGINE.apply(s2, 0, {"type": "offer_trade", "to": 1, "give": "material", "get": "dam"})
    for action in (
        {"type": "move", "to": "gulfport"},
        {"type": "move", "to": "mobile"},
        {"type": "use_role", "card": "dam"},
    ):
        ENGINE.apply(s2, 2, action)
    assert len(s2["offers"]) == 1
    ENGINE.apply(s2, 2, {"type": "use_role", "card": "sandbag"})
    assert s2["offers"] == []  # four actions later nobody had answered


def test_discard_to_five_before_ending_and_skip_discards_by_itself():
    """A hand above 5 must be cut to 5 before ending; skip does it automatically."""
    s = table(seats=2, roles=["architect", "relief_corps"])
    s["players"][0]["hand"] = hand(material=4, dam=3)
    err = refused(s, 0, {"type": "end_turn"}, "hand_too_big")
    assert err.params == {"have": 7, "most": 5, "extra": 2}
    ENGINE.apply(s, 0, {"type": "discard", "card": "dam"})
    ENGINE.apply(s, 0, {"type": "discard", "card": "dam"})
    refused(s, 0, {"type": "discard", "card": "dam"}, "hand_ok")
    ENGINE.apply(s, 0, {"type": "end_turn"})
    s["players"][1]["hand"] = hand(material=6, sandbag=2)
    ENGINE.apply(s, None, {"type": "skip", "seat": 1})
    assert sum(s["players"][1]["hand"].values()) <= 5 or s["round"] == 2


def test_round_table_order_one_seat_at_a_time():
    """With round_table, seats play in order; the next seat draws when its turn starts."""
    s = table(seats=3, options={"turn_order": "round_table"})
    assert ENGINE.to_act(s) == [0] and s["players"][1]["status"] == "waiting"
    refused(s, 1, {"type": "move", "to": "houma"}, "not_your_turn")
    s["players"][0]["hand"] = hand()
    ENGINE.apply(s, 0, {"type": "end_turn"})
    assert ENGINE.to_act(s) == [1] and s["players"][1]["status"] == "drawn"


# --- the Hurricane Phase ---------------------------------------------------------------------


def _quiet(s):
    for p in s["players"]:
        p["hand"] = hand()


def test_flips_by_category_move_and_one_category_step_per_turn():
    """Category 3 flips 3 cards; two strengthen cards raise it by one only."""
    s = table()
    _quiet(s)
    force_storm(s, ["o1", "o2", "o13"], at=(12, 6), category=3)
    ev = storm_moves(s)
    assert s["storm"]["at"] == [12, 2] and s["storm"]["category"] == 4
    assert [e["at"] for e in ev if e["type"] == "storm_step"] == [[12, 5], [12, 4], [12, 3], [12, 2]]
    assert [e for e in ev if e["type"] == "category"] == [{"type": "category", "from": 3, "to": 4, "over": "ocean"}]


def test_strengthens_only_at_sea_and_weakens_over_land():
    """A strengthen card that leaves the storm over land does nothing: the storm weakens."""
    s = table()
    _quiet(s)
    force_storm(s, ["o1", "o2", "o13"], at=(14, 1), category=3)
    storm_moves(s)
    assert rules.TERRAIN[tuple(s["storm"]["at"])] == "land" and s["storm"]["category"] == 2


def test_no_automatic_land_decay_when_the_option_is_off():
    """With land_decay off, a land move without a weaken card keeps the category."""
    s = table(options={"land_decay": False})
    _quiet(s)
    force_storm(s, ["l8", "l7", "l9"], at=rules.CITY_HEX["lafayette"], category=3)
    storm_moves(s)
    assert s["storm"]["category"] == 3


def test_storm_stops_at_the_map_edge():
    """A step that would leave the map is skipped; the storm stays on the map."""
    s = table()
    _quiet(s)
    top = min(r for q, r in rules.TERRAIN if q == 16)
    force_storm(s, ["l4", "l8"], at=(16, top), category=1)
    s["storm"]["category"] = 1
    ev = storm_moves(s)
    assert tuple(s["storm"]["at"]) in rules.TERRAIN
    assert any(e["type"] == "storm_blocked" for e in ev)


def test_fortification_absorbs_one_hit_each_and_spaces_take_damage():
    """A fortification absorbs one hit; an undefended space is destroyed; people take damage."""
    s = table()
    _quiet(s)
    s["fortifications"]["msy_pumps"] = 2
    force_storm(s, ["o13", "o12", "o3"], at=(14, 1), category=2)
    storm_moves(s)
    assert s["fortifications"]["msy_pumps"] == 1  # hit once this turn (per_turn)
    assert "msy_hospital" in s["destroyed"]
    assert s["damage"]["population"] >= 2 and s["damage_by_city"][NO] >= 3


def test_per_step_hits_count_every_position():
    """With hits=per_step, a city under several centres of one move is hit several times."""
    s = table(options={"hits": "per_step"})
    _quiet(s)
    s["fortifications"]["msy_pumps"] = 5
    force_storm(s, ["o13", "o12", "o3"], at=(14, 1), category=2)
    storm_moves(s)
    assert s["fortifications"]["msy_pumps"] < 4


def test_dammed_road_never_floods_and_undammed_roads_flood():
    """A road dammed at both ends survives; an undammed one touched by the storm floods."""
    s = table()
    _quiet(s)
    s["dams"]["new_orleans-gulfport"] = [NO, "gulfport"]
    s["dams"]["houma-new_orleans"] = [NO]
    force_storm(s, ["o13", "o12", "o3"], at=(14, 1), category=2)
    ev = storm_moves(s)
    assert "new_orleans-gulfport" not in s["flooded"]
    assert "houma-new_orleans" in s["flooded"]
    assert {"type": "dam_held", "road": "new_orleans-gulfport"} in ev
    assert s["damage"]["roads"] == len(s["flooded"])


def test_category_one_that_weakens_ends_the_game_even_at_sea():
    """A category-1 storm that weakens dies out, at sea too, and the game ends."""
    s = table()
    _quiet(s)
    force_storm(s, ["o9", "o13"], at=(12, 6), category=1)
    ev = storm_moves(s)
    assert s["phase"] == "over" and s["ended"] == "dissipated"
    assert ev[-1]["type"] == "game_over" and ENGINE.finished(s)
    refused(s, 0, {"type": "end_turn"}, "game_over")


def test_final_move_damage_option():
    """With final_move_damage off, the move in which the storm dies does no damage."""
    for flag, hit in ((True, True), (False, False)):
        s = table(options={"final_move_damage": flag})
        _quiet(s)
        force_storm(s, ["o13", "o2"], at=(14, -1), category=1)
        storm_moves(s)
        assert s["ended"] == "dissipated"
        assert (s["damage"]["total"] > 0) is hit


def test_turn_cap_ends_the_game():
    """The turn cap guarantees an end."""
    s = table(options={"turn_cap": 6})
    while not ENGINE.finished(s):
        storm_moves(s)
    assert s["round"] <= 6 and s["ended"] in ("turn_cap", "dissipated")


def test_hold_storm_waits_for_the_storm_moves_action():
    """With hold_storm the storm waits for the class's "storm moves" after all have ended."""
    s = table(seats=2, roles=["architect", "relief_corps"], options={"hold_storm": True})
    _quiet(s)
    ENGINE.apply(s, 0, {"type": "end_turn"})
    ev = ENGINE.apply(s, 1, {"type": "end_turn"})
    assert s["phase"] == "storm" and ev[-1] == {"type": "storm_waiting"}
    assert ENGINE.to_act(s) == [] and {"type": "storm_moves"} in ENGINE.actions(s, None)
    at = list(s["storm"]["at"])
    ENGINE.apply(s, None, {"type": "storm_moves"})
    assert s["round"] == 2 or s["phase"] == "over"
    assert s["storm"]["history"][0]["from"] == at


def test_end_now_gives_a_partial_result():
    """End now stops the game at once; results say it is incomplete."""
    s = table(seats=2, roles=["architect", "relief_corps"])
    ENGINE.apply(s, None, {"type": "end_now"})
    res = ENGINE.results(s)
    assert [r["seat"] for r in res] == [0, 1]
    assert res[0]["breakdown"]["team"]["complete"] is False
    assert res[0]["breakdown"]["team"] == res[1]["breakdown"]["team"]


def test_same_storm_seed_same_storm_whatever_the_players_do():
    """Two tables with one storm_seed face the same storm, whatever their seeds and moves."""
    from stormfury_helpers import play_out

    a = ENGINE.setup(1, 4, {"storm_seed": 99, "turn_cap": 8})
    b = ENGINE.setup(2, 2, {"storm_seed": 99, "turn_cap": 8})
    ENGINE.apply(a, None, {"type": "auto_roles"})
    ENGINE.apply(b, None, {"type": "auto_roles"})
    play_out(a, "cooperative")
    play_out(b, "random")
    assert a["storm"]["history"] == b["storm"]["history"]


def test_refusals_are_readable_and_change_nothing():
    """Refusals carry a code and a plain message, and leave the state as it was."""
    s = table(seats=2, roles=["architect", "relief_corps"], cities=[NO, "mobile"])
    refused(s, 0, {"type": "fly"}, "unknown_action")
    refused(s, 5, {"type": "end_turn"}, "no_such_seat")
    refused(s, None, {"type": "fly"}, "unknown_action")
    refused(s, 0, {"type": "pick_role", "role": "architect"}, "wrong_phase")
    refused(s, None, {"type": "skip", "seat": 9}, "no_such_seat")
    refused(s, 0, "end_turn", "bad_action")
