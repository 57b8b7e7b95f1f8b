"""Cards leaving her court: RB p16's grace for leveraged cards ("If Wakhan must discard a
Leveraged card and has no coins, Wakhan does not need to discard cards") and her RB p18 Cleanup
discard order."""

from __future__ import annotations

from collections.abc import Sequence

from .. import ledger
from .. import play as P
from ..cards import NONE, PaxData
from ..cleanup import Cleanup, cleanup, court_limit, hand_limit
from ..state import State


def leverage_grace(data: PaxData, state: State, wakhan: int, cards: Sequence[int]) -> int:
    """Rupees to lend her before ``cards`` leave her court, so that ``play.discard_from_court``
    takes only what she has: RB p16 "If Wakhan must discard a Leveraged card and has no coins,
    Wakhan does not need to discard cards". The rupees repaid go to the bank, so the loan is
    gone with them; the caller adds it to ``state.rupees[wakhan]`` (and takes it back if the
    discard raises), and once it is done ``forgive``s it."""
    leveraged = sum(1 for c in cards if data.icons.index("leverage") in data.court[c].icons)
    return max(0, leveraged * data.numbers.leverage_rupees - state.rupees[wakhan])


def forgive(state: State, wakhan: int, lent: int) -> None:
    """RB p16's grace in the ledger: she repaid only what she had, so the rupees ``lent`` come
    off what she paid to leverage (``ledger.LEVERAGE``)."""
    ledger.record(state, wakhan, ledger.LEVERAGE, paid=-lent)


def discard_wakhan_card(data: PaxData, state: State, wakhan: int, card: int) -> None:
    """Discard ``card`` from her court with RB p8's consequences (``play.discard_from_court``)
    and RB p16's grace for a leveraged card."""
    lent = leverage_grace(data, state, wakhan, [card])
    state.rupees[wakhan] += lent
    P.discard_from_court(data, state, wakhan, card, [])
    forgive(state, wakhan, lent)


def discard_key(data: PaxData, state: State, player: int, card: int) -> tuple[int, ...]:
    """A sort key, lowest discarded first, for RB p18 Cleanup: "discard non-political cards
    first, then non-patriots, then non-leveraged cards, then cards with the most player spies
    more than Wakhan spies, fewest spies, lowest rank, not matching the favored suit, and then
    lowest card number". Reading: "most player spies more than Wakhan spies" = the other
    players' spies less hers, most first."""
    info = data.court[card]
    mine = state.spies[state.spy_at(card, player)]
    total = sum(state.spies[state.spy_at(card, p)] for p in range(state.players))
    return (
        int(info.suit == data.suits.index("political")),
        int(info.patriot != NONE),
        int(data.icons.index("leverage") in info.icons),
        -((total - mine) - mine),
        total,
        info.rank,
        int(info.suit == state.favored),
        info.number,
    )


def cleanup_discards(data: PaxData, state: State, player: int) -> tuple[list[int], list[int]]:
    """Her court and hand discards at cleanup (RB p9 steps one and two, RB p18 order), the
    limits counted again after each discard. Reading: her hand (she plays what she buys, so
    it holds cards only by an event) is discarded in the same order."""
    trial = state.copy()
    court: list[int] = []
    while len(trial.court[player]) > court_limit(data, trial, player):
        card = min(trial.court[player], key=lambda c: discard_key(data, trial, player, c))
        discard_wakhan_card(data, trial, player, card)
        court.append(card)
    hand = sorted(trial.hand[player], key=lambda c: discard_key(data, trial, player, c))
    excess = max(0, len(hand) - hand_limit(data, trial, player))
    return court, hand[:excess]


def wakhan_cleanup(data: PaxData, state: State, player: int) -> Cleanup:
    """``cleanup.cleanup`` for her seat with ``cleanup_discards`` and RB p16's grace for
    leveraged cards (``leverage_grace``); the rest as any player's (RB p9)."""
    court, hand = cleanup_discards(data, state, player)
    lent = leverage_grace(data, state, player, court)
    state.rupees[player] += lent
    try:
        done = cleanup(data, state, player, court, hand)
    except Exception:
        state.rupees[player] -= lent
        raise
    forgive(state, player, lent)
    return done
