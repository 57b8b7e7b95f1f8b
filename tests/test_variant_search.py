"""``vsim tune`` (issues 19, 40): a variant's [search] keys searched for win rates nearest a
target; bad search spaces are one line and exit 2; same seed, same rows; resumable; the
winner and the base game played again on fresh seeds, within the budget, and a winner no
better than the base game called so."""

from __future__ import annotations

import json

import pytest
from cli_support import cut_after, invoke, listing, stops

from simulate.study import variant_search as vs

SEARCH = """
name = "pass"
description = "Pass income searched"

[search]
"sequence.pass_income.DS" = [1, 4]
"combat.fort_penalty" = {low = 0, high = 2}
"""


def _file(tmp_path, text=SEARCH, name="pass.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def _search(tmp_path, budget=160):
    return vs.Search.create(
        _file(tmp_path), budget=budget, first=20, seed=4, strategies=["all=random"]
    )


def test_a_search_file_gives_its_variant_and_dimensions(tmp_path):
    base, dims = vs.load_search(_file(tmp_path))
    assert base.name == "pass" and "search" not in base.content
    assert [d.key for d in dims] == ["combat.fort_penalty", "sequence.pass_income.DS"]
    assert dims[1].choices == (1, 4) and (dims[0].low, dims[0].high) == (0, 2)


@pytest.mark.parametrize(
    ("search", "message"),
    [
        ('"sequence.pass_incme.DS" = [1, 2]', "pass_incme"),  # unknown key
        ('"combat.fort_penalty" = [1, 9]', "combat.fort_penalty"),  # out of range (0..3)
        ('"combat.fort_penalty" = {low = 2, high = 2}', "an empty range"),
        ('"combat.fort_penalty" = []', "an empty list of choices"),
        ('"combat.fort_penalty" = "x"', "expected a list of choices"),
    ],
)
def test_bad_search_spaces_are_one_line_and_exit_2(tmp_path, search, message):
    text = 'name = "bad"\ndescription = "d"\n\n[search]\n' + search + "\n"
    path = _file(tmp_path, text, "bad.toml")
    before = listing(tmp_path)
    result = invoke("tune", str(path), "--out", str(tmp_path / "t"), "--budget", "400")
    assert result.exit_code == 2, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1
    assert listing(tmp_path) == before


@pytest.mark.parametrize(
    ("target", "message"),
    [("DS=0.5,BK=0.3,VE=0.3", "summing to 1"), ("DS=0.5,BK=0.5", "give DS, BK and VE"),
     ("even", "expected equal")],
)  # fmt: skip
def test_a_bad_target_is_refused(tmp_path, target, message):
    result = invoke("tune", str(_file(tmp_path)), "--target", target, "--out", str(tmp_path / "t"))
    assert result.exit_code == 2 and message in result.output


def test_a_file_without_a_search_table_is_refused(tmp_path):
    path = _file(tmp_path, 'name = "x"\ndescription = "d"\n', "x.toml")
    result = invoke("tune", str(path), "--out", str(tmp_path / "t"))
    assert result.exit_code == 2 and "no [search] table" in result.output


def test_the_distance_is_zero_on_target_and_bounded_by_the_intervals():
    wins = {"DS": 100, "BK": 100, "VE": 100}
    d, lo, hi = vs.distance(wins, 300, {f: 1 / 3 for f in wins})
    assert d == pytest.approx(0.0) and lo == 0.0 and hi > 0
    d, lo, hi = vs.distance({"DS": 300, "BK": 0, "VE": 0}, 300, {f: 1 / 3 for f in wins})
    assert lo < d <= hi


def test_a_tune_writes_a_variant_that_vsim_run_accepts_and_a_report(tmp_path):
    out = tmp_path / "t"
    result = invoke(
        "tune", str(_file(tmp_path)), "--budget", "160", "--first-games", "20",
        "--strategy", "all=random", "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (out / "report" / "tune.html").is_file() and (out / "report" / "tune.png").is_file()
    state = json.loads((out / "search.json").read_text())
    assert state["status"] == "complete" and state["games_used"] <= 160
    run = invoke("run", "--variant", str(out / "best.toml"), "--games", "4", "--jobs", "1",
                 "--out", str(tmp_path / "r"), "--no-report")  # fmt: skip
    assert run.exit_code == 0, run.output


def _rows(out):
    from simulate.analysis.variant_search import vs_rows

    return sorted(vs_rows(out), key=lambda r: (r["trial"], r["games"]))


def test_the_same_seed_gives_the_same_evaluations(tmp_path):
    vs.run_search(_search(tmp_path), tmp_path / "a", jobs=1)
    vs.run_search(_search(tmp_path), tmp_path / "b", jobs=2)
    assert _rows(tmp_path / "a") == _rows(tmp_path / "b")


def test_a_larger_budget_continues_a_search_and_resume_replays_the_log(tmp_path):
    whole = vs.run_search(_search(tmp_path, budget=240), tmp_path / "whole", jobs=1)
    vs.run_search(_search(tmp_path, budget=240), tmp_path / "cut", jobs=1)
    shards = sorted((tmp_path / "cut" / "evaluations").glob("part-*.parquet"))
    for shard in shards[len(shards) // 2 :]:
        shard.unlink()  # as if killed half way
    again = vs.run_search(_search(tmp_path, budget=240), tmp_path / "cut", jobs=1)
    assert again.played < whole.played
    assert _rows(tmp_path / "cut") == _rows(tmp_path / "whole")
    assert again.best == whole.best


def _cli_search(tmp_path, out):
    return invoke(
        "tune", str(_file(tmp_path)), "--budget", "160", "--first-games", "20",
        "--strategy", "all=random", "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip


@pytest.mark.parametrize(("exc", "code", "message"), stops("search"))
def test_a_stopped_search_says_so_in_one_line_keeps_its_evaluations_and_resumes(
    tmp_path, monkeypatch, exc, code, message
):
    assert _cli_search(tmp_path, tmp_path / "whole").exit_code == 0
    with monkeypatch.context() as m:
        cut_after(m, vs, 3, exc)  # the first 3 evaluations play, the 4th raises
        stopped = _cli_search(tmp_path, tmp_path / "cut")
    assert stopped.exit_code == code and message in stopped.output
    assert len(_rows(tmp_path / "cut")) == 3
    again = _cli_search(tmp_path, tmp_path / "cut")
    assert again.exit_code == 0, again.output
    assert _rows(tmp_path / "cut") == _rows(tmp_path / "whole")


def test_a_game_that_raises_stops_the_search_in_one_line_and_keeps_its_evaluations(tmp_path):
    # a setting (or bot) that breaks games is broken, not distant: left out of the distance,
    # its surviving games could make it the best without a word
    out = tmp_path / "t"
    result = invoke(
        "tune", str(_file(tmp_path)), "--budget", "160", "--first-games", "20",
        "--strategy", "VE=tests.fault_strategies:Boom", "--jobs", "1", "--out", str(out),
        "--quiet",
    )  # fmt: skip
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if x.startswith("Error: the search"))
    assert "GamesFailed: StrategyError: strategy 'boom' for VE raised ZeroDivisionError" in line
    assert "(a game of the candidate {" in line and "rerun the same command to resume" in line
    assert not (out / "best.toml").exists()  # no best is named from broken games


def test_a_setting_proposed_again_is_played_once_and_the_space_running_out_ends_exploring(
    tmp_path,
):
    text = 'name = "two"\ndescription = "two"\n[search]\n"sequence.pass_income.DS" = [1, 4]\n'
    small = _file(tmp_path, text)
    search = vs.Search.create(small, budget=400, first=20, seed=4, strategies=["all=random"])
    outcome = vs.run_search(search, tmp_path / "t", jobs=1)
    explored = [r for r in _rows(tmp_path / "t") if r["kind"] == "explore"]
    assert sorted(json.loads(r["params"])["sequence.pass_income.DS"] for r in explored) == [1, 4]
    settings = [r["params"] for r in outcome.rows if r["trial"] >= 0]  # -1: the base game
    assert len(settings) == len(set(settings)) == 2


def test_the_whole_budget_counts_every_game_the_fresh_ones_included(tmp_path):
    found = vs.run_search(_search(tmp_path, budget=160), tmp_path / "t", jobs=1)
    assert found.played == found.games_used <= 160  # it played 200 and more on 160 before
    state = json.loads((tmp_path / "t" / "search.json").read_text())
    assert state["games_used"] == found.games_used


def test_the_winner_and_the_base_game_are_reported_from_fresh_seeds(tmp_path):
    from simulate.study.backends import open_backend

    search = _search(tmp_path, budget=160)
    found = vs.run_search(search, tmp_path / "t", jobs=1)
    params = json.loads(found.best["params"])
    assert found.best["kind"] == "fresh" and found.best["games"] == search.fresh_games
    assert params == json.loads(found.search_best["params"])  # the search's winner, again
    first, last = vs.FRESH_START, vs.FRESH_START + search.fresh_games - 1
    assert max(r["games"] for r in found.rows) < first  # no candidate played those seeds
    with open_backend("loky", 1) as be:
        again = vs._play(be, search, params, "check", first, last)
        base = vs._play(be, search, {}, "check-base", first, last)
    assert {f: found.best[f] for f in again if f != "failed"} == {
        f: again[f] for f in again if f != "failed"
    }
    assert {f: found.reference[f] for f in base if f != "failed"} == {
        f: base[f] for f in base if f != "failed"
    }
    gain = found.gain
    assert gain["low"] <= gain["diff"] <= gain["high"]
    assert gain["diff"] == pytest.approx(found.best["distance"] - found.reference["distance"])


def test_a_winner_no_better_than_the_base_game_is_not_called_best(tmp_path):
    # the only candidate plays the base game's own rules: the same fresh games, no gain
    text = 'name = "same"\ndescription = "same"\n[search]\n"combat.fort_penalty" = [1]\n'
    out = tmp_path / "t"
    result = invoke(
        "tune", str(_file(tmp_path, text, "same.toml")), "--budget", "80", "--first-games",
        "20", "--strategy", "all=random", "--jobs", "1", "--out", str(out), "--quiet",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "No candidate beat the base game" in result.output and "Best:" not in result.output
    md = (out / "report" / "tune.md").read_text(encoding="utf-8")
    assert "**No candidate beat the base game** beyond noise" in md
    assert "No candidate beat the base game beyond noise" in (out / "best.toml").read_text()
    state = json.loads((out / "search.json").read_text())
    assert state["beats_base"] is False and state["gain"]["diff"] == 0.0


def test_fresh_gain_is_negative_when_the_winner_is_nearer_the_target():
    even = ["DS", "BK", "VE"] * 100
    lopsided = ["DS"] * 200 + ["BK", "VE"] * 50
    target = {f: 1 / 3 for f in ("DS", "BK", "VE")}
    gain = vs.fresh_gain(even, lopsided, target)
    assert gain["high"] < 0 and gain["diff"] == pytest.approx(-100 * (1 / 18) ** 0.5)
