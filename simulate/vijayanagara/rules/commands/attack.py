"""Attack (3.2.4, 3.3.4, 3.4.4): one implementation for the three Factions. What differs is
data (factions.yaml ``attack``): the supporting Structure and how many Units it lends, and
whether targets must be Rebelling (the Sultanate's rule)."""

from __future__ import annotations

from ..board import PROVINCE
from ..combat import battle
from ..context import Context
from ..influence import shift
from ..pieces import (
    AMIR_OB,
    AMIR_REB,
    BK,
    DS,
    FORT,
    MI,
    MONGOL,
    NAMES,
    NK,
    OB,
    PIECES_OF,
    RAJA_OB,
    RAJA_REB,
    REB,
    STRUCTURE_OF,
    TEMPLE,
    UNITS_OF,
    VE,
)
from ..placement import flip, remove


def defenders(ctx: Context, f: int, s: int) -> list[int]:
    """Factions that may be targeted in ``s``. The Sultanate needs a Rebelling Unit, or a
    Structure without its owner's Units (3.2.4); BK and VE may target any opposing piece."""
    p = ctx.state.pieces
    b = s * NK
    out = []
    if f == DS:
        for g in (BK, VE):
            if p[b + REB[g]] or (p[b + STRUCTURE_OF[g]] and not (p[b + OB[g]] + p[b + REB[g]])):
                out.append(g)
        if p[b + MONGOL]:
            out.append(MI)  # always Rebelling (1.4.5)
        return out
    for g in (DS, BK, VE):
        if g != f and any(p[b + c] for c in PIECES_OF[g]):
            out.append(g)
    return out


def _support_options(ctx: Context, f: int, s: int, run) -> list:
    """Up to N Units from ONE adjacent space holding the attacker's Structure (3.2.4, 3.3.4, 3.4.4)."""
    st = ctx.state
    p = st.pieces
    params = ctx.rules.factions[NAMES[f]]["attack"]
    cap = params["support_units"]
    struct = STRUCTURE_OF[f]
    kinds = ctx.rules.board.kinds
    u1, u2 = UNITS_OF[f]
    out: list = []
    for a in ctx.rules.board.adjacent[s]:
        if not p[a * NK + struct]:
            continue
        if f != DS and kinds[a] != PROVINCE:
            continue
        m1, m2 = run.movable(st, a, u1), run.movable(st, a, u2)
        for x in range(min(cap, m1) + 1):
            for y in range(min(cap - x, m2) + 1):
                if x or y:
                    out.append((a, x, y))
    return out


def spaces(ctx: Context, f: int, run) -> list[int]:
    st = ctx.state
    p = st.pieces
    board = ctx.rules.board
    u1, u2 = UNITS_OF[f]
    struct = STRUCTURE_OF[f]
    # spaces with the attacker's Structure and an unused Unit to lend: a Qasbah lends from
    # any space, Delhi and the Regions included ("one adjacent space with a Qasbah", 3.2.4)
    lenders = run.ready_mask(st, board.province_ids if f != DS else range(board.n), u1, u2, struct)
    candidates = board.province_ids if f != DS else range(board.n)  # 3.1.1
    ready = run.ready_mask(st, candidates, u1, u2)
    adjacent_mask = board.adjacent_mask
    out = []
    for s in candidates:
        if (ready >> s & 1 or adjacent_mask[s] & lenders) and _has_defender(p, s * NK, f):
            out.append(s)
    return out


def _has_defender(p: bytearray, b: int, f: int) -> bool:
    """Fast form of ``defenders``: is there anything ``f`` may attack in the space at offset ``b``."""
    if f == DS:
        return bool(
            p[b + AMIR_REB]
            or p[b + RAJA_REB]
            or p[b + MONGOL]
            or (p[b + FORT] and not (p[b + AMIR_OB] or p[b + AMIR_REB]))
            or (p[b + TEMPLE] and not (p[b + RAJA_OB] or p[b + RAJA_REB]))
        )
    own = 3 * f
    total = 0
    for i in range(b, b + NK):
        total += p[i]
    return total > p[b + own] + p[b + own + 1] + p[b + own + 2]


def _can_support(ctx: Context, f: int, s: int, run) -> bool:
    """Whether an adjacent space with the attacker's Structure has an unused Unit to lend."""
    st = ctx.state
    p = st.pieces
    struct = STRUCTURE_OF[f]
    u1, u2 = UNITS_OF[f]
    is_province = ctx.rules.board.is_province
    for a in ctx.rules.board.adjacent[s]:
        if (
            p[a * NK + struct]
            and (f == DS or is_province[a])
            and (run.movable(st, a, u1) or run.movable(st, a, u2))
        ):
            return True
    return False


def resolve(ctx: Context, f: int, s: int, run) -> None:
    st = ctx.state
    p = st.pieces
    b = s * NK
    combat = ctx.rules.combat
    target = ctx.ask(f, "attack_target", tuple(defenders(ctx, f, s)), s)
    if f == DS and target in (BK, VE):
        flip(ctx, s, OB[target], REB[target])  # 3.2.4: the defender's Units all Rebel
    u1, u2 = UNITS_OF[f]
    here = (run.movable(st, s, u1), run.movable(st, s, u2))
    run.use(s, u1, here[0])
    run.use(s, u2, here[1])
    support = _support_options(ctx, f, s, run)
    helper = ctx.ask(f, "attack_support", ("none", *support), s) if support else "none"
    lent = (0, 0)
    if helper != "none":
        a, x, y = helper
        lent = (x, y)
        run.use(a, u1, x)
        run.use(a, u2, y)
    att_units = here[0] + here[1] + lent[0] + lent[1]
    dice = combat["attack_dice"] + (1 if st.has_lasting("attack_extra_die", f) else 0)
    if target == BK and p[b + FORT]:
        dice -= combat["fort_penalty"]
    def_counters = UNITS_OF[target]
    def_units = sum([p[b + c] for c in def_counters])
    att_hits, def_hits = battle(
        ctx, s, f, target, att_units, def_units, max(0, dice), combat["defend_dice"]
    )
    lost_def = _defender_casualties(ctx, target, s, att_hits)
    lost_att = _attacker_casualties(ctx, f, s, here, helper, def_hits, run)
    if {f, target} == {BK, VE} and lost_att != lost_def:  # Influence shift (3.3.4, 3.4.4)
        winner, loser = (f, target) if lost_att < lost_def else (target, f)
        shift(ctx, winner, 1)
        shift(ctx, loser, -1)


def _defender_casualties(ctx: Context, g: int, s: int, n: int) -> int:
    """The defender removes its own pieces in the space, Units or Structure (3.2.4)."""
    p = ctx.state.pieces
    b = s * NK
    removed = 0
    for _ in range(n):
        options = tuple([c for c in PIECES_OF[g] if p[b + c]])
        if not options:
            break
        c = options[0] if g == MI else ctx.ask(g, "casualty", options, s)
        remove(ctx, s, c, 1)
        removed += 1
    return removed


def _attacker_casualties(ctx: Context, f: int, s: int, here: tuple, helper, n: int, run) -> int:
    """The attacker removes Units that took part, from the space or the supporting space,
    in any order it likes (3.2.4, 3.3.4, 3.4.4): the casualty options are exactly the Units
    that fought, counted per counter (a Unit state is a counter), so an Obedient Amir that
    stayed home while a Rebelling one was lent can be neither lost nor marked as used.
    Units that fought Obedient and flipped when the defender's losses gave their Faction
    Control (1.4.5: "immediately flip all their Units in the Province to Rebelling") are the
    same pieces: they are followed to their Rebelling counter."""
    p = ctx.state.pieces
    u1, u2 = UNITS_OF[f]
    pools = {(s, u1): here[0], (s, u2): here[1]}
    if helper != "none":
        pools[(helper[0], u1)] = helper[1]
        pools[(helper[0], u2)] = helper[2]
    removed = 0
    for _ in range(n):
        if f != DS:
            _follow_flips(p, pools, u1, u2)
        options = tuple(
            [(where, c) for (where, c), left in pools.items() if left > 0 and p[where * NK + c]]
        )
        if not options:
            break
        where, c = ctx.ask(f, "casualty", options, s)
        pools[(where, c)] -= 1
        run.movable(ctx.state, where, c)  # settle the used count before it shrinks
        run.use(where, c, -1)
        remove(ctx, where, c, 1)
        removed += 1
    return removed


def _follow_flips(p: bytearray, pools: dict, ob: int, reb: int) -> None:
    """Move a pool's Obedient Units no longer on the map as Obedient to its Rebelling counter:
    they flipped (1.4.5), only ever from Obedient to Rebelling during an Attack."""
    for where, c in list(pools):
        if c != ob:
            continue
        gone = pools[(where, ob)] - p[where * NK + ob]
        if gone > 0:
            pools[(where, ob)] -= gone
            pools[(where, reb)] = pools.get((where, reb), 0) + gone
