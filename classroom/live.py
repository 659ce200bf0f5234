"""Messages to a session's sockets (lobby, students, dashboard), pushed after commit."""

from games import broadcast


def session_group(session_id: int) -> str:
    return f"session-{session_id}"


def session_changed(session_id: int) -> None:
    """Roster, tables or status changed: sockets refresh what they show. Sent once the current
    transaction commits, through the same best-effort push as a game's views."""
    broadcast.push_after_commit([(session_group(session_id), {"type": "session.changed"})])
