"""One pipeline, two drivers: Django's connection (``submit``: SQLite, HTTP fallback, teacher and
loops) and async psycopg (``asubmit``: a socket's tap on PostgreSQL) must behave the same on every
case. The first answers in plain SQL (``games.sql_driver``) or, said plainly, through the ORM
(``store.orm_answer``): both run every case too."""

import asyncio

import pytest
from django.db import connection

from games import pgpool, pipeline, services, sql_driver, store
from games.models import Game, Move
from games.refusals import Refused
from scenarios.registry import ENGINES

pytestmark = pytest.mark.django_db(transaction=True)


def _orm(**kwargs):
    """``services.submit`` with the plain ORM answering."""
    steps = pipeline.steps(
        actor=kwargs.pop("actor", Move.Actor.STUDENT), **{"action_id": None, "version": None, **kwargs}
    )
    return pipeline.drive_sync(steps, answerer=store.orm_answer)


def _sql(**kwargs):
    return services.submit(**kwargs)


def _async(**kwargs):
    kwargs.setdefault("action_id", None)
    kwargs.setdefault("version", None)
    assert pgpool.available(), "the async driver runs on PostgreSQL"
    try:
        return asyncio.run(services.asubmit(**kwargs))
    finally:
        pgpool.close_all()


@pytest.fixture(params=["orm", "sql", "async"])
def submit(request):
    return {"orm": _orm, "sql": _sql, "async": _async}[request.param]


ANSWERERS = {"orm": store.orm_answer, "sql": sql_driver.answer}


def new_game(seats=2, **kwargs):
    return services.create_game(scenario="evacuation", seed=99, seats=seats, **kwargs)


def replays_to_stored_state(game):
    engine = ENGINES["evacuation"]
    state = engine.setup(game.seed, game.seats, game.options)
    for move in game.moves.order_by("seq"):
        engine.apply(state, move.seat, move.action)
    return engine.dump(state) == game.state


def test_a_tap_is_applied_once_with_its_views_and_a_resend_replays_it(submit):
    """A legal tap moves the version on by one, appends one move and carries the views for the
    table and its dashboards; the same id again returns the stored move and pushes nothing."""
    game = new_game()
    outcome = submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="tap-0000001", version=0)
    assert (outcome.version, outcome.replayed, outcome.move.seq) == (1, False, 1)
    assert [kind["type"] for _, kind in outcome.batch] == ["game.views", "game.summary"]
    again = submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="tap-0000001", version=0)
    assert again.replayed and again.move.action_id == "tap-0000001" and again.batch == []
    game.refresh_from_db()
    assert game.version == 1 and game.moves.count() == 1


def test_plain_sql_reads_and_stores_what_the_orm_reads_and_stores():
    """The plain-SQL answers convert values as the ORM does: a game read either way is the same
    in every field (times with their zone, JSON as objects), and a move it saved reads back
    through the ORM as it was made."""
    game = new_game(seats=4, bots={3: "cautious"}, turn_seconds=30)
    outcome = _sql(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="sql-tap-01", version=0)
    by_sql, seen_sql = sql_driver.read(game.pk, "sql-tap-01")
    by_orm, seen_orm = store.orm_read(game.pk, "sql-tap-01")
    assert seen_sql == seen_orm == outcome.move.pk
    for field in Game._meta.concrete_fields:
        assert getattr(by_sql, field.attname) == getattr(by_orm, field.attname), field.name
    assert by_sql.updated_at.tzinfo is not None and by_sql.next_deadline is not None
    assert sql_driver.read(game.pk, "never-sent") == (by_sql, None)
    stored = Move.objects.get(pk=outcome.move.pk)
    assert (stored.seq, stored.seat, stored.actor, stored.action, stored.events, stored.created_at) == (
        1,
        0,
        Move.Actor.STUDENT,
        {"type": "wait"},
        outcome.move.events,
        by_orm.updated_at,
    )


@pytest.mark.parametrize(
    "action, version, code",
    [
        (["wait"], 0, "bad_frame"),
        ({"type": "withdraw", "amount": 2000}, 0, None),
        ({"type": "wait", "note": "free text"}, 0, "unknown_field"),
        ({"type": "wait"}, 5, "stale_view"),  # a version the game has not reached
    ],
)
def test_a_refused_tap_changes_nothing(submit, action, version, code):
    game = new_game()
    with pytest.raises(Refused) as refused:
        submit(game_id=game.pk, seat=0, action=action, action_id="refused-tap-1", version=version)
    assert refused.value.message and (code is None or refused.value.code == code)
    game.refresh_from_db()
    assert game.version == 0 and not game.moves.exists()


def test_a_tap_chosen_before_its_seat_changed_is_stale_but_a_tablemates_move_is_not(submit):
    game = new_game()
    submit(game_id=game.pk, seat=1, action={"type": "wait"}, action_id="seat-one-01", version=0)
    submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="seat-zero-1", version=0)
    with pytest.raises(Refused) as refused:
        submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="seat-zero-2", version=0)
    assert refused.value.code == "stale_view" and refused.value.params == {"version": 2}


def test_paused_and_finished_games_refuse_students_but_the_teacher_may_end(submit):
    game = new_game()
    services.set_paused(game_id=game.pk, paused=True)
    with pytest.raises(Refused, match="game_paused"):
        submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="paused-tap1", version=0)
    ended = submit(game_id=game.pk, seat=None, action={"type": "end_now"}, actor=Move.Actor.TEACHER)
    assert ended.move.action_id == "teacher:-:0" and ended.game.status == Game.Status.FINISHED
    with pytest.raises(Refused, match="game_finished"):
        submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="after-end-1", version=1)


def test_a_missing_game_is_refused_as_finished(submit):
    with pytest.raises(Refused, match="game_finished"):
        submit(game_id=987654, seat=0, action={"type": "wait"}, action_id="no-such-game", version=0)


@pytest.mark.parametrize("driver", ["orm", "sql", "async"])
def test_a_move_saved_between_read_and_save_makes_the_other_start_again(driver):
    """The concurrency rule: nothing is locked; a move saves only if the game is still as it was
    read. Here a teacher's move lands after a tap was worked out and before it was saved: the
    tap's save finds the version moved on, reads again and lands on top, once."""
    game = new_game()
    steps = pipeline.steps(
        game_id=game.pk, seat=0, action={"type": "wait"}, action_id="racing-tap1", version=0, actor=Move.Actor.STUDENT
    )

    def teacher_moves_in_between():
        services.submit(game_id=game.pk, seat=1, action={"type": "wait"}, action_id="in-between1", version=0)

    if driver in ANSWERERS:
        answer = ANSWERERS[driver]
        request = steps.send(None)
        assert isinstance(request, store.Read)
        save = steps.send(answer(request))
        assert isinstance(save, store.Save) and save.read_version == 0
        teacher_moves_in_between()
        assert answer(save) is False
        outcome = pipeline.drive_sync(_resume(steps, False), answerer=answer)
    else:

        async def run():
            async with pgpool.connection() as conn:
                request = steps.send(None)
                save = steps.send(await store.async_answer(conn, request))
                assert isinstance(save, store.Save) and save.read_version == 0
                await asyncio.to_thread(_in_thread, teacher_moves_in_between)
                assert await store.async_answer(conn, save) is False
                return await pipeline.drive_async(_resume(steps, False), conn)

        try:
            outcome = asyncio.run(run())
        finally:
            pgpool.close_all()
    assert outcome.version == 2 and not outcome.replayed
    game.refresh_from_db()
    assert [(m.seq, m.action_id) for m in game.moves.order_by("seq")] == [(1, "in-between1"), (2, "racing-tap1")]
    assert replays_to_stored_state(game)


@pytest.mark.parametrize("driver", ["orm", "sql"])
def test_a_pause_between_read_and_save_is_not_overwritten(driver):
    """A pause moves no version, yet a tap worked out before it must not save the game as
    playing: the save also wants the row's last write to be the one it read."""
    answer = ANSWERERS[driver]
    game = new_game()
    steps = pipeline.steps(
        game_id=game.pk, seat=0, action={"type": "wait"}, action_id="before-pause", version=0, actor=Move.Actor.STUDENT
    )
    save = steps.send(answer(steps.send(None)))
    services.set_paused(game_id=game.pk, paused=True)
    assert answer(save) is False
    with pytest.raises(Refused, match="game_paused"):
        pipeline.drive_sync(_resume(steps, False), answerer=answer)
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED and game.version == 0


def _resume(steps, answer):
    """``steps``, already started, first sent ``answer``: for a driver to carry on with."""
    request = steps.send(answer)

    def resumed():
        reply = yield request
        try:
            while True:
                reply = yield steps.send(reply)
        except StopIteration as done:
            return done.value

    return resumed()


def _in_thread(function):
    try:
        function()
    finally:
        connection.close()


def test_taps_from_both_drivers_at_once_all_land_once_in_order():
    """Sockets (async) and the HTTP fallback (ORM, on threads) tap one table of four at the same
    moment, five rounds over: every tap lands once, versions run without a gap, the log replays."""
    game = new_game(seats=4)

    def orm_tap(n, seat):
        _in_thread(
            lambda: services.submit(game_id=game.pk, seat=seat, action={"type": "wait"}, action_id=f"orm-{n}-{seat}")
        )

    async def rounds():
        for n in range(5):
            await asyncio.gather(
                *(
                    services.asubmit(
                        game_id=game.pk,
                        seat=seat,
                        action={"type": "wait"},
                        action_id=f"socket-{n}-{seat}",
                        version=None,
                    )
                    for seat in (0, 1)
                ),
                *(asyncio.to_thread(orm_tap, n, seat) for seat in (2, 3)),
            )

    try:
        asyncio.run(rounds())
    finally:
        pgpool.close_all()
    game.refresh_from_db()
    assert game.version == 20
    assert list(game.moves.order_by("seq").values_list("seq", flat=True)) == list(range(1, 21))
    assert replays_to_stored_state(game)


def test_two_sweeps_of_one_due_bot_step_play_it_once():
    """Two server processes sweep the same passed deadline: the bot's step is saved by the
    first; the second finds the version moved on and plays nothing."""
    from datetime import timedelta

    from django.utils import timezone

    game = new_game(bots={1: "cautious"})
    later = timezone.now() + timedelta(seconds=5)
    stale_copy = Game.objects.get(pk=game.pk)
    assert services.play_due(Game.objects.get(pk=game.pk), later) == 1
    assert services.play_due(stale_copy, later) == 0
    assert list(game.moves.values_list("action_id", flat=True)) == ["bot:1:0"]


def test_a_due_game_claimed_by_one_sweep_is_passed_by_another():
    """Two processes sweep at the same moment: the second finds nothing to claim, so a bot's
    step is worked out by one process only; the claimed game is played and its deadline set
    afresh by the move."""
    from datetime import timedelta

    from django.utils import timezone

    game = new_game(bots={1: "cautious"})
    later = timezone.now() + timedelta(seconds=5)
    assert services.claim_due(later) == [game.pk]
    assert services.claim_due(later) == []
    game.refresh_from_db()
    assert game.next_deadline == later + timedelta(seconds=services.SWEEP_LEASE_SECONDS)
    assert services.sweep_due(later + timedelta(seconds=3)) == 1
    game.refresh_from_db()
    assert game.moves.get().actor == Move.Actor.BOT
