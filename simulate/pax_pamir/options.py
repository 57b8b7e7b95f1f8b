"""The legal options of each Pax Pamir decision, as small integers (issue 66: options as
small ints), computed from the state by pure functions; ``engine.py`` asks, the rule modules
check and apply.

A turn's main choice is ``verb << 8 | argument`` (``encode``/``verb_of``/``arg_of``): pass,
purchase a market space, play a hand card, or one of the six card-based actions with a court
card (RB p9 Sequence of Play, p10-p14). The sub-choices (a road's border, a tax's source, a
move's step, a battle's unit) have their own codes below, with ``STOP`` ending a repeated
choice once it has at least one pick.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from . import actions as A
from . import lasting, market, military, ruling
from .cards import NONE, PaxData
from .state import EMPTY, State

PASS, BUY, PLAY = 0, 1, 2
FIRST_ACTION = 3  # verbs 3..8: data.actions in order (tax, gift, build, move, betray, battle)
STOP = 0xFFFF  # ends a repeated choice (tax sources, build spots, move steps, battle units)
PLAYER_CODE = 100  # a tax source that is a player: 100 + player
ROAD_CODE = 100  # a build spot that is a road: 100 + border
CARD_SITE = 100  # a battle site that is a court card: 100 + card
TRIBE_MOVE = 500  # a tribe's move step under Nationalism: 500 + from * 16 + to
SPY_MOVE = 1000  # a spy's move step: 1000 + from_card * 128 + to_card
ROAD_UNIT, TRIBE_UNIT, SPY_UNIT = 100, 200, 300  # battle units: see ``battle_units``


def encode(verb: int, arg: int = 0) -> int:
    return verb << 8 | arg


def verb_of(option: int) -> int:
    return option >> 8


def arg_of(option: int) -> int:
    return option & 0xFF


def ruled_regions(data: PaxData, state: State, player: int) -> list[int]:
    """The regions ``player`` rules (RB p7 Ruling a Region)."""
    return [r for r in range(len(data.regions)) if ruling.ruler(state, r) == player]


def action_verb(data: PaxData, name: str) -> int:
    return FIRST_ACTION + data.actions.index(name)


def main_options(
    data: PaxData,
    state: State,
    turn: A.Turn,
    player: int,
    refused: Collection[int] = (),
) -> list[int]:
    """What ``player`` may do next this turn (RB p9: "up to two actions ... Bonus actions ...
    do not count against this limit. You may opt to take only a single action or no action at
    all"). ``refused``: options whose bribe was not settled this turn, not offered again (the
    reading of RB p11 "play continues as if the action had never been taken")."""
    out = [PASS]
    if turn.actions_left > 0:
        out += [encode(BUY, s) for s in market.purchasable(data, state, player)]
        out += [encode(PLAY, c) for c in state.hand[player]]
    cache: dict[str, Any] = {}
    for card in state.court[player]:
        if card in turn.used:
            continue
        if turn.actions_left <= 0 and not A.is_bonus(data, state, card):
            continue
        for a in data.court[card].actions:
            if usable(data, state, player, card, data.actions[a], cache):
                out.append(encode(FIRST_ACTION + a, card))
    return [o for o in out if o not in refused] if refused else out


def usable(
    data: PaxData, state: State, player: int, card: int, name: str, cache: dict[str, Any]
) -> bool:
    """Whether ``card``'s action ``name`` can do anything for ``player`` now, its hostage bribe
    aside (the holder may waive it): a reading that offers no action that would change nothing.
    ``cache`` keeps what every card of one call shares (ruled regions, move steps, sites)."""
    rupees = state.rupees[player]
    if name == "gift":
        cost = A.gift_cost(data, state, player)
        return 0 <= cost <= rupees
    if name == "betray":
        if rupees < data.numbers.betray_cost:
            return False
        if "betray" not in cache:
            cache["betray"] = bool(military.betray_targets(data, state, player))
        return cache["betray"]
    if name in cache:
        return cache[name]
    if name == "tax" and any(
        r and state.market[s] != EMPTY for s, r in enumerate(state.market_rupees)
    ):
        found = True  # a market card with rupees: no need to know who rules (RB p13 Tax)
    elif name in ("tax", "build"):
        if "ruled" not in cache:
            cache["ruled"] = ruled_regions(data, state, player)
        if name == "tax":
            found = bool(tax_sources(data, state, player, cache["ruled"], {}, {}))
        else:
            found = (
                bool(cache["ruled"])
                and rupees >= data.numbers.build_cost_per_block
                and A.placeable(state, A.ARMY_UNIT, state.loyalty[player]) > 0  # RB p8
            )
    elif name == "move":
        found = _can_move(data, state, player)
    elif name == "battle":
        found = _can_battle(data, state, player)
    else:
        raise ValueError(f"unknown action {name!r}")
    cache[name] = found
    return found


def tax_sources(
    data: PaxData,
    state: State,
    player: int,
    ruled: Sequence[int],
    market_taken: dict[int, int],
    players_taken: dict[int, int],
) -> list[int]:
    """Where one more rupee of a tax may come from (RB p13 Tax): a market card with rupees
    left (its space), or a taxable player with vulnerable rupees left (``PLAYER_CODE`` + id)."""
    out = [
        s
        for s, card in enumerate(state.market)
        if card != EMPTY and state.market_rupees[s] > market_taken.get(s, 0)
    ]
    for p in A.taxable(data, state, player, ruled):
        if A.vulnerable(data, state, p) > players_taken.get(p, 0):
            out.append(PLAYER_CODE + p)
    return out


def build_spots(data: PaxData, ruled: Sequence[int]) -> list[int]:
    """Where a build may put a block (RB p13 Build): an army in a ruled region (its id) or a
    road on one of their borders (``ROAD_CODE`` + border)."""
    return list(ruled) + [ROAD_CODE + b for b in A.build_borders(data, ruled)]


def move_steps(data: PaxData, state: State, player: int) -> list[int]:
    """One more step of a move (RB p13 Move): a loyal army across a border with a road of its
    coalition (``from * 16 + to``; any border with Indian Supplies), under Nationalism a tribe
    the same way (``TRIBE_MOVE`` + ...), or a spy to a card the track reaches (``SPY_MOVE +
    from * 128 + to``)."""
    coalition = state.loyalty[player]
    roadless = A._has_ability(data, state, player, "indian_supplies")
    tribes = lasting.applies(data, state, "nationalism", player)
    out = []
    for region in range(len(data.regions)):
        kinds = [0] if state.armies[state.army_at(region, coalition)] else []
        if tribes and state.tribes[state.tribe_at(region, player)]:
            kinds.append(TRIBE_MOVE)
        if not kinds:
            continue
        for other in data.adjacency[region]:
            border = military.border_between(data, region, other)
            if roadless or state.roads[state.road_at(border, coalition)] > 0:
                out += [k + region * 16 + other for k in kinds]
    for card in _spied(state, player):
        for to in sorted(military.spy_steps(data, state, player, card)):
            out.append(SPY_MOVE + card * 128 + to)
    return sorted(out)


def _can_move(data: PaxData, state: State, player: int) -> bool:
    """Whether ``move_steps`` has a step, found without listing them: a spy moves wherever the
    court track has another card (``military.spy_steps``)."""
    if sum(len(c) for c in state.court) >= 2 and _spied(state, player):
        return True
    return bool(move_steps(data, state, player))


def _can_battle(data: PaxData, state: State, player: int) -> bool:
    """Whether ``battle_sites`` has a site, stopping at the first."""
    for r in range(len(data.regions)):
        if _fighters(data, state, player, r) and battle_units(data, state, player, r, {}):
            return True
    return any(battle_units(data, state, player, CARD_SITE + c, {}) for c in _spied(state, player))


def _spied(state: State, player: int) -> list[int]:
    """The court cards holding ``player``'s spies, in court order."""
    spies, n = state.spies, state.players
    return [c for court in state.court for c in court if spies[c * n + player]]


def decode_step(option: int) -> tuple[int, int, int]:
    """A ``move_steps`` option as ``military.move``'s ``(kind, from, to)``."""
    if option >= SPY_MOVE:
        src, dst = divmod(option - SPY_MOVE, 128)
        return military.SPY, src, dst
    if option >= TRIBE_MOVE:
        src, dst = divmod(option - TRIBE_MOVE, 16)
        return military.TRIBE, src, dst
    src, dst = divmod(option, 16)
    return military.ARMY, src, dst


def apply_step(state: State, player: int, step: tuple[int, int, int]) -> None:
    """Move one unit on a scratch state, so the next step's options see it."""
    kind, src, dst = step
    if kind == military.ARMY:
        c = state.loyalty[player]
        state.armies[state.army_at(src, c)] -= 1
        state.armies[state.army_at(dst, c)] += 1
    elif kind == military.TRIBE:
        state.tribes[state.tribe_at(src, player)] -= 1
        state.tribes[state.tribe_at(dst, player)] += 1
    else:
        state.spies[state.spy_at(src, player)] -= 1
        state.spies[state.spy_at(dst, player)] += 1


def battle_sites(data: PaxData, state: State, player: int) -> list[int]:
    """Where ``player`` may battle (RB p14 Battle): a region with a loyal army and a unit
    there it may remove (its id), or a court card with its spy and another's removable spy
    (``CARD_SITE`` + card)."""
    out = [
        r
        for r in range(len(data.regions))
        if _fighters(data, state, player, r) and battle_units(data, state, player, r, {})
    ]
    for card in _spied(state, player):
        if battle_units(data, state, player, CARD_SITE + card, {}):
            out.append(CARD_SITE + card)
    return out


def battle_units(
    data: PaxData, state: State, player: int, site: int, removed: dict[int, int]
) -> list[int]:
    """The units one more removal of a battle at ``site`` may take (RB p14 Battle), ``removed``
    so far (code -> count) deducted: in a region, an enemy coalition's armies (its id), an
    enemy road on one of its borders (``ROAD_UNIT`` + border * 4 + coalition), a tribe of a
    player of another loyalty (``TRIBE_UNIT`` + player) unless a Citadel guards it; on a card,
    another player's spy (``SPY_UNIT`` + player) unless Indispensable Advisors guard it."""
    mine = state.loyalty[player]
    out = []
    if site >= CARD_SITE:
        card = site - CARD_SITE
        for p in range(state.players):
            left = state.spies[state.spy_at(card, p)] - removed.get(SPY_UNIT + p, 0)
            guarded = A._has_ability(data, state, p, "indispensable_advisors")
            if p != player and left > 0 and not guarded:
                out.append(SPY_UNIT + p)
        return out
    region = site
    for c in range(len(state.blocks)):
        if c != mine and state.armies[state.army_at(region, c)] > removed.get(c, 0):
            out.append(c)
    for b in data.region_borders[region]:
        for c in range(len(state.blocks)):
            code = ROAD_UNIT + b * 4 + c
            if c != mine and state.roads[state.road_at(b, c)] > removed.get(code, 0):
                out.append(code)
    citadel = data.ability_cards[data.ability_ids["citadel"]]
    for p in range(state.players):
        if state.loyalty[p] == mine:
            continue
        if any(data.court[c].region == region for c in citadel if c in state.court[p]):
            continue
        if state.tribes[state.tribe_at(region, p)] > removed.get(TRIBE_UNIT + p, 0):
            out.append(TRIBE_UNIT + p)
    return out


def battle_room(data: PaxData, state: State, player: int, card: int, site: int) -> int:
    """How many units a battle at ``site`` may remove: "equal to the acting card's rank" and no
    more "than you yourself have armies or spies in that battle" (RB p14)."""
    if site >= CARD_SITE:
        mine = state.spies[state.spy_at(site - CARD_SITE, player)]
    else:
        mine = _fighters(data, state, player, site)
    return min(data.court[card].rank, mine)


def _fighters(data: PaxData, state: State, player: int, region: int) -> int:
    """The units a battle in ``region`` counts for ``player``: loyal armies, and tribes under
    Nationalism ("battle as if they were your armies", cards.yaml event_cards)."""
    mine = state.armies[state.army_at(region, state.loyalty[player])]
    if lasting.applies(data, state, "nationalism", player):
        mine += state.tribes[state.tribe_at(region, player)]
    return mine


def play_needs(data: PaxData, card: int) -> tuple[int, int]:
    """The road and spy icons of a court card: one choice each when played (RB p11)."""
    icons = data.court[card].icons
    return icons.count(data.icons.index("road")), icons.count(data.icons.index("spy"))


def patriot_of(data: PaxData, card: int) -> int:
    return data.court[card].patriot if card < len(data.court) else NONE
