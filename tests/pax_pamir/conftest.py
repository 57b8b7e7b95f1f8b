"""The Pax Pamir tests' fixtures: the game's data, loaded once; a small run of the base game
with its report (``four``), and ``pax_run`` to play others."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import invoke

from simulate.pax_pamir.cards import PaxData, load

FOUR_GAMES = 40  # the games of ``four``


def _run(out: Path, games: int, *args: str) -> Path:
    result = invoke("run", "--game", "pax-pamir", "-n", str(games), "-s", "11", "-j", "2",
                    "--out", str(out), "--no-report", *args)  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="session")
def data() -> PaxData:
    return load()


@pytest.fixture(scope="session")
def pax_run() -> Callable[..., Path]:
    """``pax_run(out, games, *args)``: ``vsim run --game pax-pamir`` of ``games`` games per
    variant (seed 11) into ``out``, without a report; more ``vsim run`` options in ``args``."""
    return _run


@pytest.fixture(scope="session")
def four(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 games of the base game (4 seats), with their report."""
    out = _run(tmp_path_factory.mktemp("pax") / "run", FOUR_GAMES)
    result = invoke("report", str(out))
    assert result.exit_code == 0, result.output
    return out
