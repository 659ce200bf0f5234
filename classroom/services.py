"""Lesson workflows: sessions, join codes, joining, tables, starting, and ending a lesson.

Each function is one change a teacher or a student makes; views and consumers call these and
nothing else writes sessions, participants, tables or seats. Game state itself changes only in
``games.services``.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Exists, F, OuterRef
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from classroom import languages, nicknames, ratelimit, regions, signals
from classroom.models import Participant, Seat, Session, Table
from games import clock, taps
from games import services as games
from games import store as game_store
from games.models import Game, Move
from games.refusals import Refused
from scenarios import registry
from scenarios.audience import Audience

# 32 symbols, no I, L, O or U: about 30 bits in six characters, none easily misread.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 6
MAX_PARTICIPANTS = 200  # the highest cap a teacher may set on one session
_FOLD = str.maketrans({"O": "0", "I": "1", "L": "1", "U": "V"})


class JoinError(Exception):
    """A join attempt refused, with a sentence for the student; nothing was saved."""

    def __init__(self, message, code="invalid"):
        super().__init__(message)
        self.message = message
        self.code = code


# --- Join codes -----------------------------------------------------------------------------------


def normalize_code(raw: str) -> str:
    """What the student typed, as a code: case, spaces and dashes ignored; O/0 and I/1 folded."""
    cleaned = "".join(ch for ch in (raw or "").upper() if ch.isalnum())
    return cleaned.translate(_FOLD)


def new_join_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def format_code(code: str) -> str:
    """Shown as ABC-DEF: easier to read out loud and to copy from the back of the room."""
    return f"{code[:3]}-{code[3:]}"


class SessionQuotaReached(Exception):
    """A teacher already keeps as many sessions as one account may; nothing was created."""

    def __init__(self, most):
        self.message = _(
            "You already keep %(most)d sessions, the most one account may. Delete old ones to start a new lesson."
        ) % {"most": most}
        super().__init__(self.message)


def create_session(
    *,
    teacher,
    scenario: str,
    seats_per_table: int = 4,
    fill_with_bots=True,
    turn_timer=True,
    turn_seconds=120,
    names=Session.Names.APPROVE,
    seed=None,
    options=None,
    title="",
    preset="",
    max_participants=40,
    intensity=Session.Intensity.GENTLE,
    age_band="10+",
    region=regions.DEFAULT,
) -> Session:
    """A new session in the lobby, with a join code unique among all sessions.

    ``preset`` names one of the scenario's ``PRESETS`` (see ``scenarios.registry``): its
    option values are set over ``options``, and the session remembers which preset it plays so
    that every results screen and report can say so. ``intensity`` and ``age_band`` say what the
    students may see (``scenarios.audience``); unknown values fall back to Gentle, 10+.

    Raises ``SessionQuotaReached`` when the teacher keeps ``SESSIONS_PER_TEACHER`` already.
    """
    if Session.objects.filter(teacher=teacher).count() >= settings.SESSIONS_PER_TEACHER:
        raise SessionQuotaReached(settings.SESSIONS_PER_TEACHER)
    if region not in regions.REGIONS:
        raise ValueError(f"No region {region!r}.")
    options = dict(options or {})
    if preset:
        named = registry.get(scenario).presets
        if preset not in named:
            raise ValueError(f"Scenario {scenario!r} has no preset {preset!r}.")
        options.update(named[preset])
    options["preset"] = preset
    audience = Audience.of(intensity, age_band)
    for _attempt in range(20):
        try:
            with transaction.atomic():
                return Session.objects.create(
                    teacher=teacher,
                    scenario=scenario,
                    join_code=new_join_code(),
                    seats_per_table=seats_per_table,
                    fill_with_bots=fill_with_bots,
                    turn_timer=turn_timer,
                    turn_seconds=turn_seconds,
                    names=names,
                    seed=seed if seed is not None else secrets.randbits(48),
                    options=options,
                    title=title,
                    max_participants=max_participants,
                    region=region,
                    language=languages.current(),
                    intensity=audience.intensity,
                    age_band=audience.age_band,
                )
        except IntegrityError:
            continue
    raise RuntimeError("Could not find a free join code.")


def open_session_for_code(raw_code: str) -> Session:
    """The session a typed code opens, or ``JoinError`` saying why not."""
    code = normalize_code(raw_code)
    if len(code) != CODE_LENGTH:
        raise JoinError(
            _("A join code has 6 letters and numbers, like %(example)s.") % {"example": "K7M-Q2P"}, code="bad_code"
        )
    session = Session.objects.filter(join_code=code).first()
    if session is None:
        raise JoinError(_("No lesson has that code. Check it on the board and try again."), code="wrong_code")
    if session.status == Session.Status.ENDED:
        raise JoinError(_("This lesson has ended, so its code no longer works."), code="ended")
    return session


# --- Participants ---------------------------------------------------------------------------------


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def participant_for_token(session: Session, token: str | None) -> Participant | None:
    if not token:
        return None
    return session.participants.filter(token_hash=hash_token(token)).first()


def long_over(session: Session) -> bool:
    """Ended ``DEVICE_REPORT_HOURS`` ago: a device's cookie no longer names anyone in it, so the
    next child on a shared tablet never lands in the last one's game."""
    return bool(session.ended_at) and timezone.now() - session.ended_at >= timedelta(hours=settings.DEVICE_REPORT_HOURS)


def _nickname_taken(session: Session, name: str, exclude=None) -> bool:
    key = nicknames.same_key(name)
    others = session.participants.exclude(pk=getattr(exclude, "pk", None))
    return any(nicknames.same_key(other) == key for other in others.values_list("nickname", flat=True))


def check_nickname(session: Session, raw: str, exclude=None) -> str:
    name = nicknames.clean(raw)
    problem = nicknames.problem(name)
    if problem:
        raise JoinError(str(problem), code="bad_nickname")
    if _nickname_taken(session, name, exclude):
        raise JoinError(
            _("Someone in this lesson already uses “%(name)s”. Add a letter or pick another.") % {"name": name},
            code="duplicate_nickname",
        )
    return name


def join(
    *,
    session: Session,
    nickname: str = "",
    players: int = 1,
    language: str | None = None,
    device_hash: str = "",
    admit=None,
) -> tuple[Participant, str]:
    """Add a student (or a shared device of ``players`` students) to a session, playing and
    reading their report in ``language`` (the tablet's choice; the active language if None),
    from the device ``device_hash`` names (``guesses.device_hash``; refused if the teacher banned it).
    ``admit``, if given, is called once every check has passed and may refuse the join by raising
    (``ratelimit.take_join_pace``).

    The checks run twice: first without the session's lock, so that a join refused for any reason
    (the pace included) neither waits for nor holds up the class's own joins, which a script's
    crowd of joins from one address would otherwise queue behind; then again under the lock, which
    decides.

    Returns the participant and the device token to keep in a cookie. Before the start the
    tables are rearranged; after it a student whose name needs no approval takes the seat a bot
    keeps longest (``seat_late``), and one whose name does waits for the teacher's approval.
    """
    players = max(1, min(int(players or 1), session.seats_per_table))
    token = secrets.token_urlsafe(24)
    _admissible(session, nickname, device_hash)
    if admit is not None:
        admit()
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session.pk)
        name, approved = _admissible(session, nickname, device_hash)
        participant = Participant.objects.create(
            session=session,
            nickname=name,
            approved=approved,
            players=players,
            token_hash=hash_token(token),
            last_seen_at=timezone.now(),
            device_hash=device_hash,
            language=languages.supported(language or languages.current()),
        )
        if session.status == Session.Status.LOBBY:
            if session.arranged_by_teacher:
                _seat_in_smallest_table(session, participant)
            else:
                arrange_tables(session)
        elif approved:
            _seat_late(session, participant)  # or waits, seatless, for the teacher's new table
    notify_session(session)
    return participant, token


def _admissible(session: Session, nickname: str, device_hash: str) -> tuple[str, bool]:
    """The name a join would take and whether it is approved, or the ``JoinError`` that refuses it."""
    if session.status == Session.Status.ENDED:
        raise JoinError(_("This lesson has ended, so its code no longer works."), code="ended")
    if session.joining_locked:
        raise JoinError(
            _("Your teacher has closed this lesson to new students. Ask your teacher to open it."),
            code="joining_locked",
        )
    if device_hash and device_hash in session.banned_devices:
        raise JoinError(_("Your teacher has taken this tablet out of the lesson."), code="banned")
    count = session.participants.count()
    if count >= session.max_participants:
        raise JoinError(_("This lesson is full. Ask your teacher to make room."), code="session_full")
    if session.names != Session.Names.GENERATED:
        return check_nickname(session, nickname), session.names == Session.Names.AUTO
    # in the language the student's tablet shows the join page in
    index, language = count, translation.get_language() or "en"
    name = nicknames.generated(index, language[:2])
    while _nickname_taken(session, name):
        index += 1
        name = nicknames.generated(index, language[:2])
    return name, True


def rename(*, participant: Participant, nickname: str) -> Participant:
    """The teacher renames a student, which approves the name (and seats a late arrival)."""
    participant.nickname = check_nickname(participant.session, nickname, exclude=participant)
    participant.approved = True
    participant.save(update_fields=["nickname", "approved"])
    _seat_if_late([participant.pk], participant.session)
    notify_session(participant.session)
    return participant


def approve(*, participant: Participant, approved=True, seat: Seat | None = None) -> None:
    """The teacher approves a student's nickname (or hides it again). A student who joined after
    the start is then seated at the seat a bot keeps longest, or at ``seat`` when the teacher
    picked one (``seat_late``); a refused pick changes nothing."""
    with transaction.atomic():
        participant.approved = approved
        participant.save(update_fields=["approved"])
        if approved and seat is not None:
            _seat_late_at(participant, seat)
        elif approved:
            _seat_if_late([participant.pk], participant.session)
    notify_session(participant.session)


def approve_all(*, session: Session) -> int:
    """The teacher approves every nickname still waiting (a class of 30 in one tap), and seats
    those who joined after the start. Returns how many were approved."""
    with transaction.atomic():
        waiting = list(session.participants.filter(approved=False).values_list("pk", flat=True))
        count = session.participants.filter(pk__in=waiting).update(approved=True)
        _seat_if_late(waiting, session)
    if count:
        notify_session(session)
    return count


def set_joining_locked(*, session: Session, locked: bool) -> None:
    """The teacher closes the door to new students (or opens it); students already in play on."""
    Session.objects.filter(pk=session.pk).update(joining_locked=locked)
    notify_session(session)


def set_max_participants(*, session: Session, most) -> None:
    """How many students may join at most (1–200); those already in stay."""
    try:
        most = int(most)
    except (TypeError, ValueError):
        most = 0
    if not 1 <= most <= MAX_PARTICIPANTS:
        raise JoinError(_("Choose between 1 and %(most)d students.") % {"most": MAX_PARTICIPANTS}, code="bad_cap")
    Session.objects.filter(pk=session.pk).update(max_participants=most)
    notify_session(session)


def remove(*, participant: Participant) -> None:
    """Take a student out: their seats go to bots (during play) or the tables are rearranged."""
    session = Session.objects.get(pk=participant.session_id)  # as it is now, not when they joined
    with transaction.atomic():
        seats = list(participant.seats.select_related("table"))
        participant.delete()
        # the seat's bot keeps it for the next late arrival from now
        Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(kept_since=timezone.now())
        if session.status == Session.Status.LOBBY:
            Seat.objects.filter(participant__isnull=True, table__session=session).delete()
            if not session.arranged_by_teacher:
                arrange_tables(session)
        else:
            for seat in seats:
                if seat.table.game_id:
                    games.set_bot(
                        game_id=seat.table.game_id, seat=seat.number, policy=games.policy_bot(session.scenario)
                    )
    notify_session(session)


def remove_many(*, session: Session, participant_ids) -> int:
    """Take several students out at once (``remove`` for each); ids of other sessions are
    ignored. Returns how many were removed."""
    ids = []
    for raw in participant_ids:
        try:
            ids.append(int(raw))
        except (TypeError, ValueError):
            continue
    participants = list(session.participants.filter(pk__in=ids))
    for participant in participants:
        remove(participant=participant)
    return len(participants)


def ban(*, participant: Participant) -> None:
    """Take a student out and turn their device away for the rest of the lesson: it cannot join
    again, under any nickname."""
    session = participant.session
    if participant.device_hash:
        with transaction.atomic():
            locked = Session.objects.select_for_update().get(pk=session.pk)
            if participant.device_hash not in locked.banned_devices:
                locked.banned_devices = [*locked.banned_devices, participant.device_hash]
                locked.save(update_fields=["banned_devices"])
    remove(participant=participant)


def ask_teacher(*, participant: Participant, asking=True) -> bool:
    """Raise or lower a student's "ask the teacher" hand; the dashboard is told only if it
    changed. Returns whether it changed."""
    changed = Participant.objects.filter(pk=participant.pk, asked_teacher_at__isnull=asking).update(
        asked_teacher_at=timezone.now() if asking else None
    )
    if changed:
        notify_session(participant.session)
    return bool(changed)


# --- Tables -------------------------------------------------------------------------------------


def table_sizes(humans: int, seats_per_table: int) -> list[int]:
    """Balanced table sizes: as few tables as fit, sizes differing by at most one, and never a
    table of one while two humans could sit together (29 students at 4 → 5 × 4 + 3 × 3)."""
    if humans <= 0:
        return []
    tables = math.ceil(humans / seats_per_table)
    if humans >= 2:
        tables = min(tables, humans // 2)
    base, extra = divmod(humans, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def arrange_tables(session: Session) -> None:
    """Seat every participant afresh in join order at balanced tables (lobby only).

    A shared device's players sit together. Only the seats that change are written: this runs
    inside every lobby join's lock, where a class's joins wait for each other. Precondition: the
    session row is locked.
    """
    participants = list(session.participants.order_by("created_at").values_list("pk", "players"))
    sizes = table_sizes(sum(players for _pk, players in participants), session.seats_per_table)
    fill, wanted = [0] * len(sizes), {}  # (table number, seat number) -> participant id
    for participant, players in participants:
        index = next(
            (i for i, size in enumerate(sizes) if fill[i] + players <= size),
            min(range(len(sizes)), key=lambda i: fill[i]),
        )
        for _seat in range(players):
            wanted[index + 1, fill[index]] = participant
            fill[index] += 1
    seats = Seat.objects.filter(table__session=session).values_list("pk", "table__number", "number", "participant_id")
    kept = {(table, number) for _pk, table, number, held_by in seats if wanted.get((table, number)) == held_by}
    Seat.objects.filter(pk__in=[pk for pk, table, number, _held in seats if (table, number) not in kept]).delete()
    have = set(session.tables.values_list("number", flat=True))
    Table.objects.bulk_create(Table(session=session, number=n) for n in range(1, len(sizes) + 1) if n not in have)
    session.tables.filter(number__gt=len(sizes)).delete()
    tables = {table.number: table for table in session.tables.all()}
    Seat.objects.bulk_create(
        Seat(table=tables[table], number=number, participant_id=held_by)
        for (table, number), held_by in wanted.items()
        if (table, number) not in kept
    )


def _seat_in_smallest_table(session: Session, participant: Participant) -> None:
    tables = list(session.tables.annotate(taken=Count("seats")).order_by("taken", "number"))
    table = next((t for t in tables if t.taken + participant.players <= session.seats_per_table), None)
    if table is None:
        table = Table.objects.create(session=session, number=len(tables) + 1)
    used = set(table.seats.values_list("number", flat=True))
    free = [n for n in range(session.seats_per_table + participant.players) if n not in used]
    Seat.objects.bulk_create(Seat(table=table, number=n, participant=participant) for n in free[: participant.players])


def move_participant(*, participant: Participant, table_number: int) -> None:
    """The teacher seats a student at another table (lobby only); later arrivals don't undo it."""
    session = participant.session
    if session.status != Session.Status.LOBBY:
        raise JoinError(_("Students can be moved only before the game starts."), code="started")
    tables = session.tables.count()
    if not 1 <= table_number <= tables + 1:  # an existing table, or one new table
        raise JoinError(_("Choose a table from 1 to %(most)d.") % {"most": tables + 1}, code="no_such_table")
    with transaction.atomic():
        Session.objects.filter(pk=session.pk).update(arranged_by_teacher=True)
        table, _created = Table.objects.get_or_create(session=session, number=table_number)
        if table.seats.exclude(participant=participant).count() + participant.players > 6:
            raise JoinError(_("That table is full."), code="table_full")
        participant.seats.all().delete()
        used = set(table.seats.values_list("number", flat=True))
        free = [n for n in range(8) if n not in used][: participant.players]
        Seat.objects.bulk_create(Seat(table=table, number=n, participant=participant) for n in free)
        for empty in session.tables.annotate(taken=Count("seats")).filter(taken=0):
            empty.delete()
    notify_session(session)


# --- Late arrivals --------------------------------------------------------------------------------

_RUNNING = (Game.Status.PLAYING, Game.Status.PAUSED)
_LONG_AGO = timezone.make_aware(datetime(2000, 1, 1))


def kept_seats(session: Session) -> list[Seat]:
    """The seats bots keep for late arrivals, the one to give first at the front: no student's,
    at a table whose game runs, with the bot's player still in the game (never a finished
    household); kept longest first, then at the table with the fewest students."""
    ranked = []
    for table in session.tables.filter(game__status__in=_RUNNING).select_related("game").prefetch_related("seats"):
        seats = list(table.seats.all())
        humans = sum(1 for seat in seats if seat.participant_id)
        engine = games.engine_for(table.game)
        state = engine.load(table.game.state)
        for seat in seats:
            if (
                seat.participant_id is None
                and str(seat.number) in table.game.bots
                and games.seat_open(engine, state, seat.number)
            ):
                seat.table = table
                ranked.append(((seat.kept_since or _LONG_AGO, humans, table.number, seat.number), seat))
    return [seat for _key, seat in sorted(ranked, key=lambda pair: pair[0])]


def joined_late(session: Session, participant: Participant) -> bool:
    return bool(session.started_at and participant.created_at > session.started_at)


def seat_late(*, participant: Participant, seat: Seat) -> None:
    """The teacher gives a late arrival another seat a bot keeps (``seat``, of their session):
    the student takes it over at its next turn and the seat they held goes back to a bot, which
    keeps it in turn. Raises ``JoinError`` (nothing changed) for a student who joined before the
    start or a seat no bot keeps."""
    with transaction.atomic():
        _seat_late_at(participant, seat)
    notify_session(participant.session)


def _seat_late_at(participant: Participant, seat: Seat) -> None:
    session = Session.objects.select_for_update().get(pk=participant.session_id)
    if session.status not in (Session.Status.PLAYING, Session.Status.PAUSED):
        raise JoinError(_("Seats kept by bots can be given only while the lesson is playing."), code="not_playing")
    if not joined_late(session, participant):
        raise JoinError(_("Only a student who joined after the start can take a seat a bot keeps."), code="not_late")
    _seat_late(session, participant, seat)


def _seat_if_late(participant_ids, session: Session) -> None:
    """Seat each of these participants that joined after the start and has no seat yet, at the
    seats bots keep longest. Precondition: inside a transaction."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status not in (Session.Status.PLAYING, Session.Status.PAUSED):
        return
    for participant in session.participants.filter(pk__in=list(participant_ids), seats__isnull=True).order_by(
        "created_at"
    ):
        _seat_late(session, participant)


def _seat_late(session: Session, participant: Participant, chosen: Seat | None = None) -> bool:
    """Give a late arrival the seat a bot keeps longest (with as many of that table's kept seats
    as the device has players), or the teacher's ``chosen`` one; a student already seated gives
    their seats back to bots. The student takes each seat over at its next turn
    (``games.hand_over``). Returns False when no bot keeps a seat: the student then waits, and
    the dashboard says so and offers the teacher a new table. Precondition: the session row is
    locked."""
    kept = candidates = kept_seats(session)
    if chosen is not None:
        candidates = [seat for seat in kept if seat.pk == chosen.pk]
        if not candidates:
            raise JoinError(_("No bot keeps that seat for a late student now. Choose another."), code="seat_not_kept")
    for first in candidates:
        group = [first] + [seat for seat in kept if seat.table_id == first.table_id and seat.pk != first.pk]
        if len(group) >= participant.players:
            break
    else:
        if chosen is not None:
            raise JoinError(_("That table has too few seats kept by bots for this tablet."), code="table_full")
        return False
    now = timezone.now()
    for seat in participant.seats.select_related("table"):
        Seat.objects.filter(pk=seat.pk).update(participant=None, kept_since=now)
        if seat.table.game_id:
            games.set_bot(game_id=seat.table.game_id, seat=seat.number, policy=games.policy_bot(session.scenario))
    for seat in group[: participant.players]:
        Seat.objects.filter(pk=seat.pk).update(participant=participant, kept_since=None)
        games.hand_over(game_id=seat.table.game_id, seat=seat.number)
    return True


def seatless(session: Session):
    """Approved students who joined after the start and wait for a seat (no bot kept one free)."""
    return session.participants.filter(seats__isnull=True, approved=True).order_by("created_at")


def open_late_tables(*, session: Session) -> list[Table]:
    """The teacher seats every waiting late arrival at new tables (balanced, bots filling the
    empty seats as at the start), each with a fresh game of its own. Returns the new tables."""
    if session.status not in (Session.Status.PLAYING, Session.Status.PAUSED):
        raise JoinError(_("New tables can be opened only while the lesson is playing."), code="not_playing")
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session.pk)
        waiting = list(seatless(session))
        if not waiting:
            return []
        first = (session.tables.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        sizes = table_sizes(sum(p.players for p in waiting), session.seats_per_table)
        tables, queue = [], list(waiting)
        for index, size in enumerate(sizes):
            table = Table.objects.create(session=session, number=first + index)
            seated = 0
            while queue and seated + queue[0].players <= max(size, queue[0].players):
                participant = queue.pop(0)
                Seat.objects.bulk_create(
                    Seat(table=table, number=seated + n, participant=participant) for n in range(participant.players)
                )
                seated += participant.players
            _start_table(session, table)
            tables.append(table)
    notify_session(session)
    return tables


# --- Running the lesson ---------------------------------------------------------------------------


def start(*, session: Session) -> Session:
    """Start every table's game; empty seats get the scenario's policy bot."""
    with transaction.atomic():
        session = Session.objects.select_for_update().get(pk=session.pk)
        if session.status != Session.Status.LOBBY:
            return session
        if not Seat.objects.filter(table__session=session).exists():
            raise JoinError(_("Wait until at least one student has joined."), code="empty")
        for table in session.tables.prefetch_related("seats"):
            _start_table(session, table)
        session.status = Session.Status.PLAYING
        session.started_at = timezone.now()
        session.save(update_fields=["status", "started_at"])
    notify_session(session)
    return session


def _start_table(session: Session, table: Table) -> None:
    """Create one table's game: its students' seats numbered from 0, bots in the empty seats."""
    policy = games.policy_bot(session.scenario)
    humans = sorted(table.seats.all(), key=lambda s: s.number)
    for index, seat in enumerate(humans):  # close gaps left by moves
        if seat.number != index:
            Seat.objects.filter(pk=seat.pk).update(number=index)
    count = len(humans)
    if session.fill_with_bots or count < 2:
        count = max(count, session.seats_per_table if session.fill_with_bots else 2)
    now = timezone.now()
    Seat.objects.bulk_create(Seat(table=table, number=n, kept_since=now) for n in range(len(humans), count))
    engine = registry.engine(session.scenario)
    game = games.create_game(
        scenario=session.scenario,
        seed=games.derive_seed(session.seed, str(table.number)),
        seats=count,
        options=table_options(session, table.number),
        bots={n: policy for n in range(len(humans), count)},
        turn_seconds=session.turn_seconds if session.turn_timer else None,
        # A game whose seats leave it one by one: its bots keep their seats at a child's pace.
        bot_step_seconds=(
            settings.KEEPER_STEP_SECONDS if getattr(engine, "seat_open", None) else settings.BOT_STEP_SECONDS
        ),
    )
    table.game = game
    table.save(update_fields=["game"])


def table_options(session: Session, table_number: int) -> dict:
    """The engine options of one table: the teacher's choices, as the scenario sets them for each
    table (a storm shared by the class, for example); the preset's name stays with the session."""
    options = {k: v for k, v in session.options.items() if k != "preset"}
    return registry.get(session.scenario).table_options(options, session.seed, table_number, games.derive_seed)


STORM_COUNTDOWN_SECONDS = 10


def call_storm(*, session: Session) -> Session:
    """The teacher's class step ("storm moves"): after a visible countdown it happens at every table."""
    if session.status == Session.Status.PLAYING and registry.get(session.scenario).class_step:
        session.storm_deadline = clock.later(timezone.now(), STORM_COUNTDOWN_SECONDS)
        session.save(update_fields=["storm_deadline"])
        notify_session(session)
    return session


def sweep_storms(now=None) -> int:
    """Take class steps (a shared storm moving): when every table of a session waits for it, or
    the teacher's countdown ended.

    One pass of the classroom loop; returns how many tables took the step.
    """
    now = now or timezone.now()
    moved = 0
    for session in Session.objects.filter(status=Session.Status.PLAYING, scenario__in=registry.with_class_step()):
        step = registry.get(session.scenario).class_step
        game_ids = _games(session)
        tables = list(Game.objects.filter(pk__in=game_ids, status=Game.Status.PLAYING))
        forced = session.storm_deadline is not None and session.storm_deadline <= now
        if not tables or not (
            forced or (session.shared_step and all(games.waiting_for_system(g, step["action"]["type"]) for g in tables))
        ):
            continue
        # The countdown names its storm: every sweep of it (another process's, a retry) is one move.
        key = f"r{session.storm_deadline.timestamp():.0f}" if forced else ""
        for game in tables:
            try:
                if games.system_action(
                    game_id=game.pk,
                    action=dict(step["action"]),
                    actor=Move.Actor.TEACHER if forced else Move.Actor.SYSTEM,
                    key=key,
                ):
                    moved += 1
            except Refused:  # e.g. a table still choosing roles: it takes the step next time
                continue
        if forced:
            Session.objects.filter(pk=session.pk).update(storm_deadline=None)
        notify_session(session)
    return moved


def _games(session: Session):
    return [t.game_id for t in session.tables.filter(game__isnull=False)]


def set_paused(*, session: Session, paused: bool, parked=False) -> Session:
    """Pause or park (timers frozen, code and seats kept) every table, or resume them all."""
    if session.status in (Session.Status.ENDED, Session.Status.LOBBY):
        return session
    for game_id in _games(session):
        games.set_paused(game_id=game_id, paused=paused)
    if paused:
        session.status = Session.Status.PARKED if parked else Session.Status.PAUSED
    else:
        session.status = Session.Status.PLAYING
    session.save(update_fields=["status"])
    notify_session(session)
    return session


def hand_to_bot(*, seat: Seat, to_bot: bool) -> None:
    games.set_bot(
        game_id=seat.table.game_id,
        seat=seat.number,
        policy=games.policy_bot(seat.table.session.scenario) if to_bot else None,
    )
    notify_session(seat.table.session)


def set_allowance(*, seat: Seat, ms) -> None:
    """The teacher's accommodation for one student: their seat's reaction allowance in
    milliseconds, in a game whose engine has one (Tornado Alert!: "More time to react", and the
    answer to the student's own request for it). A time the engine does not offer is refused and
    changes nothing."""
    try:
        ms = int(ms)
    except (TypeError, ValueError):
        raise JoinError(_("Choose one of the times offered.")) from None
    if not seat.table.game_id:
        raise JoinError(_("This table has no game yet."))
    try:
        games.system_action(
            game_id=seat.table.game_id,
            action={"type": "allow", "seat": seat.number, "ms": ms},
            actor=Move.Actor.TEACHER,
        )
    except Refused as refusal:
        raise JoinError(refusal.message) from None
    notify_session(seat.table.session)


def finish_with_bots(*, session: Session) -> Session:
    """Play every unfinished table out with policy bots, then end the session."""
    for game_id in _games(session):
        games.finish_with_bots(game_id=game_id)
    return end(session=session)


def end_now(*, session: Session) -> Session:
    """Stop every table where it stands, with the engines' partial scoring, and end."""
    for game_id in _games(session):
        games.end_now(game_id=game_id)
    return end(session=session)


def end(*, session: Session) -> Session:
    """Close the session: its code stops working, and the debrief is queued."""
    session.status = Session.Status.ENDED
    session.ended_at = timezone.now()
    session.save(update_fields=["status", "ended_at"])
    _after_end(session)
    return session


def _after_end(session: Session) -> None:
    notify_session(session)
    signals.session_ended.send(sender=Session, session_id=session.pk)


def end_finished_sessions() -> int:
    """End every playing session whose tables have all finished, so the reports start at once
    and nobody waits for the teacher to press "End now". Several processes may sweep at once:
    a session is ended (and its debrief queued) only by the sweep that moved it from playing.
    Returns how many sessions ended."""
    games_of = Table.objects.filter(session=OuterRef("pk"), game__isnull=False)
    done = Session.objects.filter(
        Exists(games_of), ~Exists(games_of.exclude(game__status=Game.Status.FINISHED)), status=Session.Status.PLAYING
    )
    ended = 0
    for session in done:
        with transaction.atomic():
            now = timezone.now()
            if not Session.objects.filter(pk=session.pk, status=Session.Status.PLAYING).update(
                status=Session.Status.ENDED, ended_at=now
            ):
                continue
            session.status, session.ended_at = Session.Status.ENDED, now
            _after_end(session)
        ended += 1
    return ended


# --- Seats and devices ------------------------------------------------------------------------------


def request_device_move(*, session: Session, nickname: str, device_token: str | None = None) -> tuple[Participant, str]:
    """A student whose tablet broke asks to carry on from this device: the new device's token
    waits for approval (nobody can take a seat just by typing a name). While the first tablet
    is online it must allow the move itself (``device_answers_move``); otherwise the teacher
    approves (``approve_device_move``). A waiting request is never replaced by another, and none
    is taken while joining is locked.

    Each request puts "another tablet asks to carry on as you" on a classmate's screen, so they
    come at a class's pace, not a script's: a device (``device_token``, the token its cookie
    holds for the session) waits for one move at a time, a lesson has at most
    ``settings.MOVE_PACE["waiting"]`` waiting at once, and takes a few, then one a minute
    (``settings.MOVE_PACE["burst"]``, ``["per_second"]``), whatever the devices' cookies."""
    if session.joining_locked:
        raise JoinError(
            _("Your teacher has closed this lesson to new students. Ask your teacher to open it."),
            code="joining_locked",
        )
    key = nicknames.same_key(nicknames.clean(nickname))
    participants = list(session.participants.all())
    participant = next((p for p in participants if nicknames.same_key(p.nickname) == key), None)
    if participant is None:
        raise JoinError(_("Nobody in this lesson uses that nickname."), code="unknown_nickname")
    _check_move_pace(session, participants, device_token)
    token = secrets.token_urlsafe(24)
    claimed = Participant.objects.filter(pk=participant.pk, move_token_hash="").update(
        move_token_hash=hash_token(token)
    )
    if not claimed:
        raise JoinError(
            _("Another tablet is already waiting to carry on as this student. Ask your teacher."), code="move_waiting"
        )
    participant.move_token_hash = hash_token(token)
    notify_session(session)
    return participant, token


def _check_move_pace(session: Session, participants: list[Participant], device_token: str | None) -> None:
    pace = settings.MOVE_PACE
    if device_token and any(p.move_token_hash == hash_token(device_token) for p in participants):
        raise JoinError(
            _("This tablet is already waiting to carry on as a student. Ask your teacher."), code="move_pace"
        )
    if sum(1 for p in participants if p.move_token_hash) >= pace["waiting"] or not ratelimit.hit(
        f"moves:{session.pk}", *ratelimit.per_second(pace["burst"], pace["per_second"])
    ):
        raise JoinError(
            _("Other tablets are waiting to carry on as students of this lesson. Ask your teacher."),
            code="move_pace",
        )


def participant_waiting_to_move(session: Session, token: str | None) -> Participant | None:
    if not token:
        return None
    return session.participants.filter(move_token_hash=hash_token(token)).first()


def _hand_over(participant: Participant) -> bool:
    """The waiting device now holds the seats; the old one's sockets close (its token is gone)."""
    changed = (
        Participant.objects.filter(pk=participant.pk)
        .exclude(move_token_hash="")
        .update(token_hash=F("move_token_hash"), move_token_hash="")
    )
    notify_session(participant.session)
    return bool(changed)


def approve_device_move(*, participant: Participant, seen_both=False) -> None:
    """The teacher approves a move. While the student's first tablet is online the student
    allows it there, unless the teacher has both tablets in front of them (``seen_both``)."""
    if not participant.move_token_hash:
        return
    if participant.shown_online(timezone.now()) and not seen_both:
        raise JoinError(
            _(
                "%(name)s's first tablet is still online: they can allow the move on it. "
                "Or look at both tablets, then approve with both seen."
            )
            % {"name": participant.nickname},
            code="first_tablet_online",
        )
    _hand_over(participant)


def refuse_device_move(*, participant: Participant) -> None:
    """The teacher (or the first tablet) turns a waiting move down: the waiting device gets nothing."""
    if Participant.objects.filter(pk=participant.pk).exclude(move_token_hash="").update(move_token_hash=""):
        notify_session(participant.session)


def device_answers_move(participant_id: int, allow: bool) -> dict:
    """The student's first tablet allows or refuses another device carrying on as them (socket
    and HTTP alike). Returns the answer for the device."""
    participant = Participant.objects.select_related("session").filter(pk=participant_id).first()
    if participant is None:
        return Refused("session_closed").as_message()
    if not participant.move_token_hash:
        return {"type": "ok"}
    if allow:
        _hand_over(participant)
    else:
        refuse_device_move(participant=participant)
    return {"type": "ok"}


def notify_session(session: Session) -> None:
    """Tell the session's lobby and dashboard sockets to refresh, after commit."""
    from classroom import live

    live.session_changed(session.pk)


# --- A device's actions (the socket and the HTTP fallback share this) -----------------------------
#
# A tap is ``games.taps``'s: this side says only which seat a device holds (``DeviceSeats``).

# The seat a tap names: its game, its session's state and the participant's refusal count. Plain
# SQL rather than the ORM because it runs on every tap and its columns need no conversion; both
# drivers read it (the async one with the seat's game beside it, ``_HELD_SQL``).
_SEAT_SQL = (
    f'SELECT t."game_id" AS "game", s."status" AS "status", p."refusals" AS "refusals" '
    f'FROM "{Seat._meta.db_table}" st JOIN "{Table._meta.db_table}" t ON t."id" = st."table_id" '
    f'JOIN "{Participant._meta.db_table}" p ON p."id" = st."participant_id" '
    f'JOIN "{Session._meta.db_table}" s ON s."id" = p."session_id" '
    f'WHERE st."participant_id" = %s AND st."number" = %s ORDER BY st."table_id" LIMIT 1'
)
_PARTICIPANT_SQL = f'SELECT 1 FROM "{Participant._meta.db_table}" WHERE "id" = %s'
# The seat (``_SEAT_SQL``) and its game as ``games.pipeline`` reads it: one round trip for
# everything a tap checks before the rules.
_HELD_SQL = (
    f'SELECT h."game", h."status", h."refusals", {game_store.GAME_READ_COLUMNS} '
    f'FROM ({_SEAT_SQL}) h LEFT JOIN "{Game._meta.db_table}" g ON g."id" = h."game"'
)


@dataclass(frozen=True)
class DeviceSeats:
    """The classroom's seat check for the taps of participant ``participant_id``
    (``games.taps.SeatCheck``): a device may act only for a seat it holds, at a table with a
    game, while its lesson runs."""

    participant_id: int

    @property
    def device(self) -> str:
        """The participant's name in its taps' ids: a tablet that carries on as the student
        retries under the same one."""
        return str(self.participant_id)

    def held(self, seat: int, action_id: str | None) -> taps.Held:
        with connection.cursor() as cursor:
            cursor.execute(_SEAT_SQL, [self.participant_id, seat])
            row = cursor.fetchone()
            if row is None:
                cursor.execute(_PARTICIPANT_SQL, [self.participant_id])
                self._refuse_missing(cursor.fetchone() is not None)
        return self._held(row)

    async def aheld(self, conn, seat: int, action_id: str) -> taps.Held:
        row = await (await conn.execute(_HELD_SQL, [action_id, self.participant_id, seat])).fetchone()
        if row is None:
            self._refuse_missing(bool(await (await conn.execute(_PARTICIPANT_SQL, [self.participant_id])).fetchone()))
        first = game_store.game_from_row(row[3:]) if row[3] is not None else None
        return self._held(row, first)

    def refused(self) -> None:
        Participant.objects.filter(pk=self.participant_id).update(refusals=F("refusals") + 1)

    def landed(self) -> None:
        Participant.objects.filter(pk=self.participant_id).update(refusals=0)

    @staticmethod
    def _refuse_missing(participant_exists: bool):
        raise Refused("not_your_seat" if participant_exists else "session_closed")

    @staticmethod
    def _held(row, first=None) -> taps.Held:
        game, status, refusals = row[0], row[1], row[2]
        if status == Session.Status.ENDED:
            raise Refused("session_closed")
        if status == Session.Status.PARKED:
            raise Refused("session_parked")
        if game is None:
            raise Refused("not_your_seat")
        return taps.Held(game_id=game, refusals=refusals, first=first)


def act(participant_id: int, message: dict) -> tuple[dict, list]:
    """Apply one ``act`` frame from a device on Django's connection (``games.taps.tap``):
    the answer for that device only and the batch for the caller to push, committed already.
    A device may act only for seats it holds; a refused action changes nothing, and a stale one
    comes back with the fresh view."""
    return taps.tap(DeviceSeats(participant_id), message)


async def aact(participant_id: int, message: dict) -> tuple[dict, list]:
    """``act`` for a socket on its event loop with PostgreSQL (``games.taps.atap``): the same
    tap, driven by async psycopg. Returns the answer and the batch, which the caller sends."""
    return await taps.atap(DeviceSeats(participant_id), message)


ASK_CHANGES_PER_MINUTE = 6


def device_asks_teacher(participant_id: int, asking: bool) -> dict:
    """A tablet's "ask the teacher" button (socket and HTTP alike): a change tells the teacher's
    dashboard and every tablet's lobby, so each seat may change it only a few times a minute.
    Returns the answer for the device."""
    participant = Participant.objects.select_related("session").filter(pk=participant_id).first()
    if participant is None:
        return Refused("session_closed").as_message()
    if bool(participant.asked_teacher_at) == asking:
        return {"type": "ok"}
    if not ratelimit.hit(f"ask:{participant_id}", ASK_CHANGES_PER_MINUTE, 60):
        return Refused("too_fast").as_message()
    ask_teacher(participant=participant, asking=asking)
    return {"type": "ok"}


def touch(*, participant: Participant) -> None:
    """The device was heard from (long-poll), so it is not shown as offline; one that was shown
    offline tells the dashboards it is back."""
    from classroom import live

    now = timezone.now()
    Participant.objects.filter(pk=participant.pk).update(last_seen_at=now)
    if not participant.shown_online(now):
        live.presence_changed(participant.session_id)


# --- Deleting ------------------------------------------------------------------------------------


def delete_session(*, session: Session) -> None:
    """Delete a session with everything in it: participants (nicknames, device tokens), tables and
    seats, games and their move logs, debrief settings and reports (each report's page and PDF
    live on its row; nothing is written to disk). Open tablets are told and sent to the join page.

    The teacher's delete button and the retention purge both call this, so both delete the same.
    """
    from classroom import live

    session_id = session.pk
    with transaction.atomic():
        session.delete()  # each table's game goes with it (``classroom.models._delete_tables_game``)
        # Each socket looks for its participant again, finds none, and closes.
        live.session_changed(session_id)
        transaction.on_commit(_forget_on_disk)


def _forget_on_disk() -> None:
    """SQLite (embedded mode) keeps deleted rows in its write-ahead log until a checkpoint: copy
    the log into the database file, whose freed pages are zeroed (``secure_delete``), and empty it."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# --- Retention ------------------------------------------------------------------------------------


def purge_expired(*, now=None) -> int:
    """Delete every session older than ``RETENTION_DAYS``: nicknames, games and move logs,
    reports. Students are children; nothing about them is kept longer than the teacher was told.
    Returns how many sessions were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.RETENTION_DAYS)
    count = 0
    for session in Session.objects.filter(created_at__lt=cutoff):
        delete_session(session=session)
        count += 1
    return count
