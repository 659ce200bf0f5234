"""The engine's memo of the road system is shared by every game and report of a process; one
thread's game must never lose what it just read to another thread clearing the memo (Celery's
thread pool writes two reports at once, each replaying its own futures)."""

import copy
import threading

from scenarios.evacuation import ENGINE
from scenarios.evacuation import state as evacuation_state


def test_a_thread_reading_the_road_system_survives_another_clearing_the_memo():
    base = ENGINE.setup(11, 4)
    errors, stop = [], threading.Event()

    def read_spans():
        own = copy.deepcopy(base)
        try:
            for minute in range(200_000):
                evacuation_state._system_span(own, minute % 2880)
                if stop.is_set():
                    return
        except Exception as error:  # noqa: BLE001 - the failure this test looks for
            errors.append(error)

    def fill_memo():
        states = [copy.deepcopy(base) for _ in range(600)]
        for _ in range(40):
            for other in states:
                evacuation_state.system_at(other, 0)
        stop.set()

    readers = [threading.Thread(target=read_spans) for _ in range(2)]
    filler = threading.Thread(target=fill_memo)
    for thread in (*readers, filler):
        thread.start()
    for thread in (*readers, filler):
        thread.join()
    assert errors == []
