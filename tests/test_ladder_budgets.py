"""Exploitability as a curve: a search bot's budget in one place, ``vsim ladder --budgets``,
and the report's gain against budget."""

from __future__ import annotations

import json

import pytest
from cli_support import invoke

from simulate.study import budgets
from simulate.study.errors import RunError
from simulate.study.ladder import Ladder
from strategies import registry


def test_the_budget_of_mcts_is_its_rollouts_and_of_greedy_its_samples():
    assert budgets.budget_of("mcts") == ("mcts", registry.make("mcts").rollouts)
    assert budgets.budget_of("mcts:rollouts=32,horizon=8,top=6") == ("mcts", 32)
    assert budgets.budget_of("greedy") == ("greedy", registry.make("greedy").samples)
    assert budgets.budget_of("heuristic") is None
    assert budgets.budget_of("random") is None


def test_scaling_multiplies_the_budget_and_keeps_every_other_parameter():
    assert budgets.scaled("mcts", 1) == "mcts"
    assert budgets.scaled("mcts", 4) == f"mcts:rollouts={4 * registry.make('mcts').rollouts}"
    assert budgets.scaled("mcts:horizon=8,rollouts=32,top=6", 2) == (
        "mcts:rollouts=64,horizon=8,top=6"
    )
    assert budgets.scaled("greedy:expand=false", 3) == "greedy:samples=3,expand=false"
    assert budgets.scaled("mcts:rollouts=3", 0.5) == "mcts:rollouts=2"


@pytest.mark.parametrize(
    "spec, factor, message",
    [
        ("heuristic", 2, "'heuristic' has no search budget to scale"),
        ("mcts:rollouts=1", 0.25, "rollouts 1 would round to 0"),
        (registry.known()["mcts"], 2, "give the bot by its registered name (mcts)"),
    ],
)
def test_a_budget_that_cannot_be_scaled_is_one_line(spec, factor, message):
    with pytest.raises(RunError, match=message.replace("(", r"\(").replace(")", r"\)")):
        budgets.scaled(spec, factor)


def test_budgets_make_one_challenger_per_budget_with_its_games():
    ladder = Ladder.create(
        ["all=random"], ["mcts:top=2"], ["10", "mcts:top=2=6"], seed=1, budgets="1,2,4"
    )
    assert ladder.challengers == (
        "mcts:top=2",
        "mcts:rollouts=16,top=2",
        "mcts:rollouts=32,top=2",
    )
    assert set(ladder.games.values()) == {6}  # the challenger as given sets all its budgets
    assert [(b["of"], b["factor"]) for b in ladder.config()["budgets"]] == [
        ("mcts:top=2", 1.0),
        ("mcts:top=2", 2.0),
        ("mcts:top=2", 4.0),
    ]


def test_a_ladder_without_budgets_keeps_its_config():
    ladder = Ladder.create(["all=random"], ["greedy"], ["10"], seed=1)
    assert "budgets" not in ladder.config()


@pytest.mark.parametrize(
    "budget, challenger, message",
    [
        ("1,x", "mcts", "--budgets '1,x': expected factors like 1,2,4"),
        ("0,2", "mcts", "every factor must be a positive number"),
        ("1,2", "heuristic", "--budgets 1,2: 'heuristic' has no search budget to scale"),
    ],
)
def test_bad_budgets_are_refused_in_one_line(tmp_path, budget, challenger, message):
    out = tmp_path / "never"
    result = invoke(
        "ladder", "--field", "all=random", "--challenger", challenger, "--budgets", budget,
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1
    assert not out.exists()


def test_the_report_draws_each_seats_gain_against_budget(tmp_path):
    out = tmp_path / "ladder"
    result = invoke(
        "ladder", "--field", "all=random", "--challenger", "greedy", "--budgets", "1,2",
        "--seat", "BK", "--seat", "VE", "--games", "3", "--seed", "2", "--jobs", "1",
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads((out / "ladder.json").read_text())
    curve = [(r["faction"], r["factor"], r["challenger"]) for r in payload["budget_curves"]]
    assert curve == [
        ("BK", 1.0, "greedy"),
        ("BK", 2.0, "greedy:samples=2"),
        ("VE", 1.0, "greedy"),
        ("VE", 2.0, "greedy:samples=2"),
    ]
    gains = {(r["faction"], r["challenger"]): r["gain"] for r in payload["records"]}
    assert all(
        r["gain"] == gains[(r["faction"], r["challenger"])] for r in payload["budget_curves"]
    )
    assert (out / "report" / "ladder-budget-greedy.png").stat().st_size > 0
    report = (out / "report" / "ladder.md").read_text()
    assert "## Gain against budget" in report and "ladder-budget-greedy.png" in report
