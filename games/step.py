"""The pure part of a move: check it, apply it to a game in memory, and work out what follows
(each seat's marks, the deadlines). No I/O: ``games.pipeline`` reads and saves around it, and
``games.services`` calls it for the teacher's and the sweep's moves.

``check`` refuses what the game cannot take now; ``advance`` applies an action to a ``Game`` row
held in memory (its state, version, status, seat marks, timers and next deadline) and returns the
``Step``: the move to append and what the broadcast needs. Nothing here saves anything, so a
refused or lost move changes nothing.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime

import orjson
from django.utils import timezone

from games import clock
from games.models import Game, Move, stand_in_count
from games.refusals import Refused
from scenarios import registry
from scenarios.base import IllegalAction

logger = logging.getLogger(__name__)


def engine_for(game: Game):
    return registry.engine(game.scenario)


def policy_bot(scenario: str) -> str:
    return registry.get(scenario).policy_bot


def well_formed(action) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused("bad_frame")


def check(game: Game, seat: int | None, version: int | None, actor: str, action: dict | None = None) -> None:
    """Refuse an action the game cannot take now: finished, paused, a student's for a seat a bot
    plays, or chosen on a view older than this seat's last change (unless the engine says the
    action names what it was aimed at and judges it by that itself: ``aimed``, see
    scenarios.base)."""
    if game.status == Game.Status.FINISHED:
        raise Refused("game_finished")
    if game.status == Game.Status.PAUSED and actor != Move.Actor.TEACHER:
        raise Refused("game_paused")
    if actor == Move.Actor.STUDENT and str(seat) in game.bots:  # handed to a bot by the teacher
        raise Refused("bot_playing")
    if version is not None and seat is not None:
        mark = game.seat_marks.get(str(seat), [0])[0]
        if version > game.version:
            raise Refused("stale_view", version=game.version)
        if version < mark and not _aimed(game, action):
            raise Refused("stale_view", version=game.version)


def _aimed(game: Game, action) -> bool:
    aimed = getattr(engine_for(game), "aimed", None)
    return bool(aimed and action is not None and aimed(action))


@dataclass
class Step:
    """One action applied to a game in memory: the move to append (not yet saved) and what the
    broadcast needs."""

    move: Move
    engine: object
    state: object
    views: dict | None
    others: dict | None = None  # seat -> (its view's new ``others`` part, the version its view was built at)


def advance(game: Game, seat, action, action_id, actor, *, views=True) -> Step:
    """Validate and apply one action to ``game`` in memory: the new state, version, status, view
    versions and deadlines. Raises ``Refused``, changing nothing."""
    engine = engine_for(game)
    state = engine.load(game.state)
    own = getattr(engine, "own", None) if views else None
    before = game.state  # the stored state as it was: ``load`` gave ``apply`` a copy
    try:
        events = engine.apply(state, seat, action)
        # Only what the engine knows is stored (the move log, exports); ``state`` is a copy, so
        # a refusal here still changes nothing.
        action = engine.canonical(action)
    except IllegalAction as error:
        raise Refused.from_illegal(error, game.scenario) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError):
        if actor != Move.Actor.STUDENT:  # the server's own move: a bug to see, not input to refuse
            raise
        # A device's action of a shape the engine never offers (a list for a place, ...): bad
        # input, refused like any other; ``state`` is a copy, so nothing changed.
        logger.warning("Refused a malformed %s action for game %s: %r", game.scenario, game.pk, action)
        raise Refused("bad_action") from None
    game.version += 1
    game.state = engine.dump(state)
    if engine.finished(state):
        game.status = Game.Status.FINISHED
    seat_views = others = None
    if views:
        # A tablemate whose own view this move left as it was gets only its view's ``others``
        # part, with the version its view was last built at; everyone else gets a full view,
        # whose choices also decide staleness.
        built = {int(s): mark[2] for s, mark in game.seat_marks.items() if len(mark) > 2}
        same = {s for s in built if s != seat and own and own(before, s) == own(state, s)}
        seat_views = {s: engine.view(state, s) for s in range(game.seats) if s not in same}
        others = {s: (engine.others(state, s), built[s]) for s in same}
    refresh_marks(
        game,
        engine,
        state,
        acted=seat,
        actor=actor,
        unchanged=others or (),
        choices={s: v.get("actions", []) for s, v in seat_views.items()} if seat_views is not None else None,
    )
    reschedule(game, engine, state, acted=seat, now=timezone.now())
    move = Move(game=game, seq=game.version, seat=seat, actor=actor, action_id=action_id, action=action, events=events)
    return Step(move=move, engine=engine, state=state, views=seat_views, others=others)


def _fingerprint(actions) -> str:
    raw = orjson.dumps(actions, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def refresh_marks(game: Game, engine, state, *, acted, actor=None, choices=None, unchanged=()):
    """Per seat ``[mark, choices' fingerprint, built, played, stand-in moves, moves]``: the mark
    moves on when the seat acted or its choices changed; ``built`` is the version its full view
    was last built at; ``played`` is 1 once the seat has made a move; the last two count the
    seat's moves the stand-in made (actor ``timer``) and all its moves, for the dashboard and
    the standings (``scenarios.debrief.played_by_stand_in``). Marks saved before the counts
    existed read as none.

    Other seats' moves that leave this seat's choices as they were do not make its view stale,
    so students playing at the same time do not refuse each other's taps. ``choices`` are the
    seats' legal actions when the caller has them already; ``unchanged`` seats' views were not
    built again (their choices are as they were; they did not act).
    """
    marks = dict(game.seat_marks)
    for seat in range(game.seats):
        old = marks.get(str(seat))
        played = 1 if seat == acted or (old is not None and len(old) > 3 and old[3]) else 0
        if seat in unchanged:
            if played and old is not None and len(old) < 4:
                marks[str(seat)] = [*old[:3], played]
            continue
        stood_in, moves = stand_in_count(old)
        if seat == acted:
            moves += 1
            stood_in += actor == Move.Actor.TIMER
        fingerprint = _fingerprint(choices[seat] if choices else engine.actions(state, seat))
        mark = game.version if old is None or seat == acted or old[1] != fingerprint else old[0]
        marks[str(seat)] = [mark, fingerprint, game.version, played, stood_in, moves]
    game.seat_marks = marks


def reschedule(game: Game, engine, state, *, acted, now: datetime):
    """Set the deadline of each seat that may act: a bot's next step or a human's turn timer.

    A student's timer runs from the moment the seat may act, its first turn included, so a seat
    whose student never taps is played by its stand-in and the game ends however the class
    behaves (the tablet warns ``games.timers.WARN_SECONDS`` before and offers "More time"). Once
    the stand-in has played a seat whose student has never tapped, each later turn of that seat
    waits ``ABSENT_SECONDS``, not the whole turn timer, and the engine's ``pace`` treats it as a
    bot's (a real-time game's stand-in reacts to a pile as a bot would, so no pile waits out its
    whole reaction allowance for it): an empty chair does not hold the table, and the child who
    sits down taps (or asks for more time) and has their full turns back."""
    if game.status != Game.Status.PLAYING:
        game.timers, game.next_deadline = {}, None
        return
    timers = {}
    # Optional engine hook: ``pace(state, seat, bot, default)`` sets a seat's delay in seconds
    # (a real-time game's bot reaction, a race window), counted afresh after every move.
    pace = getattr(engine, "pace", None)
    for seat in engine.to_act(state):
        key = str(seat)
        wait = game.bot_step_seconds if key in game.bots else game.turn_seconds
        empty = key not in game.bots and absent(game.seat_marks.get(key))
        if empty and wait:
            wait = min(wait, ABSENT_SECONDS)
        if pace is not None:  # an empty chair's stand-in reacts as a bot does (a pile let go)
            wait = pace(state, seat, key in game.bots or empty, wait)
        if wait is None:
            continue
        kept = game.timers.get(key)
        if kept is not None and seat != acted and pace is None:
            timers[key] = kept
        else:
            timers[key] = clock.later(now, wait).isoformat()
    # Optional engine hook: ``due(state)``, the system's own next step (a race settled at the
    # deadline its first slap fixed, a class's storm timer): set once per key, kept while that
    # key stays due, at once when no seat may act unless the step holds for its time.
    step = getattr(engine, "due", None) and engine.due(state)
    if step:
        key = SYSTEM_TIMER + step["key"]
        at = game.timers.get(key) or clock.later(now, step["seconds"]).isoformat()
        if not engine.to_act(state) and not step.get("hold"):
            at = min(at, now.isoformat(), key=datetime.fromisoformat)
        timers[key] = at
    game.timers = timers
    game.next_deadline = min((datetime.fromisoformat(t) for t in timers.values()), default=None)


#: Seconds each later turn of a seat waits once the stand-in has played it and its student has
#: never tapped: a quick child's tap, so an empty chair costs a card game a moment a card. The
#: tablet still counts it down with its warning and "More time" (a whole turn).
ABSENT_SECONDS = 5


def absent(mark) -> bool:
    """Whether a seat's mark shows only the stand-in's moves: played for, never by its student."""
    stood_in, moves = stand_in_count(mark)
    return stood_in > 0 and stood_in == moves


#: the prefix of a system step's key in ``Game.timers`` (seats' keys are their numbers)
SYSTEM_TIMER = "system:"


def unblocking_action(scenario: str, engine, state) -> dict:
    """What the system does when no seat may act yet the game goes on (the class step, such as
    a held storm moving), else ending the game."""
    due = getattr(engine, "due", None) and engine.due(state)
    if due:
        return due["action"]
    step = registry.get(scenario).class_step
    waiting = [a for a in engine.actions(state, None) if step and a.get("type") == step["action"]["type"]]
    return waiting[0] if waiting else {"type": "end_now"}
