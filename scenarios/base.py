"""The engine contract every scenario satisfies, and the pieces engines share.

Nothing here (or in any scenario's engine modules) imports Django: engines are pure rules that
take a seed and actions and return events, so they can be replayed, simulated and tested alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from .words import english, gettext_noop  # marks refusal sentences for the web layer to translate

try:  # the same result several times faster; engines also run where it is not installed
    import orjson
except ImportError:  # pragma: no cover
    orjson = None  # type: ignore[assignment]

State = Any


class IllegalAction(Exception):
    """A refused action: ``code`` and ``params`` let the web layer translate the message.

    ``message`` is a default English sentence a student can read. The engine raises it before
    touching the state, so a refused action never changes anything.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        filled = english(message, params)
        super().__init__(filled)
        self.code = code
        self.template = message  # marked with gettext_noop: the web layer translates this, then fills it
        self.message = filled
        self.params = params

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "params": self.params}


def canonical(action: Any, fields: Mapping[str, tuple[str, ...]], words: frozenset) -> dict:
    """The action as an engine knows it, to be stored in place of what a device sent: its
    ``type`` and that type's ``fields`` in their order, holding numbers, booleans and the engine's
    own ``words`` (ids of places, cards, roles, answers) or lists of them, and nothing else.

    Raises IllegalAction for an unknown type or field, or any other text, so no free text from a
    device reaches a move log or an export. Call it after ``apply`` accepted the action."""
    kind = action.get("type") if isinstance(action, dict) else None
    known = fields.get(kind) if isinstance(kind, str) else None
    if known is None:
        raise IllegalAction("unknown_action", gettext_noop("That is not an action this game knows."))
    if any(key != "type" and key not in known for key in action):
        raise IllegalAction("unknown_field", gettext_noop("That action carries something this game does not know."))
    out = {"type": kind}
    for key in known:
        if key in action:
            out[key] = _known(action[key], words, depth=0)
    return out


def _known(value: Any, words: frozenset, depth: int) -> Any:
    if isinstance(value, str):
        if value not in words:
            raise IllegalAction("unknown_word", gettext_noop("That action names something this game does not know."))
        return value
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, list) and depth < 2:
        return [_known(item, words, depth + 1) for item in value]
    raise IllegalAction("unknown_value", gettext_noop("That action carries something this game does not know."))


class Engine(Protocol):
    key: str
    version: str

    def setup(self, seed: int, seats: int, options: Mapping | None = None) -> State: ...
    def to_act(self, state: State) -> list[int]: ...
    def actions(self, state: State, seat: int) -> list[dict]: ...
    def apply(self, state: State, seat: int | None, action: dict) -> list[dict]: ...
    def board(self) -> dict: ...
    def view(self, state: State, seat: int | None) -> dict: ...
    def finished(self, state: State) -> bool: ...
    def results(self, state: State) -> list[dict]: ...
    def dump(self, state: State) -> dict: ...
    def load(self, data: dict) -> State: ...
    # The action as applied, to store: ``canonical(action, fields, words)`` with the engine's own
    # fields per action type and its words (raises IllegalAction for anything else).
    def canonical(self, action: dict) -> dict: ...

    # Optional: an engine with both lets a move send tablemates whose own view did not change
    # only the ``others`` part of it (the other seats' progress), which the device puts in place
    # of the ``others`` part of the view it holds, whole. ``own(before, seat) == own(after, seat)``
    # must mean the seat's view differs at most in ``view["others"]``, which always equals
    # ``others(state, seat)``; ``before`` is the stored state (``dump``'s output) from before
    # the move.
    # def own(self, state: State, seat: int): ...
    # def others(self, state: State, seat: int): ...
    # Optional: a real-time engine times its own seats. ``pace(state, seat, bot, default)``
    # returns the seconds until that seat's deadline (counted from this move; None: no deadline)
    # given the platform's ``default`` (a bot's step, the turn timer, or None); at the deadline
    # the seat's bot (or the policy bot standing in) acts through the one submit path.
    # def pace(self, state: State, seat: int, bot: bool, default: float | None) -> float | None: ...
    # Optional: a real-time engine's own clock. ``due(state)`` names the step the system (seat
    # None) takes next, or None: ``{"key": str, "seconds": float, "action": dict}``. The deadline
    # is set ``seconds`` after ``key`` first appears and kept while the same ``key`` stays due
    # (others' moves do not move it); when no seat may act it is due at once, unless the step
    # says ``"hold": True`` (a class timer: a table whose players are done still waits for the
    # class step or its time). The step is played through the one submit path as the system,
    # named by its key, so it happens once.
    # def due(self, state: State) -> dict | None: ...
    # Optional: ``aimed(action)`` is True for an action that names what it was aimed at (a slap
    # names its pile) and that ``apply`` judges by that alone: the platform then does not refuse
    # it as chosen on a stale view when something else in the seat's view changed.
    # def aimed(self, action: dict) -> bool: ...
    # Optional: a turn of several moves. ``turn(state, seat)`` names the seat's current turn (any
    # JSON-like value, e.g. the round and phase); when an idle student's timer runs out, the
    # stand-in bot plays while the seat may act and its turn has the same name, so one timeout
    # ends the whole turn. Without it each move is a turn of its own.
    # def turn(self, state: State, seat: int): ...
    # Optional: ``seat_open(state, seat)`` says whether a seat still has a game to play (a
    # household that has arrived has not); a student joining late takes over only such a bot's
    # seat. Without it, every seat of an unfinished game is open.
    # def seat_open(self, state: State, seat: int) -> bool: ...

    # The projector's class view of one table (``projector_line`` gives its shape): the table's
    # progress in the game's own terms, what its storm is doing, and its latest moments worth a
    # cheer, from the teacher's ``view`` (``view(state, None)``). Ids and numbers only: each
    # ``unit``, storm ``kind`` and cheer ``kind`` names a sentence of ``projector_words``, marked
    # with ``gettext_noop`` and filled with the line's numbers (and ``who``, a seat's shown name)
    # in the teacher's language where it is shown.
    projector_words: Mapping[str, str]

    def projector(self, view: dict) -> dict: ...


class EngineBasics:
    """What every engine class would otherwise write again: ``options`` hands out copies of the
    class's ``OPTIONS``, ``canonical`` keeps what ``ACTION_FIELDS`` and ``ACTION_WORDS`` allow of
    an action, ``dump`` and ``load`` copy the JSON-ready state. An engine whose state schema has
    changed overrides ``load`` to upgrade old states."""

    OPTIONS: list[dict] = []
    ACTION_FIELDS: Mapping[str, tuple[str, ...]] = {}
    ACTION_WORDS: frozenset = frozenset()

    def options(self) -> list[dict]:
        """The teacher's form: each option's name, default, choices and description."""
        return [dict(o) for o in self.OPTIONS]

    def canonical(self, action: dict) -> dict:
        """The applied ``action`` as it is stored: its known fields only (IllegalAction otherwise)."""
        return canonical(action, self.ACTION_FIELDS, self.ACTION_WORDS)

    def dump(self, state: State) -> dict:
        """A JSON-ready copy of the state."""
        return json_copy(state)

    def load(self, data: dict) -> State:
        """The state from ``dump``'s output."""
        return json_copy(data)


# --- The projector's class view ----------------------------------------------------------------
# Every engine's ``projector(view)`` returns ``projector_line(...)``: ids and numbers on the wire,
# words at the edge. A cheer's ``key`` stays the same while the view shows the same moment, so a
# screen that keeps a short feed of them shows each once.


def projector_line(
    unit: str, done: int, of: int, *, percent: float | None = None, storm: dict | None = None, cheers=(), **numbers
) -> dict:
    """A table on the projector: ``done`` of ``of`` ``unit`` (a key of ``projector_words``, e.g.
    "round", filled with ``done``, ``of`` and ``numbers``), its storm (``storm_line``) or None,
    and its moments (``cheer``), newest last. ``percent`` says how far its game is (0 to 100;
    ``done`` of ``of`` unless told)."""
    of = max(1, int(of))
    done = max(0, min(int(done), of))
    share = 100 * done / of if percent is None else percent
    return {
        "unit": unit,
        "done": done,
        "of": of,
        "percent": max(0, min(100, round(share))),
        "numbers": dict(numbers),
        "storm": storm,
        "cheers": list(cheers),
    }


def storm_line(kind: str, **numbers) -> dict:
    """What a table's storm is doing: ``kind`` names a sentence of ``projector_words``."""
    return {"kind": kind, **numbers}


def cheer(key: str, kind: str, seat: int | None = None, *, deaths: bool = False, **numbers) -> dict:
    """A moment worth a cheer: ``kind`` names a sentence of ``projector_words`` (``who`` is the
    ``seat``'s shown name); ``key`` names the moment, the same for as long as the view shows it;
    ``deaths`` marks one that speaks of lives lost, which a Gentle class never sees."""
    return {"key": key, "kind": kind, "seat": seat, "deaths": deaths, **numbers}


def projected(line: dict | None, gentle: bool) -> dict | None:
    """``line`` as a class may see it: for a Gentle class (``scenarios.audience``), without the
    moments that speak of lives lost. Returns a new dict; ``line`` is not changed."""
    if line is None:
        return None
    storm = line.get("storm")
    if gentle and storm and storm.get("deaths"):
        storm = None
    return {**line, "storm": storm, "cheers": [c for c in line.get("cheers", ()) if not (gentle and c.get("deaths"))]}


# --- Counter-based random streams -------------------------------------------------------------
# A value is a hash of (seed, purpose, seat, n). Each purpose and seat has its own counter in the
# state, so changing one seat's decision never reshuffles anyone else's dice or cards, and the
# numbers do not depend on Python's `random` module staying stable across versions.


def draw(seed: int, purpose: str, seat: int | None, n: int) -> int:
    """The ``n``-th 64-bit value of the stream ``(seed, purpose, seat)``."""
    key = f"{seed}:{purpose}:{seat}:{n}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


def roll(seed: int, purpose: str, seat: int | None, n: int, sides: int = 10) -> int:
    """A die of ``sides`` faces from the stream, 1..sides (a d10's 0 counts as 10)."""
    return draw(seed, purpose, seat, n) % sides + 1


def shuffled(items: list, seed: int, purpose: str, seat: int | None, n: int) -> list:
    """A deterministic permutation of ``items``: sort by each item's hashed key."""
    return [
        item
        for _, item in sorted(
            ((draw(seed, f"{purpose}/{n}", seat, i), item) for i, item in enumerate(items)),
            key=lambda pair: pair[0],
        )
    ]


# --- States are plain JSON ---------------------------------------------------------------------


def json_copy(value):
    """A deep copy of plain JSON data, as ``json.loads(json.dumps(value))`` gives it (tuples
    become lists, keys become strings). Every move loads and dumps its game's state once."""
    if orjson is not None:
        try:
            return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
        except TypeError:  # integers beyond 64 bits, or a value orjson will not take
            pass
    return json.loads(json.dumps(value))


# --- Content ----------------------------------------------------------------------------------


def load_content(folder: Path, names: list[str]) -> tuple[dict[str, Any], str]:
    """Read JSON content files and return them with a short hash of their exact bytes.

    The hash is stored with every game, so a game can tell which content it was set up with.
    """
    digest = hashlib.sha256()
    content = {}
    for name in names:
        raw = (folder / name).read_bytes()
        digest.update(name.encode() + b"\0" + raw)
        content[name.rsplit(".", 1)[0]] = json.loads(raw)
    return content, digest.hexdigest()[:16]


def rules_fingerprint(content: Any, words: frozenset[str]) -> str:
    """A short hash of content without its words (the fields named in ``words``, at any depth).

    Words (titles, card texts, real-world bases and their sources) may be corrected in place;
    everything else decides how a game plays, so a change to it is a new content version.
    Pinning this fingerprint in a test makes an in-place change to the rules fail loudly.
    """

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in words}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    raw = json.dumps(strip(content), sort_keys=True, ensure_ascii=False).encode()
    return hashlib.sha256(raw).hexdigest()[:16]


def play_out(
    engine: Engine,
    state: State,
    choose: Callable[[State, int], dict],
    *,
    unblock: Callable[[State], dict] | None = None,
    until: Callable[[State], bool] | None = None,
    first_seat: bool = False,
    max_moves: int = 20_000,
) -> list[tuple]:
    """Play ``state`` to its end, in place: each seat that may act, in ``to_act``'s order, takes
    ``choose(state, seat)``; when no seat may act, the system takes ``unblock(state)`` (a class
    step such as a held storm, or ``end_now``). With ``first_seat`` only the first seat of
    ``to_act`` moves before ``to_act`` is asked again, so a seat plays on until another comes
    before it. ``until(state)``, asked before every move, stops the game early where it stands.
    Returns the log of ``(seat, action)``; raises ``RuntimeError`` if the game has not ended after
    ``max_moves``. The one bot loop: the platform's policy yardstick, the engines' tests and the
    harnesses play games with it."""
    log: list[tuple] = []

    def over() -> bool:
        return engine.finished(state) or (until is not None and until(state))

    while not over():
        if len(log) >= max_moves:
            raise RuntimeError(f"the game did not end in {max_moves} moves")
        seats = engine.to_act(state)
        if not seats:
            if unblock is None:
                raise RuntimeError("no seat may act and nothing unblocks the game")
            action = unblock(state)
            engine.apply(state, None, action)
            log.append((None, action))
            continue
        for seat in seats[:1] if first_seat else seats:
            if over():
                break
            if seat not in engine.to_act(state):  # a tablemate's move took its turn away
                continue
            action = choose(state, seat)
            engine.apply(state, seat, action)
            log.append((seat, action))
    return log


# --- What a game rewards ---------------------------------------------------------------------------


def seatings_of_two(careful: str, reckless: str) -> list[tuple]:
    """The six ways to seat two players of each habit at a 4-seat table."""
    from itertools import permutations

    return sorted(set(permutations([careful, careful, reckless, reckless])))


def tally_head_to_head(played, careful: str, reckless: str) -> dict:
    """First places and result rows by habit over ``played``, each game as (the habit of each
    seat, the engine's results). A game is decided when the top score is held by one habit
    only; ``first`` counts the decided games each habit won."""
    first = {careful: 0, reckless: 0}
    rows: dict[str, list] = {careful: [], reckless: []}
    games = 0
    for kinds, results in played:
        games += 1
        for row in results:
            rows[kinds[row["seat"]]].append(row)
        top = max(row["score"] for row in results)
        winners = {kinds[row["seat"]] for row in results if row["score"] == top}
        if len(winners) == 1:
            first[winners.pop()] += 1
    decided = first[careful] + first[reckless]
    return {
        "games": games,
        "decided": decided,
        "first": first,
        "first_share": first[careful] / decided if decided else 0.0,
        "rows": rows,
    }
