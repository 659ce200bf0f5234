"""The debrief's reading of a game: the log replays to the same game, and the counterfactual
sails one fleet outside the cone under the same cloud."""
from scenarios.bermuda import ENGINE, analysis
from scenarios.bermuda.bots import BOTS


def bold_game(seed, seats=3):
    state = ENGINE.setup(seed, seats)
    log = []
    while not ENGINE.finished(state):
        seat = ENGINE.to_act(state)[0]
        action = BOTS["bold"](state, seat)
        ENGINE.apply(state, seat, action)
        log.append({"seat": seat, "action": action})
    return state, log


def table(seed, state, log):
    return {"table": 1, "seed": seed, "state": ENGINE.dump(state), "moves": log,
            "holders": {0: {"name": "Ana"}, 1: None, 2: {"name": "Ben"}}}


def test_the_log_replays_to_the_same_game():
    state, log = bold_game(3)
    again = analysis.replay(3, 3, state["options"], [(m["seat"], m["action"]) for m in log])
    assert ENGINE.dump(again) == ENGINE.dump(state)


def test_the_counterfactual_fleet_loses_less_on_the_whole():
    """Bold fleets, each replayed by the cone-avoiding captain (the other fleets as logged):
    over a dozen tables they lose less freight and fewer ships; names stay with their seats."""
    actual_lost = clear_lost = actual_ships = clear_ships = 0
    for seed in range(12):
        state, log = bold_game(seed)
        story = analysis.table_story(table(seed, state, log))
        assert [r["name"] for r in story["fleets"]] == ["Ana", None, "Ben"]
        for row in story["fleets"]:
            actual_lost += row["lost_freight"]
            clear_lost += row["clear"]["lost_freight"]
            actual_ships += row["ships_lost"]
            clear_ships += row["clear"]["ships_lost"]
        summary = analysis.class_summary([story])
        assert summary["students"] == 2 and summary["fleets"] == 3
    assert clear_lost < actual_lost and clear_ships < actual_ships
