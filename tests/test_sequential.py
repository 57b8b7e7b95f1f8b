"""``vsim run --until-clear`` (issues 19, 40): the sequential test's error rates by
simulation, at large and small looks, its games against the fixed-size plan, and the
command end to end."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_support import invoke

from simulate.analysis import sequential as seq
from simulate.analysis.stats import games_needed

RULE = seq.Rule(delta=0.03, alpha=0.05, beta=0.2, comparisons=1)


def _repeat(effect: float, rho: float, reps: int, seed: int) -> tuple[list[str], list[int]]:
    rng = np.random.default_rng(seed)
    runs = [seq.simulate_decision(rng, RULE, effect, rho, 100, 40_000) for _ in range(reps)]
    return [d for d, _ in runs], [n for _, n in runs]


def test_an_a_a_comparison_wrongly_declares_a_change_in_at_most_about_alpha_of_runs():
    decisions, _ = _repeat(0.0, 0.8, 300, 1)
    false = decisions.count(seq.CHANGE) / len(decisions)
    # alpha plus three standard errors of a rate of alpha over 300 repetitions
    assert false <= RULE.alpha + 3 * (RULE.alpha * (1 - RULE.alpha) / 300) ** 0.5
    assert seq.OPEN not in decisions


def test_a_planted_change_of_twice_delta_is_found_in_at_least_one_minus_beta_of_runs():
    decisions, _ = _repeat(2 * RULE.delta, 0.8, 200, 2)
    assert decisions.count(seq.CHANGE) / len(decisions) >= 1 - RULE.beta


def test_it_uses_fewer_games_on_average_than_the_fixed_size_plan():
    # the fixed-size study answering the same question for the four outcomes at once
    fixed = games_needed(RULE.delta, alpha=RULE.alpha / 4, power=1 - RULE.beta, paired_rho=0.8)
    for effect in (0.0, 2 * RULE.delta):
        _, used = _repeat(effect, 0.8, 300, 3)
        assert np.mean(used) < fixed


def _small_looks(effect: float, rho: float, reps: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [
        seq.simulate_decision(rng, RULE, effect, rho, 20, 40_000, concentrated=True)[0]
        for _ in range(reps)
    ]


def test_at_looks_of_20_games_a_change_in_3_percent_of_the_games_is_missed_at_most_beta():
    # few discordant games in a small look once looked like a tiny variance: "no change"
    # 31% of the time (beta is 0.2); the variance floor at delta (1 - delta) holds beta
    decisions = _small_looks(RULE.delta, 0.0, 400, 40)
    missed = decisions.count(seq.NO_CHANGE) / len(decisions)
    assert missed <= RULE.beta + 3 * (RULE.beta * (1 - RULE.beta) / 400) ** 0.5


def test_at_looks_of_20_games_an_a_a_comparison_claims_a_change_at_most_about_alpha():
    decisions = _small_looks(0.0, 0.97, 400, 41)  # 3% of the games redrawn, no change
    false = decisions.count(seq.CHANGE) / len(decisions)
    assert false <= RULE.alpha + 3 * (RULE.alpha * (1 - RULE.alpha) / 400) ** 0.5


def test_ties_are_tested_like_a_factions_win():
    a = ["DS", "BK", "VE"] * 200
    b = [None if i % 8 == 0 else w for i, w in enumerate(a)]  # 1 game in 8 now ties
    tests = {t.faction: t for t in seq.look("A", "B", a, b, RULE).factions}
    assert list(tests) == ["DS", "BK", "VE", "tie"]
    assert tests["tie"].decision == seq.CHANGE and tests["tie"].diff == pytest.approx(0.125)


def test_identical_games_are_no_change_and_a_one_sided_win_streak_is_a_change():
    same = ["DS", "BK", "VE"] * 100
    assert seq.look("A", "B", same, same, RULE).decision == seq.NO_CHANGE
    flipped = ["DS" if w == "BK" else w for w in same]  # B: DS wins every BK game of A
    lk = seq.look("A", "B", same, flipped, RULE)
    assert lk.decision == seq.CHANGE
    assert {t.faction: t.decision for t in lk.factions}["DS"] == seq.CHANGE


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--delta", "0"], "--delta must be in (0, 1)"),
        (["--alpha", "0.7"], "--alpha must be in (0, 0.5)"),
        (["--beta", "-0.1"], "--beta must be in (0, 0.5)"),
        (["--max-games", "10"], "--max-games (10) must be at least --games (40)"),
    ],
)
def test_bad_sequential_options_are_one_line_errors(tmp_path, args, message):
    result = invoke(
        "run", "--variant", "base", "--variant", "timurs-shadow", "--until-clear",
        "--games", "40", "--out", str(tmp_path / "r"), *args,
    )  # fmt: skip
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_until_clear_needs_two_variants(tmp_path):
    result = invoke("run", "--until-clear", "--games", "10", "--out", str(tmp_path / "r"))
    assert result.exit_code == 2 and "at least two --variant" in result.output


def _copy_of_base(tmp_path):
    from simulate.variants import VARIANTS_DIR

    text = (VARIANTS_DIR / "base.toml").read_text().replace('name = "base"', 'name = "copy"')
    path = tmp_path / "copy.toml"
    path.write_text(text)
    return path


def test_an_identical_copy_stops_at_the_first_look_with_no_change(tmp_path):
    out = tmp_path / "r"
    args = [
        "run", "--variant", "base", "--variant", str(_copy_of_base(tmp_path)), "--until-clear",
        "--delta", "0.2", "--games", "30", "--jobs", "1", "--out", str(out), "--no-report",
    ]  # fmt: skip
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    man = json.loads((out / "manifest.json").read_text())
    entry = man["sequential"]
    assert entry["status"] == "clear" and entry["games_used"] == 30
    assert entry["looks"][-1]["comparisons"][0]["decision"] == seq.NO_CHANGE
    assert entry["rule"]["delta"] == 0.2 and entry["rule"]["look_games"] == 30
    again = invoke(*args)  # a rerun of a finished sequential run plays nothing more
    assert again.exit_code == 0 and "Played 0 games" in again.output


def test_looks_extend_the_run_on_the_same_seeds_up_to_max_games(tmp_path):
    out = tmp_path / "r"
    result = invoke(
        "run", "--variant", "base", "--variant", "fort-penalty-2", "--until-clear",
        "--delta", "0.01", "--games", "12", "--max-games", "24", "--jobs", "1",
        "--out", str(out), "--no-report", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["sequential"][0]["n"] == 24
    man = json.loads((out / "manifest.json").read_text())
    assert [lk["games"] for lk in man["sequential"]["looks"]] == [12, 24]
    assert man["sequential"]["status"] in ("max games", "clear")
    assert man["config"]["games"] == 24


def test_a_fresh_sequential_run_does_not_say_it_resumes_and_counts_every_look(tmp_path):
    from cli_support import run_process

    out = tmp_path / "r"
    proc = run_process(
        "run", "--variant", "base", "--variant", str(_copy_of_base(tmp_path)), "--until-clear",
        "--delta", "0.2", "--games", "10", "--max-games", "40", "--strategy", "all=random",
        "--jobs", "1", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    looks = json.loads((out / "manifest.json").read_text())["sequential"]["looks"]
    assert len(looks) >= 2  # the later looks extended the run: not a resume
    assert "resuming" not in proc.stderr and "already there" not in proc.stdout
    assert f"Played {2 * looks[-1]['games']} games" in proc.stdout
    assert "no change as large as 20 percentage points" in proc.stdout
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "not a change of zero" in md[md.index("## Sequential test") :]
    answer = md[md.index("## The answer") : md.index("## Verdict in detail")]
    assert "sequential test" in answer
