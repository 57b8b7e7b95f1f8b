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
    readings = ctx.rules.readings
    for _ in range(2):
        # 2.4.1 "carries out any two Mongol Invader Commands": compulsory where possible;
        # readings.mongol_commands_optional lets the Faction decline ("none")
        options = mongol.available(ctx)
        if readings.get("mongol_commands_optional"):
            options.append(mongol.DECLINE)
        if not options:
            break
        name = ctx.ask(f, "mongol_command", tuple(options), card.id)
        if name == mongol.DECLINE:
            continue
        mongol.execute(ctx, f, name)
        chosen.append(name)
    ctx.log[f][1] = "+".join(chosen) or None
    # 2.4.2 "reduce its Deccan Influence by one": not offered at 0 (1.9: nothing to reduce);
    # readings.gifts_at_zero_influence offers it there too (the shift off the track is ignored)
    can_give = st.influence[f] >= 1 or readings.get("gifts_at_zero_influence")
    if can_give and ctx.ask(f, "compromising_gifts", (True, False), card.id):
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
    readings = r.readings
    _timur_attack(ctx, r.mountain_passes)
    _advance_all(ctx, r.mountain_passes, r.punjab)
    _timur_attack(ctx, r.punjab)
    _advance_all(ctx, r.punjab, r.delhi)
    delhi = r.delhi
    if readings.get("timur_delhi_needs_units") and not _ds_units(ctx, delhi):
        return  # the other reading of step 3: no Sultanate Unit in Delhi, no Attack there
    for _ in range(10_000):  # ends with probability 1; the bound only guards against a bug
        if not st.count(delhi, MONGOL):
            break
        # step 3 "the Mongol Invaders Attack in Delhi, ignoring the Province-related
        # consequences": the Resource loss of 3.5.3 comes "regardless of whether any attack
        # actually occurred", so Invaders facing no Sultanate Unit still plunder once
        _timur_attack(ctx, delhi)
        mongol.plunder(ctx, delhi, resources=True, provinces=False)
        if not _ds_units(ctx, delhi):
            break  # "until either no Mongol Invaders or no Delhi Sultanate Units remain"
    else:
        raise RuntimeError("Timur's assault on Delhi did not end")


def _ds_units(ctx: Context, s: int) -> int:
    st = ctx.state
    return st.count(s, TROOP) + st.count(s, GOVERNOR)


def _timur_attack(ctx: Context, s: int) -> None:
    """One of Timur's Attacks (2.6): a Mongol battle; with readings.timur_return_excess, then
    3.5.3's "return any Mongol Invaders in excess of three" (the literal 2.6 keeps them: 5.1
    scores "six or more Invaders" left in Delhi)."""
    mongol.mongol_battle(ctx, s)
    if ctx.rules.readings.get("timur_return_excess"):
        mongol.return_excess(ctx, s)
