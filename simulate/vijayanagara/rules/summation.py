"""Float sums that give the same bits on every Python (issue 65).

Python 3.12's built-in ``sum()`` adds floats with compensated (Neumaier) summation; 3.11's adds
them left to right, one rounding per addition. A bot that sums floats to rank its options could
then pick another option on 3.12 from the same seed, and the game would go another way:
``sum([1e16, 1.0, -1e16])`` is ``0.0`` on 3.11 and ``1.0`` on 3.12. Every float sum in code
that plays a game (the bots and the rules) is :func:`ordered_sum`, which adds left to right
exactly as 3.11's ``sum()`` does, so the games of 3.11 are the games of every version. Sums of
ints are exact on every version and stay the built-in.

The module is not compiled (``setup.py``): the compiled bots and the pure build call this very
function, so both builds add in the same order by construction.
"""

from __future__ import annotations

from collections.abc import Iterable


def ordered_sum(values: Iterable[float]) -> float:
    """The sum of ``values`` added left to right, one rounding per addition: the value of
    Python 3.11's ``sum(values)`` over floats (or floats and small ints) on every Python,
    as a float (``0.0`` when there are none)."""
    total = 0.0
    for x in values:
        total += x
    return total
