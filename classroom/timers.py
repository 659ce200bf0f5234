"""A tablet's "More time" button (socket and HTTP alike): the seat's turn timer pushed back
through ``games.timers.more_time``, for a seat this device holds (the same seat check as its
taps: ``services.DeviceSeats``)."""

from classroom.services import DeviceSeats
from games import taps, timers
from games.refusals import Refused


def device_more_time(participant_id: int, seat_number) -> dict:
    """The answer for the device: ok, or a refusal that changed nothing."""
    if type(seat_number) is not int or not 0 <= seat_number < taps.MAX_SEAT_NUMBER:
        return Refused("bad_frame").as_message()
    try:
        held = DeviceSeats(participant_id).held(seat_number, None)
    except Refused as refusal:
        return refusal.as_message()
    if not timers.more_time(game_id=held.game_id, seat=seat_number):
        return Refused("no_more_time").as_message()
    return {"type": "ok"}
