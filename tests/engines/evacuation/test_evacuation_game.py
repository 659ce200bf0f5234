"""A whole scripted game, every figure worked out by hand from the rule book's formulas."""

from evacuation_helpers import fresh, play

from scenarios.evacuation import ENGINE, PRESETS, rules

D = lambda to: {"type": "drive", "to": to}  # noqa: E731


def test_scripted_two_seat_game():
    """Seed 3: seat 0 (20 gal, $900) does every errand; seat 1 (17 gal, $300) goes straight to the shelter.

    Every die is forced to 10 (every road passes) and every chance card to "Clear road" except
    one "Hot car" for seat 1, so the clock, fuel and cash can be followed link by link.
    """
    state = fresh(seats=2, seed=3, race_points="on", half_tank="off")  # the book's 30/20/10, no tank points
    s0, s1 = state["seats"]
    assert (s0["fuel"], s0["cash"], s1["fuel"], s1["cash"]) == (20, 900, 17, 300)
    rules.force(state, 0, dice=[10] * 40, cards=["C35"] * 10, damage=7)
    rules.force(state, 1, dice=[10] * 40, cards=["C22", "C35", "C35", "C35"], damage=4)

    # Seat 0 -----------------------------------------------------------------------------------
    play(
        state,
        0,
        {"type": "set_destination", "destination": "relative"},
        {"type": "reason", "about": "destination", "choice": "family"},
    )
    play(state, 0, D("BK"))  # H-N1-N3-BK: 3 links
    assert (s0["clock"], s0["fuel"]) == (90, 17)
    play(state, 0, {"type": "reason", "about": "leave", "choice": "unsafe"})
    play(state, 0, {"type": "withdraw", "amount": 2000})  # 30 minutes
    assert (s0["clock"], s0["cash"]) == (120, 2900)
    play(state, 0, D("HS"))  # BK-N8-N4-HS, two clear-road cards
    assert (s0["clock"], s0["fuel"]) == (210, 14)
    play(state, 0, {"type": "buy_home_supplies"})  # $500, 1 hour
    assert (s0["clock"], s0["cash"]) == (270, 2400)
    play(state, 0, D("GS"))  # HS-N4-GS
    assert (s0["clock"], s0["fuel"]) == (330, 12)
    play(state, 0, {"type": "buy_fuel", "gallons": 8})  # 8 x $5 = $40, 30 minutes
    play(state, 0, {"type": "buy_supplies", "units": 25})  # 25 x $10 = $250, 30 min + lost turn 60
    assert (s0["clock"], s0["cash"], s0["fuel"], s0["supplies"]) == (450, 2110, 20, 75)
    play(state, 0, D("H"))  # GS-N1-H, then 2 h securing
    assert (s0["clock"], s0["fuel"], s0["secured"]) == (630, 18, True)
    play(state, 0, D("RE"))  # 8 links, the east bridge needs no roll
    assert (s0["status"], s0["arrived_at"], s0["fuel"]) == ("arrived", 870, 10)
    assert [c for c in ENGINE.view(state, 0)["changes"]] == []  # no card changed the system

    # Seat 1 -----------------------------------------------------------------------------------
    play(
        state,
        1,
        {"type": "set_destination", "destination": "shelter"},
        {"type": "reason", "about": "destination", "choice": "skip"},
    )
    play(state, 1, D("SH"))  # H-N2-N7-N12-N13-N14-N15-N10-SH
    assert (s1["status"], s1["arrived_at"], s1["fuel"], s1["supplies"]) == ("arrived", 240, 9, 40)
    assert ENGINE.finished(state)
    play(state, 1, {"type": "reason", "about": "leave", "choice": "traffic"})  # still answerable

    # Scoring, by hand (final system: fuel $5, supplies $10) -----------------------------------
    # Seat 0: cash 2110 - savings 2000 (net bank scoring) + fuel 10x5 + supplies 75x10
    #         - damage (7-5)x500 - relative 100 = -190  -> -1.90 points
    #         + relative 25 + in time 20 + second to arrive 20 = 63.10
    # Seat 1: cash 300 + fuel 9x5 + supplies 40x10 - damage 4x500 - shelter 0 = -1255 -> -12.55
    #         + shelter 5 + in time 20 + first to arrive 30 = 42.45
    rows = {r["seat"]: r for r in ENGINE.results(state)}
    assert rows[0]["breakdown"]["cash"]["total"] == -190
    assert rows[0]["breakdown"]["points"] == {
        "cash": -1.9,
        "destination": 25,
        "in_time": 20,
        "arrival_order": 20,
        "total": 63.1,
    }
    assert rows[1]["breakdown"]["cash"]["total"] == -1255
    assert rows[1]["score"] == 42.45
    assert (rows[0]["rank"], rows[1]["rank"]) == (1, 2)
    safety = rows[0]["breakdown"]["safety"]
    assert (
        safety["arrived_in_time"],
        safety["home_secured"],
        safety["supplies"],
        safety["fuel"],
        safety["destination"],
    ) == (True, True, 75, 10, "relative")
    assert s0["reasons"] == {"destination": "family", "leave": "unsafe"}

    # With the default race_points='half' the order points are 10 and 15 instead.
    state["options"]["race_points"] = "half"
    rows = {r["seat"]: r for r in ENGINE.results(state)}
    assert (rows[0]["score"], rows[1]["score"]) == (53.1, 27.45)


def test_same_game_with_book_bank_scoring_adds_the_withdrawal():
    """With bank_scoring='book' the $2,000 withdrawn counts: seat 0 scores 20 points more."""
    state = fresh(seats=1, seed=3, bank_scoring="book", race_points="on", half_tank="off")
    rules.force(state, 0, dice=[10] * 20, cards=["C35"] * 10, damage=7)
    play(
        state,
        0,
        {"type": "set_destination", "destination": "relative"},
        D("BK"),
        {"type": "withdraw", "amount": 2000},
        D("HS"),
        {"type": "buy_home_supplies"},
        D("GS"),
        {"type": "buy_fuel", "gallons": 8},
        {"type": "buy_supplies", "units": 25},
        D("H"),
        D("RE"),
    )
    row = ENGINE.results(state)[0]
    # Alone at the table: first to arrive (30) instead of second (20): 1810/100 + 25 + 20 + 30.
    assert row["score"] == 18.1 + 25 + 20 + 30


def test_as_printed_preset_scored_by_hand_from_the_book():
    """The "As printed" preset: no warning timeline, every dollar on hand scores, 30/20/10 for
    the order of arrival, and the Scoring section's destination points (relative 25, hotel 20,
    shelter 5), where the book's destination table says 50/25/5.

    Seed 3: seat 0 has 20 gallons and $900, seat 1 17 gallons and $300, seat 2 20 gallons and
    $300. Every die is 10; seats 0 and 1 play the errands of the scripted game above, seat 2
    draws "Forgot the medicine" on Coast Road, drives the one road home and stays there.
    """
    state = fresh(seats=3, seed=3, **PRESETS["as_printed"])
    assert state["changes"] == []  # the book's state of the system never moves by the clock
    rules.force(state, 0, dice=[10] * 40, cards=["C35"] * 10, damage=7)
    rules.force(state, 1, dice=[10] * 40, cards=["C22", "C35", "C35", "C35"], damage=4)
    rules.force(state, 2, dice=[10] * 40, cards=["C20"], damage=9)
    play(
        state,
        0,
        {"type": "set_destination", "destination": "relative"},
        D("BK"),
        {"type": "withdraw", "amount": 2000},
        D("HS"),
        {"type": "buy_home_supplies"},
        D("GS"),
        {"type": "buy_fuel", "gallons": 8},
        {"type": "buy_supplies", "units": 25},
        D("H"),
        D("RE"),
    )
    play(state, 1, {"type": "set_destination", "destination": "shelter"}, D("SH"))
    play(state, 2, D("N2"))
    s2 = state["seats"][2]
    assert (s2["pos"], s2["clock"], s2["fuel"]) == ("H", 60, 18)  # out one link, back one link
    play(state, 2, {"type": "stay_home"})
    assert ENGINE.finished(state)

    # Cash points (book): cash on hand + fuel x $5 + supplies x $10 - damage - accommodation.
    # Seat 0: 2110 + 10x5 + 75x10 - (7-5)x500 - 100 = 1810 -> 18.10
    #         + relative 25 + in time 20 + second to arrive (minute 870 after seat 1's 240) 20 = 83.10
    # Seat 1: 300 + 9x5 + 40x10 - 4x500 - 0 = -1255 -> -12.55 + shelter 5 + in time 20 + first 30 = 42.45
    # Seat 2: 300 + 18x5 + 50x10 - 0 (sent home by a card: no damage) - 0 = 890 -> 8.90
    #         + starting location 0 + not evacuated 0 = 8.90
    rows = {r["seat"]: r for r in ENGINE.results(state)}
    assert rows[0]["breakdown"]["cash"]["total"] == 1810
    assert rows[0]["breakdown"]["points"] == {
        "cash": 18.1,
        "destination": 25,
        "in_time": 20,
        "arrival_order": 30 - 10,
        "total": 83.1,
    }
    assert rows[1]["breakdown"]["cash"]["total"] == -1255 and rows[1]["score"] == 42.45
    assert rows[2]["breakdown"]["cash"]["total"] == 890 and rows[2]["score"] == 8.9
    assert [rows[s]["rank"] for s in (0, 1, 2)] == [1, 2, 3]

    # The tuned defaults score the same play differently: 10/5 order points, bank savings not
    # counted, so seat 0 has 83.10 - 20 (withdrawal) - 10 (half of second place) = 53.10.
    state["options"].update(bank_scoring="net", race_points="half")
    assert {r["seat"]: r["score"] for r in ENGINE.results(state)} == {0: 53.1, 1: 27.45, 2: 8.9}


def test_frozen_schema_1_state_loads_and_plays_on():
    """A state stored by engine 1.0.0 (schema 1) loads unchanged and plays to the end."""
    import json
    from pathlib import Path

    from evacuation_helpers import play_out

    from scenarios.evacuation.bots import BOTS

    data = json.loads((Path(__file__).parent / "frozen_state_v1.json").read_text())
    assert data["schema"] == 1 and data["version"] == "1.0.0"
    state = ENGINE.load(data)
    assert ENGINE.dump(state) == data
    play_out(state, [BOTS["cautious"]] * 3)
    assert ENGINE.finished(state) and len(ENGINE.results(state)) == 3


def test_edition_2_scores_half_a_tank_on_arrival_and_stored_games_keep_their_rules():
    """New games play rules edition 2: 5 points for a family that arrives with at least half a
    tank (10 of 20 gallons). Seed 3, every die a 10, every card "Clear road": seat 0 tops its 18
    gallons up at the town's station and arrives with 11, seat 1 drives out on its 17 and arrives
    with 9. A state stored before
    the option (no ``half_tank`` in its options) and the As-printed preset score as before."""
    from scenarios.evacuation.bots import BOTS

    def drive_out(state):
        rules.force(state, 0, dice=[10] * 40, cards=["C35"] * 20, damage=7)
        rules.force(state, 1, dice=[10] * 40, cards=["C35"] * 20, damage=7)
        play(
            state,
            0,
            {"type": "set_destination", "destination": "relative"},
            D("GS"),
            {"type": "buy_fuel", "gallons": 2},
            D("RE"),
        )
        play(state, 1, {"type": "set_destination", "destination": "relative"}, D("RE"))
        while not ENGINE.finished(state):
            for seat in ENGINE.to_act(state):
                ENGINE.apply(state, seat, BOTS["cautious"](state, seat))
        return {r["seat"]: r for r in ENGINE.results(state)}

    state = fresh(seats=2, seed=3)
    assert state["options"]["half_tank"] == "on"
    rows = drive_out(state)
    fuel = {seat: rows[seat]["breakdown"]["safety"]["fuel"] for seat in rows}
    assert fuel == {0: 11, 1: 9}
    assert rows[0]["breakdown"]["points"]["half_tank"] == 5 and rows[1]["breakdown"]["points"]["half_tank"] == 0
    stored = fresh(seats=2, seed=3)
    del stored["options"]["half_tank"]  # as engine 1.2.0 stored its games
    old = drive_out(stored)
    assert "half_tank" not in old[0]["breakdown"]["points"]
    assert old[0]["score"] == rows[0]["score"] - 5 and old[1]["score"] == rows[1]["score"]
    printed = fresh(seats=2, seed=3, **PRESETS["as_printed"])
    assert printed["options"]["half_tank"] == "off"


def test_the_debriefs_what_if_replays_a_stored_game_under_its_own_edition():
    """A game stored before the half-tank points (its state has no ``half_tank``) is replayed by
    the debrief's what-if without them, whatever the session's options say; a new game with them."""
    from scenarios.evacuation import counterfactuals
    from scenarios.evacuation.bots import BOTS

    state = fresh(seats=2, seed=11)
    moves = []
    while not ENGINE.finished(state):
        for seat in ENGINE.to_act(state):
            action = BOTS["cautious"](state, seat)
            ENGINE.apply(state, seat, action)
            moves.append({"seat": seat, "action": action})
    table = {"seed": 11, "options": {}, "state": ENGINE.dump(state), "moves": moves}
    assert counterfactuals.decision_point(table, 0)["state"]["options"]["half_tank"] == "on"
    del table["state"]["options"]["half_tank"]
    assert counterfactuals.decision_point(table, 0)["state"]["options"]["half_tank"] == "off"
