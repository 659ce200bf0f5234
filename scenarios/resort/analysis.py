"""What each seat's preparedness was worth: pure counterfactuals for the debrief (no Django).

A seat's resorts are re-run through the same storm, and through every real storm in the program
deck, with the options it held at the end, with none, and with all five: the damage each would
have cost, beside what the options cost to buy."""
from __future__ import annotations

from .rules import ENGINE, PROGRAMS, RESORTS, damage_for, category_hit, season_damage


def holdings(state, seat) -> dict:
    return {rid: state["held"][rid] for rid in ENGINE.mine(state, seat)}


def option_cost(held: dict, options_each: int | None = None) -> int:
    """What buying the options in ``held`` (or ``options_each`` on every resort) costs."""
    return sum(RESORTS[rid]["option"] * (held[rid] if options_each is None else options_each) for rid in held)


def seat_story(state, seat) -> dict:
    """One seat's preparedness, on this storm and across the deck."""
    held = holdings(state, seat)
    program = ENGINE.program(state)
    read = {"lines": program["lines"][:state["line"]]}
    deck = list(PROGRAMS.values())

    def across(options_each=None):
        if not held:
            return 0
        plan = {rid: (held[rid] if options_each is None else options_each) for rid in held}
        return round(sum(season_damage(p, plan) for p in deck) / len(deck))

    me = state["seats"][seat]
    return {
        "seat": seat,
        "resorts": [{"id": rid, "name": RESORTS[rid]["name"], "colour": RESORTS[rid]["colour"], "options": held[rid],
                     "hits": [category_hit(line, RESORTS[rid]) for line in read["lines"]
                              if category_hit(line, RESORTS[rid])]}
                    for rid in held],
        "options_bought": me["options_bought"], "spent": me["spent_options"],
        "storm_damage": me["damage"], "storm_saved": me["unprotected_damage"] - me["damage"],
        # the same season with other choices: the final resorts with no options, and with all five
        "storm_none": season_damage(read, {rid: 0 for rid in held}),
        "storm_all": season_damage(read, {rid: 5 for rid in held}),
        "storm_as_held": season_damage(read, held),
        "deck_as_held": across(), "deck_none": across(0), "deck_all": across(5),
        "cost_as_held": option_cost(held), "cost_all": option_cost(held, 5),
        "tracked": me["tracked"], "exact": me["exact"],
        "track_error": me["track_error"],
    }


def storm_lines(state) -> list[dict]:
    """The lines read out, each with the resorts it reached and their damage."""
    program = ENGINE.program(state)
    out = []
    for i, line in enumerate(program["lines"][:state["line"]]):
        hits = []
        for rid, resort in RESORTS.items():
            cat = category_hit(line, resort)
            if cat and state["owner"][rid] is not None:
                hits.append({"resort": resort["name"], "category": cat,
                             "bare": damage_for(resort, cat, 0)})
        out.append(dict(line, number=i + 1, hits=hits))
    return out
