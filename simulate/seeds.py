"""Seeds: one master seed, a seed per game, separate streams per game (DESIGN: Randomness).

Game k's seed depends on (master, k) only, never on the variant or the worker, so two
variants play the same decks and dice for the same index (common random numbers).
"""

from __future__ import annotations

import random

import numpy as np

STREAMS = ("deck", "dice", "DS", "BK", "VE")


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a study with seed ``master`` (a 63-bit integer)."""
    if master < 0 or index < 0:
        raise ValueError("seeds and game indices must be non-negative integers")
    state = np.random.SeedSequence([master, index]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def streams(seed: int) -> dict[str, random.Random]:
    """Independent generators for one game: deck shuffle, dice, and one per strategy."""
    if seed < 0:
        raise ValueError("a game seed must be a non-negative integer")
    children = np.random.SeedSequence(seed).spawn(len(STREAMS))
    out = {}
    for name, child in zip(STREAMS, children, strict=True):
        words = child.generate_state(4, np.uint32)
        out[name] = random.Random(int.from_bytes(words.tobytes(), "little"))
    return out
