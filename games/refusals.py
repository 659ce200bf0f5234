"""Refusals: one exception for every rejected input, rendered from its code through gettext."""
from django.utils.translation import gettext, gettext_lazy as _

from scenarios.base import IllegalAction

# Messages for the codes the web layer itself raises; engine codes fall back to the engine's own
# English sentence until a translation is written here.
MESSAGES = {
    "stale_view": _("The game changed before your tap arrived. Here is the latest view: choose again."),
    "game_paused": _("Your teacher has paused the game. Wait a moment."),
    "game_finished": _("This game is over."),
    "not_your_seat": _("You can only play for your own seat."),
    "bad_frame": _("That message could not be read."),
    "too_big": _("That message is too big."),
    "too_fast": _("Slow down a little: too many taps at once."),
    "unknown_type": _("That is not something this page can do."),
    "session_closed": _("This lesson has ended."),
    "session_parked": _("This lesson is parked until your teacher resumes it."),
    "unavailable": _("The game server is having a hiccup. Your tap will be sent again in a moment."),
    "no_more_time": _("More time can be asked for only in the last seconds before a bot would play."),
    "unknown_device": _("This tablet has not joined that lesson."),
}

# The HTTP status of a refusal the HTTP fallback answers on its own (an ``act`` the game refused
# is an answer like any other: 200).
HTTP_STATUS = {"too_big": 413, "bad_frame": 400, "too_fast": 429, "unavailable": 503,
               "unknown_device": 403}


class Refused(Exception):
    """An input the server will not apply. Nothing changed; the client gets ``as_message()``."""

    def __init__(self, code, message=None, **params):
        super().__init__(code)
        self.code = code
        self.default = message
        self.params = params

    @classmethod
    def from_illegal(cls, error: IllegalAction):
        return cls(error.code, error.message, **error.params)

    @property
    def message(self):
        template = MESSAGES.get(self.code)
        if template is None:  # the engine's own sentence, in the reader's language when translated
            return gettext(self.default) if self.default else str(_("That move is not allowed."))
        try:
            return str(template) % self.params
        except (KeyError, TypeError, ValueError):
            return str(template)

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 200)

    def as_message(self, action_id=None):
        return {"type": "error", "id": action_id, "code": self.code, "message": self.message,
                "params": self.params}
