"""One device holding connections cannot shut a class out: half-sent and idle connections are
closed, an address holds only so many, and the server starts with the files it needs or says why
it will not start."""

import resource
import socket
import time
import urllib.request

from tests.served import Served


def _hold(port, count, source="127.0.0.2", half_sent=False):
    """``count`` connections from ``source`` that never finish a request (every other one sends
    half a request's headers). Connections the server refuses at once are left out."""
    held = []
    for number in range(count):
        sock = socket.socket()
        sock.bind((source, 0))
        try:
            sock.connect(("127.0.0.1", port))
            if half_sent or number % 2:
                sock.sendall(b"GET /join HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        except OSError:
            sock.close()
            continue
        held.append(sock)
    return held


def _still_open(sockets, wait=0.5) -> int:
    """How many of ``sockets`` the server has not closed."""
    time.sleep(wait)
    open_ = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            open_ += sock.recv(1) != b""  # b"": closed by the server
        except BlockingIOError:
            open_ += 1
        except OSError:
            pass
    return open_


def _join_page(port) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/join", timeout=10) as answer:
        return answer.status


def test_idle_and_half_sent_connections_are_closed(transactional_db):
    """Connections that send nothing, or half a request, are closed once the header time is up."""
    server = Served(HEADER_TIMEOUT_SECONDS=2).start()
    held = []
    try:
        held = _hold(server.port, 20)
        assert _still_open(held, wait=0.5) == 20
        assert _still_open(held, wait=3.0) == 0
        assert _join_page(server.port) == 200
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_one_address_holding_connections_leaves_join_to_everyone_else(transactional_db):
    """Started at 256 open files with a hard limit of 1024 (a common default), the server takes
    the 1024, caps an address at a quarter of it and says so; one address holding 1,000
    connections gets at most that and /join still opens for the class."""

    def low_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 1024))

    server = Served(preexec_fn=low_limit).start()
    held = []
    try:
        assert "one address may hold 256 connections" in server.output()
        held = _hold(server.port, 1000)
        assert _still_open(held) <= 256
        assert [_join_page(server.port) for _ in range(5)] == [200] * 5
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_a_server_short_of_files_refuses_to_start_and_says_why(transactional_db):
    def too_low():
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    server = Served(preexec_fn=too_low).start()
    try:
        assert server.process.wait(timeout=30) != 0
        assert "ulimit -n" in server.output()
    finally:
        server.stop()


def test_a_crowd_of_joins_takes_no_more_database_connections_than_the_pool(transactional_db):
    """Forty devices posting the join form at the same moment (a script on the school's network)
    are each answered, refused by the join pace or seated, while the server holds no more
    PostgreSQL connections than its pool's size. Before, each request's thread opened its own, and
    sixty at once took every connection PostgreSQL had: the whole district's pages failed."""
    import threading

    from benchmarks import crowd
    from tests.factories import make_session

    session = make_session(max_participants=40)
    server = Served(DB_POOL_SIZE=4).start()
    peak, racing = [0], threading.Event()

    def watch():
        while not racing.is_set():
            peak[0] = max(peak[0], server.database_connections())
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    try:
        watcher.start()
        answers = crowd.race(server.port, session.join_code, 40, source="127.0.0.2", players=1)
    finally:
        racing.set()
        watcher.join()
        server.stop()
    seated = sum(ok for ok, _seconds, _page in answers)
    refused = sum("joining from here at once" in page for ok, _s, page in answers if not ok)
    assert seated >= 1 and seated + refused == 40, server.output()[-3000:]
    assert "Traceback" not in server.output()
    assert 1 <= peak[0] <= 4


def test_an_address_with_four_joins_in_flight_is_told_to_wait_before_django(transactional_db):
    """Eight join forms posted at once from one address while the lesson's joins are held up
    (its lock taken): four reach Django and wait their turn, the other four are answered at once,
    429 with the join pace's words in the tablet's language, while the lock is still held; a
    classmate on another address is not turned away, and once the lock is free the four are
    seated. Before, all eight took a thread and a connection each and waited."""
    import threading

    from benchmarks import crowd
    from classroom.models import Session
    from tests.factories import make_session, session_locked

    session = make_session(max_participants=40)
    server = Served().start()
    answers, answered = [], threading.Condition()

    def post(cookie, csrf, number, source, language):
        import http.client
        from urllib.parse import urlencode

        body = urlencode({"code": session.join_code, "nickname": f"Racer{number}", "players": 1})
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60, source_address=(source, 0))
        connection.request(
            "POST",
            "/join",
            body=body + f"&csrfmiddlewaretoken={csrf}",
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": cookie,
                "Referer": f"{server.base}/join/{session.join_code}",
                "Accept-Language": language,
            },
        )
        response = connection.getresponse()
        with answered:
            answers.append((source, response.status, response.read().decode()))
            answered.notify_all()
        connection.close()

    try:
        forms = [crowd.form(server.port, session.join_code, source="127.0.0.2") for _ in range(8)]
        racers = [threading.Thread(target=post, args=(*forms[n], n, "127.0.0.2", "nl-NL,nl;q=0.9")) for n in range(8)]
        mate = crowd.form(server.port, session.join_code, source="127.0.0.3")
        mate_thread = threading.Thread(target=post, args=(*mate, 99, "127.0.0.3", "en"))
        with session_locked(session):
            for racer in racers:
                racer.start()
            with answered:
                told_while_held = answered.wait_for(lambda: len(answers) >= 4, timeout=30)
                early = list(answers)
            mate_thread.start()
        for thread in [*racers, mate_thread]:
            thread.join(timeout=60)
    finally:
        server.stop()
    assert told_while_held, "the address's extra joins waited for the lock"
    assert [status for _source, status, _page in early] == [429] * 4
    assert all("Er doen hier veel tablets tegelijk mee. Wacht 1 seconde" in page for _s, _st, page in early)
    from_school = sorted(status for source, status, _page in answers if source == "127.0.0.2")
    assert from_school == [302] * 4 + [429] * 4
    assert [status for source, status, _page in answers if source == "127.0.0.3"] == [302]
    assert Session.objects.get(pk=session.pk).participants.count() == 5
