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

from .cards import PaxData
from .cleanup import stars
from .play import COMPONENT_LIMIT, _place_block
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
    cards = data.ability_cards[data.abilities.index(name)]
    return any(c in state.court[player] for c in cards)


def is_bonus(data: PaxData, state: State, card: int) -> bool:
    """RB p12 Bonus Actions: "Actions on cards matching the favored suit do not count against
    your turn's two-action limit"; Savvy Operator and Irregulars "always count as the favored
    suit" (cards.yaml special_abilities)."""
    if data.court[card].suit == state.favored:
        return True
    always = ("savvy_operator", "irregulars")
    return any(card in data.ability_cards[data.abilities.index(a)] for a in always)


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
    Civil Service Reforms ("you never pay hostage bribes", cards.yaml special_abilities)."""
    holder = hostage_holder(state, card, player)
    if holder < 0 or _has_ability(data, state, player, "civil_service_reforms"):
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


def pay_action_cost(state: State, player: int, amount: int) -> None:
    """Pay ``amount`` rupees of ``player`` to the market (RB p12 Action Costs). "Reminder: if
    you place a rupee on a market card for any reason, you may not purchase that card this
    turn": each card paid joins ``state.placed``. Excess rupees leave the game."""
    if state.rupees[player] < amount:
        raise ValueError(f"player {player} cannot pay {amount} rupees")
    state.rupees[player] -= amount
    for space in cost_spaces(state, amount):
        state.market_rupees[space] += 1
        card = state.market[space]
        if card not in state.placed:
            state.placed.append(card)


def _check_frame(
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


def _open(data: PaxData, state: State, turn: Turn, player: int, card: int, bribe: int) -> None:
    """Spend the action and the card, and pay the hostage bribe (RB p12)."""
    if bribe:
        holder = hostage_holder(state, card, player)
        state.rupees[player] -= bribe
        state.rupees[holder] += bribe
    turn.used.append(card)
    if not is_bonus(data, state, card):
        turn.actions_left -= 1


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
    bribe = _check_frame(data, state, turn, player, card, "tax", 0, waived)
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
    _open(data, state, turn, player, card, bribe)
    for space, n in market.items():
        state.market_rupees[space] -= n
        state.rupees[player] += n
    for other, n in players.items():
        state.rupees[other] -= n
        state.rupees[player] += n


def gift_cost(data: PaxData, state: State, player: int) -> int:
    """The price of the gift space a gift fills (RB p13 Gift: "the marked price of the gift
    placed (2, 4, or 6)"). Reading: ``State.gifts`` counts cylinders, so gifts fill the spaces
    cheapest first. -1 if every gift space is taken."""
    costs = data.numbers.gift_costs
    taken = state.gifts[player]
    return costs[taken] if taken < len(costs) else -1


def gift(data: PaxData, state: State, turn: Turn, player: int, card: int, waived: int = 0) -> None:
    """RB p13 Gift: "Place one of your cylinders on one of your empty gift spaces on your
    loyalty dial ... The cost of this action is equal to the marked price of the gift placed"."""
    cost = gift_cost(data, state, player)
    if cost < 0:
        raise ValueError(f"player {player} has no empty gift space")
    bribe = _check_frame(data, state, turn, player, card, "gift", cost, waived)
    if state.cylinders[player] == 0:
        raise NotImplementedError(COMPONENT_LIMIT)
    _open(data, state, turn, player, card, bribe)
    pay_action_cost(state, player, cost)
    state.cylinders[player] -= 1
    state.gifts[player] += 1


def build_borders(data: PaxData, ruled: Collection[int]) -> list[int]:
    """Borders a build may take: "Roads may be placed on any adjacent borders" (RB p13), the
    borders of a region the actor rules."""
    return sorted({b for r in ruled for b in data.region_borders[r]})


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
) -> None:
    """RB p13 Build: "Place up to three armies and/or roads among any regions that you rule.
    Roads may be placed on any adjacent borders ... The cost of this action is equal to two
    rupees per unit placed." ``armies``: a region per army; ``roads``: a border per road; the
    blocks are of the actor's loyalty. Reading: at least one block."""
    n = data.numbers
    count = len(armies) + len(roads)
    if not 1 <= count <= n.build_max_blocks:
        raise ValueError(f"a build places 1 to {n.build_max_blocks} blocks, not {count}")
    for region in armies:
        if region not in ruled:
            raise ValueError(f"player {player} does not rule region {region}")
    borders = build_borders(data, ruled)
    for border in roads:
        if border not in borders:
            raise ValueError(f"border {border} is not a border of a region player rules")
    cost = count * n.build_cost_per_block
    bribe = _check_frame(data, state, turn, player, card, "build", cost, waived)
    coalition = state.loyalty[player]
    if state.blocks[coalition] < count:
        raise NotImplementedError(COMPONENT_LIMIT)
    _open(data, state, turn, player, card, bribe)
    pay_action_cost(state, player, cost)
    for region in armies:
        _place_block(state, coalition, state.army_at(region, coalition), state.armies)
    for border in roads:
        _place_block(state, coalition, state.road_at(border, coalition), state.roads)
