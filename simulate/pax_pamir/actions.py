"""Card-based actions (RB p12-13): tax, gift and build, with the frame RB p12 gives them all.

The frame (RB p12 Card-Based Actions): the acting card is in the actor's court and shows the
action; "Each card can only be used for one action once per turn"; an action of a card of the
favored suit is a bonus action ("do not count against your turn's two-action limit"); a card
held hostage needs a bribe first; the action's cost goes onto the market's rightmost cards.
The turn's bookkeeping is a ``Turn`` the caller keeps (``new_turn``), not a ``State`` field.

Who rules a region (RB p7) is not decided here: the caller passes ``ruled``, the regions the
actor rules (``ruling.py`` computes them). Choices are explicit arguments. A call that raises
leaves ``state`` and ``turn`` as they were: everything is checked before anything moves.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from . import lasting, ledger
from .cards import PaxData
from .cleanup import stars
from .market import keeps_rupees
from .play import (
    ARMY_UNIT,
    GIFT_UNIT,
    ROAD_UNIT,
    Repay,
    TakeFrom,
    _restore,
    location,
    payer,
    place_unit,
    placeable,
    unit_sources,
)
from .state import EMPTY, State


class Turn:
    """The active player's actions this turn (RB p9: "up to two actions"; RB p12)."""

    __slots__ = ("actions_left", "used")

    def __init__(self, actions_left: int) -> None:
        self.actions_left = actions_left  # actions that count against the limit, left
        self.used: list[int] = []  # cards used for an action this turn (RB p12)


def new_turn(data: PaxData) -> Turn:
    """A fresh turn: "the active player performs up to two actions" (RB p9 Sequence of Play)."""
    return Turn(data.numbers.actions_per_turn)


def _has_ability(data: PaxData, state: State, player: int, name: str) -> bool:
    """Whether a card with special ability ``name`` is in ``player``'s court (RB p8)."""
    return not data.ability_sets[name].isdisjoint(state.court[player])


def is_bonus(data: PaxData, state: State, card: int) -> bool:
    """RB p12 Bonus Actions: "Actions on cards matching the favored suit do not count against
    your turn's two-action limit"; Savvy Operator and Irregulars "always count as the favored
    suit" (cards.yaml special_abilities); under New Tactics the buyer's "military court cards
    count as favored (bonus actions)" (cards.yaml event_cards, RB p8 Card Precedence)."""
    if data.court[card].suit == state.favored:
        return True
    if card in data.always_favored:
        return True
    if data.court[card].suit == data.military:
        owner = next((p for p in range(state.players) if card in state.court[p]), -1)
        return owner >= 0 and lasting.applies(data, state, "new_tactics", owner)
    return False


def refuses_bribes(data: PaxData, state: State, player: int) -> bool:
    """Whether ``player`` owes no bribe now, to play a card or to use a hostage card: under
    Courtly Manners, the buyer "may refuse to pay any bribe (to play a card or to use a hostage
    card) and act anyway"; under Disregard for Customs "no bribes are paid by anyone"
    (cards.yaml event_cards, until the next Dominance Check)."""
    return lasting.applies(data, state, "courtly_manners", player) or lasting.active(
        data, state, "disregard_for_customs"
    )


def hostage_holder(state: State, card: int, owner: int) -> int:
    """RB p12 Hostage Actions: "a single enemy player must have more spies on the card than
    each other player" (the owner included); that player's id, else -1."""
    counts = [state.spies[state.spy_at(card, p)] for p in range(state.players)]
    best = max(counts)
    holders = [p for p, n in enumerate(counts) if n == best]
    if best == 0 or len(holders) != 1 or holders[0] == owner:
        return -1
    return holders[0]


def hostage_bribe(data: PaxData, state: State, player: int, card: int) -> int:
    """RB p12: "a bribe equal to the number of hostage-holding spies on the card"; none with
    Civil Service Reforms ("you never pay hostage bribes", cards.yaml special_abilities), nor
    under Courtly Manners or Disregard for Customs (``refuses_bribes``)."""
    holder = hostage_holder(state, card, player)
    if holder < 0 or _has_ability(data, state, player, "civil_service_reforms"):
        return 0
    if refuses_bribes(data, state, player):
        return 0
    return state.spies[state.spy_at(card, holder)]


def cost_spaces(state: State, amount: int) -> list[int]:
    """The market spaces that take an action's cost, in order (RB p12 Action Costs): "rupees
    equal to the cost should be placed on the rightmost market cards of both rows, with a single
    rupee being paid to each card. If a market slot is vacant, skip that vacancy and pay the
    next market card(s) in the row." Reading: column by column from the right, the top row
    first; a row without cards left, the other goes on; fewer cards than ``amount``: the rest
    are "taken out of the game" (the list is shorter)."""
    rows = [
        [
            state.space(r, c)
            for c in reversed(range(state.columns))
            if state.market[state.space(r, c)] != EMPTY
        ]
        for r in range(state.rows)
    ]
    order = [row[i] for i in range(state.columns) for row in rows if i < len(row)]
    return order[:amount]


def pay_action_cost(
    state: State,
    player: int,
    amount: int,
    data: PaxData | None = None,
    source: int = ledger.OTHER,
) -> None:
    """Pay ``amount`` rupees of ``player`` to the market (RB p12 Action Costs). "Reminder: if
    you place a rupee on a market card for any reason, you may not purchase that card this
    turn": each card paid joins ``state.placed``. Excess rupees leave the game, and with
    ``data`` so does a rupee paid to Public Withdrawal (``market.keeps_rupees``). The ledger
    records them paid to ``source``, the action's (``ledger.GIFT``, ``BUILD``, ``BETRAY``)."""
    if state.rupees[player] < amount:
        raise ValueError(f"player {player} cannot pay {amount} rupees")
    state.rupees[player] -= amount
    ledger.record(state, player, source, paid=amount)
    for space in cost_spaces(state, amount):
        card = state.market[space]
        if data is None or keeps_rupees(data, card):
            state.market_rupees[space] += 1
        if card not in state.placed:
            state.placed.append(card)


def check_frame(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    action: str,
    cost: int,
    waived: int,
) -> int:
    """Check the RB p12 frame for ``card``'s ``action``; return the hostage bribe owed."""
    if card >= len(data.court) or card not in state.court[player]:
        raise ValueError(f"card {card} is not in player {player}'s court")
    if data.actions.index(action) not in data.court[card].actions:
        raise ValueError(f"card {card} has no {action} action")
    if card in turn.used:  # RB p12 "can only be used for one action once per turn"
        raise ValueError(f"card {card} was already used for an action this turn")
    if not is_bonus(data, state, card) and turn.actions_left <= 0:
        raise ValueError("no action left this turn (RB p9: up to two actions)")
    bribe = max(0, hostage_bribe(data, state, player, card) - max(0, waived))
    if state.rupees[player] < bribe + cost:
        raise ValueError(f"player {player} cannot pay a bribe of {bribe} and a cost of {cost}")
    return bribe


def open_action(
    data: PaxData, state: State, turn: Turn, player: int, card: int, bribe: int
) -> None:
    """Spend the action and the card, and pay the hostage bribe (RB p12)."""
    if bribe:
        holder = hostage_holder(state, card, player)
        state.rupees[player] -= bribe
        state.rupees[holder] += bribe
        ledger.record(state, player, ledger.BRIBE, paid=bribe)
        ledger.record(state, holder, ledger.BRIBE, gained=bribe)
    turn.used.append(card)
    if not is_bonus(data, state, card):
        turn.actions_left -= 1


_check_frame = check_frame  # the former private names (``military`` imports them)
_open = open_action


def tax_shelter(data: PaxData, state: State, player: int) -> int:
    """RB p13 Tax Shelter: "The total number of gold stars in your court indicates the amount
    of rupees you can shelter": the ranks of the economic cards in the court (RB p6)."""
    return stars(data, state, player, "economic")


def taxable(data: PaxData, state: State, player: int, ruled: Collection[int]) -> list[int]:
    """Players ``player`` may tax (RB p13 Tax): "players with at least one court card
    associated with a region you rule"; with Claim of Ancient Lineage "treat yourself as ruler
    of every region" (cards.yaml). Reading: never the actor."""
    claim = _has_ability(data, state, player, "claim_of_ancient_lineage")
    return [
        p
        for p in range(state.players)
        if p != player and any(claim or data.court[c].region in ruled for c in state.court[p])
    ]


def vulnerable(data: PaxData, state: State, player: int) -> int:
    """RB p13: "Only rupees you hold in excess of your Tax Shelter are vulnerable"."""
    return max(0, state.rupees[player] - tax_shelter(data, state, player))


def tax(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    ruled: Collection[int],
    from_market: Mapping[int, int] | None = None,
    from_players: Mapping[int, int] | None = None,
    waived: int = 0,
) -> None:
    """RB p13 Tax: "Take rupees up to the acting card's rank from players with at least one
    court card associated with a region you rule or any card(s) in the market (regardless of
    their region). You may take rupees from several sources so long as the total taken does not
    exceed the rank of the acting card." ``from_market``: market space -> rupees taken (cards
    only, not a vacant space's rupees); ``from_players``: player -> rupees taken."""
    market = dict(from_market or {})
    players = dict(from_players or {})
    bribe = check_frame(data, state, turn, player, card, "tax", 0, waived)
    if any(n < 0 for n in (*market.values(), *players.values())):
        raise ValueError("rupees taken must not be negative")
    if sum(market.values()) + sum(players.values()) > data.court[card].rank:
        raise ValueError(f"tax exceeds the rank {data.court[card].rank} of card {card}")
    for space, n in market.items():
        if state.market[space] == EMPTY or state.market_rupees[space] < n:
            raise ValueError(f"market space {space} has no card with {n} rupees")
    subjects = taxable(data, state, player, ruled)
    for other, n in players.items():
        if n and other not in subjects:
            raise ValueError(f"player {other} has no court card of a region player rules")
        if n > vulnerable(data, state, other):
            raise ValueError(f"player {other}'s rupees are sheltered (RB p13 Tax Shelter)")
    open_action(data, state, turn, player, card, bribe)
    for space, n in market.items():
        state.market_rupees[space] -= n
        state.rupees[player] += n
        ledger.record(state, player, ledger.TAX, gained=n)
    for other, n in players.items():
        state.rupees[other] -= n
        state.rupees[player] += n
        ledger.record(state, other, ledger.TAX, paid=n)
        ledger.record(state, player, ledger.TAX, gained=n)


def gift_cost(data: PaxData, state: State, player: int) -> int:
    """The price of the gift space a gift fills (RB p13 Gift: "the marked price of the gift
    placed (2, 4, or 6)"). Reading: ``State.gifts`` counts cylinders, so gifts fill the spaces
    cheapest first. -1 if every gift space is taken."""
    costs = data.numbers.gift_costs
    taken = state.gifts[player]
    return costs[taken] if taken < len(costs) else -1


def gift(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    waived: int = 0,
    take_from: TakeFrom | None = None,
    pay_with: Sequence[int] | Repay = (),
) -> None:
    """RB p13 Gift: "Place one of your cylinders on one of your empty gift spaces on your
    loyalty dial ... The cost of this action is equal to the marked price of the gift placed".
    With no cylinder in the supply one is taken from play (RB p8 Component Limits,
    ``play.place_unit``: ``take_from``; a tribe taken may bring the Overthrow Rule, repaid from
    ``pay_with``); with none to take, the gift is refused."""
    cost = gift_cost(data, state, player)
    if cost < 0:
        raise ValueError(f"player {player} has no empty gift space")
    bribe = check_frame(data, state, turn, player, card, "gift", cost, waived)
    here = location(state, GIFT_UNIT, player)
    if state.cylinders[player] == 0 and not unit_sources(state, GIFT_UNIT, player, here):
        raise ValueError(f"player {player} has no cylinder to place (RB p8 Component Limits)")
    backup, used, left = state.copy(), turn.used[:], turn.actions_left
    try:
        open_action(data, state, turn, player, card, bribe)
        pay_action_cost(state, player, cost, data, ledger.GIFT)
        place_unit(data, state, GIFT_UNIT, player, player, take_from, payer(pay_with))
    except Exception:
        _restore(state, backup)
        turn.used[:], turn.actions_left = used, left
        raise


def build_borders(data: PaxData, ruled: Collection[int]) -> list[int]:
    """Borders a build may take: "Roads may be placed on any adjacent borders" (RB p13), the
    borders of a region the actor rules."""
    return sorted({b for r in ruled for b in data.region_borders[r]})


def build_limit(data: PaxData, state: State, player: int) -> int:
    """The most blocks one build places: "up to three" (RB p13 Build), twice that under Nation
    Building ("build actions place twice as many blocks for the same cost", cards.yaml)."""
    top = data.numbers.build_max_blocks
    return 2 * top if lasting.applies(data, state, "nation_building", player) else top


def build_cost(data: PaxData, state: State, player: int, blocks: int) -> int:
    """RB p13 Build: "two rupees per unit placed"; under Nation Building each unit paid places
    two blocks. Reading: an odd last block costs a whole unit."""
    per = data.numbers.build_cost_per_block
    if lasting.applies(data, state, "nation_building", player):
        return (blocks + 1) // 2 * per
    return blocks * per


def build(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    ruled: Collection[int],
    armies: Sequence[int] = (),
    roads: Sequence[int] = (),
    waived: int = 0,
    take_from: TakeFrom | None = None,
    extra_army: int = -1,
    extra_road: int = -1,
) -> None:
    """RB p13 Build: "Place up to three armies and/or roads among any regions that you rule.
    Roads may be placed on any adjacent borders ... The cost of this action is equal to two
    rupees per unit placed." ``armies``: a region per army; ``roads``: a border per road; the
    blocks are of the actor's loyalty. Reading: at least one block.

    Infrastructure (Civic Improvements): "after a build action, place one extra block in a
    legal space, free" (cards.yaml): ``extra_army`` (a ruled region) or ``extra_road`` (a border
    of one), reading: the holder's option. Blocks the supply lacks are taken from play (RB p8
    Component Limits, ``play.place_unit``: ``take_from``); more than can be placed: refused.
    """
    count = len(armies) + len(roads)
    top = build_limit(data, state, player)
    if not 1 <= count <= top:
        raise ValueError(f"a build places 1 to {top} blocks, not {count}")
    for region in armies:
        if region not in ruled:
            raise ValueError(f"player {player} does not rule region {region}")
    borders = build_borders(data, ruled)
    for border in roads:
        if border not in borders:
            raise ValueError(f"border {border} is not a border of a region player rules")
    extra = (extra_army >= 0) + (extra_road >= 0)
    if extra:
        if not _has_ability(data, state, player, "infrastructure"):
            raise ValueError(f"player {player} holds no Infrastructure: no extra block")
        if extra > 1:
            raise ValueError("Infrastructure places one extra block, not two")
        if extra_army >= 0 and extra_army not in ruled:
            raise ValueError(f"player {player} does not rule region {extra_army}")
        if extra_road >= 0 and extra_road not in borders:
            raise ValueError(f"border {extra_road} is not a border of a region player rules")
    cost = build_cost(data, state, player, count)
    bribe = check_frame(data, state, turn, player, card, "build", cost, waived)
    coalition = state.loyalty[player]
    if placeable(state, ARMY_UNIT, coalition) < count + extra:
        raise ValueError(f"coalition {coalition} has fewer than {count + extra} blocks to place")
    backup = state.copy() if state.blocks[coalition] < count + extra else None
    used, left = turn.used[:], turn.actions_left
    open_action(data, state, turn, player, card, bribe)
    pay_action_cost(state, player, cost, data, ledger.BUILD)
    places = [(ARMY_UNIT, state.army_at(r, coalition)) for r in armies]
    places += [(ROAD_UNIT, state.road_at(b, coalition)) for b in roads]
    if extra_army >= 0:
        places.append((ARMY_UNIT, state.army_at(extra_army, coalition)))
    if extra_road >= 0:
        places.append((ROAD_UNIT, state.road_at(extra_road, coalition)))
    try:
        for kind, at in places:
            place_unit(data, state, kind, coalition, at, take_from)
    except Exception:
        if backup is not None:
            _restore(state, backup)
            turn.used[:], turn.actions_left = used, left
        raise
