"""March (3.2.2): move Troops and Governors from adjacent spaces into each destination."""

from __future__ import annotations

from ..context import Context
from ..pieces import GOVERNOR, TROOP
from ..placement import move


def spaces(ctx: Context, f: int, run) -> list[int]:
    """Spaces next to unmoved Troops or Governors (3.2.2)."""
    st = ctx.state
    board = ctx.rules.board
    out = []
    mask = run.ready_mask(st, range(board.n), TROOP, GOVERNOR)
    if not mask:
        return out
    adjacent_mask = board.adjacent_mask
    for s in range(board.n):
        if adjacent_mask[s] & mask:
            out.append(s)
    return out


def resolve(ctx: Context, f: int, s: int, run) -> None:
    """From each adjacent space, move any number of unmoved Troops and Governors (3.1.2)."""
    st = ctx.state
    for a in ctx.rules.board.adjacent[s]:
        mt, mg = run.movable(st, a, TROOP), run.movable(st, a, GOVERNOR)
        if not (mt or mg):
            continue
        options = tuple([(t, g) for t in range(mt + 1) for g in range(mg + 1)])
        t, g = ctx.ask(f, "march_from", options, (a, s))
        if t:
            move(ctx, a, s, TROOP, t)
            run.use(s, TROOP, t)
        if g:
            move(ctx, a, s, GOVERNOR, g)
            run.use(s, GOVERNOR, g)
