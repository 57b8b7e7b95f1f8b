"""``vsim strength``: rungs on the same seeds, resumable, bad rungs refused in one line, and
the convergence and robustness verdicts on synthetic data.

Games here are tiny (random and fast-tier rungs, a few games): the statistics are tested on
synthetic winners, where the answer is known."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import polars as pl
import pytest
from cli_support import ROOT, edit, invoke, process_env, run_process

from simulate.analysis import strength as analysis
from simulate.seeds import game_seed
from simulate.study import dataset, runs
from simulate.study.errors import RunError
from simulate.study.specs import Study
from simulate.study.strength import Strength, play_strength, work

RUNGS = ("random=all=random", "fast=all=heuristic-fast")


def _games(out):
    return pl.read_parquet(out / "games" / "*.parquet")


def _tables(payload):
    """What a strength study must reproduce: its records and convergence verdicts."""
    return payload["records"], payload["convergence"], payload["effects"]


# ---------------------------------------------------------------------------------------------
# The rungs


def test_default_rungs_are_the_fast_tier_the_default_and_mcts_at_1_2_4_times_its_budget():
    spec = Strength.create(games=["3"])
    assert [r.name for r in spec.rungs] == [
        "heuristic-fast",
        "heuristic",
        "mcts-1x",
        "mcts-2x",
        "mcts-4x",
    ]
    assert [r.spec for r in spec.rungs] == [
        "all=heuristic-fast",
        "all=heuristic",
        "all=mcts",
        "all=mcts:rollouts=16",
        "all=mcts:rollouts=32",
    ]


def test_games_per_rung_default_and_by_name():
    spec = Strength.create([*RUNGS, "default=heuristic"], ["12", "fast=5"])
    assert {r.name: r.games for r in spec.rungs} == {"random": 12, "fast": 5, "default": 12}


def test_the_rungs_advance_together_so_that_games_done_measure_the_work_done():
    spec = Strength.create([*RUNGS, "default=heuristic"], ["80", "default=16"])
    batches = work(spec, {}, workers=2)
    total = {r.name: r.games for r in spec.rungs}
    played = dict.fromkeys(total, 0)
    for b in batches:
        played[b.lineup] += len(b)
        shares = [played[name] / total[name] for name in total]
        assert max(shares) - min(shares) <= 0.55  # never a rung done while another waits
    assert played == total


def test_every_rung_and_variant_plays_the_same_seeds(tmp_path):
    spec = Strength.create(RUNGS, ["5"], seed=11, variants=["base", "fort-penalty-2"])
    report = play_strength(spec, tmp_path / "s", jobs=2)
    assert report.played == report.total == 20
    games = _games(tmp_path / "s")
    assert games.height == 20
    for (_, rung), cell in games.group_by(["variant", "lineup"]):
        cell = cell.sort("game_index")
        assert cell.get_column("game_index").to_list() == list(range(5))
        assert cell.get_column("seed").to_list() == [game_seed(11, k) for k in range(5)]
        bot = {"random": "random", "fast": "heuristic-fast"}[rung]
        assert set(cell.get_column("strategy_DS").to_list()) == {bot}


def test_a_rung_plays_its_own_number_of_games_and_more_games_extend_it(tmp_path):
    out = tmp_path / "s"
    play_strength(Strength.create(RUNGS, ["4", "random=6"], seed=2), out, jobs=1)
    again = play_strength(Strength.create(RUNGS, ["4", "random=9"], seed=2), out, jobs=1)
    assert (again.played, again.already) == (3, 10)
    done = dataset.done_games(out, lineups=True)
    assert done == {"base~random": set(range(9)), "base~fast": set(range(4))}


def test_resume_after_kill_9_gives_identical_tables(tmp_path):
    args = [
        "strength", *[x for r in RUNGS for x in ("--rung", r)], "--games", "48", "--seed", "3",
        "--jobs", "2", "--quiet", "--out", str(tmp_path / "killed"),
    ]  # fmt: skip
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "simulate.cli", *args],
        cwd=ROOT,
        env=process_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if len(dataset.shards(killed, "games")) >= 2:
                break
            time.sleep(0.02)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    before = sum(len(v) for v in dataset.done_games(killed, lineups=True).values())
    assert before > 0
    rerun = run_process(*args)
    assert rerun.returncode == 0, rerun.stderr
    reference = tmp_path / "reference"
    play_strength(Strength.create(RUNGS, ["48"], seed=3), reference, jobs=1)
    assert dataset.dataset_digest(killed) == dataset.dataset_digest(reference)
    resumed = json.loads((killed / "strength.json").read_text())
    fresh = json.loads(json.dumps(analysis.curve(reference)))
    assert _tables(resumed) == _tables(fresh)
    assert [r["played"] for r in resumed["rungs"]] == [48, 48]


def test_a_vsim_run_folder_is_extended_its_games_becoming_its_rungs(tmp_path):
    out, fresh = tmp_path / "run", tmp_path / "fresh"
    runs.run(Study.create(6, 4, {"DS": "heuristic-fast", "BK": "heuristic-fast",
                                 "VE": "heuristic-fast"}), out, jobs=1)  # fmt: skip
    spec = Strength.create(RUNGS, ["4"], seed=4)
    report = play_strength(spec, out, jobs=1)
    assert (report.played, report.already) == (4, 6)  # only the random rung was missing
    man = json.loads((out / "manifest.json").read_text())
    assert man["kind"] == "strength" and man["extends"]["rung"] == "fast"
    assert [r["games"] for r in man["rungs"]] == [4, 6]  # the run's game count
    play_strength(Strength.create(RUNGS, ["4", "fast=6"], seed=4), fresh, jobs=1)
    assert _tables(analysis.curve(out)) == _tables(analysis.curve(fresh))


def test_a_study_given_more_rungs_plays_only_theirs_and_keeps_its_games(tmp_path):
    out, fresh = tmp_path / "s", tmp_path / "fresh"
    play_strength(Strength.create(RUNGS, ["4"], seed=6), out, jobs=1)
    before = {p.name: p.read_bytes() for p in (out / "games").iterdir()}
    more = (RUNGS[0], "v1=all=heuristic-v1", RUNGS[1])  # a rung between the two
    report = play_strength(Strength.create(more, ["4"], seed=6), out, jobs=1)
    assert (report.played, report.already) == (4, 8)
    assert all((out / "games" / name).read_bytes() == data for name, data in before.items())
    man = json.loads((out / "manifest.json").read_text())
    assert [r["name"] for r in man["rungs"]] == ["random", "v1", "fast"]
    assert man["run_id"] == Strength.create(more, ["4"], seed=6).run_id
    play_strength(Strength.create(more, ["4"], seed=6), fresh, jobs=1)
    assert _tables(analysis.curve(out)) == _tables(analysis.curve(fresh))


def test_a_rung_that_changed_its_bots_is_a_different_study(tmp_path):
    out = tmp_path / "s"
    play_strength(Strength.create(RUNGS, ["3"], seed=6), out, jobs=1)
    changed = ("random=all=random", "fast=all=heuristic-v1", "v1=all=greedy")
    with pytest.raises(RunError, match="holds a different run"):
        play_strength(Strength.create(changed, ["3"], seed=6), out, jobs=1)
    with pytest.raises(RunError, match="holds a different run"):  # other seeds
        play_strength(Strength.create((*RUNGS, "v1=all=heuristic-v1"), ["3"], seed=7), out, jobs=1)


def test_a_vsim_run_of_other_bots_or_seeds_is_not_extended(tmp_path):
    out = tmp_path / "run"
    runs.run(Study.create(3, 4, {"DS": "random", "BK": "random", "VE": "random"}), out, jobs=1)
    with pytest.raises(RunError, match="master seed 4: give --seed 4"):
        play_strength(Strength.create(RUNGS, ["3"], seed=5), out, jobs=1)
    other = ("fast=all=heuristic-fast", "default=all=heuristic")
    with pytest.raises(RunError, match="which no rung plays: add --rung NAME=all=random"):
        play_strength(Strength.create(other, ["3"], seed=4), out, jobs=1)


def test_a_vsim_run_or_study_of_another_bot_version_is_not_extended(tmp_path):
    # a spec names whatever version is installed: a rung never mixes two versions' games
    lineup = tmp_path / "mine.toml"
    head = 'description = "d"\npolicy = "heuristic"\nversion = '
    lineup.write_text(head + '"v1"\n')
    rungs = ("random=all=random", f"mine=all={lineup}")
    run = tmp_path / "run"
    runs.run(Study.create(3, 4, dict.fromkeys(("DS", "BK", "VE"), str(lineup))), run, jobs=1)
    play_strength(Strength.create(rungs, ["3"], seed=4), tmp_path / "s", jobs=1)
    edit(lineup, head + '"v2"\n')  # an upgrade
    moved = "the bots changed since its games were played"
    with pytest.raises(RunError, match=f"{moved} .* in the DS seat was v1 then and is v2 now"):
        play_strength(Strength.create(rungs, ["3"], seed=4), run, jobs=1)  # extending a run
    with pytest.raises(RunError, match=moved):  # resuming a study
        play_strength(Strength.create(rungs, ["4"], seed=4), tmp_path / "s", jobs=1)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rung", "only=random"], "needs at least two rungs"),
        (["--rung", "a=random", "--rung", "b=all=random"], "plays the same bots as rung 'a'"),
        (["--rung", "a=random", "--rung", "b=all=nosuch"], "--rung 'b': strategy for DS:"),
        (["--rung", "a=random", "--rung", "b=mcts:rollouts=0"], "rollouts must be a positive"),
        (["--rung", "a=random", "--rung", "DS=greedy"], "a rung's name is letters"),
        (["--rung", "a", "--rung", "b=random"], "expected NAME=SPEC"),
        (["--rung", "a=random", "--rung", "b=XX=random"], "unknown faction 'XX'"),
        (["--rung", "a=random", "--rung", "b=greedy", "--games", "c=3"], "'c' is not a rung"),
        (["--rung", "a=random", "--rung", "b=greedy", "--games", "a=0"], "must be 1.."),
    ],
)
def test_bad_rungs_are_refused_in_one_line(tmp_path, args, message):
    out = tmp_path / "never"
    result = invoke("strength", *args, "--out", str(out), "--quiet")
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ")
    assert not out.exists()


def test_the_command_writes_the_curve_its_report_and_figure(tmp_path, monkeypatch):
    out = tmp_path / "s"
    args = (
        "strength", *[x for r in RUNGS for x in ("--rung", r)], "--games", "6", "--seed", "1",
        "--variant", "base", "--variant", "fort-penalty-2", "--jobs", "1", "--out", str(out),
        "--quiet",
    )  # fmt: skip
    monkeypatch.setattr(sys, "argv", ["vsim", *args])  # as the console script sees them
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    payload = json.loads((out / "strength.json").read_text())
    assert [(r["name"], r["spec"], r["games"]) for r in payload["rungs"]] == [
        ("random", "all=random", 6),
        ("fast", "all=heuristic-fast", 6),
    ]
    assert all(r["games_per_s"] > 0 for r in payload["rungs"])
    assert payload["command"].startswith("vsim strength --rung random=all=random")
    assert list(payload["bots"]) == ["heuristic-fast"]  # the versioned bots it measured
    keys = {"variant", "rung", "faction", "win", "win_lo", "win_hi", "vp_margin"}
    assert len(payload["records"]) == 2 * 2 * 3 and keys <= set(payload["records"][0])
    assert {(c["variant"], c["faction"]) for c in payload["convergence"]} == {
        (v, f) for v in ("base", "fort-penalty-2") for f in ("DS", "BK", "VE")
    }
    assert {"converged", "change", "lo", "hi"} <= set(payload["convergence"][0])
    assert {e["rung"] for e in payload["effects"]} == {"random", "fast"}
    assert (out / "report" / "strength.png").stat().st_size > 0
    assert "## fort-penalty-2" in (out / "report" / "strength.md").read_text()
    assert payload["strongest"] in result.output
    assert analysis.strongest_balance(out / "strength.json") == payload["strongest"]


def test_the_records_count_what_the_games_table_holds(tmp_path):
    out = tmp_path / "s"
    play_strength(Strength.create(RUNGS, ["8"], seed=9), out, jobs=1)
    payload = analysis.curve(out)
    games = _games(out)
    for r in payload["records"]:
        cell = games.filter(pl.col("lineup") == r["rung"])
        wins = (cell.get_column("winner") == r["faction"]).sum()
        assert r["games"] == 8 and r["wins"] == wins and r["win"] == pytest.approx(wins / 8)
        assert r["win_lo"] <= r["win"] <= r["win_hi"]
        others = [f"vp_{f}" for f in ("DS", "BK", "VE") if f != r["faction"]]
        margin = cell.get_column(f"vp_{r['faction']}") - cell.select(others).max_horizontal()
        assert r["vp_margin"] == pytest.approx(margin.mean())


# ---------------------------------------------------------------------------------------------
# The verdicts, on synthetic winners


def _winners(counts: dict[str, int]) -> list[str]:
    return [f for f, n in counts.items() for _ in range(n)]


def test_a_curve_that_has_flattened_is_converged():
    before = _winners({"DS": 1200, "BK": 400, "VE": 400})
    after = list(before)
    for k in range(10):  # ten DS games go to BK, ten BK games to DS: no net change
        after[k], after[1200 + k] = "BK", "DS"
    found = analysis.convergence(before, after, "DS")
    assert found["converged"] and found["verdict"] == "converged"
    assert found["change"] == 0.0 and -0.03 < found["lo"] <= 0.0 <= found["hi"] < 0.03
    assert found["text"].startswith("DS converged: +0.0 percentage points")


def test_a_curve_still_moving_is_said_per_doubling_of_budget():
    before = _winners({"DS": 420, "BK": 90, "VE": 90})
    after = ["VE" if k < 72 else w for k, w in enumerate(before)]  # DS 70% -> 58%
    found = analysis.convergence(before, after, "DS", doublings=2.0)
    assert not found["converged"] and found["verdict"] == "moving"
    assert found["change"] == pytest.approx(-0.12) and found["hi"] < -0.03
    assert found["per_doubling"] == pytest.approx(-0.06)
    assert found["text"] == "still moving: DS -6.0 percentage points per doubling of budget"
    rungs = analysis.convergence(before, after, "DS")  # rungs that are not budgets of one bot
    assert rungs["text"] == (
        "still moving: DS -12.0 percentage points between the two strongest rungs"
    )


def test_too_few_games_leave_convergence_undetermined():
    found = analysis.convergence(["DS", "BK", "VE", "DS"], ["DS", "DS", "VE", "BK"], "DS")
    assert found["verdict"] == "undetermined" and not found["converged"]
    assert "more paired games would decide" in found["text"]
    assert "about 1 more" not in found["text"]  # issue 64: "a few more" under 10


def test_a_handful_of_games_to_go_is_a_few_more_never_about_1_more():
    assert analysis.more_games_text(1) == "a few more paired games"
    assert analysis.more_games_text(9) == "a few more paired games"
    assert analysis.more_games_text(1234) == "about 1,234 more paired games"


def test_doublings_are_counted_between_budgets_of_one_search_bot():
    def every(spec):
        return dict.fromkeys(("DS", "BK", "VE"), spec)

    mcts, mcts4 = every("mcts"), every("mcts:rollouts=32")
    assert analysis.doublings_between(mcts, mcts4) == pytest.approx(2.0)
    assert analysis.doublings_between(every("heuristic"), mcts) is None
    assert analysis.doublings_between(mcts | {"DS": "greedy"}, mcts4) is None


def _effect(diff: float, half: float) -> dict[str, float]:
    return {"diff": diff, "diff_low": diff - half, "diff_high": diff + half}


def test_an_effect_that_keeps_its_sign_and_size_at_every_rung_holds():
    steady = np.array([0.0] * 5000 + [1.0] * 100 + [-1.0] * 100)
    found = analysis.robustness([_effect(0.05, 0.02), _effect(0.05, 0.02)], [steady])
    assert (found["sign"], found["size"]) == ("holds", "holds")


def test_an_effect_that_grows_with_strength_keeps_its_sign_not_its_size():
    grows = np.array([-1.0] * 300 + [0.0] * 700)  # 30 points smaller at the weaker rung
    found = analysis.robustness([_effect(0.02, 0.01), _effect(0.32, 0.04)], [grows])
    assert (found["sign"], found["size"]) == ("holds", "changes")


def test_an_effect_whose_interval_lies_on_the_other_side_flips():
    found = analysis.robustness([_effect(-0.10, 0.05), _effect(0.10, 0.05)], [np.ones(50)])
    assert found["sign"] == "flips"


def test_a_robustness_entrys_fields_mean_what_their_names_say():
    # issue 64: "contrasts" held five unlabelled values for six rungs, unlike its text
    effects = [_effect(-0.01, 0.02) | {"n": 400}, _effect(0.015, 0.03) | {"n": 400},
               _effect(-0.035, 0.05) | {"n": 200}]  # fmt: skip
    gaps = [np.array([0.0] * 190 + [1.0] * 10), np.array([0.0] * 180 + [1.0] * 20)]
    found = analysis.robustness(effects, gaps, rungs=["fast", "default", "mcts"])
    assert [(e["rung"], e["effect"], e["games"]) for e in found["effects_by_rung"]] == [
        ("fast", -0.01, 400), ("default", 0.015, 400), ("mcts", -0.035, 200)
    ]  # fmt: skip
    assert [(v["rung"], v["strongest"], v["games"]) for v in found["versus_strongest"]] == [
        ("fast", "mcts", 200), ("default", "mcts", 200)
    ]  # fmt: skip
    assert [v["difference"] for v in found["versus_strongest"]] == [0.05, 0.1]
    assert "contrasts" not in found


def test_a_rungs_difference_from_the_strongest_carries_its_interval():
    # issue 64: versus_strongest gave the rung pair and the difference, not its interval
    grows = np.array([-1.0] * 300 + [0.0] * 700)  # the same as the size-changes test's
    steady = np.zeros(400)
    found = analysis.robustness(
        [_effect(0.02, 0.01), _effect(0.0, 0.01), _effect(0.32, 0.04)], [grows, steady]
    )
    changed, same = found["versus_strongest"]
    assert changed["lo"] < changed["difference"] == -0.3 < changed["hi"] < 0  # excludes 0
    assert changed["p_change"] < 0.05 and found["size"] == "changes"
    assert same["lo"] == same["difference"] == same["hi"] == 0.0  # a constant sample
    from strategies.exploitability import STRENGTH_FILE

    for r in json.loads(STRENGTH_FILE.read_text())["robustness"]:  # the shipped file's too
        assert all({"difference", "lo", "hi"} <= set(v) for v in r["versus_strongest"])


def test_the_shipped_curves_robustness_text_quotes_its_effects_by_rung():
    from strategies.exploitability import STRENGTH_FILE

    shipped = json.loads(STRENGTH_FILE.read_text())
    for r in shipped["robustness"]:
        rungs = [e["rung"] for e in r["effects_by_rung"]]
        assert rungs == [x["name"] for x in shipped["rungs"]]
        for e in r["effects_by_rung"]:
            assert f"{100 * e['effect']:+.1f} at {e['rung']}" in r["text"]
        assert [v["rung"] for v in r["versus_strongest"]] == rungs[:-1]


def test_the_strongest_rung_sentence_names_the_balance_and_the_verdicts():
    payload = {
        "variants": ["timurs-shadow", "base"],
        "margin": 0.03,
        "rungs": [
            {"name": "mcts-1x", "spec": "all=mcts"},
            {"name": "mcts-2x", "spec": "all=mcts:rollouts=16"},
        ],  # fmt: skip
        "records": [
            {"variant": "base", "rung": "mcts-2x", "faction": f, "games": 200, "win": w}
            | {"win_lo": w - 0.05, "win_hi": w + 0.05}
            for f, w in (("DS", 0.6), ("BK", 0.15), ("VE", 0.25))
        ],
        "convergence": [
            {"variant": "base", "from": "mcts-1x", "to": "mcts-2x", "faction": f}
            | {"verdict": v, "text": t}
            for f, v, t in (
                ("DS", "moving", "still moving: DS -6.0 percentage points per doubling of budget"),
                ("BK", "converged", "BK converged"),
                ("VE", "converged", "VE converged"),
            )
        ],
    }
    assert analysis.strongest_balance(payload) == (
        "With every seat searching with twice the search bot's default budget (the strongest "
        "rung measured, 200 games), base: DS 60.0% [55.0, 65.0], BK 15.0% [10.0, 20.0], VE "
        "25.0% [20.0, 30.0]; against the rung below it (every seat searching at the search "
        "bot's default budget): converged within ±3 percentage points for BK and VE; still "
        "moving: DS -6.0 percentage points per doubling of budget."
    )


def test_the_recorded_command_names_its_folder_relative_to_where_it_ran(tmp_path, monkeypatch):
    # issue 64: the shipped curve cited /work/strength-v21/run, a folder of the machine
    monkeypatch.chdir(tmp_path)
    man = {"sessions": [{"command": ["vsim", "strength", "--out", str(tmp_path / "runs" / "s")]}]}
    assert analysis._command(man) == "vsim strength --out runs/s"


def test_the_recorded_command_keeps_a_path_with_a_space_one_word(tmp_path, monkeypatch):
    # a manifest records the command's words: a word with a space stays one (quoted), and a
    # path outside the working folder stays as given
    monkeypatch.chdir(tmp_path)
    variant = tmp_path / "my variants" / "v.toml"
    argv = ["vsim", "strength", "--variant", str(variant), "--out", "/elsewhere/run"]
    man = {"sessions": [{"command": argv}]}
    assert (
        analysis._command(man)
        == "vsim strength --variant 'my variants/v.toml' --out /elsewhere/run"
    )
