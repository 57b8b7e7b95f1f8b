"""The deck's shuffles (2.1): ``random.Random.shuffle``'s very draws, as a C loop when
compiled. CPython's shuffle is Python code (a Fisher-Yates pass drawing each index with
``_randbelow``, a Python method too); deck construction and every search's determinisation
(``observation.redeal``) shuffle, so the same draws without the interpreter keep every game
the same and make a determinisation several times cheaper."""

from __future__ import annotations

import random


def shuffle(x: list, rng: random.Random) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (CPython 3.11: for ``i``
    from the end, swap ``x[i]`` with ``x[j]``, ``j = _randbelow_with_getrandbits(i + 1)``:
    ``getrandbits(k)`` for ``k`` the bit length of ``i + 1``, drawn again while too large)."""
    if type(rng) is not random.Random:
        rng.shuffle(x)  # a subclass may draw its indices otherwise
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = 0
        m = n
        while m:
            k += 1
            m >>= 1
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
