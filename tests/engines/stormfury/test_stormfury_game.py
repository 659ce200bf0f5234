"""A scripted game with its damage worked out by hand, and the views and results."""

from stormfury_helpers import force_storm, hand, stack_deck

from scenarios.stormfury import ENGINE

NO = "new_orleans"


def test_scripted_game_damage_checked_by_hand():
    """Two players prepare New Orleans; a category-1 storm comes ashore there and dies.

    By hand: the storm (radius 1) goes (14,-1) -> (14,-2) -> (14,-3), New Orleans' hex.
    New Orleans is covered: the pumps' fortification absorbs the hit (0 damage), the hospital
    is destroyed (1), one person was evacuated so 1 person is hit (1). Roads with a hex within
    1 of the path: Houma-NO (13,-2), Baton Rouge-NO (13,-3), NO-Gulfport (15,-3),
    NO-Hattiesburg (14,-4); NO-Gulfport is dammed at both ends and holds, 3 flood (3).
    Total 5. The storm ends over land as a category 1, weakens, and the game ends.
    """
    s = ENGINE.setup(11, 2)
    stack_deck(s, ["material", "fortify_1", "dam", "sandbag"])
    ENGINE.apply(s, 0, {"type": "pick_role", "role": "architect", "city": NO})
    ENGINE.apply(s, 1, {"type": "pick_role", "role": "aquatic_engineer", "city": NO})
    assert s["players"][0]["hand"]["fortify_1"] >= 1
    s["players"][0]["hand"] = hand(material=1, fortify_1=1, evacuate=1, sandbag=2)
    s["players"][1]["hand"] = hand(dam=2, sandbag=2)
    ENGINE.apply(s, 0, {"type": "fortify", "card": "fortify_1", "space": "msy_pumps"})
    ENGINE.apply(s, 0, {"type": "evacuate", "people": 1, "discard": ["sandbag", "sandbag"]})
    ENGINE.apply(s, 0, {"type": "end_turn"})
    ENGINE.apply(s, 1, {"type": "dam", "road": "new_orleans-gulfport", "city": NO})
    ENGINE.apply(s, 1, {"type": "dam", "road": "new_orleans-gulfport", "city": "gulfport"})
    force_storm(s, ["o13", "o2"], at=(14, -1), category=1)
    events = ENGINE.apply(s, 1, {"type": "end_turn"})
    assert [e["at"] for e in events if e["type"] == "storm_step"] == [[14, -2], [14, -3]]
    assert s["damage"] == {"total": 5, "infrastructure": 1, "population": 1, "roads": 3}
    assert s["damage_by_city"][NO] == 2
    assert sorted(s["flooded"]) == ["baton_rouge-new_orleans", "houma-new_orleans", "new_orleans-hattiesburg"]
    assert s["fortifications"]["msy_pumps"] == 0 and s["destroyed"] == ["msy_hospital"]
    assert s["ended"] == "dissipated"
    res = ENGINE.results(s)
    assert [r["score"] for r in res] == [5, 5] and [r["rank"] for r in res] == [1, 1]
    team = res[0]["breakdown"]["team"]
    assert team["damage_by_type"] == {"infrastructure": 1, "population": 1, "roads": 3}
    assert team["infrastructure_lost"] == {"hospital": 1} and team["complete"] is True
    assert res[0]["breakdown"]["contributions"]["evacuated"] == 1
    assert res[1]["breakdown"]["contributions"]["dams"] == 2
    kinds = [e["type"] for e in s["last_storm"]]
    assert kinds.count("road_flooded") == 3 and "dam_held" in kinds and "dissipated" in kinds


def test_board_and_view_have_what_the_play_page_draws():
    """The board is static and complete; the view is small and per seat."""
    board = ENGINE.board()
    for key in ("hexes", "cities", "roads", "hurricane_cards", "resource_cards", "roles", "categories", "content_hash"):
        assert key in board
    assert all(c["basis"] is None or c["basis"]["source"] for c in board["hurricane_cards"])
    assert all("middle" in r and r["hexes"] for r in board["roads"])
    s = ENGINE.setup(4, 3, {"open_hands": False})
    ENGINE.apply(s, None, {"type": "auto_roles"})
    v = ENGINE.view(s, 1)
    for key in (
        "phase",
        "round",
        "storm",
        "forecast",
        "players",
        "hand",
        "damage",
        "damage_by_city",
        "fortifications",
        "dams",
        "flooded",
        "population",
        "relief_pile",
        "offers",
        "last_storm",
        "actions",
    ):
        assert key in v
    assert v["storm"]["footprint"] and v["forecast"]["reach"] and v["forecast"]["threat"]
    assert len(v["forecast"]["cards"]) == 5 and v["forecast"]["draws"] == 3
    assert "hand" not in v["players"][0] and "hand" in v["players"][1]
    assert {"type": "end_turn"} in v["actions"] or any(a["type"] == "discard" for a in v["actions"])
    teacher = ENGINE.view(s, None)
    assert all("hand" in p for p in teacher["players"])
    assert {"type": "end_now"} in teacher["actions"]


def test_options_form():
    """Options list name, label, default, choices and description for the teacher's form."""
    names = {o["name"] for o in ENGINE.options()}
    assert {"storm_seed", "hold_storm", "turn_order", "turn_cap"} <= names
    for o in ENGINE.options():
        assert (
            {"name", "label", "default", "choices", "description"}
            <= set(o)
            <= {"name", "label", "default", "choices", "description", "choice_labels"}
        )
        assert set(o.get("choice_labels", {})) <= set(o["choices"] or ())
    assert ENGINE.key == "stormfury" and isinstance(ENGINE.schema_version, int)
    assert ENGINE.version and ENGINE.content_hash
