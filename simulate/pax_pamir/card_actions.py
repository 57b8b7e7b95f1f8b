"""The card-based actions of a turn as the engine asks for them (RB p12-p14): the hostage
bribe settled first, then each action's choices one pick at a time (``options.py``), then the
rule module's function (``actions``, ``military``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import actions as A
from . import military
from . import options as O
from .cards import NONE

Context = Any  # ``engine.Context`` (not imported: the engine imports this module)


def settle(ctx: Context, payer: int, to: int, owed: int, kind: str, extra: int = 0) -> int:
    """A bribe as RB p11 prints it: the receiver asks 0..owed, the payer pays or declines.
    Returns the rupees asked, or -1 when declined (or not affordable with ``extra`` more)."""
    if owed <= 0:
        return 0
    asked = ctx.ask(to, f"{kind}_ask", tuple(range(owed + 1)))
    if asked == 0:
        return 0
    if ctx.state.rupees[payer] < asked + extra:
        return -1
    return asked if ctx.ask(payer, f"{kind}_pay", (1, 0)) else -1


def card_action(ctx: Context, p: int, card: int, name: str) -> bool:
    """RB p12 Card-Based Actions: the hostage bribe first, then the action's own choices."""
    data, state, turn = ctx.data, ctx.state, ctx.turn
    owed = A.hostage_bribe(data, state, p, card)
    holder = A.hostage_holder(state, card, p)
    least = {"gift": A.gift_cost(data, state, p), "betray": data.numbers.betray_cost}
    least["build"] = data.numbers.build_cost_per_block
    asked = settle(ctx, p, holder, owed, "hostage", least.get(name, 0))
    if asked < 0:
        return False
    waived = owed - asked
    budget = state.rupees[p] - asked
    if name == "tax":
        _tax(ctx, p, card, waived)
    elif name == "gift":
        A.gift(data, state, turn, p, card, waived, ctx.take_from(p), ctx.repay(p))
    elif name == "build":
        _build(ctx, p, card, waived, budget)
    elif name == "move":
        _move(ctx, p, card, waived)
    elif name == "betray":
        before = state.loyalty[p]
        target = ctx.ask(p, "betray", military.betray_targets(data, state, p), card)
        prize = data.court[target].prize != NONE and bool(ctx.ask(p, "prize", (1, 0), target))
        owner = military.owner_of(state, target)
        military.betray(
            data, state, turn, p, card, target, prize, ctx.repay(owner), ctx.repay(p), waived
        )
        ctx.loyalty_changes += state.loyalty[p] != before
    else:
        _battle(ctx, p, card, waived)
    ctx.counts[2] += 1
    return True


def _repeat(
    ctx: Context,
    p: int,
    kind: str,
    card: int,
    most: int,
    options: Callable[[], Sequence[int]],
    on_pick: Callable[[int], None] | None = None,
) -> list[int]:
    """Up to ``most`` picks of a repeated choice, ``STOP`` offered after the first;
    ``on_pick`` records each pick before the next options are computed."""
    picks: list[int] = []
    while len(picks) < most:
        opts = tuple(options())
        if not opts:
            break
        pick = ctx.ask(p, kind, (*opts, O.STOP) if picks else opts, card)
        if pick == O.STOP:
            break
        picks.append(pick)
        if on_pick is not None:
            on_pick(pick)
    return picks


def _tax(ctx: Context, p: int, card: int, waived: int) -> None:
    """RB p13 Tax: one rupee at a time, up to the card's rank."""
    data, state = ctx.data, ctx.state
    ruled = O.ruled_regions(data, state, p)
    from_market: dict[int, int] = {}
    from_players: dict[int, int] = {}

    def take(pick: int) -> None:
        if pick >= O.PLAYER_CODE:
            who = pick - O.PLAYER_CODE
            from_players[who] = from_players.get(who, 0) + 1
        else:
            from_market[pick] = from_market.get(pick, 0) + 1

    _repeat(
        ctx,
        p,
        "tax",
        card,
        data.court[card].rank,
        lambda: O.tax_sources(data, state, p, ruled, from_market, from_players),
        take,
    )
    A.tax(data, state, ctx.turn, p, card, ruled, from_market, from_players, waived)


def _build(ctx: Context, p: int, card: int, waived: int, budget: int) -> None:
    """RB p13 Build: up to three blocks, two rupees each, in ruled regions and their borders,
    no more than the coalition can place (the supply and its blocks in play, RB p8 Component
    Limits)."""
    data, state = ctx.data, ctx.state
    ruled = O.ruled_regions(data, state, p)
    blocks = A.placeable(state, A.ARMY_UNIT, state.loyalty[p])
    top = min(A.build_limit(data, state, p), blocks)
    most = max((k for k in range(top + 1) if A.build_cost(data, state, p, k) <= budget), default=0)
    spots = O.build_spots(data, ruled)
    picks = _repeat(ctx, p, "build", card, most, lambda: spots)
    armies = [s for s in picks if s < O.ROAD_CODE]
    roads = [s - O.ROAD_CODE for s in picks if s >= O.ROAD_CODE]
    extra_army = extra_road = -1
    # Infrastructure: "one extra block ..., free", while the coalition has one left to place
    if len(picks) < blocks and A._has_ability(data, state, p, "infrastructure"):
        extra = ctx.ask(p, "infrastructure", (*spots, O.STOP), card)
        if extra != O.STOP and extra >= O.ROAD_CODE:
            extra_road = extra - O.ROAD_CODE
        elif extra != O.STOP:
            extra_army = extra
    A.build(
        data, state, ctx.turn, p, card, ruled, armies, roads, waived, ctx.take_from(p),
        extra_army, extra_road,
    )  # fmt: skip


def _move(ctx: Context, p: int, card: int, waived: int) -> None:
    """RB p13 Move: one step per rank, each seen by the next on a scratch copy."""
    data, state = ctx.data, ctx.state
    scratch = state.copy()
    picks = _repeat(
        ctx,
        p,
        "move",
        card,
        data.court[card].rank,
        lambda: O.move_steps(data, scratch, p),
        lambda pick: O.apply_step(scratch, p, O.decode_step(pick)),
    )
    moves = [O.decode_step(s) for s in picks]
    military.move(data, state, ctx.turn, p, card, moves, waived, ctx.repay(p))


def _battle(ctx: Context, p: int, card: int, waived: int) -> None:
    """RB p14 Battle: the site, then one unit at a time up to the rank and one's own units."""
    data, state = ctx.data, ctx.state
    site = ctx.ask(p, "battle_site", O.battle_sites(data, state, p), card)
    removed: dict[int, int] = {}

    def take(pick: int) -> None:
        removed[pick] = removed.get(pick, 0) + 1

    room = O.battle_room(data, state, p, card, site)
    _repeat(
        ctx, p, "battle", card, room, lambda: O.battle_units(data, state, p, site, removed), take
    )
    if site >= O.CARD_SITE:
        target = site - O.CARD_SITE
        spies = {code - O.SPY_UNIT: n for code, n in removed.items()}
        saved = _safe_houses(ctx, p, target, spies)
        military.battle_card(data, state, ctx.turn, p, card, target, spies, waived, saved)
        return
    armies = {c: n for c, n in removed.items() if c < O.ROAD_UNIT}
    roads = {
        divmod(c - O.ROAD_UNIT, 4): n for c, n in removed.items() if O.ROAD_UNIT <= c < O.TRIBE_UNIT
    }
    tribes = {c - O.TRIBE_UNIT: n for c, n in removed.items() if c >= O.TRIBE_UNIT}
    repay = {who: ctx.repay(who) for who in range(state.players)}
    military.battle_region(
        data, state, ctx.turn, p, card, site, armies, roads, tribes, waived, repay
    )


def _safe_houses(ctx: Context, p: int, target: int, spies: dict[int, int]) -> list[int]:
    """Safe House: "when another player's battle removes your spy, you may put it on this
    card instead of your supply" (cards.yaml): each removed spy's owner holding one decides,
    spy by spy (never onto the battle's own card)."""
    data, state = ctx.data, ctx.state
    houses = data.ability_cards[data.ability_ids["safe_house"]]
    saved: list[int] = []
    for owner, n in sorted(spies.items()):
        mine = tuple(h for h in houses if h in state.court[owner] and h != target)
        for _ in range(n if mine and owner != p else 0):
            pick = ctx.ask(owner, "safe_house", (*mine, O.STOP), target)
            if pick != O.STOP:
                saved.append(pick)
    return saved


# -- cleanup and Dominance Checks ------------------------------------------------------------
