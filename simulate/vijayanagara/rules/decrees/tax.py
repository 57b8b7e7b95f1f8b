"""Tax (4.4.1): Resources equal to the Prosperity of Vijayanagara-Controlled Provinces plus
the Temples on the map."""

from __future__ import annotations

from ..context import Context
from ..pieces import NK, STRUCTURE_OF
from ..tracks import add_resources


def possible(ctx: Context, f: int) -> bool:
    return True


def execute(ctx: Context, f: int) -> None:
    st = ctx.state
    board = ctx.rules.board
    gain = sum([board.prosperity[s] for s in board.provinces if st.control[s] == f])
    gain += sum([st.pieces[s * NK + STRUCTURE_OF[f]] for s in board.provinces])
    add_resources(ctx, f, gain)
