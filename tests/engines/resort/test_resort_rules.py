"""The resort game's rules as the book (and RULES.md's readings) state them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from resort_helpers import give, land_on, next_die, space

from scenarios.base import IllegalAction
from scenarios.resort import ENGINE, build_programs
from scenarios.resort.rules import (
    CRUISEPORT,
    MONEY,
    OUTER,
    PROGRAMS,
    RESORTS,
    SAIL,
    TRIANGLE,
    WATER,
    category_hit,
    damage_for,
)


def fresh(seats=3, **options):
    return ENGINE.setup(5, seats, options)


def test_the_command_checks_the_programs_against_the_extract_in_the_repository():
    """A clean clone rebuilds the programs with nothing named and nothing beside it."""
    env = {key: value for key, value in os.environ.items() if key != build_programs.ENV}
    done = subprocess.run(
        [sys.executable, "-m", "scenarios.resort.build_programs", "--check"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "the programs are up to date"), done.stderr


@pytest.mark.parametrize("edition", [1, 2])
def test_the_programs_are_rebuilt_exactly_from_noaas_best_tracks(edition):
    """From the HURDAT2 extract the repository carries, whatever ``$STORMWISE_HURDAT2`` names."""
    committed = Path(build_programs.OUT[edition]).read_text(encoding="utf-8")
    assert build_programs.dumps(build_programs.build(str(build_programs.EXTRACT), edition)) == committed
    data = json.loads(committed)
    assert "HURDAT2" in data["provenance"] and "public domain" in data["provenance"]
    andrew = PROGRAMS["andrew-1992"]
    assert andrew["name"] == "Andrew" and andrew["peak_category"] == 5
    assert {"lat": 26, "lon": 80} in [
        {"lat": line["lat"], "lon": line["lon"]} for line in andrew["lines"]
    ]  # over Miami


def test_categories_follow_the_saffir_simpson_knot_thresholds():
    assert [build_programs.category(kt) for kt in (63, 64, 82, 83, 96, 112, 113, 136, 137)] == [
        0,
        1,
        1,
        2,
        3,
        3,
        4,
        4,
        5,
    ]


def test_edition_1_buying_a_resort_with_options_charges_price_and_options_and_the_set_pays_its_bonus():
    state = fresh(edition=1)
    rid = OUTER[1]
    land_on(state, 0, 1)
    assert (
        state["phase"] == "buy"
        and ENGINE.view(state, 0)["offer"]["choices"][3]["total"] == RESORTS[rid]["price"] + 3 * RESORTS[rid]["option"]
    )
    yellow = [r for r in RESORTS if RESORTS[r]["colour"] == "yellow" and r != rid]
    for other in yellow:
        give(state, 0, other)
    cash = state["seats"][0]["cash"]
    events = ENGINE.apply(state, 0, {"type": "buy", "options": 3})
    assert state["owner"][rid] == 0 and state["held"][rid] == 3
    assert state["seats"][0]["cash"] == cash - RESORTS[rid]["price"] - 3 * RESORTS[rid]["option"] + 25000
    assert {"type": "bonus", "seat": 0, "colour": "yellow", "amount": 25000} in events
    assert state["turn"] == 1


def test_edition_1_you_cannot_buy_more_than_you_can_pay_for():
    state = fresh(edition=1)
    land_on(state, 0, 1)
    state["seats"][0]["cash"] = RESORTS[OUTER[1]]["price"] + RESORTS[OUTER[1]]["option"]
    offered = [a["options"] for a in ENGINE.actions(state, 0) if a["type"] == "buy"]
    assert offered == [0, 1]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "buy", "options": 2})


def test_edition_1_landing_on_anothers_resort_sails_the_yacht_by_water_then_docks_with_fee_and_options():
    state = fresh(edition=1)
    target = "R05"  # St. Thomas, far from the cruiseport
    give(state, 1, target, 1)
    give(state, 0, "R13", 2)
    land_on(state, 0, OUTER.index(target))
    me = state["seats"][0]
    assert me["sail_to"] == target and tuple(me["yacht"]) == CRUISEPORT
    pawn = me["pawn"]
    for _ in range(5):
        ENGINE.apply(state, 1, {"type": "roll"}) if state["turn"] == 1 else None
        while state["turn"] != 0:
            seat = state["turn"]
            acts = ENGINE.actions(state, seat)
            ENGINE.apply(
                state,
                seat,
                next((a for a in acts if a["type"] == "pass"), acts[0]) if state["phase"] != "track" else acts[0],
            )
            if state["phase"] == "track":
                for s in ENGINE.to_act(state):
                    ENGINE.apply(state, s, ENGINE.actions(state, s)[0])
        before = tuple(me["yacht"])
        owner_cash, my_cash = state["seats"][1]["cash"], me["cash"]
        events = ENGINE.apply(state, 0, {"type": "roll"})
        sailed = next(e for e in events if e["type"] == "sailed")
        path = [before] + [tuple(c) for c in sailed["path"]]
        assert all(tuple(c) in WATER for c in path)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 2 for a, b in zip(path, path[1:]))  # one square, no diagonals
        assert me["pawn"] == pawn
        docked = [e for e in events if e["type"] == "docked"]
        if docked:
            fee = RESORTS[target]["fee"] * (2 if docked[0]["double"] else 1)
            assert state["seats"][1]["cash"] == owner_cash + fee and me["cash"] == my_cash - fee
            assert state["held"][target] == 2 and state["held"]["R13"] == 1  # the free option and the lost one
            assert me["docked"] == target and me["sail_to"] is None
            return
    pytest.fail("the yacht never docked within five turns")


def test_edition_1_the_fifth_sailing_turn_docks_directly_at_double_the_fee():
    state = fresh(2, edition=1)
    give(state, 1, "R05")
    land_on(state, 0, OUTER.index("R05"))
    me = state["seats"][0]
    me["sail_turn"] = 4
    me["yacht"] = list(CRUISEPORT)  # eleven squares away: one roll cannot make it
    state["turn"], state["phase"] = 0, "roll"
    cash = me["cash"]
    events = ENGINE.apply(state, 0, {"type": "roll"})
    docked = next(e for e in events if e["type"] == "docked")
    assert docked["double"] and docked["fee"] == 2 * RESORTS["R05"]["fee"]
    assert me["cash"] == cash - 2 * RESORTS["R05"]["fee"] - MONEY["no_option_penalty"]
    assert me["yacht"] == [RESORTS["R05"]["lat"], RESORTS["R05"]["lon"]]


def test_every_resort_can_be_reached_by_water_from_the_cruiseport_and_the_triangle():
    for rid in RESORTS:
        assert CRUISEPORT in SAIL[rid] and TRIANGLE in SAIL[rid]


def test_the_h_space_makes_every_player_place_the_storm_before_it_shows_then_damages_resorts():
    state = fresh(3, storm="andrew-1992")
    give(state, 1, "R01", 0)  # Miami Beach
    give(state, 2, "R02", 5)  # Nassau
    land_on(state, 0, space("h"))
    line = PROGRAMS["andrew-1992"]["lines"][0]
    view = ENGINE.view(state, 2)
    assert state["phase"] == "track" and sorted(ENGINE.to_act(state)) == [0, 1, 2]
    assert view["program"]["current"]["lat"] == line["lat"] and view["disk"] is None
    ENGINE.apply(state, 2, {"type": "track", "lat": line["lat"], "lon": line["lon"]})
    assert ENGINE.to_act(state) == [0, 1] and ENGINE.actions(state, 2) == []
    ENGINE.apply(state, 0, {"type": "track", "lat": 16, "lon": 98})
    cash = state["seats"][2]["cash"]
    events = ENGINE.apply(state, 1, {"type": "track", "lat": line["lat"], "lon": line["lon"] + 2})
    assert state["disk"] == [line["lat"], line["lon"]] and state["line"] == 1
    assert [s["exact"] for s in state["seats"]] == [0, 0, 1]
    assert state["seats"][2]["cash"] == cash + MONEY["exact_track_bonus"]
    assert state["phase"] == "roll" and state["turn"] == 1
    assert any(e["type"] == "storm" for e in events)


def test_edition_1_damage_follows_the_table_by_category_and_options_and_reach():
    miami = RESORTS["R01"]
    assert damage_for(miami, 4, 0, edition=1) == miami["price"] * 70 // 100
    assert damage_for(miami, 4, 5, edition=1) < damage_for(miami, 4, 3, edition=1) < damage_for(miami, 4, 0, edition=1)
    assert damage_for(miami, 0, 0, edition=1) == 0
    line = {"lat": 26, "lon": 80, "category": 4}
    assert category_hit(line, miami) == 4
    assert category_hit(line, RESORTS["R02"]) == 3  # Nassau, one square east
    assert category_hit(line, RESORTS["R05"]) == 0


def test_the_whole_of_andrew_costs_an_unprotected_miami_beach_more_than_a_protected_one():
    def season(options):
        state = fresh(2, storm="andrew-1992")
        give(state, 1, "R01", options)
        while not ENGINE.finished(state):
            seat = ENGINE.to_act(state)[0]
            acts = ENGINE.actions(state, seat)
            pick = next((a for a in acts if a["type"] in ("pass", "stay")), acts[0])
            ENGINE.apply(state, seat, pick)
        return state["seats"][1]["damage"]

    assert season(0) > season(5) > 0


def test_edition_1_the_bermuda_triangle_costs_three_turns_and_sends_you_to_the_next_shelter():
    state = fresh(2, edition=1)
    land_on(state, 0, OUTER.index("bermuda"))
    me = state["seats"][0]
    assert me["in_triangle"] and tuple(me["yacht"]) == TRIANGLE
    turns = 0
    while state["turn"] != 0:
        ENGINE.apply(state, 1, {"type": "roll"}) if state["phase"] == "roll" else ENGINE.apply(
            state,
            state["turn"],
            next(a for a in ENGINE.actions(state, state["turn"]) if a["type"] in ("pass", "stay", "track")),
        )
        turns += 1
        while state["phase"] == "track":
            for s in ENGINE.to_act(state):
                ENGINE.apply(state, s, ENGINE.actions(state, s)[0])
    assert not me["in_triangle"] and OUTER[me["pawn"]] == "shelter" and tuple(me["yacht"]) == CRUISEPORT
    assert state["round"] >= 5


def test_edition_1_a_mismanaged_resort_cost_the_lander_a_flat_fee_and_no_sailing():
    state = fresh(2, edition=1)
    give(state, 1, "R09")
    state["seats"][1]["in_triangle"], state["seats"][1]["lost"] = True, 3
    cash = state["seats"][0]["cash"]
    land_on(state, 0, OUTER.index("R09"))
    assert state["seats"][0]["cash"] == cash - MONEY["mismanaged_fee"] and state["seats"][0]["sail_to"] is None


def test_the_round_cap_reads_out_the_rest_of_the_program():
    state = fresh(2, round_cap=20)
    assert state["cap"] == 40  # twice the rounds of a four-seat table: the same number of turns
    state["round"], state["turn"] = 40, 1
    land_on(state, 1, OUTER.index("start"))
    assert ENGINE.finished(state) and state["line"] == len(ENGINE.program(state)["lines"])
    assert fresh(4, round_cap=20)["cap"] == 20 and fresh(3, round_cap=30)["cap"] == 40


def test_surprise_picks_a_storm_from_the_seed_and_hides_its_name_until_the_end():
    names = {ENGINE.setup(seed, 2, {})["program"] for seed in range(40)}
    assert len(names) > 5
    state = fresh(2)
    assert ENGINE.view(state, 0)["program"]["storm"] is None
    ENGINE.apply(state, None, {"type": "end_now"})
    assert ENGINE.view(state, 0)["program"]["storm"]["name"] == PROGRAMS[state["program"]]["name"]


def test_bad_options_and_seat_counts_are_refused():
    with pytest.raises(IllegalAction):
        ENGINE.setup(1, 2, {"storm": "nobody-1900"})
    with pytest.raises(IllegalAction):
        ENGINE.setup(1, 5, {})
    with pytest.raises(IllegalAction):
        ENGINE.canonical({"type": "option", "resort": "my house"})


def test_a_die_is_fixed_by_the_seed():
    a, b = fresh(2), fresh(2)
    assert next_die(a, 0) == next_die(b, 0)


def test_a_plot_is_accepted_exactly_when_it_is_offered():
    state = fresh(3, storm="andrew-1992")
    land_on(state, 0, space("h"))
    offered = ENGINE.actions(state, 1)
    assert len(offered) == 10 * 18 and {"type": "track", "lat": 26, "lon": 84} in offered
    ENGINE.apply(state, 1, {"type": "track", "lat": 26, "lon": 84})
    before = ENGINE.dump(state)
    for seat, action in [
        (1, {"type": "track", "lat": 26, "lon": 84}),  # already plotted
        (2, {"type": "track", "lat": 27, "lon": 84}),  # not a grid point
        (2, {"type": "track", "lat": 26, "lon": 62}),  # off the board
        (2, {"type": "track", "lat": True, "lon": 84}),
        (2, {"type": "track", "lat": "26", "lon": 84}),
        (2, {"type": "track", "lat": 26, "lon": 84, "x": 1}),
        ("2", {"type": "track", "lat": 26, "lon": 84}),
        (None, {"type": "track", "lat": 26, "lon": 84}),
        (7, {"type": "track", "lat": 26, "lon": 84}),
    ]:
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    assert ENGINE.dump(state) == before
    ENGINE.apply(state, 2, {"type": "track", "lat": 16, "lon": 98})
    assert ENGINE.to_act(state) == [0]
