"""Messages to a session's sockets (lobby, students, dashboard), pushed after commit."""

from games import broadcast


def session_group(session_id: int) -> str:
    return f"session-{session_id}"


def dashboard_group(session_id: int) -> str:
    """The session's teacher dashboards only: what changes their roster and nothing a tablet shows."""
    return f"dashboards-{session_id}"


PRESENCE_CHANGED = {"type": "presence.changed"}


def presence_changed(session_id: int) -> None:
    """A device came online or went away: the session's dashboards read their roster again."""
    broadcast.push_after_commit([(dashboard_group(session_id), PRESENCE_CHANGED)])


def session_changed(session_id: int) -> None:
    """Roster, tables or status changed: sockets refresh what they show. Sent once the current
    transaction commits, through the same best-effort push as a game's views."""
    broadcast.push_after_commit([(session_group(session_id), {"type": "session.changed"})])
