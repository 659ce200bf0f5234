"""What classroom announces to the apps above it, which it never imports: scoring listens to
write a session's debrief when it ends, and to take up unfinished reports when the embedded
server starts (``scoring.apps``)."""

from django.dispatch import Signal

#: Sent once a session has ended and its row is saved (``session_id``).
session_ended = Signal()
#: Sent by the embedded server before it serves; each receiver returns how many unfinished
#: reports it queued again.
serving = Signal()
