"""Every change to a game goes through here: students, bots, timers and teachers alike.

Each change is one pass of ``games.pipeline`` (read → check → advance → save if the version is
unchanged → append the move → push after commit), driven by the ORM (``submit``) or, for a
socket's tap on PostgreSQL, by async psycopg (``asubmit``); the module's docstring states the
concurrency and idempotency rules. Bots and idle-seat timers are deadlines on the game row,
swept by ``sweep_due`` (one loop per server process).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

import orjson
from django.db import OperationalError, transaction
from django.utils import timezone

from games import broadcast, pipeline
from games.models import Game, Move
from games.pipeline import Outcome, server_action_id
from games.refusals import Refused
from scenarios import registry
from scenarios.base import IllegalAction, draw, play_out

logger = logging.getLogger(__name__)


def engine_for(game: Game):
    return registry.engine(game.scenario)


def policy_bot(scenario: str) -> str:
    return registry.get(scenario).policy_bot


def _bot(scenario: str, policy: str):
    return registry.get(scenario).bots[policy]


def create_game(
    *,
    scenario: str,
    seed: int,
    seats: int,
    options: dict | None = None,
    bots: dict[int, str] | None = None,
    turn_seconds: int | None = None,
    bot_step_seconds: float = 1.0,
) -> Game:
    """Set up a new game and schedule its first bot moves and turn timers."""
    engine = registry.engine(scenario)
    state = engine.setup(seed, seats, options or {})
    game = Game(
        scenario=scenario,
        engine_version=engine.version,
        content_hash=engine.content_hash,
        schema_version=engine.schema_version,
        seed=seed,
        seats=seats,
        options=options or {},
        state=engine.dump(state),
        bots={str(seat): policy for seat, policy in (bots or {}).items()},
        turn_seconds=turn_seconds,
        bot_step_seconds=bot_step_seconds,
    )
    _refresh_marks(game, engine, state, acted=None)
    _reschedule(game, engine, state, acted=None, now=timezone.now())
    game.save()
    return game


def submit(
    *,
    game_id: int,
    seat: int | None,
    action: dict,
    action_id: str | None = None,
    version: int | None = None,
    actor: str = Move.Actor.STUDENT,
    purpose: str | None = None,
    game: Game | None = None,
    publish: bool = True,
) -> Outcome:
    """Apply one action for ``seat`` (None: the teacher or the system) and record it, with the
    ORM; its views are pushed after commit.

    ``version`` is the view version the action was chosen from; an action chosen before this
    seat's view last changed is refused as stale. A repeated ``action_id`` returns the stored
    outcome without applying anything again; without one, the server names the move
    (``server_action_id``). ``game``: the game as the caller read it, for the first try.
    Raises ``Refused``; then nothing has changed.
    """
    first = (game, None) if game is not None else None
    return pipeline.run_sync(
        pipeline.steps(
            game_id=game_id,
            seat=seat,
            action=action,
            action_id=action_id,
            version=version,
            actor=actor,
            purpose=purpose,
            first=first,
            publish=publish,
        )
    )


async def asubmit(
    *,
    game_id: int,
    seat: int | None,
    action: dict,
    action_id: str | None,
    version: int | None,
    actor: str = Move.Actor.STUDENT,
    conn=None,
    first=None,
) -> Outcome:
    """``submit`` on an event loop with PostgreSQL (``games.pgpool``): the same pipeline, driven
    by async psycopg, without the ORM or a thread hop. The caller awaits
    ``broadcast.send(layer, outcome.batch)``. ``conn``: a pooled connection the caller holds;
    ``first``: the game as the caller read it there (``pipeline.game_from_row``)."""
    from games import pgpool

    steps = pipeline.steps(
        game_id=game_id, seat=seat, action=action, action_id=action_id, version=version, actor=actor, first=first
    )
    if conn is None:
        async with pgpool.connection() as conn:
            return await pipeline.drive_async(steps, conn)
    return await pipeline.drive_async(steps, conn)


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
    _refresh_marks(
        game,
        engine,
        state,
        acted=seat,
        unchanged=others or (),
        choices={s: v.get("actions", []) for s, v in seat_views.items()} if views else None,
    )
    _reschedule(game, engine, state, acted=seat, now=timezone.now())
    move = Move(game=game, seq=game.version, seat=seat, actor=actor, action_id=action_id, action=action, events=events)
    return Step(move=move, engine=engine, state=state, views=seat_views, others=others)


def _fingerprint(actions) -> str:
    raw = orjson.dumps(actions, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def _refresh_marks(game: Game, engine, state, *, acted, choices=None, unchanged=()):
    """Per seat ``[mark, choices' fingerprint, built, played]``: the mark moves on when the seat
    acted or its choices changed; ``built`` is the version its full view was last built at;
    ``played`` is 1 once the seat has made a move (its turn timer runs only from then on).

    Other seats' moves that leave this seat's choices as they were do not make its view stale,
    so students playing at the same time do not refuse each other's taps. ``choices`` are the
    seats' legal actions when the caller has them already; ``unchanged`` seats' views were not
    built again (their choices are as they were).
    """
    marks = dict(game.seat_marks)
    for seat in range(game.seats):
        old = marks.get(str(seat))
        played = 1 if seat == acted or (old is not None and len(old) > 3 and old[3]) else 0
        if seat in unchanged:
            if played and len(old) < 4:
                marks[str(seat)] = [*old[:3], played]
            continue
        fingerprint = _fingerprint(choices[seat] if choices else engine.actions(state, seat))
        mark = game.version if old is None or seat == acted or old[1] != fingerprint else old[0]
        marks[str(seat)] = [mark, fingerprint, game.version, played]
    game.seat_marks = marks


def has_played(game: Game, seat: int) -> bool:
    """Whether ``seat`` has made a move in ``game`` (a person, a bot or a stand-in)."""
    mark = game.seat_marks.get(str(seat))
    return bool(mark and len(mark) > 3 and mark[3])


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
        if key not in game.bots and pace is None and not has_played(game, seat):
            continue  # a student's clock starts with their first move: the first turn is for reading
        if pace is not None:
            wait = pace(state, seat, key in game.bots, wait)
        if wait is None:
            continue
        kept = game.timers.get(key)
        if kept is not None and seat != acted and pace is None:
            timers[key] = kept
        else:
            timers[key] = (now + timedelta(seconds=wait)).isoformat()
    # Optional engine hook: ``due(state)``, the system's own next step (a race settled at the
    # deadline its first slap fixed): set once per key, kept while that key stays due, at once
    # when no seat may act.
    step = getattr(engine, "due", None) and engine.due(state)
    if step:
        key = SYSTEM_TIMER + step["key"]
        at = game.timers.get(key) or (now + timedelta(seconds=step["seconds"])).isoformat()
        if not engine.to_act(state):
            at = min(at, now.isoformat(), key=datetime.fromisoformat)
        timers[key] = at
    game.timers = timers
    game.next_deadline = min((datetime.fromisoformat(t) for t in timers.values()), default=None)


#: the prefix of a system step's key in ``Game.timers`` (seats' keys are their numbers)
SYSTEM_TIMER = "system:"


def _unblocking_action(scenario: str, engine, state) -> dict:
    """What the system does when no seat may act yet the game goes on (the class step, such as
    a held storm moving), else ending the game."""
    due = getattr(engine, "due", None) and engine.due(state)
    if due:
        return due["action"]
    step = registry.get(scenario).class_step
    waiting = [a for a in engine.actions(state, None) if step and a.get("type") == step["action"]["type"]]
    return waiting[0] if waiting else {"type": "end_now"}


# A server move that finds its game changed since it chose (a student's tap got in first, the
# teacher paused or ended the game) lets it be: the next sweep chooses afresh.
_MOVED_ON = ("stale_view", "game_finished", "game_paused")


#: the most moves a stand-in makes to end one idle student's turn (a guard, never reached in play)
STAND_IN_MOVES = 60


def _turn_of(engine, state, seat):
    """The engine's name for the seat's current turn (optional hook ``turn``); None: each move
    is a turn of its own."""
    hook = getattr(engine, "turn", None)
    return hook(state, seat) if hook is not None else None


def play_due(game: Game, now: datetime) -> int:
    """Play every seat whose deadline has passed: its bot, or a bot standing in for an idle seat.
    Each is a ``submit`` chosen on the seat's view at the game's version. A stand-in plays the
    idle student's whole turn (as far as the engine's ``turn`` hook names it), so the student
    comes back to a fresh turn, not to the leftovers of one (cards to discard). Returns moves made."""
    engine = engine_for(game)
    made = 0
    # earliest first, so a race settled at its deadline is not joined by a bot due after it
    for key, when in sorted(game.timers.items(), key=lambda item: (datetime.fromisoformat(item[1]), item[0])):
        if datetime.fromisoformat(when) > now or game.status != Game.Status.PLAYING:
            continue
        if key.startswith(SYSTEM_TIMER):
            step = engine.due(engine.load(game.state))
            if not step or SYSTEM_TIMER + step["key"] != key:
                continue
            try:
                game = submit(
                    game_id=game.pk,
                    seat=None,
                    action=step["action"],
                    version=game.version,
                    action_id=server_action_id("system", None, step["key"]),
                    actor=Move.Actor.SYSTEM,
                    game=game,
                ).game
            except Refused as refusal:
                if refusal.code in _MOVED_ON:
                    break
                raise
            made += 1
            continue
        seat = int(key)
        state = engine.load(game.state)
        if seat not in engine.to_act(state):
            continue
        policy = game.bots.get(key) or policy_bot(game.scenario)
        actor = Move.Actor.BOT if key in game.bots else Move.Actor.TIMER
        turn = _turn_of(engine, state, seat)
        for _ in range(STAND_IN_MOVES if actor == Move.Actor.TIMER and turn is not None else 1):
            try:
                game = submit(
                    game_id=game.pk,
                    seat=seat,
                    action=_bot(game.scenario, policy)(state, seat),
                    version=game.version,
                    actor=actor,
                    game=game,
                ).game
            except Refused as refusal:
                if refusal.code in _MOVED_ON:
                    return made
                raise
            made += 1
            state = engine.load(game.state)
            if (
                game.status != Game.Status.PLAYING
                or seat not in engine.to_act(state)
                or _turn_of(engine, state, seat) != turn
            ):
                break
    return made


_DUE_SQL = f'SELECT 1 FROM "{Game._meta.db_table}" WHERE "status" = %s AND "next_deadline" <= %s LIMIT 1'


async def anything_due(now: datetime | None = None) -> bool:
    """Whether ``sweep_due`` would find a game with a passed deadline: one indexed read on the
    event loop. Each server process's deadline loop asks four times a second; a thread hop and
    an ORM query every time cost about 2 % of a process at 200 actions/s. Without the async
    PostgreSQL path, always True (the loop then sweeps as before)."""
    from games import pgpool

    if not pgpool.available():
        return True
    async with pgpool.connection() as conn:
        cursor = await conn.execute(_DUE_SQL, [Game.Status.PLAYING, now or timezone.now()])
        return await cursor.fetchone() is not None


SWEEP_LEASE_SECONDS = 2.0


def claim_due(now: datetime, limit: int = 50) -> list[int]:
    """The games whose deadline has passed, claimed for this process: their deadline is moved
    ``SWEEP_LEASE_SECONDS`` on, so another process's sweep passes them by (``SKIP LOCKED``: nor
    does it wait for this claim). The claim locks nothing while rules run; the moves themselves
    save as every move does, and set the deadlines afresh. A process that dies holding a claim
    only delays those games by the lease."""
    due = Game.objects.filter(status=Game.Status.PLAYING, next_deadline__lte=now)
    if not due.exists():  # most sweeps: no write transaction (on SQLite, its one write lock)
        return []
    with transaction.atomic():
        ids = list(
            due.select_for_update(skip_locked=True).order_by("next_deadline").values_list("pk", flat=True)[:limit]
        )
        Game.objects.filter(pk__in=ids).update(next_deadline=now + timedelta(seconds=SWEEP_LEASE_SECONDS))
    return ids


def sweep_due(now: datetime | None = None, limit: int = 50) -> int:
    """One pass of the deadline loop over every game with a passed deadline. Several processes
    may sweep at once: each plays the games it claimed, and a move saves only at the version it
    was chosen at, so each due step is played once."""
    now = now or timezone.now()
    ids = claim_due(now, limit)
    return sum(play_due(game, now) for game in Game.objects.filter(pk__in=ids).order_by("pk"))


_RUNNING_FIELDS = ["bots", "status", "timers", "next_deadline", "updated_at"]


def _change_running(game_id: int, change, *, restart_seat=None) -> Game:
    """Let ``change(game)`` edit who plays the game or whether it runs, then set its deadlines
    again (``restart_seat``'s from now), save it if nothing else wrote it meanwhile (else start
    again) and push the new views after commit. A finished game is left alone."""
    for _ in range(pipeline.RACE_RETRIES):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            return game
        read_version, read_stamp = game.version, game.updated_at
        change(game)
        engine = engine_for(game)
        state = engine.load(game.state)
        _reschedule(game, engine, state, acted=restart_seat, now=timezone.now())
        game.updated_at = timezone.now()
        with transaction.atomic():
            if pipeline.unchanged(game_id, read_version, read_stamp).update(
                **{name: getattr(game, name) for name in _RUNNING_FIELDS}
            ):
                _publish(game, engine, state)
                return game
    raise OperationalError("the table kept changing; try again")


def _publish(game: Game, engine, state) -> None:
    """Every seat's full view and the teacher view of ``game`` as it is, after commit."""
    broadcast.publish(broadcast.Snapshot.of(game), engine, state)


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
    """Play every remaining seat out at once with its policy bot; moves are marked as bot moves
    and the table's views are pushed once, at the end."""
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.PAUSED:
        game = set_paused(game_id=game_id, paused=False)
    engine = engine_for(game)
    policy = policy_bot(game.scenario)

    def play(game, seat, action):
        try:
            return submit(
                game_id=game_id,
                seat=seat,
                action=action,
                version=game.version,
                actor=Move.Actor.BOT,
                purpose="finish",
                game=game,
                publish=False,
            ).game
        except Refused as refusal:
            if refusal.code not in _MOVED_ON:
                raise
            return Game.objects.get(pk=game_id)  # a tap got in first: choose again from there

    with transaction.atomic():
        for _ in range(max_moves):
            if game.status == Game.Status.FINISHED:
                break
            state = engine.load(game.state)
            seats = engine.to_act(state)
            if not seats:  # the game waits for the system (a held storm): move it on
                game = play(game, None, _unblocking_action(game.scenario, engine, state))
                continue
            for seat in seats:
                state = engine.load(game.state)
                if seat not in engine.to_act(state):  # an earlier seat's move took its turn away
                    continue
                game = play(game, seat, _bot(game.scenario, game.bots.get(str(seat), policy))(state, seat))
                if game.status == Game.Status.FINISHED:
                    break
        _publish(game, engine, engine.load(game.state))
    return game


def end_now(*, game_id: int) -> Game:
    """End the game at once with the engine's documented partial scoring (a paused game too)."""
    try:
        return submit(
            game_id=game_id, seat=None, action={"type": "end_now"}, actor=Move.Actor.TEACHER, purpose="end_now"
        ).game
    except Refused as refusal:
        if refusal.code != "game_finished":
            raise
        return Game.objects.get(pk=game_id)


def waiting_for_system(game: Game, action_type: str) -> bool:
    """True when no seat may act and the engine waits for the system's ``action_type``
    (a table held for the class step waits for its action)."""
    if game.status != Game.Status.PLAYING:
        return False
    engine = engine_for(game)
    state = engine.load(game.state)
    return not engine.to_act(state) and any(a.get("type") == action_type for a in engine.actions(state, None))


def system_action(*, game_id: int, action: dict, actor: str = Move.Actor.SYSTEM, key: str = "") -> Move | None:
    """Apply a teacher or system action (seat None) to a running game; None if it is paused or
    over. ``key`` names a one-off intent (a storm countdown): a retry with it is a no-op, and
    without one the move is named by the version it was chosen at."""
    action_id = server_action_id(action["type"], None, key) if key else None
    try:
        return submit(
            game_id=game_id, seat=None, action=action, action_id=action_id, actor=actor, purpose=action["type"]
        ).move
    except Refused as refusal:
        if refusal.code in ("game_finished", "game_paused"):
            return None
        raise


@lru_cache(maxsize=256)
def _policy_results(scenario: str, seed: int, seats: int, options_json: str) -> tuple:
    engine = registry.engine(scenario)
    step = registry.get(scenario).class_step or {}
    options = {k: v for k, v in json.loads(options_json).items() if k != step.get("hold")}
    state = engine.setup(seed, seats, options)
    play_out(
        engine,
        state,
        _bot(scenario, policy_bot(scenario)),
        unblock=lambda state: _unblocking_action(scenario, engine, state),
    )
    return tuple(json.dumps(r, sort_keys=True) for r in engine.results(state))


def policy_results(game: Game) -> list[dict]:
    """The scenario's policy bot playing every seat of this game's setup: the yardstick a team is
    compared with (in a team game: the same storm)."""
    return [
        json.loads(r)
        for r in _policy_results(game.scenario, game.seed, game.seats, json.dumps(game.options, sort_keys=True))
    ]


def seat_open(engine, state, seat: int) -> bool:
    """Whether ``seat`` still has a game to play (optional engine hook ``seat_open``; without
    it, while the game is not finished): where a late arrival may take over from a bot."""
    hook = getattr(engine, "seat_open", None)
    return hook(state, seat) if hook is not None else not engine.finished(state)


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
