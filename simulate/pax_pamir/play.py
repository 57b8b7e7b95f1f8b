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

from collections.abc import Callable, Sequence

from . import lasting, ledger
from .cards import NONE, PaxData
from .state import State

LEFT, RIGHT = 0, 1  # the end of the court a played card joins (RB p11)

# RB p8 Component Limits, quoted where a placement takes a unit from play.
COMPONENT_LIMIT = (
    "RB p8 Component Limits: 'If asked to place a unit and none remain in the supply, you must "
    "take a piece of the required shape/color from anywhere in play, excluding any pieces "
    "placed this turn. In taking and placing a piece this way, you may convert one type of "
    "unit to another.'"
)

# The kinds of unit, and the tables of ``State`` they lie in (``location``): blocks (armies,
# roads) by coalition, cylinders (tribes, spies, gifts) by player (RB p2).
ARMY_UNIT, ROAD_UNIT, TRIBE_UNIT, SPY_UNIT, GIFT_UNIT = range(5)
BLOCKS, CYLINDERS = (ARMY_UNIT, ROAD_UNIT), (TRIBE_UNIT, SPY_UNIT, GIFT_UNIT)

# The player's choice of a card to discard for a rupee a leveraged card's discard cannot repay
# (RB p8): given the cards of hand and court it may name, it returns one. Wherever cards are
# named for it (``pay_with``), a list (taken from the front) or such a chooser may be given.
Repay = Callable[[tuple[int, ...]], int]
PayWith = list[int] | Repay


def payer(pay_with: Sequence[int] | Repay | None) -> PayWith:
    """A fresh list of the cards named in ``pay_with``, or the chooser itself."""
    if pay_with is None:
        return []
    return pay_with if callable(pay_with) else list(pay_with)


# The player's choice of the unit taken from play: given the legal sources (location codes),
# it returns one of them.
TakeFrom = Callable[[tuple[int, ...]], int]


def _tables(state: State) -> tuple[list[int], ...]:
    return state.armies, state.roads, state.tribes, state.spies, state.gifts


def location(state: State, kind: int, index: int) -> int:
    """The location code of a unit of ``kind`` at ``index`` of its table (``army_at``,
    ``road_at``, ``tribe_at``, ``spy_at``, or the player for a gift): the tables end to end."""
    tables = _tables(state)
    if not 0 <= index < len(tables[kind]):
        raise ValueError(f"no place {index} for a unit of kind {kind}")
    offset = 0
    for table in tables[:kind]:
        offset += len(table)
    return offset + index


def unlocate(state: State, code: int) -> tuple[int, int]:
    """``(kind, index)`` of a location code (``location``'s inverse)."""
    rest = code
    for kind, table in enumerate(_tables(state)):
        if 0 <= rest < len(table):
            return kind, rest
        rest -= len(table)
    raise ValueError(f"no location has code {code}")


def _owner_at(state: State, kind: int, index: int) -> int:
    """The coalition of a block, the player of a cylinder, at ``index`` of its table."""
    if kind == GIFT_UNIT:
        return index
    width = len(state.blocks) if kind in BLOCKS else state.players
    return index % width


def unit_sources(state: State, kind: int, owner: int, destination: int = -1) -> tuple[int, ...]:
    """The locations a unit of ``kind`` owed to ``owner`` (a coalition for a block, a player for
    a cylinder) may be taken from when the supply has none (RB p8 Component Limits): "a piece
    of the required shape/color from anywhere in play, excluding any pieces placed this turn
    ... you may convert one type of unit to another". Reading: a location qualifies while it
    holds more such units than were placed there this turn (``State.placed_units``); the
    ``destination`` itself is no source (a unit taken to where it was is no placement)."""
    kinds = BLOCKS if kind in BLOCKS else CYLINDERS
    out = []
    for k in kinds:
        table = _tables(state)[k]
        for index, count in enumerate(table):
            if count == 0 or _owner_at(state, k, index) != owner:
                continue
            code = location(state, k, index)
            if code != destination and count > state.placed_units.count(code):
                out.append(code)
    return tuple(out)


def placeable(state: State, kind: int, owner: int) -> int:
    """How many units of ``kind`` ``owner`` can still place this turn: the supply and the units
    in play not placed this turn (RB p8 Component Limits)."""
    supply = state.blocks[owner] if kind in BLOCKS else state.cylinders[owner]
    kinds = BLOCKS if kind in BLOCKS else CYLINDERS
    taken = 0
    for k in kinds:
        for index, count in enumerate(_tables(state)[k]):
            if count and _owner_at(state, k, index) == owner:
                code = location(state, k, index)
                taken += max(0, count - state.placed_units.count(code))
    return supply + taken


def place_unit(
    data: PaxData,
    state: State,
    kind: int,
    owner: int,
    index: int,
    take_from: TakeFrom | None = None,
    pay_with: PayWith | None = None,
) -> bool:
    """Place one unit of ``kind`` at ``index`` of its table from ``owner``'s supply (a
    coalition's blocks, a player's cylinders), else from play (RB p8 Component Limits, quoted
    in ``COMPONENT_LIMIT``): ``take_from`` picks among ``unit_sources`` (default: the first).
    Reading: with no unit anywhere to take, the placement does not happen (False). A tribe
    taken from play may be its region's last: the Overthrow Rule follows (``pay_with``)."""
    table = _tables(state)[kind]
    destination = location(state, kind, index)
    supply = state.blocks if kind in BLOCKS else state.cylinders
    source = -1
    if supply[owner] > 0:
        supply[owner] -= 1
    else:
        sources = unit_sources(state, kind, owner, destination)
        if not sources:
            return False
        source = (take_from or _first)(sources)
        if source not in sources:
            raise ValueError(f"location {source} is not one of the sources {sources}")
        k, i = unlocate(state, source)
        _tables(state)[k][i] -= 1
    table[index] += 1
    state.placed_units.append(destination)
    if source >= 0:
        k, i = unlocate(state, source)
        if k == TRIBE_UNIT and state.tribes[i] == 0:
            region = i // state.players
            overthrow_tribeless(data, state, owner, region, payer(pay_with))
    return True


def _first(sources: tuple[int, ...]) -> int:
    return sources[0]


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


def overthrow_tribeless(
    data: PaxData, state: State, player: int, region: int, pay_with: PayWith
) -> None:
    """RB p8 The Overthrow Rule: "if you lose your last tribe in a region, you must immediately
    discard all political cards associated with that region from your court" (each a court
    discard, ``discard_from_court``, leverage repaid from ``pay_with``)."""
    if state.tribes[state.tribe_at(region, player)]:
        return
    political = data.suits.index("political")
    for card in list(state.court[player]):
        info = data.court[card]
        if card in state.court[player] and info.region == region and info.suit == political:
            discard_from_court(data, state, player, card, pay_with)


def remove_tribes(
    data: PaxData, state: State, player: int, region: int, n: int, pay_with: PayWith
) -> None:
    """Remove ``n`` of ``player``'s tribes in ``region`` to their supply (RB p2), with the
    Overthrow Rule when the last one goes (``overthrow_tribeless``, RB p8)."""
    at = state.tribe_at(region, player)
    if not 0 <= n <= state.tribes[at]:
        raise ValueError(f"player {player} has fewer than {n} tribes in region {region}")
    if n == 0:
        return
    state.tribes[at] -= n
    state.cylinders[player] += n
    overthrow_tribeless(data, state, player, region, pay_with)


def discard_from_court(
    data: PaxData, state: State, player: int, card: int, pay_with: PayWith
) -> None:
    """Discard ``card`` from ``player``'s court with what RB p8 says always follows: "Any spies
    on the card are lost and returned to their owner's supply", two rupees repaid for a
    leveraged card, the Overthrow Rule.

    RB p8: "For each rupee you cannot return, you must discard one card from your hand or court
    (not including this card, of course). If you have no cards left, no further payment is
    required." The cards are taken from the front of ``pay_with`` (a ValueError if it runs out),
    or ``pay_with`` chooses each among the cards of hand and court (``Repay``).
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
        ledger.record(state, player, ledger.LEVERAGE, paid=paid)
        for _ in range(owed - paid):
            if not state.hand[player] and not state.court[player]:
                break
            if callable(pay_with):
                options = (*state.hand[player], *state.court[player])
                other = pay_with(options)
                if other not in options:
                    raise ValueError(f"card {other} is not one of {options}")
            elif not pay_with:
                raise ValueError(f"player {player} cannot repay a leveraged card: name a card")
            else:
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
    pay_with: PayWith | None = None,
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


def _check_choices(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    side: int,
    roads: Sequence[int],
    spies: Sequence[int] | Callable[[tuple[int, ...]], int],
) -> None:
    """Reject an illegal play before anything moves (a chooser of spies is asked later)."""
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
    if callable(spies):
        return
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
    spies: Sequence[int] | Callable[[tuple[int, ...]], int] = (),
    pay_with: Sequence[int] | Repay = (),
    take_from: TakeFrom | None = None,
) -> None:
    """Play ``card`` from ``player``'s hand to the ``side`` end of their court (RB p11 Play).

    Order, RB p11: the card joins the court; "If the card is a patriot that does not match your
    loyalty, discard all of your patriots and prizes, and remove any gifts. Then adjust your
    loyalty dial"; then "resolve each impact icon ... from top to bottom" (``CourtCard.icons``).
    ``spies``: a court card for each spy icon, in printed order (``spy_options``; the played
    card itself is one once in court), or a chooser asked as each spy icon resolves with the
    cards it may take then (a loyalty change may have discarded some). A unit the supply lacks is taken from play, where
    ``take_from`` says (RB p8 Component Limits, ``place_unit``); under Pashtunwali Values no
    suit icon moves the favored suit ("no card icon or event changes it", cards.yaml).
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
        _play(
            data,
            state,
            player,
            card,
            side,
            change,
            list(roads),
            spies if callable(spies) else list(spies),
            payer(pay_with),
            take_from,
        )
    except Exception:
        if backup is not None:
            _restore(state, backup)
        raise


def play_keeping_loyalty(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    side: int,
    roads: Sequence[int] = (),
    spies: Sequence[int] = (),
    take_from: TakeFrom | None = None,
) -> None:
    """``play`` with no loyalty change, a foreign patriot included: for Wakhan, who "can hold
    loyalty prizes and patriots belonging to different coalitions" (RB p16). Checked as
    ``play``; the state restored if a step raises."""
    _check_choices(data, state, player, card, side, roads, spies)
    backup = state.copy()
    try:
        _play(data, state, player, card, side, False, list(roads), list(spies), [], take_from)
    except Exception:
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
    spies: list[int] | Callable[[tuple[int, ...]], int],
    pay_with: PayWith,
    take_from: TakeFrom | None = None,
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
            at = state.army_at(region, coalition)
            place_unit(data, state, ARMY_UNIT, coalition, at, take_from, pay_with)
        elif name == "road":  # "... on any border of this region. This piece is now a road."
            at = state.road_at(roads.pop(0), coalition)
            place_unit(data, state, ROAD_UNIT, coalition, at, take_from, pay_with)
        elif name == "tribe":  # "Place one of your cylinders in this region."
            at = state.tribe_at(region, player)
            place_unit(data, state, TRIBE_UNIT, player, at, take_from, pay_with)
        elif name == "leverage":  # "Take two rupees from the bank. This card is leveraged."
            state.rupees[player] += data.numbers.leverage_rupees
            ledger.record(state, player, ledger.LEVERAGE, gained=data.numbers.leverage_rupees)
        elif name == "spy":  # "Place one of your cylinders on a card in any player's court
            # that matches the played card's region. This piece is now a spy."
            if callable(spies):
                cards = tuple(spy_options(data, state, region))
                if not cards:  # reading: the played card itself went to repay leverage
                    continue
                target = spies(cards)
            else:
                target = spies.pop(0)
            if target not in spy_options(data, state, region):
                raise ValueError(f"card {target} is no longer a court card of the region")
            at = state.spy_at(target, player)
            place_unit(data, state, SPY_UNIT, player, at, take_from, pay_with)
        elif data.icon_suit[icon] != NONE:  # "Move the favored suit marker to the suit indicated."
            if not lasting.active(data, state, "pashtunwali_values"):
                state.favored = data.icon_suit[icon]
        else:
            raise ValueError(f"impact icon {name!r} has no rule here")
