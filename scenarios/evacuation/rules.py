"""The rules of "Hurricane Approaching!" (Murray-Tuite, Virginia Tech, 2013) as pure functions.

The state is a plain JSON-ready dict (see ``new_state``), changed in place by ``apply`` only
after ``check`` has accepted the action, so a refused action never changes anything. Every
interpretation of the rule book is written down in ``RULES.md`` beside this file.

The rules live beside this module, one module per part: ``tables`` (the content and its constants),
``roads`` (routing), ``state`` (a new game, the system on the clock, dice and cards, dump/load),
``moves`` (checking and applying actions), ``points`` (scoring) and ``screens`` (the board and
the views). This module is their one public face: the engine, bots, analyses and tests use it
(a bot or test that needs a private helper imports it from the helper's own module).
"""

from __future__ import annotations

from .moves import ACTION_FIELDS, ACTION_WORDS, actions, apply, check, finished, legal, to_act  # noqa: F401
from .points import results  # noqa: F401
from .roads import hops, threshold  # noqa: F401
from .screens import TEACHER_FEED, board, options, others, own, say, view  # noqa: F401
from .state import dump, final_system, force, load, new_state, system_at  # noqa: F401
from .tables import (  # noqa: F401
    ADJ,
    BASE_SYSTEM,
    BOOK,
    CARD_IDS,
    CARDS,
    CHANCE,
    CONTENT,
    CONTENT_HASH,
    DEST_NODE,
    DESTINATIONS,
    END,
    FAIL_MIN,
    GAS,
    HALF_TANK,
    HOME,
    LINK_MIN,
    LINKS,
    MIN_SUPPLIES,
    MINUTES,
    MONEY,
    NETWORK,
    NODE_DEST,
    NODE_IDS,
    NODES,
    OPTION_DEFAULTS,
    OPTIONS,
    RACE_FACTOR,
    REASONS,
    RULES_FINGERPRINT,
    SCHEMA_VERSION,
    START,
    STOPS,
    TANK,
    VERSION,
    WORDS,
)
