"""Seeds: one master seed, a seed per game, separate streams per game (DESIGN: Randomness).

Game k's seed depends on (master, k) only, never on the variant or the worker, so two
variants play the same decks and dice for the same index (common random numbers).
"""

from __future__ import annotations

import random

import numpy as np


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a study with seed ``master`` (a 63-bit integer)."""
    if master < 0 or index < 0:
        raise ValueError("seeds and game indices must be non-negative integers")
    state = np.random.SeedSequence([master, index]).generate_state(2, np.uint32)
    return (int(state[0]) << 31) ^ int(state[1])


def streams(seed: int, names: tuple[str, ...]) -> dict[str, random.Random]:
    """Independent generators for one game, one per name the game declares (its deck, its dice,
    one per seat's strategy...).

    One SeedSequence draw of 128 bits per stream (cheaper than spawning children, and as
    independent)."""
    if seed < 0:
        raise ValueError("a game seed must be a non-negative integer")
    words = np.random.SeedSequence(seed).generate_state(4 * len(names), np.uint32).tobytes()
    return {
        name: random.Random(int.from_bytes(words[16 * i : 16 * (i + 1)], "little"))
        for i, name in enumerate(names)
    }
