"""Misbehaving strategies for the fault tests (importable as tests.fault_strategies:Name)."""

from __future__ import annotations

import time

from strategies.policies.random import RandomStrategy


class Hang:
    """Hangs on its first decision in about 60% of the games (decided from its own seed)."""

    name = "hang"

    def new_game(self, faction, rng, rules):
        self.rng = rng
        self.hang = rng.random() < 0.6

    def choose(self, observation, decision):
        if self.hang:
            time.sleep(3600)
        return decision.options[int(self.rng.random() * len(decision.options))]


class Slow:
    """Plays like `random`, a little slowly, so that a run lasts long enough to be interrupted."""

    name = "slow"

    def new_game(self, faction, rng, rules):
        self.rng = rng

    def choose(self, observation, decision):
        if decision.kind == "action":
            time.sleep(0.002)
        return decision.options[int(self.rng.random() * len(decision.options))]


class Boom(RandomStrategy):
    """Random play, except that in about half the games it raises at its fourth decision."""

    name = "boom"

    def new_game(self, faction, rng, rules):
        super().new_game(faction, rng, rules)
        self.doomed = rng.random() < 0.5
        self.calls = 0

    def choose(self, observation, decision):
        self.calls += 1
        if self.doomed and self.calls == 4:
            raise ZeroDivisionError("boom\nsecond line")
        return super().choose(observation, decision)
