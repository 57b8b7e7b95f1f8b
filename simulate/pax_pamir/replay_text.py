"""A Pax Pamir decision's pick in words, for traces (``vsim replay --trace``): card, region,
border, seat and suit names instead of option codes (``options.py``)."""

from __future__ import annotations

from typing import Any

from . import options as O
from .cards import PaxData


def card_name(data: PaxData, card: int) -> str:
    """A card's printed name; an event by its purchased side, a check as such."""
    if 0 <= card < len(data.court):
        return data.court[card].name
    if card in data.check_ids:
        return "Dominance Check"
    for event in data.events:
        if event.id == card:
            return f"{event.purchased.name} / {event.discarded.name}"
    return f"card {card}"


def border_name(data: PaxData, border: int) -> str:
    a, b = data.borders[border]
    return f"{data.regions[a]}-{data.regions[b]}"


def describe(data: PaxData, state: Any, seats: tuple[str, ...], kind: str, pick: int) -> str:
    """``pick`` of a ``kind`` decision in words, read against ``state`` (the position when
    it was asked: a market space names the card lying there)."""
    if pick == O.STOP:
        return "stop"
    if kind == "action":
        verb, arg = O.verb_of(pick), O.arg_of(pick)
        if verb == O.PASS:
            return "pass"
        if verb == O.BUY:
            row, column = divmod(arg, state.columns)
            where = f"{'top' if row == 0 else 'bottom'} row, column {column + 1}"
            return f"buy {card_name(data, state.market[arg])} ({where})"
        if verb == O.PLAY:
            return f"play {card_name(data, arg)}"
        return f"{data.actions[verb - O.FIRST_ACTION]} with {card_name(data, arg)}"
    if kind == "loyalty":
        return data.coalitions[pick]
    if kind in ("favored_suit",):
        return data.suits[pick]
    if kind in ("region", "battle_site") and pick < O.CARD_SITE:
        return data.regions[pick]
    if kind == "battle_site":
        return f"on {card_name(data, pick - O.CARD_SITE)}"
    if kind == "road":
        return border_name(data, pick)
    if kind in ("spy", "betray", "court_discard", "hand_discard", "repay", "discard",
                "blackmail", "safe_house"):  # fmt: skip
        return card_name(data, pick)
    if kind in ("rumor_target", "swap_with"):
        return seats[pick]
    if kind == "tax":
        return seats[pick - O.PLAYER_CODE] if pick >= O.PLAYER_CODE else "a market card"
    if kind in ("build", "infrastructure"):
        if pick >= O.ROAD_CODE:
            return f"road {border_name(data, pick - O.ROAD_CODE)}"
        return f"army {data.regions[pick]}"
    if kind == "move":
        kind_, src, dst = O.decode_step(pick)
        if pick >= O.SPY_MOVE:
            return f"spy {card_name(data, src)} -> {card_name(data, dst)}"
        unit = "tribe" if pick >= O.TRIBE_MOVE else "army"
        return f"{unit} {data.regions[src]} -> {data.regions[dst]}"
    if kind == "battle":
        if pick < O.ROAD_UNIT:
            return f"{data.coalitions[pick]} army"
        if pick < O.TRIBE_UNIT:
            border, c = divmod(pick - O.ROAD_UNIT, 4)
            return f"{data.coalitions[c]} road {border_name(data, border)}"
        if pick < O.SPY_UNIT:
            return f"{seats[pick - O.TRIBE_UNIT]} tribe"
        return f"{seats[pick - O.SPY_UNIT]} spy"
    if kind in ("prize",) or kind.endswith("_pay"):
        return "yes" if pick else "no"
    if kind == "side":
        return "left" if pick == 0 else "right"
    return str(pick)
