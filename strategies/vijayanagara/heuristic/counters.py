# cython: boundscheck=False, wraparound=False
"""The bots' two hottest reads of the board's piece counters (1.4): each Faction's pieces in
a space, and the spaces whose counters changed since a copy was taken.

Compiled (``setup.py``), this module alone reads the counters without bounds or negative-index
checks (the directive above: 2% of a default game, issue 42): every index here is
``s * NK + k`` for a space ``s`` of the board and a counter ``k < NK``, and ``old`` is a copy
of an earlier ``new`` (the same length). Keep it that way: an index out of range here is
undefined behaviour compiled; the pure build (``VSIM_PURE=1``, run by the tests) still
raises IndexError."""

from __future__ import annotations

from simulate.vijayanagara.rules.pieces import NK


def counts(p: bytearray, s: int) -> tuple[int, int, int]:
    """Pieces of DS, BK and VE in space ``s``."""
    b = s * NK
    # each counter read into its own name (a C integer in the compiled copy: counters.pxd)
    t, gov, q = p[b], p[b + 1], p[b + 2]
    ao, ar, fort = p[b + 3], p[b + 4], p[b + 5]
    ro, rr, temple = p[b + 6], p[b + 7], p[b + 8]
    return (t + gov + q, ao + ar + fort, ro + rr + temple)


def sync_spaces(new: bytearray, old: bytearray) -> list[int]:
    """The spaces whose piece counters differ between two boards' counters, each brought up to
    date in ``old`` (a copy of an earlier ``new``): one pass, no new copy."""
    out = []
    for s in range(len(new) // NK):
        hit = False
        for i in range(s * NK, s * NK + NK):
            a = new[i]
            if a != old[i]:
                old[i] = a
                hit = True
        if hit:
            out.append(s)
    return out
