"""Trade (4.3.1): Resources equal to the Provinces holding a Bahmani piece, then Cavalry by
Bahmani Influence (Influential: 2 at 1-2, 3 at 3-4; 1.9.1)."""

from __future__ import annotations

from ..context import Context
from ..pieces import NK, PIECES_OF
from ..tracks import add_resources, gain_cavalry


def possible(ctx: Context, f: int) -> bool:
    return True


def execute(ctx: Context, f: int) -> None:
    st = ctx.state
    p = st.pieces
    mine = PIECES_OF[f]
    n = sum([1 for s in ctx.rules.board.provinces if any(p[s * NK + c] for c in mine)])
    add_resources(ctx, f, n)
    gain_cavalry(ctx, f, ctx.rules.decrees["trade_cavalry"][st.influence[f]])
