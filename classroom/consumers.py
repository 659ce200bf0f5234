"""The table and dashboard sockets. They authenticate, then call services; no rules here.

Student socket ``/ws/play/<session>/``: the device's cookie token names a participant, who may
act only for the seats it holds. Teacher socket ``/ws/sessions/<session>/``: the signed-in
owner of the session only; it gets coalesced, numbered snapshots at most about a second apart.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time

import orjson
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.core.cache import cache
from django.db import InterfaceError, OperationalError
from django.utils import timezone, translation

from classroom import accounts, languages, ratelimit, selectors, services
from classroom.fast.socket_loop import Consumer
from classroom.frames import MAX_FRAME_BYTES, parse_frame
from classroom.live import PRESENCE_CHANGED, dashboard_group, session_group
from classroom.models import Participant, Session
from classroom.services import participant_for_token
from classroom.timers import device_more_time
from games import broadcast, pgpool
from games.refusals import Refused

logger = logging.getLogger(__name__)

# The server closes a socket whose frame is bigger than this (uvicorn's ws_max_size; its default
# is 16 MB): room for a frame of MAX_FRAME_BYTES characters, which is refused and counted.
WS_MAX_BYTES = 8192
MAX_FRAMES_PER_SECOND = 10
# A tap waits for its answer and its view, then for a person to decide: two a second, a burst
# of four (a shared tablet's players), is more than a class needs. Each applied act moves its
# table's game to a new version, so a flooder's acts would make its tablemates' taps be worked
# out again.
MAX_ACTS_PER_SECOND, ACT_BURST = 2, 4
# Frames refused past the frame limit or for size within a few seconds before the device is
# closed; each refusal is forgiven once that long has passed, so a few now and then over a lesson
# never add up to it (a script sending as fast as it can reaches it in a second).
FLOOD_LIMIT, FLOOD_WINDOW_SECONDS = 20, 5
FLOOD_HOLD_SECONDS = 30  # a device closed for flooding waits this long before it is let in again
# Sockets one device may hold open in one server process (a tab reloaded while the old one
# closes, a second tab); past it, its oldest socket is closed.
MAX_SOCKETS_PER_DEVICE = 3
CLOSE_UNAUTHORISED = 4403
CLOSE_SUPERSEDED = 4409
CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4429


def token_cookie(session_id) -> str:
    return f"sw_{session_id}"


def frame_limit(participant_id) -> tuple[str, int, float]:
    """A device's frames, counted with its HTTP fallback's requests (``classroom.ratelimit``)."""
    return f"frames:{participant_id}", MAX_FRAMES_PER_SECOND, 1


def act_limit(participant_id) -> tuple[str, int, float]:
    return f"acts:{participant_id}", *ratelimit.per_second(ACT_BURST, MAX_ACTS_PER_SECOND)


def _refusals(participant_id) -> tuple[str, int, float]:
    """Room for ``FLOOD_LIMIT`` refused frames in ``FLOOD_WINDOW_SECONDS``."""
    return f"flood:{participant_id}", FLOOD_LIMIT, FLOOD_WINDOW_SECONDS


class DeviceSockets:
    """The list of one device's sockets in this process, oldest first (so it holds a few at most);
    its limits are counted for every process and path alike (``classroom.ratelimit``)."""

    def __init__(self):
        self.sockets = []


_devices: dict[int, DeviceSockets] = {}


def device_group(participant_id) -> str:
    return f"device.{participant_id}"


# Without the async PostgreSQL driver (SQLite: the embedded server), a tap runs the ORM driver on
# a pool of threads, each with its own database connection, rather than on the one thread every
# other ORM call of this process shares, so tables don't queue behind each other; moves at one
# table still land one after another (games.pipeline: save only if the game is unchanged).
act_in_pool = DatabaseSyncToAsync(services.act, thread_sensitive=False)


def _flood_hold_key(participant_id) -> str:
    return f"flood-hold:{participant_id}"


@database_sync_to_async
def _load_participant(session_id, token):
    """The participant a device's token names, and how many seconds it must still wait if it
    was recently closed for flooding (0 if not)."""
    session = Session.objects.filter(pk=session_id).first()
    participant = participant_for_token(session, token) if session is not None else None
    if participant is None:
        return None, 0
    until = cache.get(_flood_hold_key(participant.pk))
    return participant, max(0.0, until - time.time()) if until else 0


@database_sync_to_async
def _hold_flooder(participant_id):
    ratelimit.clear(*_refusals(participant_id))  # let in again after the hold with a clean count
    cache.set(_flood_hold_key(participant_id), time.time() + FLOOD_HOLD_SECONDS, FLOOD_HOLD_SECONDS)


@database_sync_to_async
def _count_sockets(participant_id, delta):
    from django.db.models import F
    from django.db.models.functions import Greatest

    Participant.objects.filter(pk=participant_id).update(
        connected=Greatest(F("connected") + delta, 0), last_seen_at=timezone.now()
    )


async def _presence(layer, session_id, participant_id, delta):
    """A device's socket opened (+1) or closed (-1): counted, and the session's dashboards told."""
    await _count_sockets(participant_id, delta)
    await broadcast.send(layer, [(dashboard_group(session_id), PRESENCE_CHANGED)])


class PlayConsumer(Consumer):
    """A student's device: lobby updates, its seats' views, and its actions."""

    async def connect(self):
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        token = self.scope["cookies"].get(token_cookie(self.session_id))
        participant, held = await _load_participant(self.session_id, token)
        if participant is None:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        if held:
            # Closed for flooding a moment ago: its handshake waits here, unanswered, rather than
            # being refused at once and coming straight back, over and over.
            await asyncio.sleep(held)
            await self.close(code=CLOSE_FLOODING)
            return
        self.participant_id = participant.pk
        self.token_hash = participant.token_hash
        # this socket's task speaks the tablet's language from here on (refusals); its frames carry
        # ids and numbers only, the same for every tablet: the words are the board's and the page's
        translation.activate(participant.language)
        self.device = _devices.setdefault(self.participant_id, DeviceSockets())
        self.flooded = False
        self.games = set()
        self.acting = None  # the act being applied: the next one waits for it, frames don't
        await self.accept()
        self.device.sockets.append(self)
        while len(self.device.sockets) > MAX_SOCKETS_PER_DEVICE:
            oldest = self.device.sockets.pop(0)
            await oldest.close(code=CLOSE_SUPERSEDED)
        await self.channel_layer.group_add(device_group(self.participant_id), self.channel_name)
        await self.channel_layer.group_add(session_group(self.session_id), self.channel_name)
        await _presence(self.channel_layer, self.session_id, self.participant_id, +1)
        await self.send_state()

    async def disconnect(self, code):
        if getattr(self, "participant_id", None) is None:
            return
        device = getattr(self, "device", None)
        if device is not None:
            if self in device.sockets:
                device.sockets.remove(self)
            if not device.sockets and _devices.get(self.participant_id) is device:
                del _devices[self.participant_id]
            await self.channel_layer.group_discard(device_group(self.participant_id), self.channel_name)
        await self.channel_layer.group_discard(session_group(self.session_id), self.channel_name)
        for game_id in self.games:
            await self.channel_layer.group_discard(broadcast.group_name(game_id), self.channel_name)
        await _presence(self.channel_layer, self.session_id, self.participant_id, -1)

    async def send_json(self, message):
        await self.send(text_data=broadcast.encode(message))

    async def send_state(self):
        """The lobby state, then the full view of every seat this device holds."""
        state, views = await database_sync_to_async(self._state)()
        if state is None:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        if state["game"] and state["game"] not in self.games:
            self.games.add(state["game"])
            await self.channel_layer.group_add(broadcast.group_name(state["game"]), self.channel_name)
        self.seats = set(state["seats"])
        await self.send_json(state)
        for view in views:
            await self.send_json(view)

    def _state(self):
        participant = (
            Participant.objects.select_related("session")
            .filter(pk=self.participant_id, token_hash=self.token_hash)
            .first()
        )
        if participant is None:  # removed by the teacher, or the seat moved to another tablet
            return None, []
        state = selectors.device_state(participant)
        return state["lobby"], state["views"]

    async def receive(self, text_data=None, bytes_data=None):
        if self.flooded:  # sent before the device saw the close: read, and nothing more
            return
        raw = text_data if text_data is not None else bytes_data
        if raw is None or len(raw) > MAX_FRAME_BYTES:  # counted toward the flood limit
            await self.too_fast(refusal="too_big")
            return
        if not await ratelimit.ahit(*frame_limit(self.participant_id)):
            await self.too_fast()
            return
        try:
            message = parse_frame(raw)
        except Refused as refusal:
            await self.send_json(refusal.as_message())
            return
        kind = message["type"]
        if kind == "ping":
            await self.send_json({"type": "pong", "t": message.get("t")})
        elif kind == "act" and not await ratelimit.ahit(*act_limit(self.participant_id)):
            # Refused with its id (the device may tap again), but not flooding: a child who taps
            # quickly all lesson is never shut out, and the frame limit above bounds the rest.
            await self.send_json(Refused("too_fast").as_message(message.get("id")))
        elif kind == "act":
            # Applied off this loop, one at a time and in order, so the next frames are read
            # (and counted by the rate limit) while the database works.
            self.acting = asyncio.ensure_future(self.act(message, after=self.acting))
        elif kind == "ask_teacher":
            answer = await database_sync_to_async(services.device_asks_teacher)(
                self.participant_id, bool(message.get("asking", True))
            )
            if answer["type"] == "error":
                await self.send_json(answer)
        elif kind == "more_time":
            answer = await database_sync_to_async(device_more_time)(self.participant_id, message.get("seat"))
            if answer["type"] == "error":
                await self.send_json(answer)
        elif kind == "move":  # another tablet asks to carry on as this student
            answer = await database_sync_to_async(services.device_answers_move)(
                self.participant_id, message.get("allow") is True
            )
            if answer["type"] == "error":
                await self.send_json(answer)
        elif kind == "sync":
            await self.send_state()
        else:
            await self.send_json(Refused("unknown_type").as_message(message.get("id")))

    async def too_fast(self, refusal="too_fast"):
        """Refuse a frame sent faster than the frame limit (or too big); past ``FLOOD_LIMIT`` of
        them in a row (over all the device's sockets and processes, within ``FLOOD_WINDOW_SECONDS``), close every socket of
        the device, in every process, and hold it."""
        if not await ratelimit.ahit(*_refusals(self.participant_id)):
            self.flooded = True
            await _hold_flooder(self.participant_id)
            await self.channel_layer.group_send(device_group(self.participant_id), {"type": "device.flooded"})
            await self.close(code=CLOSE_FLOODING)
        else:
            await self.send_json(Refused(refusal).as_message())

    async def act(self, message, after=None):
        if after is not None:
            await asyncio.wait([after])
        try:
            if pgpool.available():
                answer, pending = await services.aact(self.participant_id, message)
            else:  # the ORM driver (SQLite: the embedded server), on a worker thread
                answer, pending = await act_in_pool(self.participant_id, message)
        except (OperationalError, InterfaceError):  # the database is briefly out of reach
            answer, pending = Refused("unavailable").as_message(message.get("id")), []
        except Exception:
            logger.exception("An act from participant %s failed", self.participant_id)
            answer, pending = Refused("unavailable").as_message(message.get("id")), []
        await broadcast.send(self.channel_layer, pending)  # committed: send even if this socket went
        if self.flooded:
            return
        try:
            await self.send_json(answer)
        except Exception:  # the socket closed meanwhile; the device re-sends the same id
            pass

    # Group messages ---------------------------------------------------------------------------

    async def device_flooded(self, event):
        """Another socket of this device flooded: this one closes too (the hold keeps it out)."""
        if not self.flooded:
            self.flooded = True
            await self.close(code=CLOSE_FLOODING)

    async def session_changed(self, event):
        if not self.flooded:
            await self.send_state()

    async def game_views(self, event):
        if self.flooded:  # closed; the group lets go of it at the disconnect
            return
        for seat in self.seats:
            view = event["views"].get(str(seat))
            if view is not None:
                await self.send(text_data=view)


@database_sync_to_async
def _owned_session(session_id, user):
    if not user or not user.is_authenticated:
        return None
    return Session.objects.filter(pk=session_id, teacher=user).first()


@database_sync_to_async
def _dashboard_payload(session_id, summaries, roster):
    """A snapshot, and the session with its people (``selectors.dashboard_people``) to keep for
    the next one. Without a ``roster`` kept from an earlier snapshot, they are read again and so
    is every game newer than its held summary."""
    recheck = roster is None
    if recheck:
        session = Session.objects.get(pk=session_id)
        roster = session, selectors.dashboard_people(session)
    return selectors.dashboard(roster[0], summaries, recheck=recheck, people=roster[1]), roster


class DashboardConsumer(Consumer):
    """The teacher's live dashboard: coalesced, numbered snapshots, at most ~1 s stale.

    It keeps the newest teacher view of each table from the ``game.summary`` messages, and the
    session's people and seats until the session changes or a device comes or goes
    (``presence.changed``), so a snapshot after a move reads nothing from the database. Every
    ``REFRESH_SECONDS`` it reads everything again: a tablet on long-poll that fell silent is shown
    offline, and a summary lost while Redis was away is read from the database.
    """

    FLUSH_SECONDS = 1.0
    REFRESH_SECONDS = 15.0
    # How often the socket checks that its browser session still signs the teacher in: a teacher
    # signed out for being idle (SESSION_COOKIE_AGE) must not leave the class's names on screen.
    SIGNIN_CHECK_SECONDS = 60.0

    async def connect(self):
        self.session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        session = await _owned_session(self.session_id, self.scope.get("user"))
        if session is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.seq, self.dirty, self.games, self.summaries, self.roster = 0, True, set(), {}, None
        self.changes = 0  # session changes heard, so a roster read before one is not kept
        self.teacher_id = session.teacher_id
        # the teacher's language (their browser's choice), for what the server writes in words
        # (a table's subtitle); the summaries carry ids, named from the board by the page
        translation.activate(languages.from_scope(self.scope))
        await self.accept()
        await self.channel_layer.group_add(accounts.teacher_group(self.teacher_id), self.channel_name)
        await self.channel_layer.group_add(session_group(self.session_id), self.channel_name)
        await self.channel_layer.group_add(dashboard_group(self.session_id), self.channel_name)
        self.loop = asyncio.create_task(self.flush_forever())

    async def disconnect(self, code):
        if not hasattr(self, "loop"):
            return
        self.loop.cancel()
        await self.channel_layer.group_discard(accounts.teacher_group(self.teacher_id), self.channel_name)
        await self.channel_layer.group_discard(session_group(self.session_id), self.channel_name)
        await self.channel_layer.group_discard(dashboard_group(self.session_id), self.channel_name)
        for game_id in self.games:
            await self.channel_layer.group_discard(broadcast.watch_group_name(game_id), self.channel_name)

    async def flush_forever(self):
        # Each dashboard keeps a rhythm of its own, a little shorter than the nominal one, drawn
        # afresh each time: dashboards opened in the same minute would otherwise read the
        # database and build their snapshots at the same instant, every time, and every socket
        # of the process would wait for all of them at once (BENCHMARKS.md, "figures behind the code").
        next_recheck = time.monotonic()
        next_signin_check = next_recheck + self.SIGNIN_CHECK_SECONDS
        while True:
            now = time.monotonic()
            if now >= next_signin_check:
                next_signin_check = now + self.SIGNIN_CHECK_SECONDS
                if not await accounts.still_signed_in(self.scope, self.teacher_id):
                    await self.close(code=CLOSE_UNAUTHORISED)
                    return
            recheck = now >= next_recheck
            if self.dirty or recheck:
                self.dirty = False
                try:
                    await self.flush(recheck)
                    if recheck:
                        next_recheck = now + self.REFRESH_SECONDS * random.uniform(0.7, 1.0)
                except asyncio.CancelledError:
                    raise
                except Session.DoesNotExist:  # the teacher deleted it (or retention did)
                    await self.close(code=CLOSE_NOT_FOUND)
                    return
                except Exception:  # keep the dashboard alive; the next tick retries
                    logger.exception("Dashboard snapshot failed for session %s", self.session_id)
                    self.dirty = True
            await asyncio.sleep(self.FLUSH_SECONDS * random.uniform(0.7, 1.0))

    async def flush(self, recheck=True):
        if recheck:
            self.roster = None
        heads = {game: head for game, (_, _text, head) in self.summaries.items()}
        changes = self.changes
        payload, roster = await _dashboard_payload(self.session_id, heads, self.roster)
        if self.changes == changes:  # else the session changed during the read: read it again next time
            self.roster = roster
        for table in payload["tables"]:
            game = table["game"]
            if game is None:
                continue
            if game not in self.games:  # joined only once the subscription took (Redis may be down)
                await self.channel_layer.group_add(broadcast.watch_group_name(game), self.channel_name)
                self.games.add(game)
            if table["summary"] is not heads.get(game):  # read again from the database
                summary = table["summary"]
                self.keep(game, summary["version"], broadcast.summary_text(summary), broadcast.head(summary))
            # The snapshot is built from the heads; each table's whole view goes in as the text held.
            table["summary"] = orjson.Fragment(self.summaries[game][1])
        self.seq += 1
        payload["seq"] = self.seq
        await self.send(text_data=orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode())

    async def teacher_signed_out(self, event):
        """The teacher signed out or changed password (classroom.accounts.close_dashboards): close
        unless this socket's browser session still signs them in. The page reloads on the close;
        the browser the password was changed in has a new session by then and opens again."""

        async def recheck():
            await asyncio.sleep(accounts.RECHECK_SECONDS)
            if not await accounts.still_signed_in(self.scope, self.teacher_id):
                await self.close(code=CLOSE_UNAUTHORISED)

        self.signed_out_check = asyncio.create_task(recheck())

    async def receive(self, text_data=None, bytes_data=None):
        if text_data and len(text_data) < 200 and '"ping"' in text_data:
            await self.send(text_data='{"type":"pong"}')

    def keep(self, game, version, text, head):
        """Hold a table's teacher view unless a newer one is held already: as JSON text, to go
        into snapshots as it is (docs/decisions/0007-dashboard-splice.md says why), and its ``broadcast.head``
        for the alerts and standings."""
        held = self.summaries.get(game)
        if held is None or held[0] <= version:
            self.summaries[game] = (version, text, head)

    async def session_changed(self, event):
        self.dirty, self.roster = True, None
        self.changes += 1

    presence_changed = session_changed  # a device came or went: its roster is read again

    async def game_summary(self, event):
        self.keep(event["game"], event["version"], event["summary"], event["head"])
        self.dirty = True


class CheckConsumer(Consumer):
    """``/ws/check/``: echoes small frames so /check can tell whether this network holds a socket.

    It needs no sign-in, so it is held to a socket's rate: frames too big or too fast are not
    echoed, and past ``FLOOD_LIMIT`` of them the socket is closed."""

    async def connect(self):
        self.key = secrets.token_hex(8)  # this socket's own: a check is not a device
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None):
        if text_data and len(text_data) <= 256 and await ratelimit.ahit(*frame_limit(f"check-{self.key}")):
            await self.send(text_data=text_data)
            return
        if not await ratelimit.ahit(*_refusals(f"check-{self.key}")):
            await self.close(code=CLOSE_FLOODING)
