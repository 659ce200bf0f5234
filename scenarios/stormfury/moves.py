"""Applying an action: ``apply`` checks it for the seat (or the teacher and the system) and
plays it, raising ``IllegalAction`` before anything changes; one handler per action type, and
the fields and words of each action type that ``canonical`` keeps for the move log.

``Moves`` is the part of the ``Stormfury`` engine class (``rules.py``) that changes the state
for a tap; the turn flow it sets off is in ``turns.py`` and ``storm.py``.
"""

from __future__ import annotations

from ..words import gettext_noop  # marks refusal sentences for the web layer to translate
from .state import _check_cards, _city_name, _counts, _draw_cards, _hand_size, _refuse, _spend
from .tables import (
    CITIES,
    CITY_IDS,
    DRAW,
    FORTIFY_KINDS,
    HAND_LIMIT,
    KINDS,
    NEIGHBOURS,
    OFFERS_PER_TURN,
    RCARDS,
    ROAD_IDS,
    ROADS,
    ROADS_AT,
    ROLE_IDS,
    ROLES,
    SPACE_IDS,
    SPACES,
)


class Moves:
    """Applying actions (a part of the ``Stormfury`` engine class, see ``rules.py``)."""

    def apply(self, state: dict, seat: int | None, action: dict) -> list[dict]:
        """Validate ``action`` for ``seat`` (None: teacher/system), then play it; its events.

        Raises ``IllegalAction`` before any change when the action is not allowed.
        """
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise _refuse("bad_action", gettext_noop("That is not an action this game knows."))
        kind = action["type"]
        if state["phase"] == "over":
            raise _refuse("game_over", gettext_noop("The game is over: the storm has gone."))
        if seat is None:
            handler = self._SYSTEM.get(kind)
            if handler is None:
                raise _refuse("unknown_action", gettext_noop("The teacher cannot do that here."), action=kind)
            events = handler(self, state, action)
        else:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
                raise _refuse("no_such_seat", gettext_noop("There is no such seat at this table."), seat=seat)
            handler = self._PLAYER.get(kind)
            if handler is None:
                raise _refuse("unknown_action", gettext_noop("That is not an action this game knows."), action=kind)
            events = handler(self, state, seat, action)
        state["moves_made"] += 1
        if state["offers"]:
            self._prune_offers(state, events)
        return events

    # roles

    def _pick_role(self, state: dict, seat: int, action: dict) -> list[dict]:
        if state["phase"] != "roles":
            raise _refuse("wrong_phase", gettext_noop("Roles are chosen before the first turn."))
        p = state["players"][seat]
        if p["role"] is not None:
            raise _refuse("role_chosen", gettext_noop("You already have a role."), role=p["role"])
        role = action.get("role")
        if role not in ROLES:
            raise _refuse("no_such_role", gettext_noop("Pick one of the four roles."), role=role)
        if any(q["role"] == role for q in state["players"]):
            raise _refuse(
                "role_taken",
                gettext_noop("Someone at your table is already the %(role_name)s: pick another role."),
                role=role,
                role_name=ROLES[role]["name"],
            )
        city = action.get("city", ROLES[role]["start_city"])
        if city not in CITIES:
            raise _refuse("no_such_city", gettext_noop("Pick a city on the map to start in."), city=city)
        p["role"], p["city"] = role, city
        events = [{"type": "role_picked", "seat": seat, "role": role, "city": city}]
        if all(q["role"] for q in state["players"]):
            self._begin_round(state, events)
        return events

    def _auto_roles(self, state: dict, action: dict) -> list[dict]:
        if state["phase"] != "roles":
            raise _refuse("wrong_phase", gettext_noop("Roles are chosen before the first turn."))
        events: list[dict] = []
        for p in state["players"]:
            if p["role"] is None:
                self._give_role(state, p, events)
        self._begin_round(state, events)
        return events

    def _give_role(self, state: dict, p: dict, events: list) -> None:
        taken = {q["role"] for q in state["players"]}
        role = next(r for r in ROLE_IDS if r not in taken)
        p["role"], p["city"] = role, ROLES[role]["start_city"]
        events.append({"type": "role_picked", "seat": p["seat"], "role": role, "city": p["city"], "auto": True})

    # player phase

    def _active(self, state: dict, seat: int, need: tuple = ("drawn", "played", "more")) -> dict:
        if state["phase"] != "player":
            raise _refuse("wrong_phase", gettext_noop("You can do that only during the Player Phase."))
        p = state["players"][seat]
        status = p["status"]
        if status == "ended":
            raise _refuse("turn_over", gettext_noop("You already ended your turn: wait for the storm."))
        if status == "waiting":
            raise _refuse("not_your_turn", gettext_noop("It is not your turn yet."))
        if status not in need:
            if status == "start":
                raise _refuse("draw_first", gettext_noop("Draw your 2 cards first."))
            if status == "more":
                raise _refuse(
                    "drew_more",
                    gettext_noop("You drew 2 more cards this turn, so you cannot play cards until next turn."),
                )
            if status == "played":
                raise _refuse(
                    "already_played", gettext_noop("You already played cards this turn, so you cannot draw more.")
                )
            raise _refuse("not_now", gettext_noop("You cannot do that now."))
        return p

    def _draw(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("start",))
        return self._take_cards(state, p, action, "drew", "drawn")

    def _draw_more(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn",))
        return self._take_cards(state, p, action, "drew_more", "more")

    def _take_cards(self, state, p, action, event, status) -> list[dict]:
        source = action.get("from", "deck")
        if source == "pile":
            if p["role"] == "relief_corps":
                raise _refuse("own_pile", gettext_noop("The Relief pile is for the other players."))
            n = min(DRAW, len(state["pile"]))
            if n == 0:
                raise _refuse("pile_empty", gettext_noop("The Relief pile is empty: draw from the deck."))
            want = _check_cards(_counts(state["pile"]), action.get("cards"), n)
            for k, c in want.items():
                for _ in range(c):
                    state["pile"].remove(k)
            cards = list(action["cards"]) + _draw_cards(state, DRAW - n)
        elif source == "deck":
            cards = _draw_cards(state, DRAW)
        else:
            raise _refuse("bad_source", gettext_noop("Draw from the deck or the Relief pile."))
        for k in cards:
            p["hand"][k] += 1
        p["status"] = status
        p["drawn"] += len(cards)
        if p["role"] == "relief_corps":
            self._may_pile(p, cards)
        return [{"type": event, "seat": p["seat"], "from": source, "count": len(cards)}]

    def _move(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        to = action.get("to")
        if to not in CITIES:
            raise _refuse("no_such_city", gettext_noop("That is not a city on the map."), city=to)
        if p["moves"] <= 0:
            raise _refuse("no_moves_left", gettext_noop("You already traveled to 2 cities this turn."))
        road = next((rid for rid, other in ROADS_AT[p["city"]] if other == to), None)
        if road is None:
            raise _refuse(
                "no_road",
                gettext_noop("No road goes from %(here)s straight to %(there)s."),
                city=to,
                here=_city_name(p["city"]),
                there=_city_name(to),
            )
        if road in state["flooded"]:
            raise _refuse(
                "road_flooded",
                gettext_noop("The road to %(there)s is flooded: find another way."),
                road=road,
                there=_city_name(to),
            )
        frm = p["city"]
        p["city"] = to
        p["moves"] -= 1
        p["stats"]["moved"] += 1
        return [{"type": "moved", "seat": seat, "from": frm, "to": to, "road": road}]

    def _fortify(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn", "played"))
        kind = action.get("card")
        if kind not in FORTIFY_KINDS:
            raise _refuse("not_a_fortify_card", gettext_noop("Choose a Fortify card."), card=kind)
        if not p["hand"][kind]:
            raise _refuse(
                "missing_card",
                gettext_noop("You don't have a %(card_name)s card."),
                card=kind,
                card_name=RCARDS[kind]["name"],
            )
        sid = action.get("space")
        if sid not in SPACES:
            raise _refuse("no_such_space", gettext_noop("Choose a place in your city."), space=sid)
        if SPACES[sid]["city"] != p["city"]:
            raise _refuse(
                "wrong_city",
                gettext_noop("You are in %(here)s: you can only build there, not in %(there)s."),
                space=sid,
                here=_city_name(p["city"]),
                there=_city_name(SPACES[sid]["city"]),
            )
        if not self._space_open(state, sid):
            if SPACES[sid]["kind"] == "population":
                raise _refuse("nobody_home", gettext_noop("Everyone has already left: nothing to protect."))
            raise _refuse(
                "space_destroyed", gettext_noop("The %(place)s is already destroyed."), place=SPACES[sid]["name"]
            )
        tokens = RCARDS[kind]["tokens"]
        left = self._fortification_chits(state)
        if tokens > left:
            sentence = (
                gettext_noop("Only %(left)s fortification token is left in the box: %(card_name)s needs %(need)s.")
                if left == 1
                else gettext_noop(
                    "Only %(left)s fortification tokens are left in the box: %(card_name)s needs %(need)s."
                )
            )
            raise _refuse("no_chits", sentence, left=left, need=tokens, card_name=RCARDS[kind]["name"])
        pay = self._fortify_payment(p, kind)
        need = RCARDS[kind]["cost"]["material"]
        if pay is None:
            if (
                p["role"] == "architect"
                and p["power_used"]
                and p["hand"]["sandbag"]
                and p["hand"]["material"] >= need - 1
            ):
                raise _refuse(
                    "power_used",
                    gettext_noop("You already used your Architect power this turn: you need %(need)s Material."),
                    need=need,
                )
            raise _refuse(
                "missing_resources",
                gettext_noop("%(card_name)s needs %(need)s Material and you have %(have)s."),
                need=need,
                have=p["hand"]["material"],
                resource="material",
                card_name=RCARDS[kind]["name"],
            )
        _spend(state, p["hand"], {kind: 1, **pay})
        if "sandbag" in pay:
            p["power_used"] = True
        state["fortifications"][sid] += tokens
        p["status"] = "played"
        p["stats"]["fortifications"] += tokens
        p["stats"]["cards_played"] += 1
        return [{"type": "fortified", "seat": seat, "space": sid, "tokens": tokens, "card": kind, "paid": pay}]

    def _dam(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn", "played"))
        rid, end = action.get("road"), action.get("city", p["city"])
        if rid not in ROADS:
            raise _refuse("no_such_road", gettext_noop("Choose a road on the map."), road=rid)
        road = ROADS[rid]
        if end not in (road["a"], road["b"]):
            raise _refuse(
                "wrong_city", gettext_noop("That road does not reach %(there)s."), road=rid, there=_city_name(end)
            )
        if end != p["city"]:
            if p["role"] != "aquatic_engineer":
                raise _refuse(
                    "wrong_city",
                    gettext_noop("You are in %(here)s: you can only dam roads there."),
                    road=rid,
                    city=end,
                    here=_city_name(p["city"]),
                )
            if end not in NEIGHBOURS[p["city"]]:
                raise _refuse(
                    "too_far",
                    gettext_noop("%(there)s is not next to %(here)s."),
                    city=end,
                    there=_city_name(end),
                    here=_city_name(p["city"]),
                )
        if rid in state["flooded"]:
            raise _refuse(
                "road_flooded",
                gettext_noop("The %(road_name)s road is already flooded."),
                road=rid,
                road_name=road["name"],
            )
        if end in state["dams"][rid]:
            raise _refuse(
                "already_dammed",
                gettext_noop("That end of the %(road_name)s road already has a dam."),
                road=rid,
                city=end,
                road_name=road["name"],
            )
        if not p["hand"]["dam"]:
            raise _refuse("missing_card", gettext_noop("You don't have a Dam card."), card="dam")
        if not p["hand"]["sandbag"]:
            raise _refuse(
                "missing_resources",
                gettext_noop("A Dam needs 1 Sandbag and you have none."),
                need=1,
                have=0,
                resource="sandbag",
            )
        _spend(state, p["hand"], {"dam": 1, "sandbag": 1})
        state["dams"][rid].append(end)
        p["status"] = "played"
        p["stats"]["dams"] += 1
        p["stats"]["cards_played"] += 1
        return [{"type": "dammed", "seat": seat, "road": rid, "city": end, "sealed": len(state["dams"][rid]) == 2}]

    def _evacuate(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat, ("drawn", "played"))
        people = action.get("people", 1)
        pop = state["population"][p["city"]]
        if not p["hand"]["evacuate"]:
            raise _refuse("missing_card", gettext_noop("You don't have an Evacuate card."), card="evacuate")
        if pop == 0:
            raise _refuse(
                "nobody_home", gettext_noop("Everyone has already left %(here)s."), here=_city_name(p["city"])
            )
        if not isinstance(people, int) or isinstance(people, bool) or not 1 <= people <= pop:
            raise _refuse(
                "bad_people",
                gettext_noop("You can move 1 to %(most)s people out of %(here)s."),
                most=pop,
                here=_city_name(p["city"]),
            )
        want = _check_cards(p["hand"], action.get("discard"), 2 * people, {"evacuate": 1})
        _spend(state, p["hand"], {"evacuate": 1})
        _spend(state, p["hand"], want)
        state["population"][p["city"]] -= people
        p["status"] = "played"
        p["stats"]["evacuated"] += people
        p["stats"]["cards_played"] += 1
        return [
            {
                "type": "evacuated",
                "seat": seat,
                "city": p["city"],
                "people": people,
                "left": state["population"][p["city"]],
            }
        ]

    def _use_role(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        role = p["role"]
        if role == "evac_specialist":
            if state["population"][p["city"]] == 0:
                raise _refuse(
                    "nobody_home", gettext_noop("Everyone has already left %(here)s."), here=_city_name(p["city"])
                )
            want = _check_cards(p["hand"], action.get("discard"), 2)
            _spend(state, p["hand"], want)
            state["population"][p["city"]] -= 1
            p["stats"]["evacuated"] += 1
            return [
                {
                    "type": "evacuated",
                    "seat": seat,
                    "city": p["city"],
                    "people": 1,
                    "left": state["population"][p["city"]],
                    "power": role,
                }
            ]
        if role == "relief_corps":
            k = action.get("card")
            if k not in RCARDS or not p["hand"][k]:
                raise _refuse("missing_card", gettext_noop("Choose a card from your hand."), card=k)
            if p["to_pile"] <= 0:
                raise _refuse(
                    "power_used",
                    gettext_noop("You can only put cards you drew this turn on the Relief pile, and you already did."),
                )
            if state["options"]["edition"] > 1 and not p["pile_cards"].get(k):
                raise _refuse(
                    "not_drawn",
                    gettext_noop(
                        "You did not draw a %(card_name)s card this turn: "
                        "only cards you drew this turn go on the Relief pile."
                    ),
                    card=k,
                    card_name=RCARDS[k]["name"],
                )
            p["hand"][k] -= 1
            p["to_pile"] -= 1
            if p["pile_cards"].get(k):
                p["pile_cards"][k] -= 1
            state["pile"].append(k)
            return [{"type": "to_relief_pile", "seat": seat, "card": k}]
        raise _refuse(
            "passive_power",
            gettext_noop("The %(role_name)s's power works by itself when you build: there is no button for it."),
            role=role,
            role_name=ROLES[role]["name"],
        )

    def _offer_trade(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        to, give, get = action.get("to"), action.get("give"), action.get("get")
        if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < state["seats"] or to == seat:
            raise _refuse("no_such_player", gettext_noop("Choose another player to trade with."), to=to)
        if give not in RCARDS or get not in RCARDS or give == get:
            raise _refuse("bad_cards", gettext_noop("Choose one card to give and a different one to get."))
        other = state["players"][to]
        if other["city"] != p["city"]:
            raise _refuse(
                "not_same_city",
                gettext_noop("You can only trade with someone in your city: they are in %(there)s."),
                to=to,
                there=_city_name(other["city"]),
            )
        if not p["hand"][give]:
            raise _refuse(
                "missing_card",
                gettext_noop("You don't have a %(card_name)s card."),
                card=give,
                card_name=RCARDS[give]["name"],
            )
        if state["options"]["open_hands"] and not other["hand"][get]:
            raise _refuse(
                "they_lack_card",
                gettext_noop("They don't have a %(card_name)s card."),
                card=get,
                card_name=RCARDS[get]["name"],
            )
        if p["offers_made"] >= OFFERS_PER_TURN:
            raise _refuse(
                "too_many_offers",
                gettext_noop(
                    "%(most)s of your trade offers were not taken this turn: no more offers until your next turn."
                ),
                most=OFFERS_PER_TURN,
            )
        events = []
        for o in [o for o in state["offers"] if o["from"] == seat]:
            state["offers"].remove(o)
            events.append({"type": "offer_withdrawn", "offer": o["id"]})
        offer = {
            "id": state["next_offer"],
            "from": seat,
            "to": to,
            "give": give,
            "get": get,
            "made_at": state["moves_made"],
        }
        state["next_offer"] += 1
        state["offers"].append(offer)
        p["offers_made"] += 1
        return events + [{"type": "offer_made", **offer}]

    def _find_offer(self, state: dict, seat: int, action: dict) -> dict:
        if state["phase"] != "player":
            raise _refuse("wrong_phase", gettext_noop("Trades happen during the Player Phase."))
        oid = action.get("offer")
        o = next((o for o in state["offers"] if o["id"] == oid), None)
        if o is None or o["to"] != seat:
            raise _refuse("no_offer", gettext_noop("That trade offer is gone."), offer=oid)
        return o

    def _accept_trade(self, state: dict, seat: int, action: dict) -> list[dict]:
        o = self._find_offer(state, seat, action)
        a, b = state["players"][o["from"]], state["players"][seat]
        if a["city"] != b["city"]:
            raise _refuse("not_same_city", gettext_noop("You are no longer in the same city."))
        if not b["hand"][o["get"]]:
            raise _refuse(
                "missing_card",
                gettext_noop("You don't have a %(card_name)s card to give."),
                card=o["get"],
                card_name=RCARDS[o["get"]]["name"],
            )
        if not a["hand"][o["give"]]:
            raise _refuse("they_lack_card", gettext_noop("They no longer have that card."), card=o["give"])
        a["hand"][o["give"]] -= 1
        b["hand"][o["give"]] += 1
        b["hand"][o["get"]] -= 1
        a["hand"][o["get"]] += 1
        state["offers"].remove(o)
        if state["options"]["edition"] > 1:
            a["offers_made"] -= 1
        a["stats"]["trades"] += 1
        b["stats"]["trades"] += 1
        return [{"type": "traded", "offer": o["id"], "from": o["from"], "to": seat, "give": o["give"], "get": o["get"]}]

    def _decline_trade(self, state: dict, seat: int, action: dict) -> list[dict]:
        o = self._find_offer(state, seat, action)
        state["offers"].remove(o)
        return [{"type": "offer_declined", "offer": o["id"], "from": o["from"], "to": seat}]

    def _discard(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        k = action.get("card")
        if k not in RCARDS or not p["hand"][k]:
            raise _refuse("missing_card", gettext_noop("Choose a card from your hand."), card=k)
        if _hand_size(p["hand"]) <= HAND_LIMIT:
            raise _refuse("hand_ok", gettext_noop("You may keep %(most)s cards: no need to discard."), most=HAND_LIMIT)
        _spend(state, p["hand"], {k: 1})
        return [{"type": "discarded", "seat": seat, "card": k}]

    def _end_turn(self, state: dict, seat: int, action: dict) -> list[dict]:
        p = self._active(state, seat)
        size = _hand_size(p["hand"])
        if size > HAND_LIMIT:
            raise _refuse(
                "hand_too_big",
                gettext_noop("You have %(have)s cards: discard %(extra)s to keep %(most)s."),
                have=size,
                most=HAND_LIMIT,
                extra=size - HAND_LIMIT,
            )
        events: list[dict] = []
        self._finish_turn(state, p, events)
        return events

    # teacher and system

    def _skip(self, state: dict, action: dict) -> list[dict]:
        seat = action.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
            raise _refuse("no_such_seat", gettext_noop("There is no such seat at this table."), seat=seat)
        p = state["players"][seat]
        events: list[dict] = []
        if state["phase"] == "roles":
            if p["role"] is not None:
                raise _refuse("role_chosen", gettext_noop("That seat already has a role."))
            self._give_role(state, p, events)
            if all(q["role"] for q in state["players"]):
                self._begin_round(state, events)
            return events
        if state["phase"] != "player" or p["status"] in ("ended", "waiting"):
            raise _refuse("nothing_to_skip", gettext_noop("That seat is not playing right now."), seat=seat)
        events.append({"type": "skipped", "seat": seat})
        self._auto_end(state, p, events)
        return events

    def _auto_end(self, state: dict, p: dict, events: list, storm: bool = True) -> None:
        if p["status"] == "start":
            events.extend(self._take_cards(state, p, {"from": "deck"}, "drew", "drawn"))
        while _hand_size(p["hand"]) > HAND_LIMIT:
            k = max(KINDS, key=lambda k: (p["hand"][k], -KINDS.index(k)))
            _spend(state, p["hand"], {k: 1})
            events.append({"type": "discarded", "seat": p["seat"], "card": k, "auto": True})
        self._finish_turn(state, p, events, storm)

    def _storm_moves(self, state: dict, action: dict) -> list[dict]:
        if state["phase"] not in ("player", "storm"):
            raise _refuse("wrong_phase", gettext_noop("The storm moves after the Player Phase."))
        events: list[dict] = []
        if state["phase"] == "player":
            # The teacher's button: everyone still playing ends as if skipped, then one move.
            for p in state["players"]:
                if p["status"] == "waiting":
                    self._start_turn(state, p)
                if p["status"] != "ended":
                    events.append({"type": "skipped", "seat": p["seat"]})
                    self._auto_end(state, p, events, storm=False)
        self._hurricane(state, events)
        return events

    def _end_now(self, state: dict, action: dict) -> list[dict]:
        state["offers"] = []
        self._game_over(state, "ended_now")
        return [{"type": "game_over", "ended": "ended_now", "damage": state["damage"]["total"]}]

    def _prune_offers(self, state: dict, events: list) -> None:
        ttl = state["options"]["trade_expiry"]
        keep = []
        for o in state["offers"]:
            if (
                state["moves_made"] - o["made_at"] > ttl
                or not self._offer_ok(state, o)
                or state["players"][o["from"]]["status"] not in ("drawn", "played", "more")
            ):
                events.append({"type": "offer_expired", "offer": o["id"]})
            else:
                keep.append(o)
        state["offers"] = keep

    _PLAYER = {
        "pick_role": _pick_role,
        "draw": _draw,
        "draw_more": _draw_more,
        "move": _move,
        "fortify": _fortify,
        "dam": _dam,
        "evacuate": _evacuate,
        "use_role": _use_role,
        "offer_trade": _offer_trade,
        "accept_trade": _accept_trade,
        "decline_trade": _decline_trade,
        "discard": _discard,
        "end_turn": _end_turn,
    }
    _SYSTEM = {
        "auto_roles": _auto_roles,
        "skip": _skip,
        "storm_moves": _storm_moves,
        "end_now": _end_now,
    }
    # What an action of each type may carry, and every word its fields may hold: what
    # ``canonical`` keeps of an applied action for the move log.
    ACTION_FIELDS = {
        "pick_role": ("role", "city"),
        "draw": ("from", "cards"),
        "draw_more": ("from", "cards"),
        "move": ("to",),
        "fortify": ("card", "space"),
        "dam": ("road", "city"),
        "evacuate": ("people", "discard"),
        "use_role": ("discard", "card"),
        "offer_trade": ("to", "give", "get"),
        "accept_trade": ("offer",),
        "decline_trade": ("offer",),
        "discard": ("card",),
        "end_turn": (),
        "auto_roles": (),
        "skip": ("seat",),
        "storm_moves": (),
        "end_now": (),
    }
    ACTION_WORDS = frozenset([*ROLE_IDS, *CITY_IDS, *SPACE_IDS, *ROAD_IDS, *KINDS, "deck", "pile"])
