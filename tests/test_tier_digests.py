"""Each tier plays the very games it played before (issue 41): a digest over fixed seeds of
every shipped lineup and search bot, some with parameters, some mixed, against the digests
stored in ``tests/baselines/tier_digests.json`` (the same in the compiled build and with
``VSIM_PURE=1``). The cheap tiers run in CI; ``heuristic-strong``, ``greedy``, ``mcts`` and
the lineups holding them run with ``--full``.

A deliberate change of play is acknowledged by rewriting the file (its diff names the tiers
whose games moved) with ``python tests/test_tier_digests.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from simulate import play_game

BASELINE = Path(__file__).parent / "baselines" / "tier_digests.json"
MASTER = 4100  # game k plays seed MASTER + k
CHEAP = {  # spec (every seat, or "DS=...;BK=...;VE=...") -> games
    "random": 12,
    "heuristic-v1": 12,
    "heuristic-fast": 12,
    "heuristic": 12,
    "heuristic:aggression=0.7": 4,
    "heuristic:play.mcts_cards=0": 4,
    "heuristic-fast:weights=examples/fast-tier-v9-sultanate.toml": 4,
    "heuristic:events=simulate": 2,
    "greedy:screen=3": 2,
    "DS=heuristic;BK=heuristic-fast;VE=heuristic-fast": 6,
}
SLOW = {
    "heuristic-strong": 4,
    "greedy": 4,
    "mcts": 2,
    "mcts:rollouts=2,exclude=event": 2,
    "mcts:policy=random,rollouts=2": 2,
    "DS=heuristic-strong;BK=heuristic-fast;VE=heuristic": 4,
    "DS=greedy;BK=heuristic;VE=mcts:rollouts=2": 2,
}
ROOT = Path(__file__).resolve().parent.parent


def lineup(spec: str) -> dict[str, str]:
    """The three seats' specs of ``spec``."""
    if spec.startswith("DS="):
        return dict(seat.split("=", 1) for seat in spec.split(";"))
    return dict.fromkeys(("DS", "BK", "VE"), spec)


def digest(spec: str, games: int) -> str:
    """sha256 over the seeds, winners and final-state digests of ``games`` games."""
    h = hashlib.sha256()
    for k in range(games):
        result = play_game(MASTER + k, lineup(spec))
        h.update(f"{spec}|{MASTER + k}|{result.winner}|{result.state_digest}\n".encode())
    return h.hexdigest()


def _stored() -> dict[str, str]:
    return json.loads(BASELINE.read_text())["tiers"]


@pytest.fixture(autouse=True)
def _from_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the specs name files from the checkout's root


@pytest.mark.parametrize("spec", list(CHEAP))
def test_a_cheap_tier_plays_the_games_it_played(spec):
    assert digest(spec, CHEAP[spec]) == _stored()[spec]


@pytest.mark.slow
@pytest.mark.parametrize("spec", list(SLOW))
def test_a_slow_tier_plays_the_games_it_played(spec, request):
    if not request.config.getoption("--full"):
        pytest.skip("a slow tier: run with --full")
    assert digest(spec, SLOW[spec]) == _stored()[spec]


def test_every_tier_has_a_stored_digest():
    assert set(_stored()) == set(CHEAP) | set(SLOW)


def write_baseline() -> None:
    tiers = {spec: digest(spec, games) for spec, games in (CHEAP | SLOW).items()}
    body = {"master": MASTER, "games": CHEAP | SLOW, "tiers": tiers}
    BASELINE.write_text(json.dumps(body, indent=1) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    write_baseline()
