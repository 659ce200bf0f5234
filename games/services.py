"""Every change to a game goes through here: students, bots, timers and teachers alike.

``submit`` is the one way a state changes. It locks the game row, makes retries idempotent by
action id, refuses stale views, validates through the engine, appends the move, saves the state
and broadcasts after commit. ``asubmit``, a socket's tap on PostgreSQL, takes the same steps
without the lock: it saves only if the game is still at the version it read. Bots and idle-seat
timers are deadlines on the game row, swept by ``sweep_due`` (one loop per server process;
``SKIP LOCKED`` lets several processes share it).
"""
from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from functools import lru_cache
from datetime import datetime, timedelta

import orjson
from django.db import OperationalError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from psycopg.types.json import Jsonb

from games import broadcast
from games.models import Game, Move
from games.refusals import Refused
from scenarios import registry
from scenarios.base import IllegalAction, draw


# The game row's fields a move changes.
MOVE_CHANGES = ["version", "state", "status", "seat_marks", "timers", "next_deadline", "updated_at"]


@dataclass
class Outcome:
    """What ``submit`` did: the move (new or, for a retried id, the stored one)."""

    move: Move
    version: int
    replayed: bool = False


def engine_for(game: Game):
    return registry.engine(game.scenario)


def policy_bot(scenario: str) -> str:
    return registry.get(scenario).policy_bot


def _bot(scenario: str, policy: str):
    return registry.get(scenario).bots[policy]


def create_game(*, scenario: str, seed: int, seats: int, options: dict | None = None,
                bots: dict[int, str] | None = None, turn_seconds: int | None = None,
                bot_step_seconds: float = 1.0) -> Game:
    """Set up a new game and schedule its first bot moves and turn timers."""
    engine = registry.engine(scenario)
    state = engine.setup(seed, seats, options or {})
    game = Game(
        scenario=scenario, engine_version=engine.version, content_hash=engine.content_hash,
        schema_version=engine.schema_version, seed=seed, seats=seats, options=options or {},
        state=engine.dump(state), bots={str(seat): policy for seat, policy in (bots or {}).items()},
        turn_seconds=turn_seconds, bot_step_seconds=bot_step_seconds,
    )
    _refresh_marks(game, engine, state, acted=None)
    _reschedule(game, engine, state, acted=None, now=timezone.now())
    game.save()
    return game


def submit(*, game_id: int, seat: int | None, action: dict, action_id: str | None = None,
           version: int | None = None, actor: str = Move.Actor.STUDENT) -> Outcome:
    """Apply one action for ``seat`` (None: the teacher or the system) and record it.

    ``version`` is the view version the action was chosen from; an action chosen before this
    seat's view last changed is refused as stale. A repeated ``action_id`` returns the stored
    outcome without applying anything again. Raises ``Refused``; then nothing has changed.
    """
    _well_formed(action)
    action_id = action_id or uuid.uuid4().hex
    with transaction.atomic():
        # The lock and the retry check in one read: this runs on every tap.
        seen = Move.objects.filter(game=OuterRef("pk"), action_id=action_id).values("pk")[:1]
        game = Game.objects.select_for_update(of=("self",)).annotate(seen=Subquery(seen)).get(pk=game_id)
        if game.seen is not None:
            return Outcome(move=Move.objects.get(pk=game.seen), version=game.version, replayed=True)
        check(game, seat, version, actor)
        move = _apply(game, seat, action, action_id, actor)
    return Outcome(move=move, version=game.version)


def _columns(model) -> tuple[list[str], str]:
    fields = model._meta.concrete_fields
    return [f.attname for f in fields], ", ".join(f'"{f.column}"' for f in fields)


_GAME_ATTRS, _GAME_COLUMNS = _columns(Game)
_MOVE_ATTRS, _MOVE_COLUMNS = _columns(Move)
# What a tap reads of its game: the columns, then the id of a move already saved under the
# tap's action id (a re-sent tap), for a game row aliased ``g``; its one parameter is the action
# id. A caller that checks something else first can read both in one statement (``asubmit(row=)``).
GAME_READ_COLUMNS = (", ".join(f'g.{column}' for column in _GAME_COLUMNS.split(", "))
                     + f', (SELECT m."id" FROM "{Move._meta.db_table}" m '
                     f'WHERE m."game_id" = g."id" AND m."action_id" = %s LIMIT 1)')
_READ_SQL = f'SELECT {GAME_READ_COLUMNS} FROM "{Game._meta.db_table}" g WHERE g."id" = %s'

_MOVE_SQL = f'SELECT {_MOVE_COLUMNS} FROM "{Move._meta.db_table}" WHERE "id" = %s'
# The game row is saved only if it is still at the version the move was worked out from, and
# the move is inserted only if it was: one statement, so both happen or neither does.
_SAVE_MOVE_SQL = (
    f'WITH saved AS (UPDATE "{Game._meta.db_table}" SET '
    + ", ".join(f'"{Game._meta.get_field(name).column}" = %s' for name in MOVE_CHANGES)
    + ' WHERE "id" = %s AND "version" = %s RETURNING "id") '
    f'INSERT INTO "{Move._meta.db_table}" ("game_id", "seq", "seat", "actor", "action_id", "action", '
    '"events", "created_at") SELECT "id", %s, %s, %s, %s, %s, %s, %s FROM saved')
RACE_RETRIES = 8  # tries for a tap whose table moved on while it was worked out


def _jsonb(value) -> Jsonb:
    return Jsonb(value, dumps=broadcast.encode)


async def asubmit(*, game_id: int, seat: int, action: dict, action_id: str, version: int | None,
                  actor: str = Move.Actor.STUDENT, conn=None, row=None) -> tuple[Outcome, list]:
    """``submit`` for a tap on a socket's event loop with PostgreSQL: the same retry check,
    ``check`` and ``advance``, without the ORM or a thread hop (config/pgpool.py says why).

    Optimistic rather than locked: read the game, work the move out, then save the game and the
    move in one statement only if the game is still at the version read; if another move at the
    table got in first, start again from the new version. Two round trips to the database per
    tap instead of five (begin, lock, insert, update, commit), and no lock held while the rules
    run. A tap at a table of four rarely meets another, and ORM writers (teacher, timers) lock
    the row as before, which this statement waits for. Returns the outcome and the broadcast to
    send. Raises ``Refused``; then nothing has changed.

    ``conn`` is a pooled connection the caller already holds; ``row`` the game as the caller read
    it with ``GAME_READ_COLUMNS`` in that connection, for the first try."""
    from config import pgpool

    _well_formed(action)
    if conn is None:
        async with pgpool.connection() as conn:
            return await asubmit(game_id=game_id, seat=seat, action=action, action_id=action_id,
                                 version=version, actor=actor, conn=conn, row=row)
    for _ in range(RACE_RETRIES):
        if row is None:
            row = await (await conn.execute(_READ_SQL, [action_id, game_id])).fetchone()
        if row is None:
            raise Refused("game_finished")
        game = Game.from_db("default", _GAME_ATTRS, row[:-1])
        if row[-1] is not None:
            stored = await (await conn.execute(_MOVE_SQL, [row[-1]])).fetchone()
            move = Move.from_db("default", _MOVE_ATTRS, stored)
            return Outcome(move=move, version=game.version, replayed=True), []
        check(game, seat, version, actor)
        read_version = game.version
        step = advance(game, seat, action, action_id, actor)
        move = step.move
        move.created_at = game.updated_at = timezone.now()
        saved = await conn.execute(_SAVE_MOVE_SQL, [
            _jsonb(value) if isinstance(value, (dict, list)) else value
            for value in [getattr(game, name) for name in MOVE_CHANGES]
        ] + [game.pk, read_version, move.seq, move.seat, move.actor, move.action_id,
             _jsonb(move.action), _jsonb(move.events), move.created_at])
        if saved.rowcount == 1:
            batch = broadcast.messages(broadcast.Snapshot.of(game), step.engine, step.state,
                                       step.views, step.others)
            return Outcome(move=move, version=game.version), batch
        row = None  # another move at the table got in first: read the game afresh
    raise OperationalError("the table kept changing; try again")


def _well_formed(action) -> None:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise Refused("bad_frame")


def check(game: Game, seat: int | None, version: int | None, actor: str) -> None:
    """Refuse an action the locked game cannot take now: finished, paused, or chosen on a view
    older than this seat's last change."""
    if game.status == Game.Status.FINISHED:
        raise Refused("game_finished")
    if game.status == Game.Status.PAUSED and actor != Move.Actor.TEACHER:
        raise Refused("game_paused")
    if version is not None and seat is not None:
        mark = game.seat_marks.get(str(seat), [0])[0]
        if version < mark or version > game.version:
            raise Refused("stale_view", version=game.version)


@dataclass
class Step:
    """One action applied to a locked game in memory: the move to append (not yet saved) and
    what the broadcast needs."""

    move: Move
    engine: object
    state: object
    views: dict | None
    others: dict | None = None  # seat -> (its view's new ``others`` part, the version its view was built at)


def advance(game: Game, seat, action, action_id, actor, *, views=True) -> Step:
    """Validate and apply one action to ``game`` in memory (its row locked by the caller): the new
    state, version, status, view versions and deadlines. Raises ``Refused``, changing nothing."""
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
        raise Refused.from_illegal(error) from None
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
    _refresh_marks(game, engine, state, acted=seat, unchanged=others or (),
                   choices={s: v.get("actions", []) for s, v in seat_views.items()} if views else None)
    _reschedule(game, engine, state, acted=seat, now=timezone.now())
    move = Move(game=game, seq=game.version, seat=seat, actor=actor, action_id=action_id,
                action=action, events=events)
    return Step(move=move, engine=engine, state=state, views=seat_views, others=others)


def _apply(game: Game, seat, action, action_id, actor, *, publish=True) -> Move:
    """``advance``, then save the move and the game; precondition: inside ``atomic``."""
    step = advance(game, seat, action, action_id, actor, views=publish)
    step.move.save(force_insert=True)
    game.save(update_fields=MOVE_CHANGES)
    if publish:
        _publish_on_commit(game, step.engine, step.state, step.views, step.others)
    return step.move


def _publish_on_commit(game: Game, engine, state, views=None, others=None):
    """Broadcast this version once the transaction commits (never from inside it)."""
    frozen = broadcast.Snapshot.of(game)
    transaction.on_commit(lambda: broadcast.publish(frozen, engine, state, views, others))


def _fingerprint(actions) -> str:
    raw = orjson.dumps(actions, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def _refresh_marks(game: Game, engine, state, *, acted, choices=None, unchanged=()):
    """Per seat ``[mark, choices' fingerprint, built]``: the mark moves on when the seat acted or
    its choices changed; ``built`` is the version its full view was last built at.

    Other seats' moves that leave this seat's choices as they were do not make its view stale,
    so students playing at the same time do not refuse each other's taps. ``choices`` are the
    seats' legal actions when the caller has them already; ``unchanged`` seats' views were not
    built again (their choices are as they were).
    """
    marks = dict(game.seat_marks)
    for seat in range(game.seats):
        if seat in unchanged:
            continue
        fingerprint = _fingerprint(choices[seat] if choices else engine.actions(state, seat))
        old = marks.get(str(seat))
        mark = game.version if old is None or seat == acted or old[1] != fingerprint else old[0]
        marks[str(seat)] = [mark, fingerprint, game.version]
    game.seat_marks = marks


def _reschedule(game: Game, engine, state, *, acted, now: datetime):
    """Set the deadline of each seat that may act: a bot's next step or a human's turn timer."""
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
        if pace is not None:
            wait = pace(state, seat, key in game.bots, wait)
        if wait is None:
            continue
        kept = game.timers.get(key)
        if kept is not None and seat != acted and pace is None:
            timers[key] = kept
        else:
            timers[key] = (now + timedelta(seconds=wait)).isoformat()
    game.timers = timers
    game.next_deadline = min((datetime.fromisoformat(t) for t in timers.values()), default=None)


def _unblocking_action(scenario: str, engine, state) -> dict:
    """What the system does when no seat may act yet the game goes on (the class step, such as
    a held storm moving), else ending the game."""
    step = registry.get(scenario).class_step
    waiting = [a for a in engine.actions(state, None) if step and a.get("type") == step["action"]["type"]]
    return waiting[0] if waiting else {"type": "end_now"}


def _system_action_id(game: Game, purpose: str, seat) -> str:
    """Deterministic ids for server-made moves, so a retried sweep never applies one twice."""
    return f"{purpose}:{seat}:{game.version}"


def play_due(game: Game, now: datetime) -> int:
    """Play every seat whose deadline has passed: its bot, or a bot standing in for an idle seat.

    Precondition: ``game`` is locked (``select_for_update``) inside ``atomic``. Returns moves made.
    """
    engine = engine_for(game)
    made = 0
    for key, when in sorted(game.timers.items()):
        if datetime.fromisoformat(when) > now or game.status != Game.Status.PLAYING:
            continue
        seat = int(key)
        state = engine.load(game.state)
        if seat not in engine.to_act(state):
            continue
        policy = game.bots.get(key) or policy_bot(game.scenario)
        actor = Move.Actor.BOT if key in game.bots else Move.Actor.TIMER
        action = _bot(game.scenario, policy)(state, seat)
        _apply(game, seat, action, _system_action_id(game, actor, seat), actor)
        made += 1
    return made


_DUE_SQL = (f'SELECT 1 FROM "{Game._meta.db_table}" '
            f'WHERE "status" = %s AND "next_deadline" <= %s LIMIT 1')


async def anything_due(now: datetime | None = None) -> bool:
    """Whether ``sweep_due`` would find a game with a passed deadline: one indexed read on the
    event loop. Each server process's deadline loop asks four times a second; a thread hop and
    a locked transaction every time cost about 2 % of a process at 200 actions/s. Without the
    async PostgreSQL path, always True (the loop then sweeps as before)."""
    from config import pgpool

    if not pgpool.available():
        return True
    async with pgpool.connection() as conn:
        cursor = await conn.execute(_DUE_SQL, [Game.Status.PLAYING, now or timezone.now()])
        return await cursor.fetchone() is not None


def sweep_due(now: datetime | None = None, limit: int = 50) -> int:
    """One pass of the deadline loop over every game with a passed deadline."""
    now = now or timezone.now()
    made = 0
    with transaction.atomic():
        due = (Game.objects.select_for_update(skip_locked=True)
               .filter(status=Game.Status.PLAYING, next_deadline__lte=now)
               .order_by("next_deadline")[:limit])
        for game in due:
            made += play_due(game, now)
    return made


def _change_running(game_id: int, change, *, restart_seat=None) -> Game:
    """Lock the game, let ``change(game)`` edit who plays it or whether it runs, then set its
    deadlines again (``restart_seat``'s from now) and broadcast. A finished game is left alone."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            return game
        change(game)
        engine = engine_for(game)
        state = engine.load(game.state)
        _reschedule(game, engine, state, acted=restart_seat, now=timezone.now())
        game.save()
        _publish_on_commit(game, engine, state)
    return game


def set_bot(*, game_id: int, seat: int, policy: str | None) -> Game:
    """Hand ``seat`` to a bot (``policy``) or back to its student (``None``)."""
    def change(game):
        bots = {k: v for k, v in game.bots.items() if k != str(seat)}
        game.bots = {**bots, str(seat): policy} if policy else bots

    return _change_running(game_id, change, restart_seat=seat)


def set_paused(*, game_id: int, paused: bool) -> Game:
    """Pause (timers frozen, students' actions refused) or resume a game (timers start afresh)."""
    def change(game):
        game.status = Game.Status.PAUSED if paused else Game.Status.PLAYING
        game.timers = {}

    return _change_running(game_id, change)


def finish_with_bots(*, game_id: int, max_moves: int = 20_000) -> Game:
    """Play every remaining seat out at once with its policy bot; moves are marked as bot moves."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        engine = engine_for(game)
        policy = policy_bot(game.scenario)
        state = engine.load(game.state)
        if game.status == Game.Status.PAUSED:
            game.status = Game.Status.PLAYING
        for _ in range(max_moves):
            if engine.finished(state):
                break
            seats = engine.to_act(state)
            if not seats:  # the game waits for the system (a held storm): move it on
                _apply(game, None, _unblocking_action(game.scenario, engine, state),
                       _system_action_id(game, "finish", None), Move.Actor.BOT, publish=False)
                state = engine.load(game.state)
            for seat in seats:
                if seat not in engine.to_act(state):  # an earlier seat's move took its turn away
                    continue
                action = _bot(game.scenario, game.bots.get(str(seat), policy))(state, seat)
                _apply(game, seat, action, _system_action_id(game, "finish", seat),
                       Move.Actor.BOT, publish=False)
                state = engine.load(game.state)
                if engine.finished(state):
                    break
        _publish_on_commit(game, engine, state)
    return game


def end_now(*, game_id: int) -> Game:
    """End the game at once with the engine's documented partial scoring."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            game.status = Game.Status.PLAYING
            _apply(game, None, {"type": "end_now"}, _system_action_id(game, "end_now", None),
                   Move.Actor.TEACHER)
    return game


def waiting_for_system(game: Game, action_type: str) -> bool:
    """True when no seat may act and the engine waits for the system's ``action_type``
    (a table held for the class step waits for its action)."""
    if game.status != Game.Status.PLAYING:
        return False
    engine = engine_for(game)
    state = engine.load(game.state)
    return not engine.to_act(state) and any(a.get("type") == action_type for a in engine.actions(state, None))


def system_action(*, game_id: int, action: dict, actor: str = Move.Actor.SYSTEM, key: str = "") -> Move | None:
    """Apply a teacher or system action (seat None) once; ``key`` makes a retry a no-op."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return None
        action_id = f"{action['type']}:{key or game.version}"
        previous = game.moves.filter(action_id=action_id).first()
        if previous is not None:
            return previous
        return _apply(game, None, action, action_id, actor)


@lru_cache(maxsize=256)
def _policy_results(scenario: str, seed: int, seats: int, options_json: str) -> tuple:
    engine = registry.engine(scenario)
    step = registry.get(scenario).class_step or {}
    options = {k: v for k, v in json.loads(options_json).items() if k != step.get("hold")}
    state = engine.setup(seed, seats, options)
    policy = _bot(scenario, policy_bot(scenario))
    for _ in range(20_000):
        if engine.finished(state):
            break
        seats = engine.to_act(state)
        if not seats:
            engine.apply(state, None, _unblocking_action(scenario, engine, state))
        for seat in seats:
            engine.apply(state, seat, policy(state, seat))
            if engine.finished(state):
                break
    return tuple(json.dumps(r, sort_keys=True) for r in engine.results(state))


def policy_results(game: Game) -> list[dict]:
    """The scenario's policy bot playing every seat of this game's setup: the yardstick a team is
    compared with (in a team game: the same storm)."""
    return [json.loads(r) for r in _policy_results(game.scenario, game.seed, game.seats,
                                                   json.dumps(game.options, sort_keys=True))]


def current_view(game: Game, seat: int | None) -> dict:
    """The message a socket or a long-poll sends for ``seat`` (None: the teacher's summary)."""
    engine = engine_for(game)
    state = engine.load(game.state)
    return broadcast.view_message(broadcast.Snapshot.of(game), engine, state, seat)


def results(game: Game) -> list[dict]:
    engine = engine_for(game)
    return engine.results(engine.load(game.state))


def derive_seed(seed: int, label: str) -> int:
    """A table's own seed from the session's, so tables differ but replays stay reproducible."""
    return draw(seed, f"table:{label}", None, 0) >> 1
