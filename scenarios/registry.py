"""The installed scenarios, found through one setting: ``settings.STORMWISE_SCENARIOS`` (the
registry line) lists each scenario's package, in the order the new-session form offers them.

``classroom``, ``games`` and ``scoring`` ask this module about a scenario and never name one. A
scenario package ``<pkg>`` (see README's "Add a scenario") provides:

- ``<pkg>/__init__.py``: ``ENGINE``, the pure engine (``scenarios.base.Engine``), and optionally
  ``PRESETS`` (``{"as_printed": {<engine option>: value, ...}}``);
- ``<pkg>/bots.py``: ``BOTS`` (policy name -> ``bot(state, seat) -> action``) and ``POLICY_BOT``;
- ``<pkg>/scenario.py``: ``SCENARIO``, a :class:`Scenario` (metadata and the classroom's hooks);
- ``<pkg>/debrief.py``: ``DEBRIEF``, the debrief part (``scenarios.debrief.Debrief``);
- ``<pkg>/static/``: ``renderer.js`` and ``renderer.css``, served as ``scenarios/<key>/...``;
- ``<pkg>/templates/``: its debrief and report templates, named ``scenarios/<key>/<file>``;
- ``<pkg>/kit.py``: ``KIT``, the lesson kit (``scenarios.kit.Kit``): guide, printables and
  family-plan lines, all data;
- ``<pkg>/check.py`` (optional): ``CHECK``, the knowledge check's item bank
  (``scenarios.kit.CheckBank``): objectives and two parallel forms;
- ``<pkg>/how_to_play.py`` (optional): ``CARD``, the one-minute "how to play" card
  (``scenarios.kit.HowToPlay``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import import_module
from pathlib import Path
from typing import Any


def _strip_session_options(scenario: Scenario, options: dict, seed: int, table: int, derive_seed) -> dict:
    names = {o["name"] for o in scenario.session_options}
    return {k: v for k, v in options.items() if k not in names}


@dataclass(frozen=True, eq=False)
class Scenario:
    """One scenario's metadata and the hooks the classroom calls. Only ``key``, ``name`` and
    ``blurb`` are required; the defaults suit an individual game with nothing class-wide."""

    key: str
    name: Any  #: shown to teachers (a lazy translation)
    blurb: Any  #: one sentence for the new-session form
    seats: tuple[int, int] = (2, 6)  #: the fewest and most seats a table may have
    age_band: str = "10+"  #: the youngest age band it suits (as the knowledge base's bands)
    languages: tuple[str, ...] = ("en",)
    #: the seats play as one team: standings and reports are per table, not per seat
    team_play: bool = False
    #: session-level options the classroom keeps (not the engine's): name, label, help, default
    session_options: tuple[dict, ...] = ()
    #: a step every table takes together when the session option ``option`` is on (the teacher
    #: can force it after a countdown): ``{"option": ..., "action": <system action>, "hold":
    #: <the engine option that makes a table wait for it>}``
    class_step: dict | None = None
    #: knowledge-base facts (by key) the debrief may cite besides those tagged with this scenario
    facts: tuple[str, ...] = ()
    #: engine options ``table_options_hook`` sets for each table, so the form does not offer them
    managed_options: tuple[str, ...] = ()
    #: ``{option name: {choice: label}}``: how the new-session form names an engine option's
    #: choices when the words are the scenario's, not the engine's (a real storm's name and year);
    #: each label is a lazy translation or a proper name, and replaces the engine's ``choice_labels``
    choice_labels: dict = field(default_factory=dict)
    #: ``(scenario, session options, session seed, table number, derive_seed) -> engine options``
    table_options_hook: Callable = _strip_session_options
    #: ``(views of each table's summary, shared, deadline) -> dict | None`` for the teacher's
    #: dashboard, where the class step is shown
    class_panel_hook: Callable | None = None
    #: ``(the table's engine options, its teacher summary or None) -> str | None``: a line under
    #: the title of a table's dashboard card (what the teacher chose for it, e.g. the real storm)
    card_subtitle_hook: Callable | None = None
    package: str = field(default="", compare=False)

    # --- What the package provides -------------------------------------------------------------

    @cached_property
    def module(self):
        return import_module(self.package)

    @property
    def engine(self):
        return self.module.ENGINE

    @cached_property
    def bots(self) -> dict:
        return import_module(f"{self.package}.bots").BOTS

    @property
    def policy_bot(self) -> str:
        return import_module(f"{self.package}.bots").POLICY_BOT

    @property
    def presets(self) -> dict:
        return dict(getattr(self.module, "PRESETS", {}) or {})

    def options(self) -> list[dict]:
        """The engine's teacher options (name, default, choices, description)."""
        return self.engine.options() if hasattr(self.engine, "options") else []

    @cached_property
    def debrief(self):
        return import_module(f"{self.package}.debrief").DEBRIEF

    @cached_property
    def kit(self):
        """The lesson kit (``scenarios.kit.Kit``): guide, printables, family plan."""
        return import_module(f"{self.package}.kit").KIT

    def _optional(self, module: str, name: str, otherwise):
        """``name`` from the scenario's optional ``module``, or ``otherwise`` without one."""
        try:
            return getattr(import_module(f"{self.package}.{module}"), name)
        except ModuleNotFoundError as missing:
            if missing.name != f"{self.package}.{module}":
                raise
            return otherwise

    @cached_property
    def check(self):
        """The knowledge check's item bank (``scenarios.kit.CheckBank``); empty without a
        ``check.py``."""
        from scenarios.kit import NO_CHECK

        return self._optional("check", "CHECK", NO_CHECK)

    @cached_property
    def how_to_play(self):
        """The one-minute "how to play" card (``scenarios.kit.HowToPlay``); None without a
        ``how_to_play.py``."""
        return self._optional("how_to_play", "CARD", None)

    @property
    def folder(self) -> Path:
        return Path(self.module.__file__).resolve().parent

    @property
    def renderer(self) -> str:
        """The static path of the tablet renderer (an ES module exporting ``render``, ``summary``)."""
        return f"scenarios/{self.key}/renderer.js"

    @property
    def stylesheet(self) -> str:
        return f"scenarios/{self.key}/renderer.css"

    def template(self, name: str) -> str:
        return f"scenarios/{self.key}/{name}"

    @property
    def lesson_minutes(self) -> tuple[int, int]:
        """The lesson kit's period in minutes, and its longest step (the play)."""
        steps = [step.minutes for step in self.kit.guide.steps]
        return sum(steps), max(steps, default=0)

    # --- Hooks ---------------------------------------------------------------------------------

    def table_options(self, options: dict, seed: int, table: int, derive_seed) -> dict:
        """One table's engine options from the session's options."""
        return self.table_options_hook(self, options, seed, table, derive_seed)

    def shared_step(self, options: dict) -> bool:
        """True when the class step is on for a session with these options."""
        if not self.class_step:
            return False
        name = self.class_step["option"]
        default = next((o["default"] for o in self.session_options if o["name"] == name), False)
        return bool(options.get(name, default))

    def class_panel(self, views: list[dict], shared: bool, deadline: str | None) -> dict | None:
        return self.class_panel_hook(views, shared, deadline) if self.class_panel_hook else None

    def card_subtitle(self, options: dict, summary: dict | None) -> str | None:
        """The line under a table card's title on the teacher's dashboard, in the active language."""
        return str(self.card_subtitle_hook(options, summary)) if self.card_subtitle_hook else None


@lru_cache(maxsize=8)
def _load(packages: tuple[str, ...]) -> dict[str, Scenario]:
    found = {}
    for package in packages:
        scenario = import_module(f"{package}.scenario").SCENARIO
        object.__setattr__(scenario, "package", package)
        if scenario.engine.key != scenario.key:
            raise ValueError(f"{package}: the engine's key {scenario.engine.key!r} is not {scenario.key!r}")
        if scenario.key in found:
            raise ValueError(f"{package}: scenario key {scenario.key!r} is registered twice")
        found[scenario.key] = scenario
    return found


def _installed() -> dict[str, Scenario]:
    from django.conf import settings

    return _load(tuple(settings.STORMWISE_SCENARIOS))


def all() -> list[Scenario]:  # noqa: A001 - read as ``registry.all()``
    """Every installed scenario, in the registry line's order."""
    return list(_installed().values())


def keys() -> list[str]:
    return list(_installed())


def get(key: str) -> Scenario:
    """The scenario ``key``; ``LookupError`` (a ``KeyError``) if it is not installed."""
    try:
        return _installed()[key]
    except KeyError:
        raise KeyError(f"no installed scenario {key!r}") from None


def engine(key: str):
    return get(key).engine


def choices() -> list[tuple[str, Any]]:
    """``(key, name)`` for forms and ``Session.scenario`` (a callable, so migrations stay put)."""
    return [(s.key, s.name) for s in all()]


def default_key() -> str:
    """The first scenario of the registry line: a new session's default."""
    return keys()[0]


def with_class_step() -> list[str]:
    return [s.key for s in all() if s.class_step]


@lru_cache(maxsize=64)
def content_translations(key: str, language: str) -> dict:
    """English content word -> ``language`` for scenario ``key``, from its
    ``content/translations/<language>.json`` (empty when it has none, e.g. for English)."""
    path = get(key).folder / "content" / "translations" / f"{language}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


class _Engines(Mapping):
    """``ENGINES[key]``: each installed scenario's engine, as a read-only mapping."""

    def __getitem__(self, key):
        return get(key).engine

    def __iter__(self):
        return iter(keys())

    def __len__(self):
        return len(keys())


ENGINES = _Engines()
