"""The Deccan Influence track (1.9): shifts, released Unit slots, and refilling them."""

from __future__ import annotations

from .context import Context
from .pieces import NK, OB, REB, UNIT_TYPE


def shift(ctx: Context, f: int, delta: int) -> None:
    """Move ``f``'s Influence marker by ``delta``, ignoring movement off the track (1.9).
    Reaching a slot releases its Units to Available; dropping below an emptied slot refills it."""
    st = ctx.state
    old = st.influence[f]
    new = max(0, min(ctx.rules.influence_max, old + delta))
    if new == old:
        return
    st.influence[f] = new
    slots = st.slots[f]
    pt = UNIT_TYPE[f]
    if new > old:
        for level in range(old + 1, new + 1):
            if slots[level]:
                st.avail[pt] += slots[level]
                slots[level] = 0
        return
    wanted = ctx.rules.setup_slots[f]
    for level in range(new + 1, old + 1):
        for _ in range(wanted[level] - slots[level]):
            _refill_one(ctx, f, level)


def _refill_one(ctx: Context, f: int, level: int) -> None:
    """The owner puts one Unit back on an emptied slot, from Available or the map (1.9)."""
    from .placement import remove  # local: placement imports nothing from here

    st = ctx.state
    pt = UNIT_TYPE[f]
    options: list = []
    if st.avail[pt] > 0:
        options.append("available")
    p = st.pieces
    for s in ctx.rules.board.provinces:
        for counter in (OB[f], REB[f]):
            if p[s * NK + counter]:
                options.append((s, counter))
    if not options:
        return
    choice = ctx.ask(f, "influence_refill", tuple(options), level)
    if choice != "available":
        remove(ctx, choice[0], choice[1], 1)
    st.avail[pt] -= 1
    st.slots[f][level] += 1
