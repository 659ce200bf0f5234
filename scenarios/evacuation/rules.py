"""The rules of "Hurricane Approaching!" (Murray-Tuite, Virginia Tech, 2013) as pure functions.

The state is a plain JSON-ready dict (see ``new_state``), changed in place by ``apply`` only
after ``check`` has accepted the action, so a refused action never changes anything. Every
interpretation of the rule book is written down in ``RULES.md`` beside this file.

The rules live beside this module, one module per part: ``book`` (the content and its constants),
``roads`` (routing), ``state`` (a new game, the system on the clock, dice and cards, dump/load),
``moves`` (checking and applying actions), ``points`` (scoring) and ``screens`` (the board and
the views). This module is their one face: the engine, bots, analyses and tests use it.
"""
from __future__ import annotations

from .book import (  # noqa: F401
    ADJ, BASE_SYSTEM, BOOK, CARDS, CARD_IDS, CHANCE, CONTENT, CONTENT_HASH, DESTINATIONS, DEST_NODE,
    END, FAIL_MIN, GAS, HOME, LINKS, LINK_MIN, MINUTES, MIN_SUPPLIES, MONEY, NETWORK, NODES,
    NODE_DEST, NODE_IDS, OPTIONS, OPTION_DEFAULTS, RACE_FACTOR, REASONS, RULES_FINGERPRINT,
    SCHEMA_VERSION, START, STOPS, TANK, VERSION, WORDS, _needs_label,
)
from .roads import _config, _routes, hops, threshold  # noqa: F401
from .state import (  # noqa: F401
    _add_change, _die, _draw_card, _fuel_price_here, _max_gallons, _nearest_gas, dump, final_system,
    force, load, new_state, system_at,
)
from .moves import (  # noqa: F401
    ACTION_FIELDS, ACTION_WORDS, _finish, actions, apply, check, finished, legal, to_act,
)
from .points import _arrival_points, results  # noqa: F401
from .screens import (  # noqa: F401
    TEACHER_FEED, _links_view, board, describe, feed_line, options, others, own, say, view,
)
