"""Tornado Alert! bots. Each is ``bot(state, seat) -> action`` and always returns a legal action.

- ``photographer`` (the policy bot): slaps a pile when taking it raises its average and brings no
  Rover, plays its safest card on its turn, and strikes a poor round.
- ``daredevil``: slaps every pile it may, plays its most dangerous card.
- ``sheltered``: keeps a safe place on top of its stack (the debrief's "played it safe").
- ``random``: any legal action, from the seed's stream.
"""

from __future__ import annotations

from scenarios.base import draw

from . import rules


def _settle_or_decide(state, seat):
    if state["race"] is not None and state["race"]["slaps"][0] == seat:
        return {"type": "settle"}
    return None


def _group(state):
    pile = state["pile"]
    n = rules.value(pile[-1])
    return pile[-n:] if len(pile) >= n else None


def photographer(state, seat):
    """Take a pile when it is worth more than your average now and holds no Rover."""
    forced = _settle_or_decide(state, seat)
    if forced:
        return forced
    if state["phase"] == "decide":
        mine = state["results"][seat][-1]
        if mine["avg"] < 1.0 and state["round"] == 1:
            return {"type": "strike"}
        if state["chips"][seat][1] and state["round"] < rules.ROUNDS and mine["avg"] >= 3:
            return {"type": "use_minus"}
        return {"type": "keep"}
    if rules.may_slap(state, seat):
        group = _group(state)
        if group and "rover" not in group:
            stack = state["stacks"][seat]
            fdv = state["options"]["face_down_value"]
            total = sum(rules.value(c) if up else fdv for c, up in stack)
            gain = sum(rules.value(c) for c in group)
            # worth at least the average so far (before cheat bonuses), or any decent pile while
            # the stack is small: a short stack is at the mercy of one tornado
            if (
                not stack
                or gain * len(stack) >= total * len(group)
                or "gameover" in group
                or (len(stack) < 6 and gain >= 2 * len(group))
            ):
                return {"type": "slap", "pile": state["pile_id"]}
        if not rules.may_play(state, seat):
            return {"type": "wait", "pile": state["pile_id"]}
    hand = state["hands"][seat]
    card = min(hand, key=lambda c: (rules.value(c), c))
    return {"type": "play", "card": card}


def daredevil(state, seat):
    """Slap everything, play the highest card."""
    forced = _settle_or_decide(state, seat)
    if forced:
        return forced
    if state["phase"] == "decide":
        return {"type": "keep"}
    if rules.may_slap(state, seat):
        return {"type": "slap", "pile": state["pile_id"]}
    hand = state["hands"][seat]
    return {"type": "play", "card": max(hand, key=lambda c: (rules.value(c), c))}


def sheltered(state, seat):
    """Keeps a safe place on top of its stack: takes a pile only when its top card (the card that
    will show the stack's location) is the storm cellar or the submarine, never one with the
    Rover, and plays its safest card. What the safety notes advise, and (as the book scores it)
    the lower score: the "what if we had played it safe?" of the debrief."""
    forced = _settle_or_decide(state, seat)
    if forced:
        return forced
    if state["phase"] == "decide":
        return {"type": "keep"}
    if rules.may_slap(state, seat):
        group = _group(state)
        if group and "rover" not in group and rules.CARDS[state["pile"][-1]]["location"] in rules.SAFE:
            return {"type": "slap", "pile": state["pile_id"]}
        if not rules.may_play(state, seat):
            return {"type": "wait", "pile": state["pile_id"]}
    hand = state["hands"][seat]
    return {"type": "play", "card": min(hand, key=lambda c: (rules.value(c), c))}


def random_bot(state, seat):
    """Any legal action, drawn from the seed's stream for this seat."""
    options = rules.actions(state, seat)
    return options[draw(state["seed"], "bot", seat, state["moves"]) % len(options)]


BOTS = {"photographer": photographer, "daredevil": daredevil, "random": random_bot}
POLICY_BOT = "photographer"
