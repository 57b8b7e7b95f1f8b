"""Playing a court card from the hand (RB p11 Play), with the loyalty change a foreign patriot
makes (RB p7 Loyalty), as pure functions over ``State`` (they change it in place).

The bribe to the card region's ruler (RB p11) is settled by the caller before ``play``
(``ruling.bribe``, ``pay_bribe``). Choices the engine cannot make alone are arguments, one per
icon in printed order: ``roads`` (a border id per road icon, from ``road_options``) and
``spies`` (a court card id per spy icon, from ``spy_options``); ``pay_with`` names the cards
discarded for rupees a leveraged card's discard cannot repay (RB p8). A play that raises leaves
the state as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import NONE, PaxData
from .state import State

LEFT, RIGHT = 0, 1  # the end of the court a played card joins (RB p11)

# RB p8 Component Limits, quoted where the engine stops.
COMPONENT_LIMIT = (
    "RB p8 Component Limits: 'If asked to place a unit and none remain in the supply, you must "
    "take a piece of the required shape/color from anywhere in play, excluding any pieces "
    "placed this turn.' State does not record which pieces were placed this turn."
)


def road_options(data: PaxData, card: int) -> tuple[int, ...]:
    """Borders a road icon may take: "any border of this region" (RB p11)."""
    return data.region_borders[data.court[card].region]


def spy_options(data: PaxData, state: State, region: int) -> list[int]:
    """Court cards a spy icon may take: "a card in any player's court that matches the played
    card's region" (RB p11), by player then left to right; the played card once in court."""
    return [c for court in state.court for c in court if data.court[c].region == region]


def _icon(data: PaxData, name: str) -> int:
    return data.icons.index(name)


def _restore(state: State, backup: State) -> None:
    """Put every field of ``backup`` back into ``state``."""
    for name in State.__slots__:
        setattr(state, name, getattr(backup, name))


def overthrow(data: PaxData, state: State, player: int, region: int) -> None:
    """RB p8 The Overthrow Rule: "If you lose the last political card in your court associated
    with a region, you must immediately remove all of your tribes in that region"."""
    political = data.suits.index("political")
    if any(
        data.court[c].region == region and data.court[c].suit == political
        for c in state.court[player]
    ):
        return
    at = state.tribe_at(region, player)
    state.cylinders[player] += state.tribes[at]
    state.tribes[at] = 0


def discard_from_court(
    data: PaxData, state: State, player: int, card: int, pay_with: list[int]
) -> None:
    """Discard ``card`` from ``player``'s court with what RB p8 says always follows: "Any spies
    on the card are lost and returned to their owner's supply", two rupees repaid for a
    leveraged card, the Overthrow Rule.

    RB p8: "For each rupee you cannot return, you must discard one card from your hand or court
    (not including this card, of course). If you have no cards left, no further payment is
    required." The cards are taken from the front of ``pay_with`` (a ValueError if it runs out).
    """
    state.court[player].remove(card)
    state.discard.append(card)
    for owner in range(state.players):  # the spies go home (RB p8)
        at = state.spy_at(card, owner)
        state.cylinders[owner] += state.spies[at]
        state.spies[at] = 0
    info = data.court[card]
    if _icon(data, "leverage") in info.icons:
        owed = data.numbers.leverage_rupees
        paid = min(owed, state.rupees[player])
        state.rupees[player] -= paid
        for _ in range(owed - paid):
            if not state.hand[player] and not state.court[player]:
                break
            if not pay_with:
                raise ValueError(f"player {player} cannot repay a leveraged card: name a card")
            other = pay_with.pop(0)
            if other in state.hand[player]:
                state.hand[player].remove(other)
                state.discard.append(other)
            elif other in state.court[player]:
                discard_from_court(data, state, player, other, pay_with)
            else:
                raise ValueError(f"card {other} is in neither hand nor court of player {player}")
    if info.suit == data.suits.index("political"):
        overthrow(data, state, player, info.region)


def change_loyalty(
    data: PaxData,
    state: State,
    player: int,
    coalition: int,
    keep: int = NONE,
    pay_with: list[int] | None = None,
) -> None:
    """Change ``player``'s loyalty to ``coalition`` (RB p7 Loyalty): "first return your gifts to
    your supply and discard any prizes and patriots you had previously accumulated. Finally,
    adjust your loyalty dial". ``keep``: the patriot just played, not "previously accumulated".
    """
    pay = [] if pay_with is None else pay_with
    state.cylinders[player] += state.gifts[player]
    state.gifts[player] = 0
    state.discard += state.prizes[player]
    state.prizes[player] = []
    for card in list(state.court[player]):
        if card != keep and card in state.court[player] and data.court[card].patriot != NONE:
            discard_from_court(data, state, player, card, pay)
    state.loyalty[player] = coalition


def _place_block(state: State, coalition: int, index: int, table: list[int]) -> None:
    """One block of ``coalition`` from the supply onto ``table[index]`` (RB p11, p8)."""
    if state.blocks[coalition] == 0:
        raise NotImplementedError(COMPONENT_LIMIT)
    state.blocks[coalition] -= 1
    table[index] += 1


def _check_choices(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    side: int,
    roads: Sequence[int],
    spies: Sequence[int],
) -> None:
    """Reject an illegal play before anything moves."""
    if card not in state.hand[player] or card >= len(data.court):
        raise ValueError(f"card {card} is not a court card in player {player}'s hand")
    if side not in (LEFT, RIGHT):
        raise ValueError("side must be LEFT or RIGHT")
    icons = data.court[card].icons
    wanted = icons.count(_icon(data, "road"))
    if len(roads) != wanted:
        raise ValueError(f"card {card} has {wanted} road icons, {len(roads)} borders given")
    borders = road_options(data, card)
    for border in roads:
        if border not in borders:
            raise ValueError(f"border {border} is not a border of the card's region")
    wanted = icons.count(_icon(data, "spy"))
    if len(spies) != wanted:
        raise ValueError(f"card {card} has {wanted} spy icons, {len(spies)} court cards given")
    region = data.court[card].region
    targets = {*spy_options(data, state, region), card}  # the played card, once in court
    for target in spies:
        if target not in targets:
            raise ValueError(f"card {target} is not a court card of the played card's region")


def play(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    side: int,
    roads: Sequence[int] = (),
    spies: Sequence[int] = (),
    pay_with: Sequence[int] = (),
) -> None:
    """Play ``card`` from ``player``'s hand to the ``side`` end of their court (RB p11 Play).

    Order, RB p11: the card joins the court; "If the card is a patriot that does not match your
    loyalty, discard all of your patriots and prizes, and remove any gifts. Then adjust your
    loyalty dial"; then "resolve each impact icon ... from top to bottom" (``CourtCard.icons``).
    ``spies``: a court card for each spy icon, in printed order (``spy_options``; the played
    card itself is one once in court).
    """
    _check_choices(data, state, player, card, side, roads, spies)
    info = data.court[card]
    change = info.patriot != NONE and info.patriot != state.loyalty[player]
    blocks = sum(i in (_icon(data, "army"), _icon(data, "road")) for i in info.icons)
    tribes = info.icons.count(_icon(data, "tribe")) + info.icons.count(_icon(data, "spy"))
    coalition = info.patriot if change else state.loyalty[player]
    risky = change or state.blocks[coalition] < blocks or state.cylinders[player] < tribes
    backup = state.copy() if risky else None
    try:
        _play(data, state, player, card, side, change, list(roads), list(spies), list(pay_with))
    except Exception:
        if backup is not None:
            _restore(state, backup)
        raise


def _play(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    side: int,
    change: bool,
    roads: list[int],
    spies: list[int],
    pay_with: list[int],
) -> None:
    """The steps of ``play`` once its choices are checked."""
    info = data.court[card]
    state.hand[player].remove(card)
    # RB p11: "The played card may be added to either the left or right end of your court."
    if side == LEFT:
        state.court[player].insert(0, card)
    else:
        state.court[player].append(card)
    if change:
        change_loyalty(data, state, player, info.patriot, keep=card, pay_with=pay_with)
    coalition = state.loyalty[player]
    region = info.region
    for icon in info.icons:
        name = data.icons[icon]
        if name == "army":  # "Place one coalition block of your loyalty in this region."
            _place_block(state, coalition, state.army_at(region, coalition), state.armies)
        elif name == "road":  # "... on any border of this region. This piece is now a road."
            border = roads.pop(0)
            _place_block(state, coalition, state.road_at(border, coalition), state.roads)
        elif name == "tribe":  # "Place one of your cylinders in this region."
            if state.cylinders[player] == 0:
                raise NotImplementedError(COMPONENT_LIMIT)
            state.cylinders[player] -= 1
            state.tribes[state.tribe_at(region, player)] += 1
        elif name == "leverage":  # "Take two rupees from the bank. This card is leveraged."
            state.rupees[player] += data.numbers.leverage_rupees
        elif name == "spy":  # "Place one of your cylinders on a card in any player's court
            # that matches the played card's region. This piece is now a spy."
            target = spies.pop(0)
            if target not in spy_options(data, state, region):
                raise ValueError(f"card {target} is no longer a court card of the region")
            if state.cylinders[player] == 0:
                raise NotImplementedError(COMPONENT_LIMIT)
            state.cylinders[player] -= 1
            state.spies[state.spy_at(target, player)] += 1
        elif data.icon_suit[icon] != NONE:  # "Move the favored suit marker to the suit indicated."
            state.favored = data.icon_suit[icon]
        else:
            raise ValueError(f"impact icon {name!r} has no rule here")
