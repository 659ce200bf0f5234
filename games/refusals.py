"""Refusals: one exception for every rejected input, rendered from its code through gettext."""

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scenarios import registry, words
from scenarios.base import IllegalAction

# Messages for the codes the web layer itself raises; an engine's code is explained by the engine's
# own sentence (marked with ``gettext_noop``), translated from the scenario's catalogue.
MESSAGES = {
    "stale_view": _("The game changed before your tap arrived. Here is the latest view: choose again."),
    "game_paused": _("Your teacher has paused the game. Wait a moment."),
    "game_finished": _("This game is over."),
    "not_your_seat": _("You can only play for your own seat."),
    "bot_playing": _("A bot is playing this seat for now. Ask your teacher to hand it back to you."),
    "bad_frame": _("That message could not be read."),
    "bad_action": _("That is not a move your screen offers."),
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
HTTP_STATUS = {"too_big": 413, "bad_frame": 400, "too_fast": 429, "unavailable": 503, "unknown_device": 403}


class Refused(Exception):
    """An input the server will not apply. Nothing changed; the client gets ``as_message()``."""

    def __init__(self, code, message=None, **params):
        super().__init__(code)
        self.code = code
        self.default = message  # an engine's sentence, English, its placeholders not yet filled
        self.params = params
        self.english = message  # ... and filled, as the engine wrote it
        self.scenario = None  # the engine's scenario: names in ``params`` are its content words

    @classmethod
    def from_illegal(cls, error: IllegalAction, scenario: str | None = None):
        refusal = cls(error.code, error.template, **error.params)
        refusal.english, refusal.scenario = error.message, scenario
        return refusal

    @property
    def message(self):
        template = MESSAGES.get(self.code)
        if template is None:  # the engine's own sentence, in the reader's language when translated
            if not self.default:
                return str(_("That move is not allowed."))
            return words.sentence(self.default, self.params, self._translations()) or self.english
        try:
            return str(template) % self.params
        except (KeyError, TypeError, ValueError):
            return str(template)

    def _translations(self) -> dict:
        """The scenario's content words (a city, a card, a place) in the reader's language."""
        if not self.scenario:
            return {}
        return registry.content_translations(self.scenario, (get_language() or "en").split("-")[0])

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 200)

    def as_message(self, action_id=None):
        """The refusal as the device reads it, for the action ``action_id`` (echoed only when it is
        a string: a frame's id may be any JSON)."""
        action_id = action_id if isinstance(action_id, str) else None
        return {"type": "error", "id": action_id, "code": self.code, "message": self.message, "params": self.params}
