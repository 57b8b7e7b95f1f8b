"""Putting pieces on, off and across the map (1.4.3, 1.4.4, 1.4.6), keeping Control and the
Rebelling rule up to date after every change (1.7, 1.4.5)."""

from __future__ import annotations

from .context import Context
from .control import settle
from .pieces import COUNTER_TYPE, NK, STRUCTURES


def place(ctx: Context, s: int, counter: int, n: int) -> int:
    """Place up to ``n`` pieces from Available (1.4.6); Structures obey stacking (1.4.4).
    Returns how many were placed."""
    st = ctx.state
    pt = COUNTER_TYPE[counter]
    if counter in STRUCTURES:
        n = min(n, 1 - st.pieces[s * NK + counter])
    n = min(n, st.avail[pt])
    if n <= 0:
        return 0
    st.avail[pt] -= n
    st.pieces[s * NK + counter] += n
    settle(st, s, ctx.rules.board.is_province[s])
    return n


def remove(ctx: Context, s: int, counter: int, n: int) -> int:
    """Return up to ``n`` pieces from a space to Available (1.4.3). Returns how many."""
    st = ctx.state
    i = s * NK + counter
    n = min(n, st.pieces[i])
    if n <= 0:
        return 0
    st.pieces[i] -= n
    st.avail[COUNTER_TYPE[counter]] += n
    settle(st, s, ctx.rules.board.is_province[s])
    return n


def move(
    ctx: Context, src: int, dst: int, counter: int, n: int, to_counter: int | None = None
) -> int:
    """Move up to ``n`` Units from ``src`` to ``dst`` (arriving as ``to_counter`` if given)."""
    st = ctx.state
    i = src * NK + counter
    n = min(n, st.pieces[i])
    if n <= 0:
        return 0
    st.pieces[i] -= n
    st.pieces[dst * NK + (counter if to_counter is None else to_counter)] += n
    is_province = ctx.rules.board.is_province
    settle(st, src, is_province[src])
    settle(st, dst, is_province[dst])
    return n


def flip(ctx: Context, s: int, from_counter: int, to_counter: int, n: int | None = None) -> None:
    """Flip Amirs or Rajas between Obedient and Rebelling (1.4.5); Control re-asserts itself."""
    st = ctx.state
    p = st.pieces
    i, j = s * NK + from_counter, s * NK + to_counter
    k = p[i] if n is None else min(n, p[i])
    p[i] -= k
    p[j] += k
    settle(st, s, ctx.rules.board.is_province[s])
