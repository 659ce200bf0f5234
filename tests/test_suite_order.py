"""The order ``make test`` hands its processes the tests in (``tests/conftest.py``), held to the
scheduler pytest-xdist really runs: every process starts with its part of the long tests."""

from xdist.scheduler.worksteal import WorkStealingScheduling

from tests.conftest import _dealt


class _Config:
    def __init__(self, processes):
        self.processes = processes

    def getvalue(self, name):
        assert name == "tx"
        return [f"{self.processes}*popen"]


class _Process:
    """What the scheduler asks of a process: it only records the tests it is sent."""

    shutting_down = False

    def __init__(self, number):
        self.gateway = type("Gateway", (), {"id": f"gw{number}"})
        self.sent = []

    def send_runtest_some(self, indices):
        self.sent.extend(indices)


def _first_stretches(collection, processes):
    scheduler = WorkStealingScheduling(_Config(processes))
    workers = [_Process(number) for number in range(processes)]
    for worker in workers:
        scheduler.add_node(worker)
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()
    return [[collection[i] for i in worker.sent] for worker in workers]


def test_every_process_starts_with_its_share_of_the_long_tests():
    long, quick = [f"long{i}" for i in range(17)], [f"quick{i}" for i in range(1356)]
    for processes in (2, 4, 6):
        stretches = _first_stretches(_dealt(long + quick, processes), processes)
        assert sorted(test for stretch in stretches for test in stretch) == sorted(long + quick)
        for stretch in stretches:
            mine = [test for test in stretch if test.startswith("long")]
            assert len(mine) in (17 // processes, 17 // processes + 1), (processes, mine)
            assert stretch[: len(mine)] == mine  # before any quick test of its stretch


def test_without_dealing_the_first_process_would_hold_them_all():
    long, quick = [f"long{i}" for i in range(17)], [f"quick{i}" for i in range(1356)]
    first = _first_stretches(long + quick, 4)[0]
    assert all(test in first for test in long)
