"""What a strategy sees (2.3): the Observation's public position, read in one call by the
bots (``observation.position``), is what its properties give."""

from __future__ import annotations

import random
from types import SimpleNamespace

from simulate.vijayanagara.rules.observation import Observation, position
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.rules.setup import new_state

FIELDS = (
    "pieces",
    "tributary",
    "available",
    "control",
    "resources",
    "cavalry",
    "influence",
    "dynasty",
    "cards_remaining",
)


def test_position_is_the_observations_live_public_position():
    rules = load_rules()
    state = new_state(rules, random.Random(4))
    state.pos = 3  # three cards drawn (2.3): 3 fewer remain
    obs = Observation(rules, state)
    got = position(obs)
    assert got == tuple(getattr(obs, name) for name in FIELDS)
    assert got[0] is state.pieces and got[1] is state.tributary  # the live lists (read only)
    assert got[-1] == len(state.deck) - 3


def test_position_of_another_object_reads_its_attributes():
    board = SimpleNamespace(**{name: i for i, name in enumerate(FIELDS)})
    assert position(board) == tuple(range(len(FIELDS)))
