"""Race to the shelter: two actions, one die, turns in seat order (see RULES.md)."""

from __future__ import annotations

from pathlib import Path

from scenarios.base import EngineBasics, IllegalAction, cheer, load_content, projector_line, roll, storm_line
from scenarios.words import gettext_noop

CONTENT, CONTENT_HASH = load_content(Path(__file__).parent / "content", ["track.json"])
TRACK = CONTENT["track"]
VERSION = "1"
SCHEMA_VERSION = 1
OPTIONS = [
    {
        "name": "storm_rounds",
        "default": 6,
        "choices": [4, 6, 8],
        "label": "Rounds before the storm",
        "description": "How many rounds the households have before the storm arrives.",
    }
]
#: what each action type may carry: the move log keeps nothing else (``scenarios.base.canonical``)
ACTION_FIELDS = {"run": (), "pack": (), "end_now": ()}


class ShelterRace(EngineBasics):
    key = "shelter_race"
    version = VERSION
    schema_version = SCHEMA_VERSION
    content_hash = CONTENT_HASH
    OPTIONS = OPTIONS
    ACTION_FIELDS = ACTION_FIELDS

    def setup(self, seed, seats, options=None):
        options = {"storm_rounds": 6, **(options or {})}
        if options["storm_rounds"] not in OPTIONS[0]["choices"]:
            raise IllegalAction("bad_option", "That option is not offered.", name="storm_rounds")
        return {
            "seed": seed,
            "options": options,
            "round": 1,
            "turn": 0,
            "ended": False,
            "seats": [{"seat": n, "pos": 0, "supplies": 0, "safe_round": None, "runs": 0} for n in range(seats)],
        }

    def finished(self, state):
        return (
            state["ended"]
            or state["round"] > state["options"]["storm_rounds"]
            or all(s["safe_round"] is not None for s in state["seats"])
        )

    def to_act(self, state):
        return [] if self.finished(state) else [state["turn"]]

    def actions(self, state, seat):
        if self.finished(state):
            return []
        if seat is None:
            return [{"type": "end_now"}]
        if seat != state["turn"]:
            return []
        return [{"type": "run"}, {"type": "pack"}]

    def apply(self, state, seat, action):
        if not isinstance(action, dict) or action not in self.actions(state, seat):
            raise IllegalAction("not_now", "That is not something you can do now.")
        if action["type"] == "end_now":
            state["ended"] = True
            return [{"type": "ended"}]
        me = state["seats"][seat]
        if action["type"] == "run":
            steps = roll(state["seed"], "run", seat, me["runs"], sides=TRACK["run_die"])
            me["runs"] += 1
            me["pos"] = min(TRACK["distance"], me["pos"] + steps)
            events = [{"type": "ran", "seat": seat, "steps": steps, "pos": me["pos"]}]
            if me["pos"] == TRACK["distance"]:
                me["safe_round"] = state["round"]
                events.append({"type": "safe", "seat": seat, "round": state["round"]})
        else:
            me["supplies"] += 1
            events = [{"type": "packed", "seat": seat, "supplies": me["supplies"]}]
        self._next_turn(state)
        return events

    def _next_turn(self, state):
        seats = state["seats"]
        turn = state["turn"]
        for _ in range(len(seats)):
            turn += 1
            if turn == len(seats):
                turn = 0
                state["round"] += 1
            if seats[turn]["safe_round"] is None:
                break
        state["turn"] = turn

    def board(self):
        return {"distance": TRACK["distance"], "options": self.options()}

    def view(self, state, seat):
        return {
            "round": state["round"],
            "storm_rounds": state["options"]["storm_rounds"],
            "distance": TRACK["distance"],
            "turn": state["turn"],
            "over": self.finished(state),
            "seats": [dict(s) for s in state["seats"]],
            "actions": self.actions(state, seat) if seat is not None else [],
        }

    #: the projector's sentences, filled with each line's numbers where they are shown
    projector_words = {
        "round": gettext_noop("Round %(done)s of %(of)s · %(safe)s safe"),
        "storm": gettext_noop("The storm arrives in %(left)s rounds"),
        "safe": gettext_noop("%(who)s reached the shelter"),
    }

    def projector(self, view):
        """This table on the projector: rounds played, the storm's rounds left, who is safe."""
        rounds = view["storm_rounds"]
        played = rounds if view["over"] else view["round"] - 1
        safe = [s for s in view["seats"] if s["safe_round"] is not None]
        return projector_line(
            "round",
            played,
            rounds,
            storm=storm_line("storm", left=max(0, rounds - played)),
            cheers=[cheer(f"safe-{s['seat']}", "safe", s["seat"]) for s in safe][-3:],
            safe=len(safe),
        )

    def results(self, state):
        rows = [
            {
                "seat": s["seat"],
                "score": (TRACK["safe_points"] if s["safe_round"] is not None else 0)
                + s["supplies"] * TRACK["supply_points"],
                "rank": None,
                "breakdown": {
                    "safe": s["safe_round"] is not None,
                    "supplies": s["supplies"],
                    "safe_round": s["safe_round"],
                    "pos": s["pos"],
                },
            }
            for s in state["seats"]
        ]
        for row in rows:
            row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
        return rows
