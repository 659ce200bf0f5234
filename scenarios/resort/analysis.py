"""What each seat's preparedness was worth: pure counterfactuals for the debrief (no Django).

A seat's resorts are re-run through the same storm, and through every real storm in the program
deck, with the options it held at the end, with none, and with all five: the damage each would
have done to the buildings, beside what the options cost to buy. In rules edition 2 only the
seawall and the reinforcement make damage smaller; insurance pays part of it back (``claims``),
and the kit and the plan protect guests and staff (resort hits with and without a plan)."""

from __future__ import annotations

from scenarios.words import gettext_noop

from . import ENGINE
from .rules import DECKS, PROGRAMS, RESORTS, category_hit, damage_for, options_price, season_damage

#: the resorts' colours as a report names them (``{% translate r.colour %}``)
COLOURS = (gettext_noop("red"), gettext_noop("blue"), gettext_noop("green"), gettext_noop("yellow"))


def holdings(state, seat) -> dict:
    return {rid: state["held"][rid] for rid in ENGINE.mine(state, seat)}


def option_cost(held: dict, options_each: int | None = None, edition: int = 2) -> int:
    """What buying the options in ``held`` (or ``options_each`` on every resort) costs."""
    return sum(options_price(rid, 0, held[rid] if options_each is None else options_each, edition) for rid in held)


def seat_story(state, seat) -> dict:
    """One seat's preparedness, on this storm and across the deck."""
    held = holdings(state, seat)
    program = ENGINE.program(state)
    edition = ENGINE.edition(state)
    read = {"lines": program["lines"][: state["line"]]}
    deck = list(DECKS[edition].values())

    def owned(options_each=None, claims=False):
        """This storm's damage to each resort from the line it was bought at (the same season
        with other choices: no options, or all five); ``claims``: what insurance pays of it."""
        total = 0
        for rid in held:
            since = state["since"][rid] or 0
            lines = {"lines": program["lines"][since : state["line"]]}
            plan = {rid: held[rid] if options_each is None else options_each}
            damage = season_damage(lines, plan, edition)
            total += damage - season_damage(lines, plan, edition, net=True) if claims else damage
        return total

    def across(options_each=None):
        if not held:
            return 0
        plan = {rid: (held[rid] if options_each is None else options_each) for rid in held}
        return round(sum(season_damage(p, plan, edition) for p in deck) / len(deck))

    me = state["seats"][seat]
    return {
        "seat": seat,
        "resorts": [
            {
                "id": rid,
                "name": RESORTS[rid]["name"],
                "colour": RESORTS[rid]["colour"],
                "options": held[rid],
                "hits": [
                    category_hit(line, RESORTS[rid])
                    for line in read["lines"][state["since"][rid] or 0 :]
                    if category_hit(line, RESORTS[rid])
                ],
            }
            for rid in held
        ],
        "edition": edition,
        "options_bought": me["options_bought"],
        "spent": me["spent_options"],
        "storm_damage": me["damage"],
        "storm_saved": me["unprotected_damage"] - me["damage"],
        "storm_claims": me.get("claims", 0),
        "people_safe": me.get("people_safe", 0),
        "people_at_risk": me.get("people_at_risk", 0),
        # the same season with other choices: the final resorts with no options, and with all five
        "storm_none": owned(0),
        "storm_all": owned(5),
        "storm_as_held": owned(),
        "storm_all_claims": owned(5, claims=True),
        "deck_as_held": across(),
        "deck_none": across(0),
        "deck_all": across(5),
        "cost_as_held": option_cost(held, None, edition),
        "cost_all": option_cost(held, 5, edition),
        "tracked": me["tracked"],
        "exact": me["exact"],
        "track_error": me["track_error"],
    }


def storm_lines(state) -> list[dict]:
    """The lines read out, each with the resorts it reached and their damage."""
    program = ENGINE.program(state)
    out = []
    for i, line in enumerate(program["lines"][: state["line"]]):
        hits = []
        for rid, resort in RESORTS.items():
            cat = category_hit(line, resort)
            if cat and state["owner"][rid] is not None:
                hits.append(
                    {
                        "resort": resort["name"],
                        "category": cat,
                        "bare": damage_for(resort, cat, 0, ENGINE.edition(state)),
                    }
                )
        out.append(dict(line, number=i + 1, hits=hits))
    return out


def table_flags(table) -> dict:
    """How a table's game ended, from its record: stopped early, finished by bots, stand-ins."""
    state = table["state"]
    humans = {seat for seat, holder in table["holders"].items() if holder}
    moves = table["moves"]
    return {
        "unfinished": bool(state.get("ended")) or not state.get("over"),
        "bot_finished": any(str(m.get("action_id", "")).startswith("finish:") for m in moves),
        "stand_in_moves": sum(1 for m in moves if m["seat"] in humans and m["actor"] in ("bot", "timer")),
    }


def seat_rows(tables) -> list[dict]:
    """One row per seat of every table: its story, result and holder."""
    rows = []
    for table in tables:
        state = table["state"]
        results = {r["seat"]: r for r in ENGINE.results(state)}
        for seat in range(len(state["seats"])):
            story = seat_story(state, seat)
            rows.append(
                {
                    "table": table["table"],
                    "holder": table["holders"].get(seat),
                    "worth": results[seat]["score"],
                    "rank": results[seat]["rank"],
                    "storm": ENGINE.program(state)["name"],
                    **story,
                }
            )
    return rows


def class_summary(tables) -> dict:
    """The class's season: storms met, what options cost and saved, tracking accuracy."""
    rows = seat_rows(tables)
    programs = []
    for table in tables:
        p = ENGINE.program(table["state"])
        if p["key"] not in [x["key"] for x in programs]:
            programs.append(p)
    flags = {t["table"]: table_flags(t) for t in tables}
    tracked = sum(r["tracked"] for r in rows)
    exact = sum(r["exact"] for r in rows)
    summary = {
        "seats": len(rows),
        "tables": len(tables),
        "storms": [
            {
                "key": p["key"],
                "id": p["id"],
                "name": p["name"],
                "year": p["year"],
                "peak_category": p["peak_category"],
                "peak_wind": p["peak_wind"],
            }
            for p in programs
        ],
        "options_bought": sum(r["options_bought"] for r in rows),
        "spent": sum(r["spent"] for r in rows),
        "damage": sum(r["storm_damage"] for r in rows),
        "saved": sum(r["storm_saved"] for r in rows),
        "claims": sum(r["storm_claims"] for r in rows),
        "storm_all_claims": sum(r["storm_all_claims"] for r in rows),
        "people_safe": sum(r["people_safe"] for r in rows),
        "people_at_risk": sum(r["people_at_risk"] for r in rows),
        # a class whose tables all play edition 1 reads edition 1's words
        "edition": max((ENGINE.edition(t["state"]) for t in tables), default=2),
        "storm_none": sum(r["storm_none"] for r in rows),
        "storm_all": sum(r["storm_all"] for r in rows),
        "deck_none": sum(r["deck_none"] for r in rows),
        "deck_as_held": sum(r["deck_as_held"] for r in rows),
        "deck_all": sum(r["deck_all"] for r in rows),
        "cost_as_held": sum(r["cost_as_held"] for r in rows),
        "cost_all": sum(r["cost_all"] for r in rows),
        "tracked": tracked,
        "exact": exact,
        "exact_share": round(100 * exact / tracked) if tracked else None,
        "mean_error": round(sum(r["track_error"] for r in rows) / tracked, 1) if tracked else None,
        "by_table": [
            {
                "table": t["table"],
                "storm": ENGINE.program(t["state"])["name"],
                "lines": t["state"]["line"],
                "flags": flags[t["table"]],
            }
            for t in tables
        ],
        "unfinished_tables": [n for n, f in flags.items() if f["unfinished"]],
        "bot_finished_tables": [n for n, f in flags.items() if f["bot_finished"]],
        "stand_in_tables": [n for n, f in flags.items() if f["stand_in_moves"]],
        "deck_size": len(PROGRAMS),
    }
    return summary
