"""Tornado Alert!: the rules as pure functions over a JSON state (see RULES.md).

Cards are ids (``cellar-3``, ``mast-t1`` for a tornado card, ``genie-2``); a point stack is a list
of ``[card, face_up]`` from bottom to top; the play pile and the draw pile are lists whose last
item is the top. ``pile_id`` counts every change of the play pile's top, and a slap names the
``pile_id`` it was aimed at, so a slap at a pile that has changed is refused ("Player 2 was
faster"). Slaps aimed at the same pile within the race window form a *race*, settled by a fair
draw from the seed (RULES.md, "Slapping on a school network").
"""
from __future__ import annotations

from pathlib import Path

from scenarios.base import IllegalAction, draw, json_copy, load_content, shuffled
from scenarios.words import gettext_noop  # marks refusal sentences for the web layer to translate

CONTENT, CONTENT_HASH = load_content(Path(__file__).parent / "content", ["deck.json"])
VERSION = "1.0.0"
SCHEMA_VERSION = 1
ROUNDS = 3
#: cards shuffled with the Game Over card and put under the rest of the draw pile (RULES.md)
BOTTOM = 20
CHEAT_THRESHOLD = 2.9
CHEAT_BONUS = 0.6

LOCATIONS = {loc["id"]: loc for loc in CONTENT["deck"]["locations"]}
SPECIALS = {sp["id"]: sp for sp in CONTENT["deck"]["specials"]}


def _build_cards() -> dict:
    cards = {}
    for loc in CONTENT["deck"]["locations"]:
        for n in range(1, loc["plain"] + 1):
            cards[f"{loc['id']}-{n}"] = {"kind": "location", "location": loc["id"], "value": loc["value"],
                                         "tornado": False}
        for n in range(1, loc["tornado"] + 1):
            cards[f"{loc['id']}-t{n}"] = {"kind": "location", "location": loc["id"], "value": loc["value"],
                                          "tornado": True}
    for sp in CONTENT["deck"]["specials"]:
        for n in range(1, sp["count"] + 1):
            cid = sp["id"] if sp["count"] == 1 else f"{sp['id']}-{n}"
            cards[cid] = {"kind": sp["id"], "location": None, "value": 0, "tornado": False}
    return cards


CARDS = _build_cards()
WORDS = frozenset(CARDS)

OPTIONS = [
    {"name": "variant", "default": "turns", "choices": ["turns", "free"], "label": gettext_noop("Variant"),
     "choice_labels": {"turns": gettext_noop("Turns"), "free": gettext_noop("Free")},
     "description": gettext_noop("Turns: play in seat order, as the rule book's main game. Free (Tornado Alert! 2): "
                                 "no turn order, anyone plays whenever they like (3 to 6 players).")},
    {"name": "race_ms", "default": 300, "choices": [0, 300, 600], "label": gettext_noop("Slaps this close together are a tie (milliseconds)"),
     "description": gettext_noop("Slaps aimed at the same pile that reach the server within this window are equal: "
                                 "a fair draw picks the winner, so the tablet nearest the access point does not always win. "
                                 "0: the first slap to arrive wins.")},
    {"name": "bot_reaction_ms", "default": 900, "choices": [500, 900, 1500], "label": gettext_noop("How long a bot takes to slap (milliseconds)"),
     "description": gettext_noop("About how long a bot takes to slap a pile it likes (it varies by up to half either way).")},
    {"name": "face_down_value", "default": 0, "choices": [0, -1], "label": gettext_noop("Face-down card value"),
     "description": gettext_noop("The printed rule book says a face-down card is worth 0 in three places and -1 in one.")},
]
DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}
DECIDE = ("keep", "strike", "use_plus", "use_minus")
#: the refusal of a slap at a pile someone already took, per seat of the one who took it: whole
#: sentences, so the web layer can translate each ("Player 2 was faster.")
FASTER = (gettext_noop("Player 1 was faster."), gettext_noop("Player 2 was faster."), gettext_noop("Player 3 was faster."),
          gettext_noop("Player 4 was faster."), gettext_noop("Player 5 was faster."), gettext_noop("Player 6 was faster."))


# --- Set-up ---------------------------------------------------------------------------------------

def new_state(seed: int, seats: int, options=None) -> dict:
    options = {**DEFAULTS, **(options or {})}
    for o in OPTIONS:
        if options[o["name"]] not in o["choices"]:
            raise IllegalAction("bad_option", gettext_noop("That option is not offered."), name=o["name"])
    if not 2 <= seats <= 6:
        raise IllegalAction("bad_seats", gettext_noop("Tornado Alert! is for 2 to 6 players."), seats=seats)
    state = {
        "seed": seed, "options": options, "seats": seats, "round": 0, "phase": "play",
        "ended": False, "moves": 0, "races": 0,
        "chips": [[0, 0] for _ in range(seats)],  # [plus, minus] chips held
        "results": [[] for _ in range(seats)],    # per round: avg, applied, struck
        "decided": [False] * seats,
        "stats": [{"takes": 0, "cards": 0, "value": 0, "locations": {}, "tornado": 0, "lightning": 0,
                   "rover": 0, "races_won": 0, "races_lost": 0, "slaps_refused": 0} for _ in range(seats)],
        "last": [],
    }
    _deal(state)
    return state


def hand_size(seats: int) -> int:
    return 5 if seats == 6 else 6


def _deal(state: dict) -> None:
    """A new round: shuffle, bury the Game Over card in the bottom part, deal the hands."""
    state["round"] += 1
    n = state["round"]
    rest = shuffled(sorted(c for c in CARDS if c != "gameover"), state["seed"], "deck", None, n)
    bottom = shuffled(rest[:BOTTOM] + ["gameover"], state["seed"], "bottom", None, n)
    deck = bottom + rest[BOTTOM:]  # the top of the draw pile is the end of the list
    hands = [[] for _ in range(state["seats"])]
    for _ in range(hand_size(state["seats"])):
        for hand in hands:
            hand.append(deck.pop())
    first = draw(state["seed"], "first", None, n) % state["seats"]
    state.update({
        "phase": "play", "draw": deck, "pile": [], "pile_id": 0, "hands": hands,
        "stacks": [[] for _ in range(state["seats"])], "turn": first, "last_player": None,
        "last_taker": None, "taken_since_play": False, "race": None, "passed": [],
        "last_take": None, "decided": [False] * state["seats"], "gone": [],
    })


# --- Reading the state --------------------------------------------------------------------------------

def value(card: str) -> int:
    return CARDS[card]["value"]


def top_card(stack: list) -> str | None:
    """The card that gives a point stack its location (its top, face up), or None."""
    if stack and stack[-1][1] and value(stack[-1][0]) > 0:
        return stack[-1][0]
    return None


def location_of(stack: list) -> str | None:
    top = top_card(stack)
    return CARDS[top]["location"] if top else None


def average(stack: list, face_down_value: int) -> float:
    """The stack's average as the round's scoring counts it, before chips (cheats included)."""
    if not stack:
        return 0.0
    total = sum(value(c) if up else face_down_value for c, up in stack)
    avg = total / len(stack)
    if avg >= CHEAT_THRESHOLD:
        avg += CHEAT_BONUS * sum(1 for c, _ in stack if CARDS[c]["kind"] == "cheat")
    return round(avg, 2)


def may_slap(state: dict, seat: int) -> bool:
    """Whether ``seat`` may slap the play pile now (a race open at this pile counts)."""
    if state["phase"] != "play" or not state["pile"] or value(state["pile"][-1]) < 1:
        return False
    race = state["race"]
    if race is not None and seat in race["slaps"]:
        return False
    if seat in state["passed"] or seat == state["last_taker"]:
        return False
    if seat == state["last_player"] and not state["taken_since_play"]:
        return False
    return True


def may_play(state: dict, seat: int) -> bool:
    if state["phase"] != "play" or state["race"] is not None or not state["hands"][seat]:
        return False
    return state["options"]["variant"] == "free" or seat == state["turn"]


def finished(state: dict) -> bool:
    return state["phase"] == "over"


def to_act(state: dict) -> list[int]:
    """Seats that may act: ``may_play`` or ``may_slap`` (inlined: every move asks), and the
    opener of a race, whose deadline settles it."""
    if state["phase"] == "over":
        return []
    if state["phase"] == "decide":
        return [s for s in range(state["seats"]) if not state["decided"][s]]
    race, pile, hands = state["race"], state["pile"], state["hands"]
    slappable = bool(pile) and CARDS[pile[-1]]["value"] >= 1
    in_race = race["slaps"] if race else ()
    passed, taker = state["passed"], state["last_taker"]
    own = None if state["taken_since_play"] else state["last_player"]
    free = state["options"]["variant"] == "free"
    out = []
    for s in range(state["seats"]):
        if race is not None and s == in_race[0]:
            out.append(s)
        elif slappable and s not in in_race and s not in passed and s != taker and s != own:
            out.append(s)
        elif race is None and hands[s] and (free or s == state["turn"]):
            out.append(s)
    return out


def actions(state: dict, seat) -> list[dict]:
    if state["phase"] == "over":
        return []
    if seat is None:
        out = [{"type": "end_now"}]
        if state["race"] is not None:
            out.insert(0, {"type": "settle"})
        return out
    if state["phase"] == "decide":
        if state["decided"][seat]:
            return []
        plus, minus = state["chips"][seat]
        out = [{"type": "keep"}, {"type": "strike"}]
        if plus:
            out.append({"type": "use_plus"})
        if minus:
            out.append({"type": "use_minus"})
        return out
    out = []
    if state["race"] is not None and state["race"]["slaps"][0] == seat:
        out.append({"type": "settle"})
    if may_slap(state, seat):
        out += [{"type": "slap", "pile": state["pile_id"]}, {"type": "wait", "pile": state["pile_id"]}]
    if may_play(state, seat):
        out += [{"type": "play", "card": c} for c in state["hands"][seat]]
    return out


# --- Changing the state ---------------------------------------------------------------------------

def apply(state: dict, seat, action: dict) -> list[dict]:
    """Validate, then apply; raises IllegalAction with the state untouched."""
    kind = action.get("type") if isinstance(action, dict) else None
    if state["phase"] == "over":
        raise IllegalAction("game_over", gettext_noop("The game is over."))
    if kind == "end_now" and seat is None:
        events = _end_round(state, "ended") if state["phase"] == "play" else []
        _finish(state)
        state["ended"] = True
        return _done(state, events + [{"type": "ended"}])
    if kind == "slap" and seat is not None:
        _check_slap(state, seat, action)
    elif not _allowed(state, seat, action, kind):
        raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
    state["moves"] += 1
    if kind == "slap":
        return _done(state, _slap(state, seat))
    if kind == "wait":
        state["passed"].append(seat)
        events = []
        _check_stuck(state, events)
        return _done(state, events)
    if kind == "settle":
        return _done(state, _settle(state))
    if kind == "play":
        return _done(state, _play(state, seat, action["card"]))
    return _done(state, _decide(state, seat, kind))


def _allowed(state: dict, seat, action: dict, kind) -> bool:
    """``action in actions(state, seat)``, without building every action of a full hand."""
    if kind == "play" and isinstance(seat, int) and 0 <= seat < state["seats"]:
        return set(action) == {"type", "card"} and may_play(state, seat) and action["card"] in state["hands"][seat]
    return action in actions(state, seat)


def _done(state: dict, events: list) -> list:
    state["last"] = events[-12:]
    return events


def _check_slap(state: dict, seat: int, action: dict) -> None:
    aimed = action.get("pile")
    if not isinstance(aimed, int) or isinstance(aimed, bool) or aimed > state["pile_id"]:
        raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
    taken = state["last_take"]
    if aimed < state["pile_id"] and taken is not None and taken["pile"] >= aimed and taken["seat"] != seat:
        raise IllegalAction("too_slow", FASTER[taken["seat"]], player=taken["seat"] + 1)
    if aimed < state["pile_id"]:
        raise IllegalAction("pile_changed", gettext_noop("The pile changed before your slap arrived."))
    if not may_slap(state, seat):
        if state["race"] is not None and seat in state["race"]["slaps"]:
            raise IllegalAction("already_slapped", gettext_noop("You have already slapped this pile."))
        if seat == state["last_player"] and not state["taken_since_play"]:
            raise IllegalAction("own_card", gettext_noop("You cannot take cards straight after playing your own."))
        if seat == state["last_taker"]:
            raise IllegalAction("twice", gettext_noop("You cannot take twice before the next card is played."))
        raise IllegalAction("nothing_to_take", gettext_noop("There is nothing on the pile to take."))


def _slap(state: dict, seat: int) -> list:
    if state["race"] is None:
        state["race"] = {"pile": state["pile_id"], "slaps": [seat]}
        if state["options"]["race_ms"] == 0:
            return _settle(state)
        return [{"type": "slap", "seat": seat, "pile": state["pile_id"]}]
    state["race"]["slaps"].append(seat)
    return [{"type": "slap", "seat": seat, "pile": state["pile_id"]}]


def _settle(state: dict) -> list:
    """The race's winner takes the cards; a fair draw among everyone who slapped in the window."""
    race = state["race"]
    slaps = race["slaps"]
    winner = slaps[draw(state["seed"], "race", None, state["races"]) % len(slaps)]
    state["races"] += 1
    state["race"] = None
    events = []
    if len(slaps) > 1:
        for s in slaps:
            state["stats"][s]["races_won" if s == winner else "races_lost"] += 1
        events.append({"type": "race", "winner": winner, "slaps": list(slaps)})
    return events + _take(state, winner)


def _take(state: dict, seat: int) -> list:
    pile, stack, me = state["pile"], state["stacks"][seat], state["stats"][seat]
    n = value(pile[-1])
    aimed = state["pile_id"]
    short = len(pile) < n
    group = pile[-n:] if not short else list(pile)
    del pile[len(pile) - len(group):]
    events = [{"type": "take", "seat": seat, "cards": list(group), "short": short}]
    me["takes"] += 1
    me["cards"] += len(group)
    for c in group:
        if CARDS[c]["location"]:
            me["locations"][CARDS[c]["location"]] = me["locations"].get(CARDS[c]["location"], 0) + 1
            me["value"] += value(c)
    if short:  # fewer cards than the top card asks: all of them, face down, under the stack
        stack[:0] = [[c, False] for c in group]
    else:
        stack.extend([c, True] for c in group)
    kinds = {CARDS[c]["kind"] for c in group}
    if "wedge" in kinds:
        state["chips"][seat][1] += 1
        events.append({"type": "wedge", "seat": seat, "chip": -1})
    elif pile and pile[-1] == "wedge":
        state["chips"][seat][0] += 1
        events.append({"type": "wedge", "seat": seat, "chip": 1})
    if "rover" in kinds:
        state["gone"].extend(c for c, _ in stack)
        events.append({"type": "rover", "seat": seat, "lost": len(stack)})
        stack.clear()
        me["rover"] += 1
    elif "genie" in kinds:
        flipped = sum(1 for card in stack if not card[1])
        for card in stack:
            card[1] = True
        events.append({"type": "genie", "seat": seat, "flipped": flipped})
    _tidy(stack)
    state["last_take"] = {"seat": seat, "pile": aimed, "count": len(group)}
    state["last_taker"] = seat
    state["taken_since_play"] = True
    state["pile_id"] += 1
    state["passed"] = []
    if "gameover" in kinds:
        events += _end_round(state, "game_over", seat)
    else:
        _check_stuck(state, events)
    return events


def _tidy(stack: list) -> None:
    """Zero and face-down cards never give a location: move them from the top to the bottom."""
    for _ in range(len(stack)):
        if not stack or top_card(stack) or not any(up and value(c) > 0 for c, up in stack):
            return
        stack.insert(0, stack.pop())


def _play(state: dict, seat: int, card: str) -> list:
    pile = state["pile"]
    below = pile[-1] if pile else None
    state["hands"][seat].remove(card)
    pile.append(card)
    if state["draw"]:
        state["hands"][seat].append(state["draw"].pop())
    events = [{"type": "play", "seat": seat, "card": card}]
    loc = CARDS[card]["location"]
    if CARDS[card]["tornado"]:
        hit = []
        for s, stack in enumerate(state["stacks"]):
            if location_of(stack) == loc:
                top = stack.pop()
                stack.insert(0, [top[0], False])
                _tidy(stack)
                state["stats"][s]["tornado"] += 1
                hit.append(s)
        events.append({"type": "tornado", "location": loc, "hit": hit})
    if loc and below and CARDS[below]["location"] == loc:
        hit = []
        for s, stack in enumerate(state["stacks"]):
            if location_of(stack) != loc:
                continue
            ups = [(value(c), -i) for i, (c, up) in enumerate(stack) if up and value(c) >= 1]
            if not ups:
                continue
            _, neg = min(ups)  # the lowest value; of equals, the topmost
            struck = stack.pop(-neg)
            stack.insert(0, [struck[0], False])
            _tidy(stack)
            state["stats"][s]["lightning"] += 1
            hit.append(s)
        events.append({"type": "lightning", "location": loc, "hit": hit})
    state["last_player"] = seat
    state["last_taker"] = None
    state["taken_since_play"] = False
    state["pile_id"] += 1
    state["passed"] = []
    if state["options"]["variant"] == "turns":
        for step in range(1, state["seats"] + 1):
            nxt = (seat + step) % state["seats"]
            if state["hands"][nxt]:
                state["turn"] = nxt
                break
    _check_stuck(state, events)
    return events


def _check_stuck(state: dict, events: list) -> None:
    """No cards left to play and nothing to take: the round ends as if Game Over were taken."""
    if state["phase"] == "play" and state["race"] is None and not to_act(state):
        events += _end_round(state, "no_cards")


def _end_round(state: dict, reason: str, seat=None) -> list:
    fdv = state["options"]["face_down_value"]
    events = [{"type": "round_over", "round": state["round"], "reason": reason, "seat": seat}]
    state["race"] = None
    for s in range(state["seats"]):
        if (state["options"]["variant"] == "free" and reason == "game_over"
                and len(state["hands"][s]) != hand_size(state["seats"])):
            state["chips"][s][1] += 1
            events.append({"type": "hand_penalty", "seat": s})
        state["results"][s].append({"round": state["round"], "avg": average(state["stacks"][s], fdv),
                                    "applied": 0, "struck": False, "cards": len(state["stacks"][s])})
    if state["round"] >= ROUNDS:
        _finish(state)
    else:
        state["phase"] = "decide"
        state["decided"] = [False] * state["seats"]
    return events


def _finish(state: dict) -> None:
    """Chips must be used by the last scoring: every chip left goes on the last result."""
    for s in range(state["seats"]):
        plus, minus = state["chips"][s]
        if state["results"][s]:
            state["results"][s][-1]["applied"] += plus - minus
        state["chips"][s] = [0, 0]
    state["phase"] = "over"
    state["race"] = None


def _decide(state: dict, seat: int, kind: str) -> list:
    result = state["results"][seat][-1]
    if kind == "strike":
        result["struck"] = True
        state["chips"][seat][1] += 1
    elif kind == "use_plus":
        result["applied"] += 1
        state["chips"][seat][0] -= 1
    elif kind == "use_minus":
        result["applied"] -= 1
        state["chips"][seat][1] -= 1
    state["decided"][seat] = True
    events = [{"type": "decided", "seat": seat, "choice": kind}]
    if all(state["decided"]):
        _deal(state)
        events.append({"type": "round_start", "round": state["round"], "turn": state["turn"]})
    return events


# --- Scores ------------------------------------------------------------------------------------------

def final(results: list) -> float:
    """The worst counted result (struck rounds do not count; the last round always does)."""
    counted = [r["avg"] + r["applied"] for r in results if not r["struck"]]
    return round(min(counted), 2) if counted else 0.0


def results(state: dict) -> list[dict]:
    rows = []
    for s in range(state["seats"]):
        rows.append({"seat": s, "score": final(state["results"][s]), "rank": None,
                     "breakdown": {"rounds": json_copy(state["results"][s]), "chips": list(state["chips"][s]),
                                   **json_copy(state["stats"][s])}})
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
    return rows
