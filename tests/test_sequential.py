"""``vsim run --until-clear`` (issues 19, 40, 64): the anytime-valid intervals' error
rates by simulation, at large and small looks, its games against the fixed-size plan, when
a study stops and why, and the command end to end."""

from __future__ import annotations

import json

import numpy as np
import pytest
from cli_support import invoke

from simulate.analysis import sequential as seq
from simulate.analysis.stats import games_needed

RULE = seq.Rule(delta=0.03, alpha=0.05, comparisons=1)


def _repeat(effect: float, rho: float, reps: int, seed: int) -> list[tuple[seq.Look, str]]:
    rng = np.random.default_rng(seed)
    return [seq.simulate_study(rng, RULE, effect, rho, 200, 40_000) for _ in range(reps)]


def _false_change_bound(reps: int, alpha: float = RULE.alpha) -> float:
    # alpha plus three standard errors of a rate of alpha over ``reps`` repetitions
    return alpha + 3 * (alpha * (1 - alpha) / reps) ** 0.5


def test_an_a_a_comparison_wrongly_declares_a_change_in_at_most_about_alpha_of_runs():
    runs = _repeat(0.0, 0.8, 200, 1)
    false = sum(lk.decision == seq.CHANGE for lk, _ in runs) / len(runs)
    assert false <= _false_change_bound(len(runs))
    assert all(reason == seq.DECIDED for _, reason in runs)  # every outcome decided


def test_a_planted_change_of_twice_delta_is_found_in_nearly_every_run():
    runs = _repeat(2 * RULE.delta, 0.8, 100, 2)
    found = [{t.faction: t.decision for t in lk.factions}["DS"] for lk, _ in runs]
    assert found.count(seq.CHANGE) / len(found) >= 0.95


def test_a_change_larger_than_planned_is_found_in_fewer_games_than_the_fixed_size_plan():
    # the fixed-size study planned for delta (four outcomes at once, 80% power) plays all of
    # its games; the sequential study stops as soon as a change of twice delta shows
    fixed = games_needed(RULE.delta, alpha=RULE.alpha / 4, power=0.8, paired_rho=0.8)
    rng = np.random.default_rng(3)
    rule = seq.Rule(RULE.delta, RULE.alpha, 1, stop_at_first_change=True)
    used = [seq.simulate_study(rng, rule, 2 * RULE.delta, 0.8, 50, 40_000)[0].n for _ in range(100)]
    assert np.mean(used) < fixed


def _small_looks(effect: float, rho: float, reps: int, seed: int) -> list[seq.Look]:
    rng = np.random.default_rng(seed)
    return [
        seq.simulate_study(rng, RULE, effect, rho, 20, 40_000, concentrated=True)[0]
        for _ in range(reps)
    ]


def test_at_looks_of_20_games_a_change_of_delta_in_3_percent_of_the_games_is_never_no_change():
    # few discordant games in a small look once looked like a tiny variance (issue 40): the
    # variance floor at delta (1 - delta) keeps a true change of delta out of "no change"
    looks = _small_looks(RULE.delta, 0.0, 100, 40)
    ds = [{t.faction: t.decision for t in lk.factions}["DS"] for lk in looks]
    assert ds.count(seq.NO_CHANGE) / len(ds) <= _false_change_bound(len(ds))


def test_at_looks_of_20_games_an_a_a_comparison_claims_a_change_at_most_about_alpha():
    looks = _small_looks(0.0, 0.97, 200, 41)  # 3% of the games redrawn, no change
    false = sum(lk.decision == seq.CHANGE for lk in looks) / len(looks)
    assert false <= _false_change_bound(len(looks))


def test_the_interval_covers_the_true_difference_at_every_look_in_all_but_alpha_of_runs():
    rng = np.random.default_rng(42)
    missed = 0
    for _ in range(100):
        wa, wb, last, covered = [], [], None, True
        for _ in range(10):
            a, b = seq.paired_winners(rng, 100, 0.02, 0.6)
            wa.append(a)
            wb.append(b)
            last = seq.look("A", "B", np.concatenate(wa), np.concatenate(wb), RULE, last)
            ds = last.factions[0]
            covered = covered and ds.low <= 0.02 <= ds.high
        missed += not covered
    assert missed / 100 <= _false_change_bound(100, RULE.side_alpha * 4)


def test_ties_are_tested_like_a_factions_win():
    a = ["DS", "BK", "VE"] * 200
    b = [None if i % 8 == 0 else w for i, w in enumerate(a)]  # 1 game in 8 now ties
    tests = {t.faction: t for t in seq.look("A", "B", a, b, RULE).factions}
    assert list(tests) == ["DS", "BK", "VE", "tie"]
    assert tests["tie"].decision == seq.CHANGE and tests["tie"].diff == pytest.approx(0.125)
    assert tests["tie"].low > 0  # a change: its interval excludes 0


def test_identical_games_are_no_change_and_a_one_sided_win_streak_is_a_change():
    same = ["DS", "BK", "VE"] * 1000
    lk = seq.look("A", "B", same, same, RULE)
    assert lk.decision == seq.NO_CHANGE and lk.decided
    assert all(-RULE.delta <= t.low and t.high <= RULE.delta for t in lk.factions)
    flipped = ["DS" if w == "BK" else w for w in same]  # B: DS wins every BK game of A
    lk = seq.look("A", "B", same, flipped, RULE)
    assert lk.decision == seq.CHANGE
    assert {t.faction: t.decision for t in lk.factions}["DS"] == seq.CHANGE


def test_a_change_smaller_than_delta_is_a_change_with_its_interval_not_no_change():
    # 2.5 percentage points with delta 3: a change when the interval excludes 0, whatever delta
    a = ["BK"] * 1000 + ["DS"] * 39000
    b = ["BK"] * 2000 + ["DS"] * 38000
    bk = {t.faction: t for t in seq.look("A", "B", a, b, RULE).factions}["BK"]
    assert bk.diff == pytest.approx(0.025) and bk.decision == seq.CHANGE
    assert 0 < bk.low < 0.025 < bk.high


def _look(decisions: dict[str, str]) -> seq.Look:
    rows = [seq.OutcomeTest(f, 100, 0.0, -0.1, 0.1, decisions.get(f, seq.NO_CHANGE))
            for f in seq.OUTCOMES]  # fmt: skip
    return seq.Look("A", "B", 100, rows)


def test_a_study_with_one_outcome_changed_and_another_open_plays_on():
    looks = [_look({"BK": seq.CHANGE, "DS": seq.OPEN})]
    assert seq.stopping(looks, RULE, 2800, 20_000) is None


def test_a_study_stops_at_the_first_change_only_when_asked():
    looks = [_look({"BK": seq.CHANGE, "DS": seq.OPEN})]
    rule = seq.Rule(RULE.delta, RULE.alpha, 1, stop_at_first_change=True)
    assert seq.stopping(looks, rule, 2800, 20_000) == seq.FIRST_CHANGE


def test_a_study_stops_when_every_outcome_is_decided_or_the_budget_is_spent():
    assert seq.stopping([_look({"BK": seq.CHANGE})], RULE, 2800, 20_000) == seq.DECIDED
    assert seq.stopping([_look({"DS": seq.OPEN})], RULE, 20_000, 20_000) == seq.BUDGET


def test_a_decided_outcome_stays_decided_at_later_looks():
    # the interval at a look is the intersection with the earlier ones': it never widens
    earlier = {"factions": [{"faction": "DS", "low": 0.01, "high": 0.05}]}
    same = ["DS", "BK", "VE"] * 50
    ds = seq.look("A", "B", same, same, RULE, earlier).factions[0]
    assert (ds.low, ds.high) == (0.01, 0.05) and ds.decision == seq.CHANGE


def test_an_open_outcome_says_how_many_more_games_would_decide_it_and_which_way():
    rng = np.random.default_rng(5)
    a, b = seq.paired_winners(rng, 400, 0.0, 0.8)
    ds = seq.look("A", "B", a, b, RULE).factions[0]
    assert ds.decision == seq.OPEN and ds.more_games >= 1
    assert ds.shows in ("a change", "no change larger than 3 percentage points")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--delta", "0"], "--delta must be in (0, 1)"),
        (["--alpha", "0.7"], "--alpha must be in (0, 0.5)"),
        (["--delta", "1.5"], "--delta must be in (0, 1)"),
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


def test_stop_at_first_change_without_until_clear_is_a_one_line_error(tmp_path):
    result = invoke("run", "--stop-at-first-change", "--games", "2", "--out", str(tmp_path / "r"))
    assert result.exit_code == 2 and "--stop-at-first-change needs --until-clear" in result.output


def test_until_clear_needs_two_variants(tmp_path):
    result = invoke("run", "--until-clear", "--games", "10", "--out", str(tmp_path / "r"))
    assert result.exit_code == 2 and "at least two --variant" in result.output


def _copy_of_base(tmp_path):
    from simulate.vijayanagara.variants import VARIANTS_DIR

    text = (VARIANTS_DIR / "base.toml").read_text().replace('name = "base"', 'name = "copy"')
    path = tmp_path / "copy.toml"
    path.write_text(text)
    return path


def test_an_identical_copy_stops_at_the_first_look_with_no_change(tmp_path):
    out = tmp_path / "r"
    args = [
        "run", "--variant", "base", "--variant", str(_copy_of_base(tmp_path)), "--until-clear",
        "--delta", "0.2", "--games", "60", "--strategy", "all=random", "--jobs", "1",
        "--out", str(out), "--no-report",
    ]  # fmt: skip
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    man = json.loads((out / "manifest.json").read_text())
    entry = man["sequential"]
    assert entry["status"] == seq.DECIDED and entry["games_used"] == 60
    assert entry["reason"] == "every outcome of every comparison was decided"
    assert entry["looks"][-1]["comparisons"][0]["decision"] == seq.NO_CHANGE
    assert entry["rule"]["delta"] == 0.2 and entry["rule"]["look_games"] == 60
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
    assert man["sequential"]["status"] in (seq.BUDGET, seq.DECIDED)
    assert man["config"]["games"] == 24


def test_a_fresh_sequential_run_does_not_say_it_resumes_and_counts_every_look(tmp_path):
    from cli_support import run_process

    out = tmp_path / "r"
    proc = run_process(
        "run", "--variant", "base", "--variant", str(_copy_of_base(tmp_path)), "--until-clear",
        "--delta", "0.2", "--games", "30", "--max-games", "120", "--strategy", "all=random",
        "--jobs", "1", "--out", str(out),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    looks = json.loads((out / "manifest.json").read_text())["sequential"]["looks"]
    assert len(looks) >= 2  # the later looks extended the run: not a resume
    assert "resuming" not in proc.stderr and "already there" not in proc.stdout
    assert f"Played {2 * looks[-1]['games']} games" in proc.stdout
    assert "no change larger than 20 percentage points" in proc.stdout
    assert "at most 120 per variant (240 games in all)" in proc.stderr  # the budget, first
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "It stopped at" in md[md.index("## Sequential study") :]
    answer = md[md.index("## The answer") : md.index("## Verdict in detail")]
    assert "anytime-valid intervals" in answer


def _one_decided_one_open(tmp_path):
    """A finished sequential run whose last look has BK changed early and DS still open at
    the budget (the state a study with one outcome decided and another open stops in)."""
    out = tmp_path / "r"
    result = invoke(
        "run", "--variant", "base", "--variant", "fort-penalty-2", "--until-clear",
        "--games", "20", "--max-games", "40", "--strategy", "all=random", "--jobs", "1",
        "--out", str(out), "--no-report",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    path = out / "manifest.json"
    man = json.loads(path.read_text())
    entry = man["sequential"]
    assert entry["status"] == seq.BUDGET  # 40 games cannot decide a 3-point question
    look = entry["looks"][-1]["comparisons"][0]
    for t in look["factions"]:
        if t["faction"] == "BK":
            t |= {"diff": 0.025, "low": 0.004, "high": 0.046, "decision": seq.CHANGE,
                  "more_games": None, "shows": None}  # fmt: skip
    look["decision"] = seq.CHANGE
    path.write_text(json.dumps(man))
    return out


def test_a_study_stopped_by_its_budget_says_so_and_each_outcomes_state_everywhere(tmp_path):
    out = _one_decided_one_open(tmp_path)
    assert invoke("report", str(out)).exit_code == 0
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "because it reached --max-games with outcomes not yet known" in md
    assert "(clear" not in md and "before deciding" not in md
    answer = md[md.index("## The answer") : md.index("## Verdict in detail")]
    assert "BK wins 2.5 percentage points more [+0.4, +4.6], a change" in answer
    assert "not yet known for DS" in answer
    found = json.loads((out / "verdict.json").read_text())["comparisons"][0]
    states = {r["faction"]: r["verdict"] for r in found["factions"]}
    assert states["BK"] == "change" and states["DS"] == "undetermined"
    assert found["stopped"]["status"] == seq.BUDGET
    man = json.loads((out / "manifest.json").read_text())["sequential"]
    assert man["status"] == seq.BUDGET and man["reason"] == seq.STOP_REASONS[seq.BUDGET]
    compared = invoke("compare", str(out), "--variants", "base", "fort-penalty-2")
    assert compared.exit_code == 0, compared.output
    assert "stopped because it reached --max-games" in compared.output
    assert "BK +2.5 percentage points [+0.4, +4.6]: a change" in compared.output


def test_the_notebooks_answer_is_the_reports_for_a_sequential_study(tmp_path):
    # the notebook prints compare.decision_lines(compare.decision(comp)) for its two variants
    from simulate.analysis import compare
    from simulate.analysis.run import load_run

    run = load_run(_one_decided_one_open(tmp_path))
    comp = compare.compare(compare.Side(run, "base", "base"),
                           compare.Side(run, "fort-penalty-2", "fort-penalty-2"))  # fmt: skip
    lines = compare.decision_lines(compare.decision(comp))
    assert lines[-1].startswith("The sequential study stopped because it reached --max-games")
    assert any("BK +2.5 percentage points [+0.4, +4.6]: a change" in x for x in lines)
