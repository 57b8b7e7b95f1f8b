"""The deck's shuffles draw exactly as ``random.Random.shuffle`` (2.1): the same decks, and
the same determinisations in searches, compiled or not."""

from __future__ import annotations

import random

import pytest

from simulate.vijayanagara.rules.shuffle import shuffle


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 8, 9, 24, 43, 64, 65, 200])
def test_shuffle_draws_as_random_shuffle(size):
    for seed in range(25):
        ours, theirs = list(range(size)), list(range(size))
        rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
        shuffle(ours, rng_ours)
        rng_theirs.shuffle(theirs)
        assert ours == theirs
        assert rng_ours.getstate() == rng_theirs.getstate()  # as many draws, too


def test_a_generator_subclass_shuffles_by_its_own_method():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    x = [1, 2, 3]
    shuffle(x, Reversing(0))
    assert x == [3, 2, 1]
