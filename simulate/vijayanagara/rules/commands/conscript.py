"""Conscript (3.2.1): place Available Troops in Delhi, Qasbah spaces and Tributary Provinces."""

from __future__ import annotations

from ..context import Context
from ..pieces import NK, PT_TROOP, QASBAH, TROOP


def amount(ctx: Context, s: int) -> int:
    """Troops one selected space may receive: 5 in Delhi, 2 with a Qasbah, 1 in a Tributary (3.2.1)."""
    table = ctx.rules.factions["DS"]["conscript"]
    st = ctx.state
    if s == ctx.rules.delhi:
        n = table["delhi"]
    elif st.pieces[s * NK + QASBAH]:
        n = table["qasbah"]
    else:
        n = table["tributary"]
    if st.has_lasting("conscript_plus_one", 0):  # EVENTS_SCHEMA 6.16
        n += 1
    return n


def spaces(ctx: Context, f: int, run) -> list[int]:
    """Delhi, spaces with a Qasbah and Tributary Provinces (3.2.1)."""
    st = ctx.state
    out = []
    if st.avail[PT_TROOP] == 0:
        return out
    p = st.pieces
    trib = st.tributary
    delhi = ctx.rules.delhi
    for s in range(ctx.rules.board.n):
        if s == delhi or trib[s] or p[s * NK + QASBAH]:
            out.append(s)
    return out


def resolve(ctx: Context, f: int, s: int, run) -> None:
    from ..placement import place

    n = min(amount(ctx, s), ctx.state.avail[PT_TROOP])
    if n > 1:
        n = ctx.ask(f, "conscript_count", tuple(range(n, 0, -1)), s)
    place(ctx, s, TROOP, n)
