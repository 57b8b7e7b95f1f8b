"""Mongol Invader Commands (3.5): Amass, Advance, Attack and Plunder, carried out by the
Faction named on a Mongol Invasion card (2.4.1) or an Event; and the Mongol battle used by
Timur's invasion (2.6)."""

from __future__ import annotations

from ..combat import battle
from ..context import Context
from ..pieces import DS, GOVERNOR, MI, MONGOL, PT_MONGOL, QASBAH, TROOP
from ..placement import move, place, remove
from ..tracks import add_resources

COMMANDS = ("amass", "advance", "attack_plunder")
DECLINE = "none"  # readings.mongol_commands_optional: a Mongol Command declined (2.4.1)


def _regions(ctx: Context) -> tuple[int, int, int]:
    r = ctx.rules
    return r.mountain_passes, r.punjab, r.delhi


def available(ctx: Context) -> list[str]:
    """Mongol Commands whose preconditions hold (3.5.1-3.5.3)."""
    st = ctx.state
    mp, pj, dl = _regions(ctx)
    out = []
    if st.avail[PT_MONGOL]:
        out.append("amass")
    if st.count(mp, MONGOL) or st.count(pj, MONGOL):
        out.append("advance")
    if st.count(mp, MONGOL) or st.count(pj, MONGOL) or st.count(dl, MONGOL):
        out.append("attack_plunder")
    return out


def execute(ctx: Context, chooser: int, name: str) -> None:
    {"amass": amass, "advance": advance, "attack_plunder": attack_plunder}[name](ctx, chooser)


def amass(ctx: Context, chooser: int) -> None:
    """Place three Invaders in the Mountain Passes; overflow beyond four goes on to Punjab,
    then beyond four on to Delhi (3.5.1)."""
    st = ctx.state
    m = ctx.rules.mongols
    mp, pj, dl = _regions(ctx)
    place(ctx, mp, MONGOL, m["amass"])
    cap = m["region_cap"]
    if st.count(mp, MONGOL) > cap:
        move(ctx, mp, pj, MONGOL, st.count(mp, MONGOL) - cap)
    if st.count(pj, MONGOL) > cap:
        move(ctx, pj, dl, MONGOL, st.count(pj, MONGOL) - cap)


def advance(ctx: Context, chooser: int) -> None:
    """Move one or more Invaders from the Mountain Passes into Punjab, or from Punjab into Delhi (3.5.2)."""
    st = ctx.state
    mp, pj, dl = _regions(ctx)
    options = [(mp, pj, n) for n in range(1, st.count(mp, MONGOL) + 1)]
    options += [(pj, dl, n) for n in range(1, st.count(pj, MONGOL) + 1)]
    if not options:
        return
    src, dst, n = ctx.ask(chooser, "mongol_advance", tuple(options))
    move(ctx, src, dst, MONGOL, n)


def mongol_battle(ctx: Context, s: int) -> None:
    """All Invaders in ``s`` attack the Sultanate pieces there: 4 dice, 3 in Delhi, with the
    Mongol Charge; the Sultanate rolls 2 and may use Cavalry; each side removes its own (3.5.3).

    3.5.3: "carries out a Mongol attack (if any Sultanate pieces are present)", and Key Terms:
    "Piece: All Units and Structures", so a Qasbah alone is attacked: the Sultanate rolls its
    two dice but scores no hit without Units, and a Qasbah is a casualty beside the Units."""
    st = ctx.state
    combat = ctx.rules.combat
    invaders = st.count(s, MONGOL)
    ds_units = st.count(s, TROOP) + st.count(s, GOVERNOR)
    if not invaders or not (ds_units or st.count(s, QASBAH)):
        return
    dice = combat["mongol_dice_in_delhi"] if s == ctx.rules.delhi else combat["attack_dice"]
    mongol_hits, ds_hits = battle(ctx, s, MI, DS, invaders, ds_units, dice, combat["defend_dice"])
    remove(ctx, s, MONGOL, ds_hits)
    for _ in range(mongol_hits):
        options = tuple([c for c in (TROOP, GOVERNOR, QASBAH) if st.count(s, c)])
        if not options:
            break
        c = ctx.ask(DS, "casualty", options, s)
        remove(ctx, s, c, 1)
        if c == QASBAH:
            st.qasbah_kills += 1
        else:
            st.mongol_kills += 1


def plunder(ctx: Context, s: int, resources: bool = True, provinces: bool = True) -> None:
    """Per Invader in ``s``: the Sultanate loses 1 Resource (not below 3) and, from Punjab 1
    and from Delhi 2 Troops in Provinces of its choice (3.5.3)."""
    st = ctx.state
    m = ctx.rules.mongols
    invaders = st.count(s, MONGOL)
    if resources and invaders:
        add_resources(ctx, DS, -invaders, floor=m["plunder_floor"])
    if not provinces:
        return
    per = m["plunder_troops"].get(ctx.rules.board.names[s], 0)
    for _ in range(invaders * per):
        options = tuple([p for p in ctx.rules.board.provinces if st.count(p, TROOP)])
        if not options:
            break
        p = ctx.ask(DS, "plunder_troop", options, s)
        remove(ctx, p, TROOP, 1)
        st.mongol_kills += 1


def attack_plunder(ctx: Context, chooser: int) -> None:
    """Attack in one space with Invaders, then plunder it, then send Invaders beyond three
    back to the box (3.5.3)."""
    st = ctx.state
    options = tuple([s for s in _regions(ctx) if st.count(s, MONGOL)])
    if not options:
        return
    s = ctx.ask(chooser, "mongol_attack_space", options)
    mongol_battle(ctx, s)
    plunder(ctx, s)
    return_excess(ctx, s)


def return_excess(ctx: Context, s: int) -> None:
    """ "Finally, return any Mongol Invaders in excess of three in the selected space to the
    Mongol Invaders holding box" (3.5.3)."""
    st = ctx.state
    keep = ctx.rules.mongols["keep_after_plunder"]
    if st.count(s, MONGOL) > keep:
        remove(ctx, s, MONGOL, st.count(s, MONGOL) - keep)
