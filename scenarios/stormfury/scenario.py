"""Project Stormfury as the classroom sees it: a team game whose storm can move for the whole
class at once (the teacher's "storm moves" button and the dashboard's storm panel)."""

from django.utils.translation import gettext_lazy as _

from scenarios.registry import Scenario


def table_options(scenario, options, seed, table, derive_seed):
    """With one storm for the class every table holds the storm for the class step and shares
    the session's storm seed; otherwise each table gets a storm of its own."""
    shared = scenario.shared_step(options)
    engine_options = {k: v for k, v in options.items() if k != "shared_storm"}
    engine_options["hold_storm"] = shared
    engine_options["storm_seed"] = seed if shared else derive_seed(seed, f"storm{table}")
    return engine_options


def storm_panel(views, shared, deadline):
    """The dashboard's storm line: the table furthest behind, and how many wait for the storm."""
    behind = min(views, key=lambda v: (v.get("round", 0), v.get("phase") != "storm"), default=None)
    return {
        "shared": shared,
        "deadline": deadline,
        "round": behind.get("round") if behind else None,
        "category": behind["storm"]["category"] if behind and behind.get("storm") else None,
        "waiting_tables": sum(1 for v in views if v.get("phase") == "storm"),
    }


SCENARIO = Scenario(
    key="stormfury",
    name=_("Project Stormfury — defend the Gulf coast together"),
    blurb=_("A team of emergency managers spends scarce resources as a hurricane crosses a hex map of the coast."),
    seats=(2, 4),
    age_band="10+",
    languages=("en", "es", "nl"),
    team_play=True,
    session_options=(
        {
            "name": "shared_storm",
            "default": True,
            "label": _("Project Stormfury: every table faces the same storm"),
            "help": _("The storm moves for the whole class at once, so teams can be compared."),
        },
    ),
    class_step={"option": "shared_storm", "action": {"type": "storm_moves"}, "hold": "hold_storm"},
    managed_options=("hold_storm", "storm_seed"),
    table_options_hook=table_options,
    class_panel_hook=storm_panel,
)
