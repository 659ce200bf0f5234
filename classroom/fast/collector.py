"""The garbage collector, tuned for a process serving sockets.

Replaces: Python's default collector thresholds (700, 10, 10) and collecting what lives as long
as the process. Paid for by: full passes of 120–240 ms every 1–2 s per process at 200
actions/s with the defaults; the middle generation's passes 60–126 ms at a first threshold of
10,000, lined up with the worst bursts of slow taps; under 16 ms at 50,000
(docs/decisions/0008-collector.md).

Everything loaded by the time the process serves (Django, the apps, the rules) lives as long as
the process, so it is left out of the full passes, which would otherwise walk it all in the
middle of students' taps. A move builds its views in one go: with the default first threshold
the collector ran in the middle of that and promoted what was briefly alive. Each socket also
waits for its next message in coroutines and futures made after its last one, so with 1,000
sockets the youngest generation always holds thousands of live objects: a pass costs about
the same whatever the threshold, and the threshold sets how often it runs.
"""

import gc

THRESHOLDS = (50_000, 10, 10)


def tune() -> None:
    """Call once, when the process starts serving (``config.lifespan``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
