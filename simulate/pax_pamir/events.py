"""Event cards, both sides of the twelve (RB p10 Event Cards, RB p9 Cleanup, cards.yaml).

"The bottom effect is triggered if it is purchased by a player. The top effect is triggered if
the card is automatically discarded during the cleanup phase" (RB p3). The effects' texts are
the data's (cards.yaml ``event_cards``: the rulebook prints none). ``choices`` lists what an
effect needs decided, ``resolve`` applies it with the picks in that order; a call that raises
leaves the state as it was. Effects that last "until the next Dominance Check is resolved"
are recorded in ``State.lasting`` (``lasting.py``) and read where they change the rules;
``dominance.resolve`` ends them. Dominance Checks themselves are ``dominance.resolve``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import lasting, ledger
from .cards import EventCard, EventEffect, PaxData
from .play import Repay, _restore, remove_tribes
from .state import ALL, EMPTY, State

Choice = tuple[int, str, tuple[int, ...]]  # (decider player, kind word, legal options)

# The data's number for Backing of Persian Aristocracy: "take 3 rupees from the bank".
RIOTS = "riots_in_"  # the riots' keys: riots_in_<region> (cards.yaml event_cards)


def event(data: PaxData, card: int) -> EventCard:
    """The event card ``card`` (not a court card nor a Dominance Check), RB p3."""
    first = data.events[0].id
    if not first <= card < first + len(data.events):
        raise ValueError(f"card {card} is not an event card (Dominance Checks: dominance.py)")
    return data.events[card - first]


def side(data: PaxData, card: int, purchased: bool) -> EventEffect:
    """The effect that applies: "The bottom effect is triggered if it is purchased by a player.
    The top effect is triggered if the card is automatically discarded" (RB p3)."""
    e = event(data, card)
    return e.purchased if purchased else e.discarded


def turn_order(state: State, player: int) -> list[int]:
    """Every player, clockwise from ``player`` (RB p9: "play continues clockwise")."""
    return [(player + k) % state.players for k in range(state.players)]


def riot_region(data: PaxData, key: str) -> int:
    """The region a riot strikes: ``riots_in_<region>`` (cards.yaml event_cards)."""
    return data.regions.index(key[len(RIOTS) :])


def _political_of(data: PaxData, state: State, player: int, region: int) -> list[int]:
    political = data.suits.index("political")
    return [
        c
        for c in state.court[player]
        if data.court[c].region == region and data.court[c].suit == political
    ]


def _repay_choices(
    data: PaxData, state: State, order: list[int], region: int, made: Sequence[int]
) -> list[Choice]:
    """The cards named for leverage a riot's Overthrow cannot repay in rupees (RB p8: "For each
    rupee you cannot return, you must discard one card from your hand or court (not including
    this card, of course)"): one choice per rupee short, hand cards first, each pick once.
    Reading: a card so named that brings its own RB p8 payment is not foreseen here."""
    leverage = data.icons.index("leverage")
    out: list[Choice] = []
    for p in order:
        if state.tribes[state.tribe_at(region, p)] == 0:
            continue  # only "if you lose your last tribe in a region"
        lost = _political_of(data, state, p, region)
        leveraged = [c for c in lost if leverage in data.court[c].icons]
        owed = data.numbers.leverage_rupees * len(leveraged)
        short = max(0, owed - state.rupees[p])
        pool = [c for c in (*state.hand[p], *state.court[p]) if c not in lost]
        picked: list[int] = []
        for _ in range(short):
            options = tuple(c for c in pool if c not in picked)
            if not options:
                break  # "If you have no cards left, no further payment is required."
            if len(made) > len(out):
                picked.append(made[len(out)])
            out.append((p, "repay", options))
    return out


def choices(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    purchased: bool,
    picks: Sequence[int] = (),
    repay: Callable[[int], Repay] | None = None,
) -> list[Choice]:
    """The choices ``card``'s effect needs, in order: ``(decider, kind, options)``; ``player``
    is the buyer, or the active player for a discarded event. A choice whose options depend on
    an earlier pick (Rebuke's repayments follow its region) is listed once ``picks`` holds that
    pick: ask ``choices(..., picks=made)`` until it lists no more than ``len(made)``; with
    ``repay`` (player -> a chooser, asked while the effect resolves) none is listed. Empty for
    a Dominance Check (``dominance.resolve``) and for effects that need nothing."""
    if card in data.dominance_checks:
        return []
    key = side(data, card, purchased).key
    order = turn_order(state, player)
    others = tuple(order[1:])
    if key == "rumor":  # "one other player, chosen by the buyer"
        return [(player, "rumor_target", others)] if others else []
    if key == "pashtunwali_values":  # "buyer picks the favored suit"
        return [(player, "favored_suit", tuple(range(len(data.suits))))]
    if key == "other_persuasive_methods":  # "the buyer and one other player swap whole hands"
        return [(player, "swap_with", others)] if others else []
    if key == "confidence_failure":  # "every player with cards in hand discards one"
        return [(p, "discard", tuple(state.hand[p])) for p in order if state.hand[p]]
    if key == "rebuke":  # "one region of the buyer's choice"
        out: list[Choice] = [(player, "region", tuple(range(len(data.regions))))]
        if not picks or repay is not None:
            return out
        return out + _repay_choices(data, state, order, picks[0], picks[1:])
    if key.startswith(RIOTS):
        if repay is not None:
            return []
        return _repay_choices(data, state, order, riot_region(data, key), picks)
    return []


def _strike(
    data: PaxData, state: State, order: list[int], region: int, repay: dict[int, list[int]]
) -> None:
    """Riots and Rebuke: "remove all tribes and armies in" ``region``; blocks to their supply,
    cylinders to their owner's (RB p2), and for each player who loses their last tribe there
    The Overthrow Rule (RB p8), repaid from ``repay`` (player -> cards)."""
    for c in range(len(state.blocks)):
        at = state.army_at(region, c)
        state.blocks[c] += state.armies[at]
        state.armies[at] = 0
    for p in order:
        n = state.tribes[state.tribe_at(region, p)]
        remove_tribes(data, state, p, region, n, repay.setdefault(p, []))


def _set_favored(data: PaxData, state: State, suit: str) -> None:
    """ "favored suit becomes" ``suit``, unless Pashtunwali Values holds it: "no card icon or
    event changes it until the next check" (cards.yaml)."""
    if not lasting.active(data, state, "pashtunwali_values"):
        state.favored = data.suits.index(suit)


def resolve(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    purchased: bool,
    picks: Sequence[int],
    repay: Callable[[int], Repay] | None = None,
) -> None:
    """Apply ``card``'s effect (RB p10: events "are resolved the moment they are bought"; RB p9:
    a discarded one affects "all players"), the ``picks`` in ``choices``' order. ``player``: the
    buyer, or the active player for a discarded event.

    The card: a purchased one (just bought: ``market.buy`` leaves it in no pile) with a
    lasting effect is "below their court" or "near the map" until the next check (RB p10,
    ``State.lasting``), any other to the discard pile at once; a discarded one is in the
    discard pile already (``cleanup.discard_events``) and stays there. Repayments (kind
    ``repay``) left unnamed at the end of ``picks`` take the first option, hand cards first;
    with ``repay`` (player -> chooser, as ``choices`` was given) they are asked as they fall due.
    """
    if card in data.dominance_checks:
        raise ValueError("a Dominance Check is resolved with dominance.resolve (RB p15)")
    effect = side(data, card, purchased)
    if purchased and effect.key == "public_withdrawal":
        raise ValueError("Public Withdrawal 'cannot be purchased' (cards.yaml event_cards)")
    if purchased and (card in state.discard or card in state.market or card in state.deck):
        raise ValueError(f"event {card} was not just purchased: it is in a pile or the market")
    if purchased and card in lasting.cards_held(data, state):
        raise ValueError(f"event {card} is already in effect")
    if not purchased and card not in state.discard:
        raise ValueError(f"event {card} must be discarded first (cleanup.discard_events)")
    picks = list(picks)
    wanted = choices(data, state, player, card, purchased, picks, repay)
    while len(picks) < len(wanted) and wanted[len(picks)][1] == "repay":
        picks.append(wanted[len(picks)][2][0])  # reading: an unnamed repayment, the first
        wanted = choices(data, state, player, card, purchased, picks, repay)
    if len(picks) != len(wanted):
        raise ValueError(f"{effect.name} needs {len(wanted)} picks, not {len(picks)}")
    for pick, (who, kind, options) in zip(picks, wanted, strict=True):
        if pick not in options:
            raise ValueError(f"{pick} is not a legal {kind} for player {who}: {options}")
    backup = state.copy()
    try:
        _apply(data, state, player, card, effect, picks, wanted, repay)
    except Exception:
        _restore(state, backup)
        raise


def _apply(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    effect: EventEffect,
    picks: list[int],
    wanted: list[Choice],
    chooser: Callable[[int], Repay] | None = None,
) -> None:
    """The effect itself, its picks checked (cards.yaml ``event_cards`` quoted)."""
    key = effect.key
    order = turn_order(state, player)
    repay: dict[int, Any] = {}
    if chooser is not None:
        repay = {p: chooser(p) for p in order}
    for pick, (who, kind, _) in zip(picks, wanted, strict=True):
        if kind == "repay":
            repay.setdefault(who, []).append(pick)
    concerns = ALL if effect.scope == "all" else player
    if key in ("military", "intelligence", "political"):  # "favored suit becomes ..."
        _set_favored(data, state, key)
    elif key == "rumor":  # "that player's patriots give no influence"
        concerns = picks[0] if picks else EMPTY
    elif key == "failure_to_impress":  # "every player discards all loyalty prizes"
        for p in order:
            state.discard += state.prizes[p]
            state.prizes[p] = []
    elif key.startswith(RIOTS):  # "remove all tribes and armies in <region>"
        _strike(data, state, order, riot_region(data, key), repay)
    elif key == "rebuke":  # "remove all tribes and armies in one region of the buyer's choice"
        _strike(data, state, order, picks[0], repay)
    elif key == "backing_of_persian_aristocracy":  # "take 3 rupees from the bank"
        state.rupees[player] += lasting.amount(data, key)  # cards.yaml: 3
        ledger.record(state, player, ledger.EVENT, gained=lasting.amount(data, key))
    elif key == "other_persuasive_methods":  # "swap whole hands (either may be empty)"
        if picks:
            other = picks[0]
            state.hand[player], state.hand[other] = state.hand[other], state.hand[player]
    elif key == "confidence_failure":  # "every player with cards in hand discards one"
        for pick, (who, _, _) in zip(picks, wanted, strict=True):
            state.hand[who].remove(pick)
            state.discard.append(pick)
    elif key == "pashtunwali_values":  # "buyer picks the favored suit"
        state.favored = picks[0]
    if effect.until_dc and concerns != EMPTY:
        lasting.start(data, state, key, concerns)
    elif effect is event(data, card).purchased:
        state.discard.append(card)
