"""Battles: dice, Cavalry Charge and Screen, the Mongol Charge, hits and casualties
(1.10, 3.2.4, 3.3.4, 3.4.4, 3.5.3)."""

from __future__ import annotations

from .context import Context
from .decisions import DONE
from .pieces import MI


def hits(dice: list[int], units: int, max_hits: int, always_miss: int) -> int:
    """One hit per modified roll <= the Units involved, at most ``max_hits``; a 6 always misses (3.2.4)."""
    n = 0
    for d in dice:
        if d <= units and d < always_miss:
            n += 1
    return min(max_hits, n)


def mongol_charge(dice: list[int], units: int, always_miss: int) -> None:
    """The Mongols' one Charge (1.10): turn a miss into a hit if possible, else a 2 into a 1,
    else lower any die above 1."""
    for i, d in enumerate(dice):
        if (d > units or d >= always_miss) and 1 <= d - 1 <= units and d - 1 < always_miss:
            dice[i] = d - 1
            return
    if 2 in dice:
        dice[dice.index(2)] = 1
        return
    above = [d for d in dice if d > 1]
    if above:
        i = dice.index(min(above))
        dice[i] -= 1


def use_cavalry(
    ctx: Context, f: int, own: list[int], opp: list[int], own_units: int = 0, opp_units: int = 0
) -> None:
    """Faction ``f`` spends any number of tokens, one at a time: Charge lowers one of its dice
    by one (not below 1), Screen removes an opposing die not showing 1 (1.10). Spent tokens
    return to the pool. The Decision's context: (own dice, opposing dice, own Units involved,
    opposing Units involved), what decides which rolls hit."""
    st = ctx.state
    while st.cavalry[f] > 0:
        options: list = [DONE]
        options.extend(("charge", v) for v in sorted(set(own)) if v > 1)
        options.extend(("screen", v) for v in sorted(set(opp)) if v > 1)
        if len(options) == 1:
            return
        choice = ctx.ask(
            f, "cavalry", tuple(options), (tuple(own), tuple(opp), own_units, opp_units)
        )
        if choice == DONE:
            return
        st.cavalry[f] -= 1
        st.pool += 1
        use, value = choice
        if use == "charge":
            own[own.index(value)] = value - 1
        else:
            opp.remove(value)


def battle(
    ctx: Context,
    space: int,
    attacker: int,
    defender: int,
    att_units: int,
    def_units: int,
    att_dice: int,
    def_dice: int,
) -> tuple[int, int]:
    """Roll and resolve one battle; returns (hits scored by the attacker, by the defender).
    Mongols (MI) always Charge once and never use the pool (1.10, 3.5.3)."""
    combat = ctx.rules.combat
    miss = combat["always_miss"]
    dice = ctx.battle_dice(space, attacker, defender)  # a stream per battle (issue 19)
    a = ctx.roll(att_dice, dice)
    d = ctx.roll(def_dice, dice)
    # 1.10: after both sides roll, the attacker first, then the defender
    if attacker == MI:
        mongol_charge(a, att_units, miss)
    else:
        use_cavalry(ctx, attacker, a, d, att_units, def_units)
    if defender == MI:
        mongol_charge(d, def_units, miss)
    else:
        use_cavalry(ctx, defender, d, a, def_units, att_units)
    return hits(a, att_units, combat["max_hits"], miss), hits(
        d, def_units, combat["max_hits"], miss
    )
