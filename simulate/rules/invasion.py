"""Mongol Invasion cards (2.4) and the Timurid Empire cards with Timur Invades Delhi (2.6)."""

from __future__ import annotations

from .commands import mongol
from .context import Context
from .influence import shift
from .pieces import GOVERNOR, MONGOL, PT_MONGOL, TROOP
from .placement import move, place
from .ruleset import Card
from .tracks import add_resources, gain_cavalry


def mongol_invasion(ctx: Context, card: Card) -> None:
    """The named Faction carries out two Mongol Commands, possibly the same twice (2.4.1),
    then may give up one Influence for 2 Resources and 2 Cavalry (2.4.2). No Eligibility change."""
    st = ctx.state
    f = card.faction
    chosen = []
    for _ in range(2):
        options = mongol.available(ctx)
        if not options:
            break
        name = ctx.ask(f, "mongol_command", tuple(options), card.id)
        mongol.execute(ctx, f, name)
        chosen.append(name)
    ctx.log[f][1] = "+".join(chosen) or None
    if st.influence[f] >= 1 and ctx.ask(f, "compromising_gifts", (True, False), card.id):
        shift(ctx, f, -1)
        add_resources(ctx, f, 2)
        gain_cavalry(ctx, f, 2)
        ctx.log[f][2] = "compromising_gifts"
    ctx.action_done()


def timurid(ctx: Context) -> None:
    """First card: half the Available Invaders (rounded down) to the Mountain Passes.
    Second card: Timur Invades Delhi, then the game ends (2.6)."""
    st = ctx.state
    st.timurid += 1
    r = ctx.rules
    if st.timurid == 1:
        place(ctx, r.mountain_passes, MONGOL, st.avail[PT_MONGOL] // 2)
        ctx.action_done()
        return
    timur_invades(ctx)
    st.over = True
    ctx.action_done()


def _advance_all(ctx: Context, src: int, dst: int) -> None:
    for c in (MONGOL, TROOP, GOVERNOR):
        move(ctx, src, dst, c, ctx.state.count(src, c))


def timur_invades(ctx: Context) -> None:
    """Attack in the Mountain Passes (no Resource loss), all survivors on to Punjab; attack
    there (no Resource or Province losses), all on to Delhi; attack in Delhi with Resource
    losses only, until no Invaders or no Sultanate Units remain there (2.6). Invaders beyond
    three are not sent home: 5.1 counts up to six or more left in Delhi."""
    st = ctx.state
    r = ctx.rules
    mongol.mongol_battle(ctx, r.mountain_passes)
    _advance_all(ctx, r.mountain_passes, r.punjab)
    mongol.mongol_battle(ctx, r.punjab)
    _advance_all(ctx, r.punjab, r.delhi)
    delhi = r.delhi
    for _ in range(10_000):  # ends with probability 1; the bound only guards against a bug
        if not st.count(delhi, MONGOL):
            break
        mongol.mongol_battle(ctx, delhi)
        mongol.plunder(ctx, delhi, resources=True, provinces=False)
        if not (st.count(delhi, TROOP) + st.count(delhi, GOVERNOR)):
            break
    else:
        raise RuntimeError("Timur's assault on Delhi did not end")
