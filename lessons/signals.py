"""What the lesson kit announces to the apps above it, which it never imports: the course's
gradebook (``lti``) listens for a student's after-check, to send its score."""

from django.dispatch import Signal

#: Sent once a student's answers to one phase of the check are stored (``participant_id``, ``phase``).
check_answered = Signal()
