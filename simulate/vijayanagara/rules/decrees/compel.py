"""Compel (4.4.3): in one Province with or adjacent to a Vijayanagara piece, place up to two
Rajas and/or move some in from one adjacent Province (two in all); Influential (>= 2): gain a
Cavalry token and remove a Troop, Governor or Amir there."""

from __future__ import annotations

from ..context import Context
from ..pieces import AMIR_OB, AMIR_REB, GOVERNOR, NK, PIECES_OF, PT_RAJA, RAJA_OB, RAJA_REB, TROOP
from ..placement import flip, move, place, remove
from ..tracks import gain_cavalry


def _mine(ctx: Context, f: int) -> list[int]:
    """The Provinces holding a piece of the Faction."""
    p = ctx.state.pieces
    return [s for s in ctx.rules.board.provinces if any([p[s * NK + c] for c in PIECES_OF[f]])]


def _targets(ctx: Context, f: int) -> list[int]:
    board = ctx.rules.board
    mine = set(_mine(ctx, f))
    return [s for s in board.provinces if s in mine or any(a in mine for a in board.adjacent[s])]


def _influential(ctx: Context, f: int) -> bool:
    return ctx.state.influence[f] >= ctx.rules.decrees["compel_influential"]


def possible(ctx: Context, f: int) -> bool:
    """A Province of the Faction's own is a target: any target means one of those."""
    return bool(_mine(ctx, f))


def execute(ctx: Context, f: int) -> None:
    st = ctx.state
    p = st.pieces
    board = ctx.rules.board
    targets = _targets(ctx, f)
    if not targets:
        return
    s = ctx.ask(f, "compel_space", tuple(targets))
    n_place = ctx.ask(f, "compel_place", tuple(range(min(2, st.avail[PT_RAJA]), -1, -1)), s)
    placed = place(ctx, s, RAJA_OB, n_place)
    moved_obedient = 0  # Rebelling Rajas moved in need no flip
    room = 2 - placed
    if room:
        options: list = ["none"]
        for a in board.adjacent[s]:
            if board.kinds[a] != "province":
                continue
            ob, reb = p[a * NK + RAJA_OB], p[a * NK + RAJA_REB]
            options += [
                (a, o, r)
                for o in range(min(ob, room) + 1)
                for r in range(min(reb, room - o) + 1)
                if o or r
            ]
        choice = ctx.ask(f, "compel_move", tuple(options), s)
        if choice != "none":
            a, o, r = choice
            moved_obedient = move(ctx, a, s, RAJA_OB, o)
            move(ctx, a, s, RAJA_REB, r)
    if not _influential(ctx, f):
        return
    gain_cavalry(ctx, f, 1)
    removable = tuple([c for c in (TROOP, GOVERNOR, AMIR_OB, AMIR_REB) if p[s * NK + c]])
    victim = ctx.ask(f, "compel_remove", ("none", *removable), s)
    if victim == "none":
        return
    remove(ctx, s, victim, 1)
    if victim in (TROOP, GOVERNOR) and placed + moved_obedient:
        # the Rajas just placed or moved turn Rebelling (4.4.3); those already there do not
        flip(ctx, s, RAJA_OB, RAJA_REB, placed + moved_obedient)
