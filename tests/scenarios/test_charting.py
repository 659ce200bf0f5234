"""Report charts are drawn by a worker running two reports at once, on threads."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

# A fresh interpreter (matplotlib not yet loaded), four report threads asking for pyplot at once;
# choosing the backend is slowed down so that the threads would overlap there if they could.
OVERLAP = """
import threading, time
import matplotlib
from scenarios.charting import pyplot

inside, most, lock = 0, 0, threading.Lock()
choose = matplotlib.use

def slow_use(*args, **kwargs):
    global inside, most
    with lock:
        inside += 1
        most = max(most, inside)
    time.sleep(0.1)
    choose(*args, **kwargs)
    with lock:
        inside -= 1

matplotlib.use = slow_use
plots = []
threads = [threading.Thread(target=lambda: plots.append(pyplot())) for _ in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(most, len(plots), len({id(p) for p in plots}), plots[0].get_backend().lower())
"""


def test_report_threads_set_matplotlib_up_one_at_a_time_and_share_it():
    """A thread choosing matplotlib's backend while another is still importing pyplot finds it
    half made, and that report fails: only one thread may set it up, and every report thread
    gets the same headless pyplot."""
    shown = subprocess.run(
        [sys.executable, "-c", OVERLAP], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    ).stdout.split()
    assert shown == ["1", "4", "1", "agg"]
