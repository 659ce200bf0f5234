"""Tornado Alert!'s rules as RULES.md reads the Dutch rule book: the deck, slapping, the tornado
and lightning, the special cards, races between slaps, scoring and the free-play variant.

The book's mechanics that both rules editions share are shown on edition 1's cards (``game()``);
what edition 2 changes (the deck ranked by exposure, safe places never struck, Game Over drawn,
the Cheat as written, races settled by the server) has tests of its own."""

import pytest

from scenarios.base import IllegalAction
from scenarios.tornado_alert import ENGINE, rules
from scenarios.tornado_alert.bots import BOTS


def game(seats=4, **options):
    """A fresh game with an empty play pile and no point stacks; seat 0 to play (edition 1's
    cards unless told)."""
    options.setdefault("edition", 1)
    state = ENGINE.setup(7, seats, options)
    state["turn"] = 0
    return state


def up(*cards):
    return [[c, True] for c in cards]


def test_the_deck_has_75_cards_and_values_rise_with_exposure():
    """Edition 2: 68 photo locations and 7 special cards; a place is worth more the more exposed
    it is (NWS/SPC tornado safety): underground or under water are safe and have no tornado card,
    an observatory is not a shelter, a window is no safer than a ditch, a submarine is not a boat.
    Every place a tornado can strike carries a safety note with its fact and a grade a tablet may
    show (never U); a safe place's note is the game's own reasoning, marked as such."""
    deck = rules.DECK[2]
    assert len(deck) == 75 and len(rules.DECK[1]) == 75
    locations = [rules.CARDS[c] for c in deck if rules.CARDS[c]["kind"] == "location"]
    assert len(locations) == 68 and sum(c["tornado"] for c in locations) == 10
    values = {loc["id"]: loc["value"] for loc in rules.DECKS[2]["locations"]}
    assert rules.SAFE == {"cellar", "submarine"} and values["cellar"] == values["submarine"] == 1
    assert not any(c["tornado"] for c in locations if c["location"] in rules.SAFE)
    assert values["observatory"] > values["cellar"] and values["window"] >= values["ditch"]
    assert values["car"] > values["ditch"] and values["boat"] > values["submarine"] and values["mast"] == 5
    for loc in ENGINE.board()["locations"]:
        basis = loc["basis"]
        if loc["id"] in rules.SAFE and basis.get("reason"):
            assert not basis.get("fact") and not basis.get("source") and not basis.get("grade")
        else:
            assert basis["fact"] and basis["source"] and basis["grade"] in ("O", "S") and basis["url"]
    car = rules.LOCATIONS["car"]["basis"]["text"]
    assert "Drive to the closest sturdy shelter" in car and "under a bridge" in car


@pytest.mark.parametrize("seats,size", [(2, 6), (5, 6), (6, 5)])
def test_hands_are_dealt_and_game_over_is_buried_in_the_bottom_part(seats, size):
    for seed in range(20):
        state = ENGINE.setup(seed, seats)
        assert all(len(hand) == size for hand in state["hands"])
        held = [c for hand in state["hands"] for c in hand]
        assert "gameover" not in held and state["draw"].index("gameover") <= rules.BOTTOM


def test_a_slap_takes_as_many_cards_as_the_top_card_says_in_their_order():
    state = game(race_ms=0)
    state["pile"] = ["tree-1", "cellar-1", "window-1", "car-1"]  # car (3) on top
    state["last_player"] = 0
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 0, {"type": "slap", "pile": state["pile_id"]})
    assert refused.value.code == "own_card"
    events = ENGINE.apply(state, 2, {"type": "slap", "pile": state["pile_id"]})
    assert events[0] == {"type": "take", "seat": 2, "cards": ["cellar-1", "window-1", "car-1"], "short": False}
    assert state["pile"] == ["tree-1"] and state["stacks"][2] == up("cellar-1", "window-1", "car-1")
    assert rules.location_of(state["stacks"][2]) == "car"
    # the same player may not take twice before the next card is played
    state["pile"].append("boat-1")
    assert not rules.may_slap(state, 2) and rules.may_slap(state, 0)


def test_too_few_cards_on_the_pile_go_face_down_under_the_stack():
    state = game(race_ms=0)
    state["stacks"][1] = up("ditch-1")
    state["pile"] = ["window-2", "mast-1"]  # the mast asks for 5
    ENGINE.apply(state, 1, {"type": "slap", "pile": state["pile_id"]})
    assert state["stacks"][1] == [["window-2", False], ["mast-1", False], ["ditch-1", True]]
    assert rules.average(state["stacks"][1], 0) == round(2 / 3, 2)
    assert rules.average(state["stacks"][1], -1) == 0.0


def test_the_tornado_strikes_players_whose_top_card_is_its_location():
    state = game()
    state["stacks"][1] = up("window-1", "car-1")
    state["stacks"][2] = up("car-2", "boat-1")
    state["hands"][0][0] = "car-t1"
    events = ENGINE.apply(state, 0, {"type": "play", "card": "car-t1"})
    assert {"type": "tornado", "location": "car", "hit": [1]} in events
    assert state["stacks"][1] == [["car-1", False], ["window-1", True]]
    assert state["stacks"][2] == up("car-2", "boat-1")


def test_lightning_strikes_when_the_same_location_is_played_twice_in_a_row():
    """It turns the lowest card worth at least 1 (of equals, the topmost) face down."""
    state = game()
    state["stacks"][3] = up("cellar-1", "genie-1", "window-1", "boat-1", "cellar-2", "boat-2")
    state["pile"] = ["boat-3"]
    state["hands"][0][0] = "boat-4"
    events = ENGINE.apply(state, 0, {"type": "play", "card": "boat-4"})
    assert {"type": "lightning", "location": "boat", "hit": [3]} in events
    assert state["stacks"][3][0] == ["cellar-2", False]
    assert [c for c, _ in state["stacks"][3][1:]] == ["cellar-1", "genie-1", "window-1", "boat-1", "boat-2"]


def test_genie_rover_and_wedge():
    state = game(race_ms=0)
    state["stacks"][1] = [["mast-1", False], ["car-1", True]]
    state["pile"] = ["wedge", "genie-1", "window-1"]
    events = ENGINE.apply(state, 1, {"type": "slap", "pile": state["pile_id"]})
    assert {"type": "genie", "seat": 1, "flipped": 1} in events
    assert {"type": "wedge", "seat": 1, "chip": 1} in events and state["chips"][1] == [1, 0]
    assert all(face for _, face in state["stacks"][1]) and rules.location_of(state["stacks"][1]) == "window"
    state["pile"] = ["wedge", "rover", "ditch-2"]
    state["last_taker"] = None  # as after the next card played
    events = ENGINE.apply(state, 1, {"type": "slap", "pile": state["pile_id"]})
    assert {"type": "rover", "seat": 1, "lost": 6} in events and state["stacks"][1] == []
    assert state["chips"][1] == [2, 0]  # the wedge stayed on top again
    state["pile"] = ["cellar-4", "wedge", "window-3"]
    state["last_taker"] = None
    ENGINE.apply(state, 3, {"type": "slap", "pile": state["pile_id"]})
    assert state["chips"][3] == [0, 1]  # took the wedge itself


def test_game_over_taken_ends_the_round_and_scores_every_stack():
    state = game(race_ms=0)
    state["stacks"][0] = up("cheat-1", "mast-1", "tree-1", "car-1")  # 12/4 = 3.0 -> +0.6
    state["stacks"][1] = up("window-1")
    state["pile"] = ["cellar-2", "gameover", "boat-1"]
    state["last_player"] = 3
    events = ENGINE.apply(state, 2, {"type": "slap", "pile": state["pile_id"]})
    assert events[-1]["type"] == "round_over" or any(e["type"] == "round_over" for e in events)
    assert state["phase"] == "decide"
    assert [r[-1]["avg"] for r in state["results"]] == [3.6, 2.0, 1.33, 0.0]
    assert ENGINE.to_act(state) == [0, 1, 2, 3]


def test_striking_a_result_costs_a_minus_chip_and_the_worst_counted_round_wins():
    """The rule book's example: Jan scores 3.25, then 0 (struck, a minus chip), then 3 - 1 = 2."""
    results = [
        {"avg": 3.25, "applied": 0, "struck": False},
        {"avg": 0.0, "applied": 0, "struck": True},
        {"avg": 3.0, "applied": -1, "struck": False},
    ]
    assert rules.final(results) == 2.0
    state = game()
    state["phase"] = "decide"
    for s in range(4):
        state["results"][s] = [{"round": 1, "avg": 1.0 + s, "applied": 0, "struck": False, "cards": 3}]
    state["chips"][3] = [1, 0]
    ENGINE.apply(state, 0, {"type": "strike"})
    ENGINE.apply(state, 3, {"type": "use_plus"})
    assert state["chips"][0] == [0, 1] and state["results"][3][0]["applied"] == 1
    ENGINE.apply(state, 1, {"type": "keep"})
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "keep"})
    ENGINE.apply(state, 2, {"type": "keep"})
    assert state["round"] == 2 and state["phase"] == "play" and state["stacks"] == [[], [], [], []]


def test_the_last_scoring_spends_every_chip_left():
    state = game()
    state["round"] = 3
    state["chips"][0] = [1, 0]
    state["chips"][1] = [0, 2]
    ENGINE.apply(state, None, {"type": "end_now"})
    assert state["results"][0][-1]["applied"] == 1 and state["results"][1][-1]["applied"] == -2
    assert [r["score"] for r in ENGINE.results(state)][:2] == [1.0, -2.0]


def test_slaps_in_the_race_window_are_equal_and_a_fair_draw_picks_the_winner():
    """The first slap opens a race; a later slap aimed at the same pile joins it; the system
    settles it at the deadline the first slap fixed, by a draw from the seed, so arriving first
    does not decide. No seat is offered ``settle``, and one that sends it is refused as unknown."""
    wins = {1: 0, 2: 0}
    for seed in range(200):
        state = ENGINE.setup(seed, 4, {"allowance_ms": 0})  # the race window alone
        state["pile"] = ["cellar.1", "car.1", "boat.1", "window.1"]
        state["last_player"] = 0
        aimed = state["pile_id"]
        ENGINE.apply(state, 1, {"type": "slap", "pile": aimed})  # the fast tablet
        due = ENGINE.due(state)
        assert due == {"key": f"race-1-{state['races']}", "seconds": 0.3, "action": {"type": "settle"}}
        assert 1 not in ENGINE.to_act(state) and {"type": "settle"} in ENGINE.actions(state, None)
        assert all(a["type"] != "settle" for s in range(4) for a in ENGINE.actions(state, s))
        with pytest.raises(IllegalAction) as crafted:
            ENGINE.apply(state, 1, {"type": "settle"})
        assert crafted.value.code == "unknown_action"
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 1, {"type": "play", "card": state["hands"][1][0]})
        ENGINE.apply(state, 2, {"type": "slap", "pile": aimed})  # the slow one, still in the window
        assert ENGINE.due(state) == due  # joining does not move the deadline
        events = ENGINE.apply(state, None, {"type": "settle"})
        race = events[0]
        assert race["type"] == "race" and race["slaps"] == [1, 2]
        assert state["last_take"]["how"] == "draw" and state["last_take"]["slaps"] == [1, 2]
        wins[race["winner"]] += 1
        # a slap arriving after the race was settled is told the truth: too late, the pile was taken
        with pytest.raises(IllegalAction) as late:
            ENGINE.apply(state, 3, {"type": "slap", "pile": aimed})
        assert late.value.code == "too_late" and late.value.params == {"player": race["winner"] + 1}
        assert str(late.value) == f"Too late: the pile was taken by Player {race['winner'] + 1}."
        assert ENGINE.due(state) is None
    assert 70 <= wins[1] <= 130 and wins[1] + wins[2] == 200


def test_a_lone_slap_takes_the_pile_alone_and_a_slap_is_judged_by_its_pile_only():
    state = ENGINE.setup(3, 4)
    state["pile"] = ["cellar.1", "window.1"]
    state["last_player"] = 0
    ENGINE.apply(state, 2, {"type": "slap", "pile": state["pile_id"]})
    ENGINE.apply(state, None, {"type": "settle"})
    assert state["last_take"]["how"] == "alone" and state["last_take"]["seat"] == 2
    assert ENGINE.aimed({"type": "slap", "pile": 3}) and ENGINE.aimed({"type": "wait", "pile": 3})
    assert not ENGINE.aimed({"type": "play", "card": "cellar-1"}) and not ENGINE.aimed({"type": "settle"})


def test_without_a_window_the_first_slap_to_arrive_takes_the_cards():
    state = game(race_ms=0, edition=2)
    state["pile"] = ["cellar.1", "ditch.1"]
    aimed = state["pile_id"]
    ENGINE.apply(state, 3, {"type": "slap", "pile": aimed})
    assert state["stacks"][3] == up("cellar.1", "ditch.1") and state["race"] is None
    assert state["last_take"]["how"] == "first"
    with pytest.raises(IllegalAction) as late:
        ENGINE.apply(state, 1, {"type": "slap", "pile": aimed})
    assert late.value.code == "too_slow" and str(late.value) == "Player 4 was faster."


def test_the_free_variant_has_no_turn_order_and_punishes_a_wrong_hand_at_game_over():
    state = game(variant="free", race_ms=0)
    assert ENGINE.to_act(state) == [0, 1, 2, 3]
    card = state["hands"][2][0]
    ENGINE.apply(state, 2, {"type": "play", "card": card})
    ENGINE.apply(state, 2, {"type": "play", "card": state["hands"][2][0]})  # twice in a row
    state["draw"] = []
    ENGINE.apply(state, 1, {"type": "play", "card": state["hands"][1][0]})  # could not draw: 5 cards
    state["pile"] = ["gameover", "window-1"]
    ENGINE.apply(state, 3, {"type": "slap", "pile": state["pile_id"]})
    assert state["chips"][1] == [0, 1] and state["chips"][0] == [0, 0]


def test_bots_react_like_people_and_the_race_waits_for_the_window():
    state = game(bot_reaction_ms=900, edition=2)
    state["pile"] = ["cellar.1", "window.1"]
    state["last_player"] = 0
    delays = set()
    for n in range(50):
        state["moves"] = n
        delay = ENGINE.pace(state, 2, True, 1.0)
        assert 0.45 <= delay <= 1.35
        delays.add(delay)
    assert len(delays) > 10
    assert ENGINE.pace(state, 2, False, None) is None  # a person has no timer
    assert ENGINE.pace(state, 2, False, 60) is None  # nor a turn timer for a pile they may let go
    assert ENGINE.pace(state, 0, False, 60) == 60  # the seat to play keeps the teacher's turn timer
    assert ENGINE.pace(state, 0, True, 0) == 0  # fast-forward
    ENGINE.apply(state, 2, {"type": "slap", "pile": state["pile_id"]})
    assert 2 not in ENGINE.to_act(state) and ENGINE.due(state)["seconds"] == 0.3  # the system settles it


@pytest.mark.parametrize("variant", ["turns", "free"])
def test_policy_bots_play_whole_games_with_results_for_everyone(variant):
    bot = BOTS["photographer"]
    for seed in range(10):
        state = ENGINE.setup(seed, 4, {"variant": variant})
        for step in range(5000):
            if ENGINE.finished(state):
                break
            acting = ENGINE.to_act(state)
            if not acting:  # everyone has slapped or let the pile go: the system settles the race
                ENGINE.apply(state, None, ENGINE.due(state)["action"])
                continue
            seat = acting[step % len(acting)]
            ENGINE.apply(state, seat, bot(state, seat))
        assert ENGINE.finished(state) and len(state["results"][0]) == 3
        assert sorted(r["rank"] for r in ENGINE.results(state))[0] == 1


# --- edition 2: the safe places are safe, Game Over drawn, the Cheat as written, Variant 2 ---------


def test_no_tornado_or_lightning_strikes_a_safe_place():
    state = game(edition=2)
    state["stacks"][1] = up("window.1", "cellar.1")  # sheltering in the storm cellar
    state["stacks"][2] = up("cellar.2", "car.1")  # photographing from a car
    state["pile"] = ["cellar.3"]
    state["hands"][0][:2] = ["cellar.4", "car.t1"]
    events = ENGINE.apply(state, 0, {"type": "play", "card": "cellar.4"})  # the same place twice
    assert not any(e["type"] in ("lightning", "tornado") for e in events)
    assert state["stacks"][1] == up("window.1", "cellar.1")
    state["turn"] = 0
    events = ENGINE.apply(state, 0, {"type": "play", "card": "car.t1"})
    assert {"type": "tornado", "location": "car", "hit": [2]} in events
    assert state["stacks"][1] == up("window.1", "cellar.1")


def test_drawing_the_game_over_card_ends_the_round_at_once():
    """ "Wanneer de 'Game Over' kaart wordt gepakt" — gepakt as a card is taken from the draw
    pile: the round ends when it is drawn, and in Tornado Alert! 2 it counts in the drawer's hand."""
    state = game(variant="free", edition=2)
    state["draw"].append("gameover")
    state["hands"][3].pop()  # seat 3 holds a card too few
    card = state["hands"][1][0]
    events = ENGINE.apply(state, 1, {"type": "play", "card": card})
    assert {"type": "round_over", "round": 1, "reason": "game_over_drawn", "seat": 1} in events
    assert state["phase"] == "decide" and "gameover" in state["hands"][1]
    assert state["chips"][1] == [0, 0] and state["chips"][3] == [0, 1]  # the wrong hand pays


def test_the_cheat_counts_from_2_9_as_written_down():
    """84 / 29 = 2.897, written 2.90: from edition 2 the Cheat's +0.6 counts."""
    stack = up(*["window.1"] * 28, "cheat-1")
    assert rules.average(stack, 0, 2) == 3.5
    assert rules.average(stack, 0, 1) == 2.9  # edition 1 compared the unrounded 2.897


def test_tornado_alert_2_is_for_3_to_6_players():
    assert ENGINE.setup(1, 2, {"variant": "free"})["options"]["variant"] == "turns"
    assert ENGINE.setup(1, 3, {"variant": "free"})["options"]["variant"] == "free"
    assert ENGINE.setup(1, 2, {"variant": "free", "edition": 1})["options"]["variant"] == "free"


DANGEROUS = ("boat", "rooftop", "mountaintop", "tree", "helicopter", "mast")


def test_the_most_dangerous_places_safety_notes_reach_the_students_who_should_read_them():
    """The notes of the most exposed places say only what the Weather Service's tornado-safety
    page (fact ``tornado-interior-room``, grade O) advises, so they are graded O as RULES.md says
    and a 10-year-old's tablet shows them, in a Gentle session too; they once cited a secondary
    figure on debris injuries (grade S) that no student ever saw."""
    from scenarios.audience import Audience

    board = {loc["id"]: loc for loc in ENGINE.board()["locations"]}
    youngest = {loc["id"]: loc for loc in Audience.of("gentle", "10+").redact(ENGINE.board())["locations"]}
    for place in DANGEROUS:
        basis = board[place]["basis"]
        assert basis["grade"] == "O" and basis["fact"] == "tornado-interior-room"
        assert basis["url"] == "https://www.weather.gov/safety/tornado-during"
        assert "lowest floor of a sturdy building" in basis["text"] and "most tornado victims" not in basis["text"]
        assert youngest[place]["basis"] == basis
