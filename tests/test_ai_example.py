"""The training example of docs/ai.md runs, and its agent plays as a strategy (issue 44)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("greenlet")

from simulate.vijayanagara.game import play_game  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_training_example_runs_a_few_hundred_steps_and_its_agent_plays(tmp_path, monkeypatch):
    weights = tmp_path / "policy.npz"
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_ai.py"), "--steps", "300", "--save", str(weights)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith("300 steps in ") and weights.exists()
    monkeypatch.syspath_prepend(str(EXAMPLES))
    from train_ai import LinearStrategy

    result = play_game(3, {"DS": "random", "BK": "random", "VE": LinearStrategy(str(weights))})
    assert result.winner in ("DS", "BK", "VE", None)


def test_missing_weights_are_refused_in_one_line(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(EXAMPLES))
    from train_ai import LinearStrategy

    with pytest.raises(ValueError, match="cannot read trained weights"):
        LinearStrategy(str(tmp_path / "none.npz"))
