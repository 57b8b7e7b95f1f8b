"""Build (4.3.2, 4.4.2): BK places a Fort, VE a Temple, in one Province holding one of its
Units and none of that Structure (1.4.4); one implementation for both."""

from __future__ import annotations

from ..context import Context
from ..pieces import NK, OB, REB, STRUCTURE_OF, STRUCTURE_TYPE
from ..placement import place


def _targets(ctx: Context, f: int) -> list[int]:
    st = ctx.state
    if not st.avail[STRUCTURE_TYPE[f]]:
        return []
    p = st.pieces
    return [
        s
        for s in ctx.rules.board.provinces
        if (p[s * NK + OB[f]] or p[s * NK + REB[f]]) and not p[s * NK + STRUCTURE_OF[f]]
    ]


def possible(ctx: Context, f: int) -> bool:
    return bool(_targets(ctx, f))


def execute(ctx: Context, f: int) -> None:
    targets = _targets(ctx, f)
    if targets:
        place(ctx, ctx.ask(f, "build", tuple(targets)), STRUCTURE_OF[f], 1)
