"""Reads for pages and sockets: what a student's device and the teacher's dashboard show."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom import lobby as lobby_parts
from classroom import services
from classroom.models import Participant, Seat, Session
from classroom.services import format_code
from games import services as games
from games.models import Game
from scenarios import registry
from scenarios.base import projected


def join_url(session: Session) -> str:
    return f"{settings.PUBLIC_BASE_URL}/join/{session.join_code}"


#: Google Classroom's share link, as Google documents it for sites that do not load its script
#: (https://developers.google.com/workspace/classroom/guides/sharebutton, "URL sharing"): the
#: teacher picks the class and posts the join link there, in a tab of its own.
CLASSROOM_SHARE = "https://classroom.google.com/share"


def classroom_share_url(session: Session) -> str:
    """The join link, ready to post to a Google Classroom class (for schools without an LMS)."""
    from urllib.parse import urlencode

    title = session.title or session.get_scenario_display()
    return f"{CLASSROOM_SHARE}?{urlencode({'url': join_url(session), 'title': title})}"


#: What a teacher types to serve the classroom network (README, "Running in a classroom").
SERVE_CLASS_COMMAND = "HOST=0.0.0.0 make run"


def join_url_is_loopback() -> bool:
    """Whether join links and QR codes name this computer only (localhost): a tablet that
    follows them reaches itself, not the lesson."""
    import ipaddress
    from urllib.parse import urlparse

    host = (urlparse(settings.PUBLIC_BASE_URL).hostname or "").strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def seats_of(participant: Participant) -> list[Seat]:
    return list(participant.seats.select_related("table", "table__game").order_by("table__number", "number"))


def student_state(participant: Participant) -> dict:
    """The lobby part of a student's screen: their name, table, tablemates and the session state."""
    session = participant.session
    seats = seats_of(participant)
    table = seats[0].table if seats else None
    mates = []
    if table is not None:
        for seat in table.seats.select_related("participant").order_by("number"):
            holder = seat.participant
            mates.append(
                {
                    "seat": seat.number,
                    "name": holder.nickname if holder and (holder.approved or holder.pk == participant.pk) else None,
                    "you": bool(holder and holder.pk == participant.pk),
                    "bot": holder is None,
                }
            )
    return {
        "type": "lobby",
        "status": session.status,
        "scenario": session.scenario,
        "nickname": participant.nickname,
        "approved": participant.approved,
        "table": table.number if table else None,
        "game": table.game_id if table else None,
        "seats": [seat.number for seat in seats],
        "mates": mates,
        "asking": participant.asked_teacher_at is not None,
        # another tablet asks to carry on as this student: this one may allow it or not
        "move_asked": bool(participant.move_token_hash),
        **lobby_parts.parts(participant),
    }


@dataclass(frozen=True)
class SeatRow:
    number: int
    pk: int
    participant_id: int | None


@dataclass(frozen=True)
class TableRow:
    """A table as the dashboard reads it. Plain values rather than model instances: related
    instances point at each other (a table at its game and back, each seat at its table), so
    every roster a dashboard socket drops left cycles for the garbage collector, whose passes
    pause the whole process (BENCHMARKS.md, "figures behind the code")."""

    number: int
    game_id: int | None
    version: int | None
    seats: tuple[SeatRow, ...]
    options: dict | None = None  # the game's engine options (the teacher's choices for it)


def dashboard_people(session: Session) -> tuple[list, list]:
    """The database part of the dashboard: the session's participants, and its tables with their
    seats and games' versions."""
    participants = list(session.participants.all())
    seats: dict[int, list] = {}
    for row in (
        Seat.objects.filter(table__session=session)
        .order_by("number")
        .values("table_id", "number", "pk", "participant_id")
    ):
        seats.setdefault(row.pop("table_id"), []).append(SeatRow(**row))
    tables = [
        TableRow(
            number=t["number"],
            game_id=t["game_id"],
            version=t["game__version"],
            seats=tuple(seats.get(t["pk"], ())),
            options=t["game__options"],
        )
        for t in session.tables.values("pk", "number", "game_id", "game__version", "game__options")
    ]
    return participants, tables


def dashboard(
    session: Session, summaries: dict | None = None, *, recheck: bool = True, people: tuple[list, list] | None = None
) -> dict:
    """Everything the teacher's live dashboard shows, alerts first.

    ``summaries`` maps game ids to teacher views the caller already holds (a dashboard socket
    keeps the newest one it was sent). With ``recheck`` a held view older than its game is read
    again; without, it is trusted: it is a move behind only until that move's own summary arrives
    and asks for the next snapshot, and a socket rechecks every few seconds in case one was lost.
    ``people`` is ``dashboard_people(session)`` when the caller kept it from an earlier snapshot.
    """
    now = timezone.now()
    participants, session_tables = people or dashboard_people(session)
    by_id = {p.pk: p for p in participants}
    tables, alerts = [], []

    for p in participants:
        if p.move_token_hash:
            alerts.append({"kind": "claim", "who": p.nickname, "participant": p.pk, "online": p.shown_online(now)})
        if p.asked_teacher_at:
            alerts.append(
                {"kind": "asking", "who": p.nickname, "participant": p.pk, "since": p.asked_teacher_at.isoformat()}
            )
    for table in session_tables:
        summary = (summaries or {}).get(table.game_id)
        if table.game_id and (summary is None or recheck and summary["version"] < table.version):
            summary = games.current_view(Game.objects.get(pk=table.game_id), None)
        seats = []
        # an engine with reaction allowances (Tornado Alert!) names the seats asking for more time
        allowance = summary and summary["view"] and summary["view"].get("allowance")
        for seat in table.seats:
            holder = by_id.get(seat.participant_id)
            bot = summary and summary["bots"].get(str(seat.number))
            # the stand-in played most of this student's moves (``scenarios.debrief.played_by_stand_in``)
            stand_in = bool(summary and not bot and seat.number in summary.get("stand_in", ()))
            if holder and allowance and seat.number in allowance["asked"] and summary["status"] != "finished":
                alerts.append(
                    {
                        "kind": "more_time",
                        "who": holder.nickname,
                        "table": table.number,
                        "participant": holder.pk,
                        "seat": seat.pk,
                        "ms": allowance["more"],
                        "keep": allowance["seats"][seat.number],
                    }
                )
            seats.append(
                {
                    "seat": seat.number,
                    "id": seat.pk,
                    "name": holder.nickname if holder else None,
                    "participant": holder.pk if holder else None,
                    "approved": holder.approved if holder else None,
                    "online": holder.shown_online(now) if holder else None,
                    "bot": bot,
                    "stand_in": stand_in,
                }
            )
            if holder and session.status == Session.Status.PLAYING:
                if not holder.shown_online(now) and not bot:
                    alerts.append(
                        {"kind": "offline", "who": holder.nickname, "table": table.number, "participant": holder.pk}
                    )
                if holder.refusals >= 3:
                    alerts.append(
                        {"kind": "stuck", "who": holder.nickname, "table": table.number, "participant": holder.pk}
                    )
                timer = summary and summary["timers"].get(str(seat.number))
                if timer and not bot and summary["status"] == "playing":
                    left = (datetime.fromisoformat(timer) - now).total_seconds()
                    if left < (session.turn_seconds or 60) / 2:
                        alerts.append(
                            {"kind": "idle", "who": holder.nickname, "table": table.number, "participant": holder.pk}
                        )
                elif (
                    summary
                    and not bot
                    and summary["status"] == "playing"
                    and session.started_at
                    and seat.number not in summary.get("played", [seat.number])
                    and (now - session.started_at).total_seconds() > (session.turn_seconds or 60)
                ):
                    # a seat with no clock (a real-time game's) that has not moved long after the start
                    alerts.append(
                        {"kind": "idle", "who": holder.nickname, "table": table.number, "participant": holder.pk}
                    )
        if summary and summary["status"] == "finished":
            alerts.append({"kind": "finished", "who": None, "table": table.number})
        line = summary.get("projector") if summary else None
        tables.append(
            {
                "number": table.number,
                "game": table.game_id,
                "seats": seats,
                "summary": summary,
                "projector": projected(line, session.audience.gentle),
            }
        )
    seated = {seat.participant_id for table in session_tables for seat in table.seats}
    late = {p.pk for p in participants if services.joined_late(session, p)}
    if session.status in (Session.Status.PLAYING, Session.Status.PAUSED):
        for p in participants:
            if p.pk not in seated and p.approved:  # no bot kept a seat for them
                alerts.append({"kind": "seatless", "who": p.nickname, "participant": p.pk})
    order = {"asking": 0, "more_time": 0, "seatless": 1, "stuck": 2, "claim": 3, "offline": 4, "idle": 5, "finished": 6}
    alerts.sort(key=lambda a: order[a["kind"]])
    scenario = registry.get(session.scenario)
    for row, table in zip(session_tables, tables):
        table["subtitle"] = scenario.card_subtitle(row.options or {}, table["summary"]) if row.game_id else None
    storm = scenario.class_panel(
        [t["summary"]["view"] for t in tables if t["summary"]],
        session.shared_step,
        session.storm_deadline.isoformat() if session.storm_deadline else None,
    )
    return {
        "type": "dashboard",
        "session": session.pk,
        "status": session.status,
        "scenario": session.scenario,
        "storm": storm,
        "code": format_code(session.join_code),
        "join_url": join_url(session),
        "loopback": join_url_is_loopback(),
        "serve_command": SERVE_CLASS_COMMAND,
        "check_url": f"{settings.PUBLIC_BASE_URL}/check",
        "participants": [
            {
                "id": p.pk,
                "name": p.nickname,
                "approved": p.approved,
                "players": p.players,
                "online": p.shown_online(now),
                "late": p.pk in late,
                "seated": p.pk in seated,
            }
            for p in participants
        ],
        # the seats bots keep for late arrivals, the one given by default first
        "kept_seats": _kept_seats(session) if late and session.status != Session.Status.ENDED else [],
        "alerts": alerts,
        "tables": tables,
        "standings": team_standings(session, tables) if scenario.team_play else standings(session, tables),
    }


def projector_words(session: Session) -> dict:
    """The sentences of the session's scenario's projector lines (``Engine.projector_words``), in
    the active language: the projector fills them with each line's numbers."""
    words = registry.get(session.scenario).engine.projector_words
    return {key: _(text) for key, text in words.items()}


def _kept_seats(session: Session) -> list[dict]:
    return [{"id": seat.pk, "table": seat.table.number, "seat": seat.number} for seat in services.kept_seats(session)]


def standings(session: Session, tables: list[dict]) -> dict:
    """Per-table results and class ranks once every table has finished; bots are not ranked,
    nor is a student whose seat the stand-in played (its points are the stand-in's)."""
    finished = [t for t in tables if t["summary"] and t["summary"]["status"] == "finished"]
    if not tables or len(finished) != len(tables):
        return {"final": False, "done": len(finished), "total": len(tables)}
    rows = []
    for table in finished:
        names = {s["seat"]: s for s in table["seats"]}
        for result in table["summary"]["results"]:
            seat = names.get(result["seat"], {})
            rows.append(
                {
                    "table": table["number"],
                    "seat": result["seat"],
                    "name": seat.get("name"),
                    "projected": _projected_name(seat, table["number"]),
                    "bot": seat.get("participant") is None or bool(seat.get("bot")),
                    "stand_in": bool(seat.get("stand_in")),
                    "score": result["score"],
                    "table_rank": result["rank"],
                    "breakdown": result.get("breakdown", {}),
                }
            )
    humans = sorted((r for r in rows if not r["bot"] and not r["stand_in"]), key=lambda r: -r["score"])
    rank = 0
    for index, row in enumerate(humans):
        if index == 0 or row["score"] != humans[index - 1]["score"]:
            rank = index + 1
        row["class_rank"] = rank
    # after the ranked, unranked: shown as played by the stand-in, not with the stand-in's points
    stood_in = [dict(r, class_rank=None) for r in rows if not r["bot"] and r["stand_in"]]
    return {"final": True, "rows": rows, "class": humans + stood_in}


def _projected_name(seat: dict, table_number: int) -> str | None:
    """A seat's name in the standings on the projector: the nickname once the teacher approved
    it, else the seat's place (the teacher's own screen shows every nickname)."""
    if seat.get("participant") is None:
        return None
    if seat.get("approved"):
        return seat["name"]
    return _("Table %(table)d, seat %(seat)d") % {"table": table_number, "seat": seat["seat"] + 1}


def device_state(participant: Participant) -> dict:
    """The whole state of a device's screen: lobby part and the views of its seats, stamped."""
    from games.models import Game

    lobby = student_state(participant)
    views = []
    if lobby["game"]:
        game = Game.objects.get(pk=lobby["game"])
        views = [games.current_view(game, seat) for seat in lobby["seats"]]
    # The whole lobby part counts: a part another app adds (the check's phase) changes the stamp too.
    extra = json.dumps(lobby, sort_keys=True, default=str)
    stamp = (
        f"{lobby['status']}:{lobby['table']}:{lobby['approved']}:{len(lobby['mates'])}:{lobby['move_asked']:d}:"
        + ",".join(str(v["version"]) for v in views)
        + f":{hashlib.sha1(extra.encode()).hexdigest()[:8]}"
    )
    return {"type": "state", "stamp": stamp, "lobby": lobby, "views": views}


def team_standings(session: Session, tables: list[dict]) -> dict:
    """Team games: teams ranked by damage (lower is better) beside the policy bot on the same storm.

    A team whose game was stopped before it was complete (``complete`` false in its results:
    the storm had not passed) is not ranked — its damage is only what the storm did so far — and
    is shown as stopped, beside the policy bot's damage after as many storm moves
    (``score_track``)."""
    from games.models import Game

    finished = [t for t in tables if t["summary"] and t["summary"]["status"] == "finished"]
    if not tables or len(finished) != len(tables):
        return {"final": False, "done": len(finished), "total": len(tables)}
    rows = []
    for table in finished:
        result = table["summary"]["results"][0]
        team = result.get("breakdown", {}).get("team", {})
        stopped = team.get("complete") is False
        bot = games.policy_results(Game.objects.get(pk=table["game"]))[0]
        yardstick = bot["score"]
        moves = len(team.get("score_track", []))
        if stopped:
            track = bot.get("breakdown", {}).get("team", {}).get("score_track", [])
            yardstick = track[min(moves, len(track)) - 1] if moves and track else 0
        names = [s["name"] for s in table["seats"] if s["name"]]
        projected = [_projected_name(s, table["number"]) for s in table["seats"] if s["participant"]]
        rows.append(
            {
                "table": table["number"],
                "name": ", ".join(names) or None,
                "projected": ", ".join(projected) or None,
                "score": result["score"],
                "bot_score": yardstick,
                "humans": bool(names),
                "stopped": stopped,
                "stopped_after": moves if stopped else None,
                "class_rank": None,
            }
        )
    ranked = sorted((r for r in rows if r["humans"] and not r["stopped"]), key=lambda r: r["score"])
    for row in ranked:
        row["class_rank"] = 1 + sum(1 for other in ranked if other["score"] < row["score"])
    stopped = [r for r in rows if r["humans"] and r["stopped"]]
    return {"final": True, "rows": rows, "class": ranked + stopped, "lower_is_better": True}
