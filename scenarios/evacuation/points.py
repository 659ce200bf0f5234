"""Scoring: points, safety and the ranking of the households."""

from __future__ import annotations

from .state import final_system
from .tables import BOOK, CLOCK_POINTS, DESTINATIONS, HALF_TANK, HOME, MONEY, RACE_FACTOR

# --- Scoring -----------------------------------------------------------------------------------


def _arrival_points(state):
    order = BOOK["time_points"]["order"]
    arrived = sorted((s["arrived_at"], s["seat"]) for s in state["seats"] if s["status"] == "arrived")
    points, i = {}, 0
    while i < len(arrived):
        j = i
        while j < len(arrived) and arrived[j][0] == arrived[i][0]:
            j += 1
        share = round(sum(order[k] if k < len(order) else 0 for k in range(i, j)) / (j - i), 2)
        for k in range(i, j):
            points[arrived[k][1]] = share
        i = j
    return points


def results(state):
    """Per seat: points and safety side by side. Valid once finished; provisional before."""
    opts = state["options"]
    system = final_system(state)
    dest_points = BOOK["destination_points"][opts["destination_points"]]
    order_points = _arrival_points(state)
    half_tank_on = opts.get("half_tank", "off") == "on"  # a state stored before it: off
    rows = []
    for s in state["seats"]:
        arrived = s["status"] == "arrived"
        dest = s["destination"] if arrived else None
        accommodation = DESTINATIONS[dest]["cost"] if dest else 0
        if s["friends"]:
            accommodation //= 2
        die = s["damage_roll"]
        damage = 0
        if die is not None:
            reduce = MONEY["secured_reduction"] if s["secured"] else 0
            damage = max(0, die - reduce) * MONEY["damage_per_pip"]
        fuel_value = s["fuel"] * system["fuel_price"]
        supply_value = s["supplies"] * system["supply_price"]
        savings = s["withdrawn"] if opts["bank_scoring"] == "net" else 0
        total_cash = s["cash"] - savings + fuel_value + supply_value - damage - accommodation
        cash_points = total_cash / 100
        destination_points = dest_points[dest] if dest else 0
        in_time = BOOK["time_points"]["in_time"] if arrived else 0
        if opts.get("race_points") == "clock":  # by the clock, not by the other households
            order = next((p for minute, p in CLOCK_POINTS if arrived and s["arrived_at"] <= minute), 0)
        else:
            order = round(order_points.get(s["seat"], 0) * RACE_FACTOR[opts.get("race_points", "on")], 2)
        # Rules edition 2: a car that arrives with at least half a tank can move on if the storm turns,
        # when the stations near it are dry or without power (fact ``half-tank``)
        half_tank = HALF_TANK[1] if half_tank_on and arrived and s["fuel"] >= HALF_TANK[0] else 0
        score = round(cash_points + destination_points + in_time + order + half_tank, 2)
        rows.append(
            {
                "seat": s["seat"],
                "score": score,
                "rank": None,
                "breakdown": {
                    "points": {
                        "cash": round(cash_points, 2),
                        "destination": destination_points,
                        "in_time": in_time,
                        "arrival_order": order,
                        **({"half_tank": half_tank} if half_tank_on else {}),
                        "total": score,
                    },
                    "cash": {
                        "on_hand": s["cash"],
                        "bank_savings_not_scored": savings,
                        "fuel_value": fuel_value,
                        "supply_value": supply_value,
                        "home_damage": damage,
                        "damage_roll": die,
                        "accommodation": accommodation,
                        "total": total_cash,
                    },
                    "safety": {
                        "arrived_in_time": arrived,
                        "home_secured": s["secured"],
                        "supplies": s["supplies"],
                        "supplies_short_on_arrival": s["short"],
                        "fuel": s["fuel"],
                        "destination": dest or "none",
                        "outcome": _outcome(s),
                        "arrived_hour": None if s["arrived_at"] is None else s["arrived_at"] / 60,
                        "sent_home_by_card": s["card_home"],
                        "friends": s["friends"],
                    },
                },
            }
        )
    for row in rows:
        row["rank"] = 1 + sum(1 for other in rows if other["score"] > row["score"])
    return rows


def _outcome(s):
    status = s["status"]
    if status == "arrived":
        return "evacuated"
    if status == "stayed" or (s["pos"] == HOME and not s["left_home"]):
        return "stayed home"
    if status == "stopped":
        return "game ended early"
    return "caught on the road"
