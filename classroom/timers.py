"""A tablet's "More time" button (socket and HTTP alike): the seat's turn timer pushed back
through ``games.timers.more_time``, for a seat this device holds."""

from classroom.models import Seat
from games import timers
from games.refusals import Refused


def device_more_time(participant_id: int, seat_number) -> dict:
    """The answer for the device: ok, or a refusal that changed nothing."""
    if not isinstance(seat_number, int) or isinstance(seat_number, bool):
        return Refused("bad_frame").as_message()
    seat = (
        Seat.objects.select_related("table")
        .filter(participant_id=participant_id, number=seat_number, table__game__isnull=False)
        .first()
    )
    if seat is None:
        return Refused("not_your_seat").as_message()
    if not timers.more_time(game_id=seat.table.game_id, seat=seat.number):
        return Refused("no_more_time").as_message()
    return {"type": "ok"}
