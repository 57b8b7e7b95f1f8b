"""Selectors and filters of the event language (schema 5): which spaces an op may act on,
which pieces match, and the piece counters a piece word names (``pieces.py``).

Every choice among spaces or pieces is a Decision asked of the Faction that makes it; the
ops that use these are in ``event_ops``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .context import Context
from .decisions import DONE
from .event_cards import ChooseSelector
from .pieces import (
    AMIR_OB,
    AMIR_REB,
    BK,
    COUNTER_OWNER,
    FORT,
    GOVERNOR,
    INDEX,
    MI,
    MONGOL,
    NK,
    OB,
    PIECES_OF,
    QASBAH,
    RAJA_OB,
    RAJA_REB,
    REB,
    STRUCTURE_OF,
    STRUCTURES,
    TEMPLE,
    TROOP,
    UNITS_OF,
    VE,
)

SpaceTest = Callable[[int], bool]

# Specific piece words and their counters (schema 5.2; pieces.py).
_SPECIFIC = {
    "troop": (TROOP,),
    "governor": (GOVERNOR,),
    "qasbah": (QASBAH,),
    "amir": (AMIR_OB, AMIR_REB),
    "fort": (FORT,),
    "raja": (RAJA_OB, RAJA_REB),
    "temple": (TEMPLE,),
    "mongol": (MONGOL,),
}


# --- values ------------------------------------------------------------------------------


def faction(value: str, executor: int) -> int:
    """A faction value of the schema as an index; ``executor`` resolves now (schema 4.3)."""
    return executor if value == "executor" else INDEX[value]


def counters(f: int, piece: str) -> tuple[int, ...]:
    """The counters a piece word of faction ``f`` covers (schema 5.2)."""
    if piece == "unit":
        return UNITS_OF[f]
    if piece == "structure":
        return (STRUCTURE_OF[f],) if f != MI else ()
    if piece == "any":
        return PIECES_OF[f]
    return _SPECIFIC[piece]


def place_counter(f: int, piece: str, state: str = "obedient") -> int:
    """The counter a specific placed piece goes on as (1.4.6: Obedient unless stated)."""
    if piece in ("amir", "raja"):
        return REB[f] if state == "rebelling" else OB[f]
    return _SPECIFIC[piece][0]


def can_hold(ctx: Context, s: int, counter: int) -> bool:
    """Whether that piece may ever be in space ``s`` (1.3.1-1.3.3, 1.4.2; schema 4.5)."""
    owner = COUNTER_OWNER[counter]
    if counter in STRUCTURES or owner in (BK, VE):
        return ctx.rules.board.is_province[s]
    if owner == MI:
        return not ctx.rules.board.is_province[s]
    return True


def has_any(ctx: Context, s: int, cs: tuple[int, ...]) -> bool:
    p = ctx.state.pieces
    b = s * NK
    return any(p[b + c] for c in cs)


# --- selectors and filters (schema 5) ----------------------------------------------------


def matches(ctx: Context, s: int, flt: Any, executor: int) -> bool:
    """Whether space ``s`` matches every key of a filter (schema 5.1)."""
    if flt is None:
        return True
    board = ctx.rules.board
    st = ctx.state
    if flt.names is not None and board.names[s] not in flt.names:
        return False
    if flt.adjacent_to is not None:
        a = board.id(flt.adjacent_to)
        if a == s or not board.is_adjacent(a, s):
            return False
    if flt.has is not None and not has_any(ctx, s, ref_counters(flt.has, executor)):
        return False
    if flt.lacks is not None and has_any(ctx, s, ref_counters(flt.lacks, executor)):
        return False
    province = board.is_province[s]
    if flt.controlled_by is not None:
        if not province or st.tributary[s]:
            return False
        want = -1 if flt.controlled_by == "none" else faction(flt.controlled_by, executor)
        if st.control[s] != want:
            return False
    if flt.tributary is not None and (not province or st.tributary[s] != flt.tributary):
        return False
    return flt.prosperity is None or (province and board.prosperity[s] == flt.prosperity)


def ref_counters(ref: Any, executor: int) -> tuple[int, ...]:
    return counters(faction(ref.faction, executor), ref.piece)


def candidates(ctx: Context, sel: Any, executor: int, allowed: SpaceTest) -> list[int]:
    """The spaces a selector could yield, before any choice (schema 5): fixed spaces, or the
    spaces of the kind that match the filter; spaces where the op's piece can never be are
    left out (schema 5, 4.5)."""
    board = ctx.rules.board
    if not isinstance(sel, ChooseSelector):
        return [s for s in (board.id(name) for name in sel.fixed) if allowed(s)]
    pool = board.province_ids if sel.kind == "province" else range(board.n)
    flt = sel.filter
    return [s for s in pool if allowed(s) and matches(ctx, s, flt, executor)]


def select(
    ctx: Context,
    sel: Any,
    executor: int,
    allowed: SpaceTest,
    useful: SpaceTest,
    label: str,
    chooser: int | None = None,
) -> list[int]:
    """Resolve a selector when its op starts (schema 4.1, 5). A ``choose`` selector's chooser
    picks among the candidates where the op can take some effect (2.3.4): exactly N (all of
    them if fewer), or 0..N under ``up_to``. Picking a space where the op does nothing changes
    nothing, so such spaces are not offered. ``chooser`` overrides the selector's."""
    cands = candidates(ctx, sel, executor, allowed)
    if not isinstance(sel, ChooseSelector):
        return cands
    if chooser is None:
        chooser = faction(sel.chooser, executor)
    left = [s for s in cands if useful(s)]
    if not sel.up_to and len(left) <= sel.choose:
        return left
    picked: list[int] = []
    while left and len(picked) < sel.choose:
        options = (*left, DONE) if sel.up_to else tuple(left)
        s = ctx.ask(chooser, "event_space", options, label)
        if s == DONE:
            break
        picked.append(s)
        left.remove(s)
    return picked


def decider(sel: Any, executor: int) -> int:
    """Who makes the decisions of an op in its spaces: a ``choose`` selector's chooser, else
    the executor (schema 4.4)."""
    return faction(sel.chooser, executor) if isinstance(sel, ChooseSelector) else executor


def splits(have: list[tuple[int, int]], lo: int, hi: int) -> tuple[tuple, ...]:
    """Every way to take between ``lo`` and ``hi`` pieces from ``have`` [(counter, present)],
    as tuples of (counter, n > 0); largest totals first, then in counter order."""
    out: list[tuple[int, tuple]] = []
    _walk(have, lo, hi, 0, (), 0, out)
    out.sort(key=lambda item: -item[0])
    return tuple([acc for _, acc in out])


def _walk(have: list, lo: int, hi: int, i: int, acc: tuple, total: int, out: list) -> None:
    """``splits`` from ``have[i:]`` onwards, ``acc`` taken so far (a module function: a
    recursive closure would be a reference cycle left to the garbage collector)."""
    if i == len(have):
        if total >= lo:
            out.append((total, acc))
        return
    c, n = have[i]
    for k in range(min(n, hi - total), -1, -1):
        _walk(have, lo, hi, i + 1, acc + ((c, k),) if k else acc, total + k, out)


def present_pieces(ctx: Context, s: int, cs: tuple[int, ...]) -> list[tuple[int, int]]:
    p = ctx.state.pieces
    b = s * NK
    return [(c, p[b + c]) for c in cs if p[b + c]]


def take(
    ctx: Context, who: int, s: int, cs: tuple[int, ...], count: int, up_to: bool, label: str
) -> tuple:
    """Which pieces of ``cs`` to take from ``s``: ``count`` (or all if fewer), or 0..count
    under ``up_to``; asked of ``who`` when it matters (schema 6.5, 6.6)."""
    have = present_pieces(ctx, s, cs)
    n = min(count, sum([k for _, k in have]))
    if n <= 0:
        return ()
    return ctx.ask(who, "event_pieces", splits(have, 0 if up_to else n, n), (s, label))
