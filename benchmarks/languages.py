"""What a tablet in another language costs the live path, one line per figure (``name: value unit``).

    python -m benchmarks.languages

A Spanish or Dutch tablet's socket frames are decoded, their content words translated and
encoded again before they are sent (``classroom.languages.translate_content_text``); English
tablets skip this. The figure is the CPU time per frame for a seat's full view a few turns into
a game, best of three runs of 2,000 frames, in this process's CPU time.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import orjson

from scenarios import words
from scenarios.evacuation import ENGINE as EVACUATION
from scenarios.evacuation.bots import BOTS as EVACUATION_BOTS, POLICY_BOT as EVACUATION_POLICY
from scenarios.stormfury import ENGINE as STORMFURY
from scenarios.stormfury.bots import BOTS as STORMFURY_BOTS, POLICY_BOT as STORMFURY_POLICY

ROOT = Path(__file__).resolve().parent.parent


def a_view(engine, bot, seats=4, steps=12):
    state = engine.setup(7, seats)
    for _ in range(steps):
        if engine.finished(state):
            break
        for seat in engine.to_act(state):
            engine.apply(state, seat, bot(state, seat))
    return {"type": "view", "seat": 0, "version": 12, "view": engine.view(state, 0)}


def per_frame_us(message, table, frames=2000, runs=3):
    text = orjson.dumps(message).decode()
    best = None
    for _ in range(runs):
        start = time.process_time()
        for _ in range(frames):
            orjson.dumps(words.translate_words(orjson.loads(text), table)).decode()
        spent = (time.process_time() - start) / frames * 1e6
        best = spent if best is None else min(best, spent)
    return best, len(text)


def main():
    for key, engine, bots, policy in (
        ("evacuation", EVACUATION, EVACUATION_BOTS, EVACUATION_POLICY),
        ("stormfury", STORMFURY, STORMFURY_BOTS, STORMFURY_POLICY),
    ):
        table = json.loads((ROOT / "scenarios" / key / "content" / "translations" / "es.json").read_text("utf-8"))
        us, size = per_frame_us(a_view(engine, bots[policy]), table)
        print(f"translate_view_{key}_us: {us:.0f} us")
        print(f"view_{key}_bytes: {size} bytes")


if __name__ == "__main__":
    main()
