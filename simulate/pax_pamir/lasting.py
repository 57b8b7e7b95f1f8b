"""Events that last "until the next Dominance Check is resolved" (RB p10 Event Cards).

``State.lasting`` holds two entries per event card (purchased side, then discarded side): the
player an effect concerns, ``ALL`` for every player, ``INACTIVE`` otherwise. The rules it
changes ask here (``applies``); ``dominance.resolve`` ends them all (``end_all``).
"""

from __future__ import annotations

from .cards import PaxData
from .state import ALL, INACTIVE, State


def amount(data: PaxData, key: str) -> int:
    """The number of the event side ``key`` (cards.yaml ``amount``: Conflict Fatigue's lead of
    2 blocks, the 3 rupees of Backing of Persian Aristocracy)."""
    for event in data.events:
        for effect in (event.purchased, event.discarded):
            if effect.key == key:
                if effect.amount is None:
                    raise ValueError(f"cards.yaml: event side {key!r} needs an amount")
                return effect.amount
    raise ValueError(f"no event side is keyed {key!r}")


def slot(data: PaxData, key: str) -> int:
    """The index in ``State.lasting`` of the event side ``key`` names (cards.yaml ``key``)."""
    at = data.event_slots.get(key)
    if at is None:
        raise ValueError(f"no event side is keyed {key!r}")
    return at


def holder(data: PaxData, state: State, key: str) -> int:
    """Whom the lasting effect ``key`` concerns now: a player, ``ALL``, or ``INACTIVE``."""
    at = slot(data, key)
    return state.lasting[at] if at < len(state.lasting) else INACTIVE


def active(data: PaxData, state: State, key: str) -> bool:
    """Whether the lasting effect ``key`` is in effect (for anyone)."""
    return holder(data, state, key) != INACTIVE


def applies(data: PaxData, state: State, key: str, player: int) -> bool:
    """Whether the lasting effect ``key`` is in effect for ``player`` (theirs, or all's)."""
    who = holder(data, state, key)
    return who == ALL or (who == player and who >= 0)


def start(data: PaxData, state: State, key: str, who: int) -> None:
    """Put the effect ``key`` in effect for ``who`` (a player or ``ALL``) until the next check."""
    at = slot(data, key)
    if at >= len(state.lasting):
        raise ValueError("this state keeps no lasting events (State(..., events=...))")
    state.lasting[at] = who


def cards_held(data: PaxData, state: State) -> list[int]:
    """Event cards purchased with a lasting effect still in effect: "Players who take these
    event cards should place them below their court" or "near the map" (RB p10), in no pile."""
    return [
        event.id
        for i, event in enumerate(data.events)
        if 2 * i < len(state.lasting) and state.lasting[2 * i] != INACTIVE
    ]


def end_all(data: PaxData, state: State) -> None:
    """End every lasting effect: they last "until the next Dominance Check is resolved" (RB
    p10); the purchased cards held for them go to the discard pile, in card order."""
    state.discard += cards_held(data, state)
    state.lasting[:] = [INACTIVE] * len(state.lasting)
