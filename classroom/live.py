"""Messages to a session's sockets (lobby, students, dashboard), sent after commit."""
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def session_group(session_id: int) -> str:
    return f"session-{session_id}"


def session_changed(session_id: int) -> None:
    """Roster, tables or status changed: sockets refresh what they show."""
    async_to_sync(get_channel_layer().group_send)(session_group(session_id), {"type": "session.changed"})
