"""The live path's speed-ups, fenced: each module here replaces a piece of Channels or of
channels-redis (which the project no longer installs) with a leaner one, says what it replaces,
and names the figure that pays for it (each has a record in docs/decisions/, linked from
docs/architecture.md). Nothing else in the code depends on how they work:

- ``socket_loop``: the consumers' loop and dispatch (instead of Channels' ``AsyncConsumer``'s).
- ``redis_layer``: the Redis pub/sub layer, on connections of its own rather than redis-py's.
- ``memory_layer``: the embedded server's in-memory layer, without a scan of every channel on
  every send and receive.
- ``collector``: the garbage collector's thresholds, and what it leaves alone.

(Two speed-ups live outside, in ``games``, because they belong to the sync driver of
``games.pipeline``: ``games.sqlite_queue``, the embedded server's moves queueing for SQLite's
write lock in the process, and ``games.sql_driver``, a move's game read and save in plain SQL
rather than through the ORM; ``tests/games/test_pipeline.py`` holds it to the ORM's answers.)

Some lean on those packages' private API. ``WRITTEN_FOR`` pins the versions they were written
and measured against; ``tests/test_fast_pins.py`` fails loudly when the installed or required
versions move, so that whoever upgrades reads these modules against the new code first.
"""

WRITTEN_FOR = {"channels": "4.3.2"}
