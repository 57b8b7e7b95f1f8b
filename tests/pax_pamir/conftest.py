"""The Pax Pamir tests' fixtures: the game's data, loaded once."""

from __future__ import annotations

import pytest

from simulate.pax_pamir.cards import PaxData, load


@pytest.fixture(scope="session")
def data() -> PaxData:
    return load()
