"""What the other players decide while she acts: bribes they ask of her (RB p11, RB p12),
the cards they repay a leveraged card with (RB p8), the events she buys (RB p10)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..cards import NONE, PaxData
from ..state import State


@dataclass(frozen=True)
class Humans:
    """The other players' choices during her turn; every field optional.

    ``demand(kind, player, asked)``: the rupees ``player`` asks of her for a bribe of ``asked``
    (``kind`` "play", RB p11, or "hostage", RB p12: "Any portion ... can be waived"); default:
    all. ``pay_with(player, card)``: the cards ``player`` discards for a leveraged ``card`` she
    betrays (RB p8); default: their hand, then their court (political cards last, which an
    overthrow may take). ``resolve_event(card)``: resolves an event card she bought (RB p10)
    and returns whether the game is over; default: a Dominance Check is ``dominance.resolve``d,
    another event ``events.resolve``d with ``event_picks``. ``choose(player, kind, options)``: another player's pick in that event
    (``events.choices``); default: the first option.
    """

    demand: Callable[[str, int, int], int] | None = None
    pay_with: Callable[[int, int], Sequence[int]] | None = None
    resolve_event: Callable[[int], bool] | None = None
    choose: Callable[[int, str, Sequence[int]], int] | None = None


def demand_of(humans: Humans, kind: str, player: int, asked: int) -> int:
    """The rupees ``player`` asks of her for a bribe of ``asked`` (``Humans.demand``,
    kept within 0..``asked``; default: all)."""
    if asked <= 0 or humans.demand is None:
        return max(0, asked)
    return min(asked, max(0, humans.demand(kind, player, asked)))


def repayment(
    data: PaxData, state: State, humans: Humans, player: int, card: int, region: int = NONE
) -> list[int]:
    """``player``'s cards for a leveraged card's repayment (RB p8); ``card`` the one
    discarded, or ``region`` the one whose political cards an overthrow discards."""
    if humans.pay_with is not None:
        return list(humans.pay_with(player, card))
    political = data.suits.index("political")
    court = [c for c in state.court[player] if c != card]
    late = [c for c in court if data.court[c].suit == political]
    late = [c for c in late if data.court[c].region != region]
    return state.hand[player] + [c for c in court if data.court[c].suit != political] + late
