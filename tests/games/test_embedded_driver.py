"""The sync driver on the embedded server's own database: SQLite, with taps from several threads
at once, as ``make run`` serves a class, answered in plain SQL (``games.sql_driver``, what the
server runs) and through the plain ORM. Run in a process of its own (the suite's database is
PostgreSQL)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

SCRIPT = """
import json, os, threading
import django
django.setup()
from django.core.management import call_command
from django.db import connection
call_command("migrate", verbosity=0)
from games import pipeline, services, store
from games.models import Game
from games.refusals import Refused
from scenarios.registry import ENGINES

if os.environ["DRIVER"] == "orm":
    plain = pipeline.drive_sync
    pipeline.drive_sync = lambda steps, answerer=None: plain(steps, store.orm_answer)

game = services.create_game(scenario="evacuation", seed=7, seats=4)
errors = []

def tap(seat, round_):
    try:
        for attempt in range(2):  # the same id twice: a resend
            services.submit(game_id=game.pk, seat=seat, action={"type": "wait"}, action_id=f"tap-{round_}-{seat}")
    except Exception as error:
        errors.append(repr(error))
    finally:
        connection.close()

for round_ in range(5):
    threads = [threading.Thread(target=tap, args=(seat, round_)) for seat in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
try:
    services.submit(game_id=game.pk, seat=0, action={"type": "wait"}, action_id="stale-tap", version=0)
    stale = None
except Refused as refusal:
    stale = refusal.code
game.refresh_from_db()
engine = ENGINES["evacuation"]
state = engine.setup(game.seed, game.seats, game.options)
for move in game.moves.order_by("seq"):
    engine.apply(state, move.seat, move.action)
print(json.dumps({"errors": errors, "version": game.version, "stale": stale,
                  "seqs": list(game.moves.order_by("seq").values_list("seq", flat=True)),
                  "replays": engine.dump(state) == game.state, "vendor": connection.vendor}))
"""


@pytest.mark.parametrize("driver", ["sql", "orm"])
def test_taps_from_many_threads_on_sqlite_land_once_each_in_order(tmp_path, driver):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATA_DIR=str(tmp_path), PYTHONPATH=str(ROOT), DRIVER=driver)
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome["vendor"] == "sqlite" and outcome["errors"] == []
    assert outcome["version"] == 20 and outcome["seqs"] == list(range(1, 21))
    assert outcome["replays"] and outcome["stale"] == "stale_view"
