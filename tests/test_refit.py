"""Everything fitted to the default bots is refitted by one command, in an order where each
fit plays the tables the fits before it wrote (issue 43): python -m strategies.vijayanagara.fitting."""

from __future__ import annotations

import tomllib

import pytest
from cli_support import ROOT

from strategies.vijayanagara.fitting import refit


def _recipe(tmp_path, steps: str):
    path = tmp_path / "refit.toml"
    path.write_text(steps)
    return path


def _lineup_seats_with(key: str) -> set[str]:
    lineup = tomllib.loads(
        (ROOT / "strategies" / "vijayanagara" / "lineups" / "heuristic.toml").read_text()
    )
    return {f for f, seat in lineup["seat"].items() if key in seat.get("search", {})}


def test_the_shipped_recipe_refits_the_event_table_then_each_choice_then_each_prior():
    steps = refit.load()
    fits = [s.fit for s in steps]
    assert fits[0] == "event_table"
    choices = [s for s in steps if s.fit == "choice_fit"]
    seats = [s.args[s.args.index("--seat") + 1] for s in choices]
    assert sorted(seats) == ["BK", "DS", "VE"]  # every seat's learned choice, once
    priors = [i for i, s in enumerate(steps) if s.fit == "prior_fit"]
    assert min(priors) > max(i for i, s in enumerate(steps) if s.fit == "choice_fit")
    prior_seats = {s.args[s.args.index("--seat") + 1] for s in steps if s.fit == "prior_fit"}
    assert prior_seats == _lineup_seats_with("mcts_prior")  # every prior the default reads
    assert fits[-1] == "value_fit"  # the value model, on games of the refitted lineup


def test_the_runner_adds_jobs_and_runs_each_step_in_order_in_a_fresh_process():
    steps = refit.load()
    ran: list[list[str]] = []
    said: list[str] = []
    assert refit.run(steps, 2, say=said.append, execute=lambda a: ran.append(a) or 0) == 0
    assert [a[1] for a in ran] == [f"strategies.vijayanagara.fitting.{s.fit}" for s in steps]
    assert all(a[0] == "-m" and a[-2:] == ["--jobs", "2"] for a in ran)
    assert "bump the lineup's version" in said[-1]


def test_a_failed_step_stops_the_refit_and_says_how_to_resume():
    steps = refit.load()
    ran: list[list[str]] = []
    said: list[str] = []

    def execute(argv):
        ran.append(argv)
        return 1 if len(ran) == 2 else 0

    assert refit.run(steps, 1, say=said.append, execute=execute) == 1
    assert len(ran) == 2 and said[-1] == "step 2 failed (exit 1); rerun with --from 2 to resume"
    ran.clear()
    assert refit.run(steps, 1, start=3, say=said.append, execute=lambda a: ran.append(a) or 0) == 0
    assert [a[1] for a in ran] == [f"strategies.vijayanagara.fitting.{s.fit}" for s in steps[2:]]


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ('fit = "tune"\nwhy = "w"\nargs = []', "unknown fit 'tune'"),
        ('fit = "prior_fit"\nwhy = "w"\nargs = ["--seat", "XX"]', "prior_fit refuses.*invalid"),
        ('fit = "event_table"\nwhy = "w"\nargs = ["--jobs", "2"]', "--jobs is the runner's"),
        ('fit = "event_table"\nargs = []', "cannot read the refit recipe"),
    ],
)
def test_a_bad_recipe_is_refused_in_one_line_before_any_step(tmp_path, step, message, capsys):
    path = _recipe(tmp_path, f"[[step]]\n{step}\n")
    with pytest.raises(refit.RecipeError, match=message) as err:
        refit.load(path)
    assert "\n" not in str(err.value)
    assert refit.main(["--recipe", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_dry_run_lists_the_checked_steps_with_their_jobs(capsys):
    assert refit.main(["--dry-run", "--jobs", "2", "--from", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(refit.load())
    assert lines[0].startswith("-[1/") and lines[1].startswith(" [2/")
    assert all(line.endswith("--jobs 2") for line in lines)
