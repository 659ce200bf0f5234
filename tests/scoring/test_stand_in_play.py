"""A seat the stand-in played is not the student's play: the debrief, the class packet and the
student's own report say so, and its points are not shown as the student's."""

from django.urls import reverse

from classroom import services
from scoring import reports
from tests.factories import PASSWORD, started_session
from tests.games.test_idle_timers import play_with_seat_1_idle


def test_the_debrief_does_not_credit_the_stand_ins_play_to_the_student(client, db):
    session, devices = started_session(students=2, seats_per_table=2, fill_with_bots=False, turn_seconds=30)
    (kid0, _), (kid1, _) = devices
    assert play_with_seat_1_idle(session).status == "finished"
    services.end(session=session)
    session.refresh_from_db()
    seats = {seat.number: seat for seat in session.tables.get().seats.select_related("participant", "table")}
    assert seats[1].participant_id == kid1.pk

    client.login(email=session.teacher.email, password=PASSWORD)
    page = client.get(reverse("scoring:session_debrief", args=[session.pk])).content.decode()
    assert "Played by the stand-in, so not the student's own points: table 1, seat 2<" in page

    packet, _data = reports.class_packet(session)
    idle_row = next(row for row in packet.split("<tr>") if f"<td>{kid1.nickname}</td>" in row)
    played_row = next(row for row in packet.split("<tr>") if f"<td>{kid0.nickname}</td>" in row)
    assert "played by the stand-in" in idle_row and "played by the stand-in" not in played_row

    idle_report, idle_data = reports.seat_report(session, seats[1])
    own_report, own_data = reports.seat_report(session, seats[0])
    assert "Played by the stand-in." in idle_report and idle_data["stand_in"]
    assert "Played by the stand-in." not in own_report and not own_data["stand_in"]
