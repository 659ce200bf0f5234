"""Every change to a game goes through here: students, bots, timers and teachers alike.

Each change is one pass of ``games.pipeline`` (read → check → advance, the pure part in
``games.step`` → save if the version is unchanged → append the move → push after commit),
driven by the ORM (``submit``) or, for a socket's tap on PostgreSQL, by async psycopg
(``asubmit``); the pipeline's docstring states the concurrency and idempotency rules. Bots and idle-seat timers are deadlines on the game row,
swept by ``sweep_due`` (one loop per server process).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from functools import lru_cache

from django.db import OperationalError, transaction
from django.utils import timezone

from games import broadcast, pipeline, store
from games.models import Game, Move
from games.pipeline import Outcome, server_action_id
from games.refusals import Refused
from games.step import SYSTEM_TIMER, engine_for, policy_bot, refresh_marks, reschedule, unblocking_action
from scenarios import registry
from scenarios.base import draw, play_out

logger = logging.getLogger(__name__)


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
    refresh_marks(game, engine, state, acted=None)
    reschedule(game, engine, state, acted=None, now=timezone.now())
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
    ``first``: the game as the caller read it there (``store.game_from_row``)."""
    from games import pgpool

    steps = pipeline.steps(
        game_id=game_id, seat=seat, action=action, action_id=action_id, version=version, actor=actor, first=first
    )
    if conn is None:
        async with pgpool.connection() as conn:
            return await pipeline.drive_async(steps, conn)
    return await pipeline.drive_async(steps, conn)


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
    was chosen at, so each due step is played once.

    A game whose due step fails is logged and passed by: the others claimed with it are still
    played in this pass, and the loop does not wait for it. Its claim runs out after
    ``SWEEP_LEASE_SECONDS``, so a later pass tries it again."""
    now = now or timezone.now()
    made = 0
    for game in Game.objects.filter(pk__in=claim_due(now, limit)).order_by("pk"):
        try:
            made += play_due(game, now)
        except Exception:
            logger.exception("The deadline sweep failed on game %s; the other games go on.", game.pk)
    return made


_RUNNING_FIELDS = ["bots", "status", "timers", "next_deadline", "updated_at"]


def change_running(game_id: int, change, *, restart_seat=None, rescheduled=True) -> Game | None:
    """Let ``change(game)`` edit who plays the game, whether it runs or a seat's timer, save it
    if nothing else wrote it meanwhile (else read it again and start again) and push the new
    views after commit. ``rescheduled``: set the deadlines again afterwards (``restart_seat``'s
    from now); a change that sets a timer itself says False. A change that returns False declines
    (None is returned, nothing saved), as does a finished game (returned as it is). Nothing locks
    the row: the same rule as a move's (``games.pipeline``)."""
    for _ in range(pipeline.RACE_RETRIES):
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status == Game.Status.FINISHED:
            return game
        read_version, read_stamp = game.version, game.updated_at
        if change(game) is False:
            return None
        engine = engine_for(game)
        state = engine.load(game.state)
        if rescheduled:
            reschedule(game, engine, state, acted=restart_seat, now=timezone.now())
        game.updated_at = timezone.now()
        with transaction.atomic():
            if store.unchanged(game_id, read_version, read_stamp).update(
                **{name: getattr(game, name) for name in _RUNNING_FIELDS}
            ):
                _publish(game, engine, state)
                return game
    raise OperationalError("the table kept changing; try again")


def _publish(game: Game, engine, state) -> None:
    """Every seat's full view and the teacher view of ``game`` as it is, after commit."""
    broadcast.publish(broadcast.Snapshot.of(game), engine, state)


def set_bot(*, game_id: int, seat: int, policy: str | None) -> Game | None:
    """Hand ``seat`` to a bot (``policy``) or back to its student (``None``)."""

    def change(game):
        bots = {k: v for k, v in game.bots.items() if k != str(seat)}
        game.bots = {**bots, str(seat): policy} if policy else bots

    return change_running(game_id, change, restart_seat=seat)


def hand_over(*, game_id: int, seat: int) -> Game | None:
    """A bot's seat goes to a student at the seat's next turn: a bot in the middle of a turn of
    several moves (the engine's ``turn`` hook) plays that turn to its end at once, then stops
    acting for the seat, whose view the student's device now gets. A game without such turns
    (every seat acting at once) is handed over at once."""
    game = Game.objects.get(pk=game_id)
    engine = engine_for(game)
    policy = game.bots.get(str(seat))
    if policy and getattr(engine, "turn", None) is not None:
        state = engine.load(game.state)
        turn = _turn_of(engine, state, seat)
        for _ in range(STAND_IN_MOVES):
            if game.status != Game.Status.PLAYING or seat not in engine.to_act(state):
                break
            if _turn_of(engine, state, seat) != turn:
                break
            try:
                game = submit(
                    game_id=game_id,
                    seat=seat,
                    action=_bot(game.scenario, policy)(state, seat),
                    version=game.version,
                    actor=Move.Actor.BOT,
                    game=game,
                ).game
            except Refused as refusal:
                if refusal.code not in _MOVED_ON:
                    raise
                game = Game.objects.get(pk=game_id)  # the sweep's bot got in first: look again
            state = engine.load(game.state)
    return set_bot(game_id=game_id, seat=seat, policy=None)


def set_paused(*, game_id: int, paused: bool) -> Game | None:
    """Pause (timers frozen, students' actions refused) or resume a game (timers start afresh)."""

    def change(game):
        game.status = Game.Status.PAUSED if paused else Game.Status.PLAYING
        game.timers = {}

    return change_running(game_id, change)


def finish_with_bots(*, game_id: int, max_moves: int = 20_000) -> Game:
    """Play every remaining seat out at once with its policy bot; moves are marked as bot moves
    and the table's views are pushed once, at the end."""
    game = Game.objects.get(pk=game_id)
    if game.status == Game.Status.PAUSED:
        game = set_paused(game_id=game_id, paused=False) or game  # None only for a deleted game
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
                game = play(game, None, unblocking_action(game.scenario, engine, state))
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
        unblock=lambda state: unblocking_action(scenario, engine, state),
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
