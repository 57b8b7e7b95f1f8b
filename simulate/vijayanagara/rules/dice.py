"""The game's dice: a stream of its own for every battle (1.10), so that two variants played
on one seed roll the same dice in the same battle even after their games have diverged
(common random numbers, issue 19). One stream for the whole game fell out of step at the
first battle one variant fought and the other did not."""

from __future__ import annotations

import random


class BattleDice:
    """Streams keyed by (card position, space, attacker, defender, how many battles those
    sides fought there on this card), derived from one 63-bit key drawn from the game's
    dice generator; never from what was rolled before."""

    __slots__ = ("key", "fought")

    def __init__(self, rng: random.Random) -> None:
        self.key = rng.getrandbits(63)
        self.fought: dict[tuple, int] = {}

    def battle(self, where: tuple) -> random.Random:
        """The stream of the next battle at ``where`` = (card position, space, attacker,
        defender)."""
        k = self.fought.get(where, 0)
        self.fought[where] = k + 1
        # a tuple of ints hashes alike in every process: no PYTHONHASHSEED salt on ints
        return random.Random(hash((self.key, *where, k)))

    def random(self) -> float:
        """A draw outside any battle (none in the rules today): from the game's key alone."""
        return self.battle((-1, -1, -1, -1)).random()


class SeededDice:
    """One stream, ``random.Random(seed)``, made at its first roll: a search plays many
    branches of one choice on the same dice (common random numbers), and most roll none."""

    __slots__ = ("seed", "_rng")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def random(self):
        """The stream's ``random``, what ``Context.roll`` draws from."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return rng.random
