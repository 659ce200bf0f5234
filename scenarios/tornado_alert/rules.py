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

CONTENT, CONTENT_HASH = load_content(Path(__file__).parent / "content", ["deck.json", "deck_2.json"])
VERSION = "3.0.0"
SCHEMA_VERSION = 1
#: The rules edition a game is set up with (RULES.md, "Editions"). Edition 1 is engine 1.0.0
#: (``deck.json``): a race is settled by its opener's deadline, through an action that seat is
#: offered. Edition 2 (``deck_2.json``): the server settles a race at one deadline fixed by its
#: first slap (``due``) and no seat may send ``settle``; places ranked by exposure, safe places
#: never struck; the Game Over card ends the round when it is drawn; the Cheat counts from 2.9 as
#: shown; Tornado Alert! 2 for 3 to 6 players. A game stored without an edition plays edition 1.
#: Edition 3: edition 2's rules and deck with a class reaction allowance by default (``ALLOWANCE``)
#: and a seat's request for more time (``need_time``); edition 2 keeps no allowance by default.
EDITION = 3
EDITIONS = (1, 2, 3)
ROUNDS = 3
#: cards shuffled with the Game Over card and put under the rest of the draw pile (RULES.md)
BOTTOM = 20
CHEAT_THRESHOLD = 2.9
CHEAT_BONUS = 0.6

DECKS = {1: CONTENT["deck"], 2: CONTENT["deck_2"], 3: CONTENT["deck_2"]}
#: the places of the edition new games play (names and safety notes; the same ids in both)
LOCATIONS = {loc["id"]: loc for loc in DECKS[EDITION]["locations"]}
SPECIALS = {sp["id"]: sp for sp in DECKS[EDITION]["specials"]}
#: places no tornado or lightning strikes (edition 2: underground or under water)
SAFE = frozenset(loc["id"] for loc in DECKS[2]["locations"] if loc.get("safe"))


def _build_cards(deck: dict, mark: str) -> dict:
    """Card id -> card. Location cards are ``<place><mark><n>`` (``<mark>t<n>`` for a tornado
    card): ``cellar-3`` in edition 1, ``cellar.3`` in edition 2, so an id means one card in
    every edition; special cards are the same in both."""
    cards = {}
    for loc in deck["locations"]:
        for n in range(1, loc["plain"] + 1):
            cards[f"{loc['id']}{mark}{n}"] = {
                "kind": "location",
                "location": loc["id"],
                "value": loc["value"],
                "tornado": False,
            }
        for n in range(1, loc["tornado"] + 1):
            cards[f"{loc['id']}{mark}t{n}"] = {
                "kind": "location",
                "location": loc["id"],
                "value": loc["value"],
                "tornado": True,
            }
    for sp in deck["specials"]:
        for n in range(1, sp["count"] + 1):
            cid = sp["id"] if sp["count"] == 1 else f"{sp['id']}-{n}"
            cards[cid] = {"kind": sp["id"], "location": None, "value": 0, "tornado": False}
    return cards


_BY_EDITION = {1: _build_cards(DECKS[1], "-"), 2: _build_cards(DECKS[2], ".")}
_BY_EDITION[3] = _BY_EDITION[2]
#: every card of every edition, by id
CARDS = {cid: card for cards in _BY_EDITION.values() for cid, card in cards.items()}
#: each edition's deck, as sorted ids
DECK = {edition: sorted(cards) for edition, cards in _BY_EDITION.items()}
WORDS = frozenset(CARDS)

#: the reaction allowances a class or a seat may have (ms), and edition 3's class default: a
#: student who reacts in 3 s, plus half a second for the tablet and the school network, still
#: slaps within it (RULES.md, "Reaction allowance")
ALLOWANCES = (0, 1500, 3000, 3500, 5000, 7000)
ALLOWANCE = 3500
#: the teacher's one tap, "More time to react", and what a seat's request asks for: twice the class default
MORE_TIME = 7000

OPTIONS = [
    {
        "name": "variant",
        "default": "turns",
        "choices": ["turns", "free"],
        "label": gettext_noop("Variant"),
        "choice_labels": {"turns": gettext_noop("Turns"), "free": gettext_noop("Free")},
        "description": gettext_noop(
            "Turns: play in seat order, as the rule book's main game. Free (Tornado Alert! 2): "
            "no turn order, anyone plays whenever they like (3 to 6 players)."
        ),
    },
    {
        "name": "race_ms",
        "default": 300,
        "choices": [0, 300, 600],
        "label": gettext_noop("Slaps this close together are a tie (milliseconds)"),
        "description": gettext_noop(
            "Slaps aimed at the same pile that reach the server within this window are equal: "
            "a fair draw picks the winner, so the tablet nearest the access point does not always win. "
            "0: the first slap to arrive wins."
        ),
    },
    {
        "name": "bot_reaction_ms",
        "default": 900,
        "choices": [500, 900, 1500],
        "label": gettext_noop("How long a bot takes to slap (milliseconds)"),
        "description": gettext_noop(
            "About how long a bot takes to slap a pile it likes (it varies by up to half either way)."
        ),
    },
    {
        "name": "face_down_value",
        "default": 0,
        "choices": [0, -1],
        "label": gettext_noop("Face-down card value"),
        "description": gettext_noop(
            "The printed rule book says a face-down card is worth 0 in three places and -1 in one."
        ),
    },
    {
        "name": "allowance_ms",
        "default": ALLOWANCE,
        "choices": list(ALLOWANCES),
        "label": gettext_noop("Extra time to react (milliseconds)"),
        "description": gettext_noop(
            "An accommodation for students who react slowly (a screen reader, a switch, a "
            "slower hand): after every change of the pile it waits this long before the next "
            "card, and every slap in that time competes in the fair draw. 0: no allowance. "
            "You can give one student more time from the dashboard."
        ),
    },
    {
        "name": "edition",
        "default": EDITION,
        "choices": None,
        "label": gettext_noop("Rules edition"),
        "description": gettext_noop(
            "The rules edition a game was set up with; 1 replays games stored by engine 1.0.0."
        ),
    },
]
DEFAULTS = {o["name"]: o["default"] for o in OPTIONS}
DECIDE = ("keep", "strike", "use_plus", "use_minus")
#: the refusal of a slap at a pile someone already took, per seat of the one who took it: whole
#: sentences, so the web layer can translate each ("Player 2 was faster.")
FASTER = (
    gettext_noop("Player 1 was faster."),
    gettext_noop("Player 2 was faster."),
    gettext_noop("Player 3 was faster."),
    gettext_noop("Player 4 was faster."),
    gettext_noop("Player 5 was faster."),
    gettext_noop("Player 6 was faster."),
)
#: edition 2, with a race window: a slap that reaches the server after the race was settled
TOO_LATE = (
    gettext_noop("Too late: the pile was taken by Player 1."),
    gettext_noop("Too late: the pile was taken by Player 2."),
    gettext_noop("Too late: the pile was taken by Player 3."),
    gettext_noop("Too late: the pile was taken by Player 4."),
    gettext_noop("Too late: the pile was taken by Player 5."),
    gettext_noop("Too late: the pile was taken by Player 6."),
)


# --- Set-up ---------------------------------------------------------------------------------------


def new_state(seed: int, seats: int, options=None) -> dict:
    given = options or {}
    options = {**DEFAULTS, **given}
    if options["edition"] in EDITIONS and options["edition"] < 3 and "allowance_ms" not in given:
        options["allowance_ms"] = 0  # edition 2 had no allowance unless the teacher chose one
    for o in OPTIONS:
        if options[o["name"]] not in (o["choices"] or EDITIONS):
            raise IllegalAction("bad_option", gettext_noop("That option is not offered."), name=o["name"])
    if not 2 <= seats <= 6:
        raise IllegalAction("bad_seats", gettext_noop("Tornado Alert! is for 2 to 6 players."), seats=seats)
    if options["edition"] > 1 and options["variant"] == "free" and seats < 3:
        options["variant"] = "turns"  # Tornado Alert! 2 is for 3 to 6 players: two play the main game
    state = {
        "seed": seed,
        "options": options,
        "seats": seats,
        "round": 0,
        "phase": "play",
        "ended": False,
        "moves": 0,
        "races": 0,
        "chips": [[0, 0] for _ in range(seats)],  # [plus, minus] chips held
        "results": [[] for _ in range(seats)],  # per round: avg, applied, struck
        "decided": [False] * seats,
        "stats": [
            {
                "takes": 0,
                "cards": 0,
                "value": 0,
                "locations": {},
                "tornado": 0,
                "lightning": 0,
                "rover": 0,
                "races_won": 0,
                "races_lost": 0,
                "slaps_refused": 0,
            }
            for _ in range(seats)
        ],
        "last": [],
    }
    if options["edition"] > 1:
        state["allow"] = [options["allowance_ms"]] * seats  # per seat: the teacher may change one
    if options["edition"] > 2:
        state["asked"] = []  # seats that asked for more time to react, until the teacher answers
    _deal(state)
    return state


def hand_size(seats: int) -> int:
    return 5 if seats == 6 else 6


def _deal(state: dict) -> None:
    """A new round: shuffle, bury the Game Over card in the bottom part, deal the hands."""
    state["round"] += 1
    n = state["round"]
    rest = shuffled([c for c in DECK[edition(state)] if c != "gameover"], state["seed"], "deck", None, n)
    bottom = shuffled(rest[:BOTTOM] + ["gameover"], state["seed"], "bottom", None, n)
    deck = bottom + rest[BOTTOM:]  # the top of the draw pile is the end of the list
    hands = [[] for _ in range(state["seats"])]
    for _ in range(hand_size(state["seats"])):
        for hand in hands:
            hand.append(deck.pop())
    first = draw(state["seed"], "first", None, n) % state["seats"]
    state.update(
        {
            "phase": "play",
            "draw": deck,
            "pile": [],
            "pile_id": 0,
            "hands": hands,
            "stacks": [[] for _ in range(state["seats"])],
            "turn": first,
            "last_player": None,
            "last_taker": None,
            "taken_since_play": False,
            "race": None,
            "passed": [],
            "last_take": None,
            "decided": [False] * state["seats"],
            "gone": [],
        }
    )
    if edition(state) > 1:
        state["hold"] = None


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


def average(stack: list, face_down_value: int, edition: int = 1) -> float:
    """The stack's average as the round's scoring counts it, before chips (cheats included).
    The Cheat counts when the average is 2.9 or more; from edition 2, as it is written down to
    two decimals (2.897 is written 2.90, and counts)."""
    if not stack:
        return 0.0
    total = sum(value(c) if up else face_down_value for c, up in stack)
    avg = total / len(stack)
    if (round(avg, 2) if edition > 1 else avg) >= CHEAT_THRESHOLD:
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
    if state["phase"] != "play" or state["race"] is not None or state.get("hold") or not state["hands"][seat]:
        return False
    return state["options"]["variant"] == "free" or seat == state["turn"]


def edition(state: dict) -> int:
    return state["options"].get("edition", 1)


def due(state: dict) -> dict | None:
    """Edition 2: the server's own step, when one is waiting. A race is settled ``race_ms`` after
    its first slap; ``key`` names the race, so its deadline is set once and kept as others join
    (RULES.md, "Slapping on a school network")."""
    if edition(state) == 1 or state["phase"] != "play":
        return None
    hold = state.get("hold")
    if hold:  # the reaction allowance: every slap until then competes (RULES.md, "Reaction allowance")
        return {
            "key": f"hold-{state['round']}-{hold['pile']}",
            "seconds": hold["ms"] / 1000,
            "action": {"type": "open"},
        }
    if state["race"] is None:
        return None
    return {
        "key": f"race-{state['round']}-{state['races']}",
        "seconds": state["options"]["race_ms"] / 1000,
        "action": {"type": "settle"},
    }


def finished(state: dict) -> bool:
    return state["phase"] == "over"


def to_act(state: dict) -> list[int]:
    """Seats that may act: ``may_play`` or ``may_slap`` (inlined: every move asks); in edition 1
    also the opener of a race, whose deadline settled it."""
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
    opener = in_race[0] if race is not None and edition(state) == 1 else None
    out = []
    for s in range(state["seats"]):
        if s == opener:
            out.append(s)
        elif slappable and s not in in_race and s not in passed and s != taker and s != own:
            out.append(s)
        elif race is None and not state.get("hold") and hands[s] and (free or s == state["turn"]):
            out.append(s)
    return out


def actions(state: dict, seat) -> list[dict]:
    if state["phase"] == "over":
        return []
    if seat is None:
        out = [{"type": "end_now"}]
        if state.get("hold"):
            out.insert(0, {"type": "open"})
        elif state["race"] is not None:
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
    if state["race"] is not None and state["race"]["slaps"][0] == seat and edition(state) == 1:
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
    if kind == "allow" and seat is None:
        events = _allow(state, action)
        # edition 3: an accommodation is not news at the table (what just happened stays)
        return events if edition(state) > 2 else _done(state, events)
    if kind == "need_time" and seat is not None:
        return _need_time(state, seat)
    if kind == "settle" and seat is not None and edition(state) > 1:
        raise IllegalAction("unknown_action", gettext_noop("That is not an action this game knows."))
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
    if kind == "open":
        state["hold"] = None
        events = [{"type": "open", "pile": state["pile_id"]}]
        if state["race"] is not None:
            return _done(state, events + _settle(state))
        _check_stuck(state, events)
        return _done(state, events)
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
        if edition(state) > 1 and state["options"]["race_ms"]:
            raise IllegalAction("too_late", TOO_LATE[taken["seat"]], player=taken["seat"] + 1)
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
            if edition(state) == 1:
                return _settle(state)
            state["race"] = None
            return _take(state, seat, how="first", slaps=[seat])
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
    if edition(state) == 1:
        return events + _take(state, winner)
    # how the pile was won, for the words each tablet shows ("won the draw", "got it")
    return events + _take(state, winner, how="draw" if len(slaps) > 1 else "alone", slaps=list(slaps))


def _take(state: dict, seat: int, how: str | None = None, slaps: list | None = None) -> list:
    pile, stack, me = state["pile"], state["stacks"][seat], state["stats"][seat]
    n = value(pile[-1])
    aimed = state["pile_id"]
    short = len(pile) < n
    group = pile[-n:] if not short else list(pile)
    del pile[len(pile) - len(group) :]
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
    if how is not None:  # edition 2: "draw" (won among several), "alone" or "first" (no window)
        state["last_take"].update(how=how, slaps=slaps)
    state["last_taker"] = seat
    state["taken_since_play"] = True
    state["pile_id"] += 1
    state["passed"] = []
    _hold(state)
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
    drawn = state["draw"].pop() if state["draw"] else None
    if drawn:
        state["hands"][seat].append(drawn)
    events = [{"type": "play", "seat": seat, "card": card}]
    loc = CARDS[card]["location"]
    safe = SAFE if edition(state) > 1 else ()  # edition 2: underground or under water, never struck
    if CARDS[card]["tornado"] and loc not in safe:
        hit = []
        for s, stack in enumerate(state["stacks"]):
            if location_of(stack) == loc:
                top = stack.pop()
                stack.insert(0, [top[0], False])
                _tidy(stack)
                state["stats"][s]["tornado"] += 1
                hit.append(s)
        events.append({"type": "tornado", "location": loc, "hit": hit})
    if loc and below and CARDS[below]["location"] == loc and loc not in safe:
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
    _hold(state)
    if state["options"]["variant"] == "turns":
        for step in range(1, state["seats"] + 1):
            nxt = (seat + step) % state["seats"]
            if state["hands"][nxt]:
                state["turn"] = nxt
                break
    if drawn == "gameover" and edition(state) > 1:  # "wordt gepakt": drawn from the draw pile
        events += _end_round(state, "game_over_drawn", seat)
    else:
        _check_stuck(state, events)
    return events


def _hold(state: dict) -> None:
    """Edition 2, the reaction allowance: after the pile changed, no card may be played until
    the longest allowance of the seats that may slap it has passed (``due`` opens it)."""
    if edition(state) == 1:
        return
    allow = state.get("allow") or [0] * state["seats"]
    pile = state["pile"]
    slappable = state["phase"] == "play" and pile and value(pile[-1]) >= 1
    wait = max((allow[s] for s in range(state["seats"]) if slappable and may_slap(state, s)), default=0)
    state["hold"] = {"pile": state["pile_id"], "ms": wait} if wait else None


def _allow(state: dict, action: dict) -> list:
    """The teacher's accommodation for one seat: its reaction allowance in ms (edition 2)."""
    seat, ms = action.get("seat"), action.get("ms")
    choices = next(o["choices"] for o in OPTIONS if o["name"] == "allowance_ms")
    if (
        edition(state) == 1
        or not isinstance(seat, int)
        or isinstance(seat, bool)
        or not 0 <= seat < state["seats"]
        or ms not in choices
        or edition(state) == 2
        and ms not in (0, 1500, 3000, 5000)  # edition 2's choices
        or isinstance(ms, bool)
    ):
        raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
    state["allow"][seat] = ms
    if seat in state.get("asked", ()):
        state["asked"].remove(seat)  # answered: given more time, or the allowance kept
    return [{"type": "allow", "seat": seat, "ms": ms}]


def _need_time(state: dict, seat: int) -> list:
    """Edition 3: a seat asks the teacher for more time to react; the teacher answers with
    ``allow``. Never offered in ``actions`` (no bot asks), and asking changes no play."""
    if (
        edition(state) < 3
        or not isinstance(seat, int)
        or not 0 <= seat < state["seats"]
        or state["allow"][seat] >= MORE_TIME
    ):
        raise IllegalAction("not_now", gettext_noop("That is not something you can do now."))
    if seat in state["asked"]:
        raise IllegalAction("time_asked", gettext_noop("You have already asked for more time."))
    state["asked"].append(seat)
    return [{"type": "need_time", "seat": seat}]


def _check_stuck(state: dict, events: list) -> None:
    """No cards left to play and nothing to take: the round ends as if Game Over were taken."""
    if state["phase"] == "play" and state["race"] is None and not state.get("hold") and not to_act(state):
        events += _end_round(state, "no_cards")


def _end_round(state: dict, reason: str, seat=None) -> list:
    fdv = state["options"]["face_down_value"]
    events = [{"type": "round_over", "round": state["round"], "reason": reason, "seat": seat}]
    state["race"] = None
    if "hold" in state:
        state["hold"] = None
    for s in range(state["seats"]):
        if (
            state["options"]["variant"] == "free"
            and reason in ("game_over", "game_over_drawn")
            and len(state["hands"][s]) != hand_size(state["seats"])
        ):
            state["chips"][s][1] += 1
            events.append({"type": "hand_penalty", "seat": s})
        state["results"][s].append(
            {
                "round": state["round"],
                "avg": average(state["stacks"][s], fdv, edition(state)),
                "applied": 0,
                "struck": False,
                "cards": len(state["stacks"][s]),
            }
        )
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
    if "hold" in state:
        state["hold"] = None


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
        rows.append(
            {
                "seat": s,
                "score": final(state["results"][s]),
                "rank": None,
                "breakdown": {
                    "rounds": json_copy(state["results"][s]),
                    "chips": list(state["chips"][s]),
                    **json_copy(state["stats"][s]),
                },
            }
        )
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
    return rows
