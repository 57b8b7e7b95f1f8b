"""The report's verdict (issue 64): balance by the win rate table's simultaneous intervals
over finished games, every difference of every outcome (ties included) with one interval
and one vocabulary (a change, no change larger than delta, not yet known), the games that
would decide an open question and which way, a sequential run's own answer, one sentence a
designer can act on per variant and comparison, the bots in words, and a warning when games
failed."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from simulate.analysis import stats, verdict
from simulate.analysis.compare import stuart_maxwell
from simulate.analysis.run import Run

OUTCOMES = ("DS", "BK", "VE", "tie")


def _run(winners: list[str | None], errors: int = 0, manifest: dict | None = None) -> Run:
    games = pl.DataFrame(
        {
            "variant": ["base"] * (len(winners) + errors),
            "winner": winners + [None] * errors,
            "error": [None] * len(winners) + ["X: boom"] * errors,
        }
    )
    man = {"strategies": {"DS": "heuristic", "BK": "heuristic", "VE": "heuristic"}}
    return Run(Path("."), man | (manifest or {}), games, pl.DataFrame(), ["base"])


# --- balance ----------------------------------------------------------------------------------


def test_an_even_split_over_many_games_is_balanced_within_the_margin():
    (v,) = verdict.balance(_run(["DS", "BK", "VE"] * 1500), margin=0.03)
    assert v["verdict"] == "balanced" and v["text"] == "balanced within ±3 percentage points"


def test_a_clear_lead_is_not_balanced_and_names_the_favoured_faction_with_its_interval():
    (v,) = verdict.balance(_run(["DS"] * 360 + ["BK", "VE"] * 120))
    assert v["verdict"] == "not balanced" and v["faction"] == "DS"
    assert v["text"].startswith("not balanced: DS favoured by +26.7 percentage points [")


def test_a_faction_far_behind_is_not_balanced_even_when_none_is_far_ahead():
    # 36 / 36 / 28: nobody beyond 1/3 + 3 points, but VE's whole interval is below 1/3 - 3
    (v,) = verdict.balance(_run(["DS"] * 1800 + ["BK"] * 1800 + ["VE"] * 1400))
    assert v["verdict"] == "not balanced" and v["faction"] == "VE" and v["side"] == "behind"


def test_too_few_games_is_undetermined_with_the_games_that_would_decide_and_which_way():
    (v,) = verdict.balance(_run(["DS", "BK", "VE"] * 10))
    assert v["verdict"] == "undetermined" and v["more_games"] > 100
    assert f"about {v['more_games']:,} more games would show it balanced" in v["text"]


def test_balance_reads_the_win_rate_tables_simultaneous_intervals():
    # the same Goodman intervals as the table's column, over the same finished games
    winners = ["DS"] * 700 + ["BK"] * 100 + ["VE"] * 190 + [None] * 10
    (v,) = verdict.balance(_run(winners))
    rows = {r["faction"]: r for r in stats.win_rate_table(winners, ("DS", "BK", "VE"), 0.95)}
    for f in v["factions"]:
        assert (f["rate"], f["low"], f["high"]) == pytest.approx(
            (rows[f["faction"]]["rate"], rows[f["faction"]]["goodman_low"],
             rows[f["faction"]]["goodman_high"])
        )  # fmt: skip


def test_a_faction_whose_simultaneous_interval_reaches_past_the_band_is_not_called_balanced():
    # BK 650 of 2,000: its own 95% Wilson interval lies inside 1/3 +- 3, the simultaneous not
    winners = ["BK"] * 650 + ["DS"] * 675 + ["VE"] * 675
    assert stats.wilson_interval(650, 2000, 0.95)[0] >= 1 / 3 - 0.03
    (v,) = verdict.balance(_run(winners))
    assert v["verdict"] == "undetermined"


def test_the_tie_rate_is_part_of_the_same_denominator_as_the_factions_rates():
    (v,) = verdict.balance(_run(["DS", "BK", "VE"] * 30 + [None] * 10))
    assert v["finished_games"] == 100 and v["ties"]["games"] == 10
    assert v["ties"]["rate"] == pytest.approx(0.1)
    assert sum(f["rate"] for f in v["factions"]) + v["ties"]["rate"] == pytest.approx(1.0)
    sentence = verdict.balance_sentence(v, "the default bots")
    assert "unresolved ties 10.0% (" in sentence and "of 100 finished games" in sentence


def test_a_variants_sentence_leads_with_the_answer_the_rates_and_the_bots_in_words():
    (v,) = verdict.balance(_run(["DS"] * 690 + ["BK"] * 100 + ["VE"] * 200 + [None] * 10))
    sentence = verdict.balance_sentence(v, verdict.bots_text(_run(["DS"]), "base"))
    assert re.fullmatch(
        r"not balanced: DS wins 69\.0% \(6\d\.\d–7\d\.\d%\), BK 10\.0% \([\d.]+–[\d.]+%\), "
        r"VE 20\.0% \([\d.]+–[\d.]+%\), unresolved ties 1\.0% \([\d.]+–[\d.]+%\) of 1,000 "
        r"finished games \(95% simultaneous intervals\); under the default bots\.",
        sentence,
    ), sentence
    assert "`" not in sentence  # no strategy spec in the answer


def test_the_bots_are_said_in_words_not_specs():
    run = _run(
        ["DS"], manifest={"strategies": dict.fromkeys(OUTCOMES[:3], "mcts:value=1,rollouts=32")}
    )
    text = verdict.bots_text(run, "base")
    assert text == (
        "searching with four times the search bot's default budget and scoring with a learned "
        "evaluation in every seat"
    )


# --- changes ----------------------------------------------------------------------------------


def _winners(n11: int, n10: int, n01: int, n00: int, outcome: str = "DS"):
    """Paired winners with the given 2x2 table for ``outcome`` (the other games: BK)."""
    other = "BK" if outcome != "BK" else "VE"
    a = [outcome] * (n11 + n10) + [other] * (n01 + n00)
    b = [outcome] * n11 + [other] * n10 + [outcome] * n01 + [other] * n00
    return a, b


def _comparison(a: list[str], b: list[str], run: Run | None = None, variants=("A", "B")):
    """What the verdict reads of a comparison (``compare.compare``'s rows), from winners."""
    wins = [stats.paired_win_comparison(a, b, o) for o in OUTCOMES]
    side_a = SimpleNamespace(label=variants[0], variant=variants[0], run=run)
    side_b = SimpleNamespace(label=variants[1], variant=variants[1], run=run)
    return SimpleNamespace(wins=wins, a=side_a, b=side_b, n=len(a), overall={}, confounded=[])


def _row(entry: dict, outcome: str = "DS") -> dict:
    return next(r for r in entry["factions"] if r["faction"] == outcome)


def test_a_change_is_an_interval_that_excludes_zero_simultaneous_over_the_report():
    # DS +3 points on 400 games: its interval excludes 0 at 95% over 4 outcomes ...
    a, b = _winners(100, 2, 14, 284)
    alone = _row(verdict.changes([_comparison(a, b)])[0])
    assert alone["verdict"] == "change" and alone["low"] > 0
    assert (alone["low"], alone["high"]) == pytest.approx(
        stats.paired_interval(100, 2, 14, 284, 1 - 0.05 / 4)
    )
    # ... but not among the 16 outcomes of four comparisons (Bonferroni over the report)
    many = _row(verdict.changes([_comparison(a, b)] + [_comparison(a, a)] * 3)[0])
    assert many["verdict"] == "undetermined" and many["low"] < 0


def test_a_difference_of_2_5_points_with_delta_3_is_a_change_with_its_interval():
    a, b = _winners(0, 0, 500, 19_500, "BK")  # BK +2.5 points over 20,000 games
    entry = verdict.changes([_comparison(a, b)], delta=0.03)[0]
    bk = _row(entry, "BK")
    assert bk["verdict"] == "change" and 0 < bk["low"] < 0.025 < bk["high"] <= 0.03
    assert bk["text"] == (
        f"BK +2.5 percentage points [{100 * bk['low']:+.1f}, {100 * bk['high']:+.1f}]: a change, "
        "smaller than 3 percentage points"
    )
    assert "BK wins 2.5 percentage points more [+" in entry["sentence"]
    assert "a change smaller than 3 percentage points" in entry["sentence"]


def test_a_difference_whose_interval_holds_zero_and_passes_delta_is_not_yet_known():
    a, b = _winners(100, 14, 30, 256)  # DS +4 points over 400 games: [-0.4, +8.5] or so
    row = _row(verdict.changes([_comparison(a, b)])[0])
    assert row["verdict"] == "undetermined" and row["low"] < 0 < 0.03 < row["high"]
    assert row["text"].startswith("DS +4.0 percentage points [")
    assert "not yet known; at this difference, about" in row["text"]
    assert row["text"].endswith("more paired games would show a change")
    # the interval shrinking as 1/sqrt(n): the games at which its lower end passes 0
    need = 400 * ((row["diff"] - row["low"]) / row["diff"]) ** 2
    assert row["more_games"] == math.ceil(need) - 400 > 0


def test_the_games_to_decide_come_from_the_observed_difference_and_are_never_zero():
    a, b = _winners(600, 232, 220, 948)  # d = -0.6 points over 2,000 paired games
    row = _row(verdict.changes([_comparison(a, b)])[0])
    lo, hi = row["low"], row["high"]
    assert lo < -0.03 < hi < 0.03 and row["verdict"] == "undetermined"
    need = 2000 * ((-0.006 - lo) / (0.03 - 0.006)) ** 2
    assert row["more_games"] == max(1, math.ceil(need) - 2000)
    assert "would show no change larger than 3 percentage points" in row["text"]


def test_no_change_is_the_same_interval_inside_plus_minus_delta():
    a, b = _winners(3000, 80, 74, 6846)  # -0.06 points over 10,000 games
    row = _row(verdict.changes([_comparison(a, b)])[0])
    assert row["verdict"] == "no change" and -0.03 <= row["low"] < 0 < row["high"] <= 0.03
    assert row["text"] == (
        f"DS -0.1 percentage points [{100 * row['low']:+.1f}, {100 * row['high']:+.1f}]: "
        "no change larger than 3 percentage points"
    )


def test_a_rule_that_turns_wins_into_ties_shows_as_a_change_of_the_tie_rate():
    a = ["DS", "BK", "VE"] * 200
    b = [None if i % 10 == 0 else w for i, w in enumerate(a)]  # 10% of the games now tie
    b = ["tie" if w is None else w for w in b]
    entry = verdict.changes([_comparison(a, b)])[0]
    tie = _row(entry, "tie")
    assert tie["verdict"] == "change"
    assert tie["text"].startswith("unresolved ties +10.0 percentage points [")
    assert "unresolved ties 10.0 percentage points more [" in entry["sentence"]


def test_a_comparison_with_no_change_anywhere_says_so_in_one_sentence():
    same = ["DS", "BK", "VE"] * 4000
    entry = verdict.changes([_comparison(same, same)])[0]
    assert entry["sentence"].startswith(
        "no change larger than 3 percentage points in any Faction's win rate or in the rate "
        "of unresolved ties (DS +0.0 [+0.0, +0.0], BK +0.0"
    )
    assert entry["sentence"].endswith("; 12,000 paired games; 95% simultaneous intervals).")


def test_a_sequential_runs_answer_is_the_sequential_studys():
    # the fixed-size interval leaves DS open on these 200 games; the sequential study that
    # stopped here said "no change" with its anytime-valid interval: the report gives that
    a, b = _winners(60, 5, 3, 132)
    look = {
        "a": "A", "b": "B", "n": 200, "decision": "no change",
        "factions": [
            {"faction": o, "n": 200, "diff": -0.01 if o == "DS" else 0.0, "low": -0.029,
             "high": 0.02, "decision": "no change", "more_games": None}
            for o in OUTCOMES
        ],
    }  # fmt: skip
    rule = {"delta": 0.03, "alpha": 0.05}
    run = _run(["DS"], manifest={"sequential": {"rule": rule, "status": "decided",
        "reason": "every outcome of every comparison was decided",
        "looks": [{"games": 200, "comparisons": [look]}]}})  # fmt: skip
    fixed = verdict.changes([_comparison(a, b)])[0]
    assert _row(fixed)["verdict"] == "undetermined"
    entry = verdict.changes([_comparison(a, b, run)])[0]
    assert entry["sequential"] and {r["verdict"] for r in entry["factions"]} == {"no change"}
    assert _row(entry)["text"] == (
        "DS -1.0 percentage points [-2.9, +2.0]: no change larger than 3 percentage points"
    )
    assert entry["sentence"].endswith("; 200 paired games; 95% anytime-valid intervals).")
    assert entry["stopped"]["status"] == "decided"


def test_an_older_sequential_record_without_intervals_gets_the_fixed_size_answer():
    a, b = _winners(60, 5, 3, 132)
    look = {"a": "A", "b": "B", "n": 200, "decision": "no change",
            "factions": [{"faction": o, "n": 200, "diff": 0.0, "llr": -2.0,
                          "decision": "no change"} for o in OUTCOMES]}  # fmt: skip
    run = _run(["DS"], manifest={"sequential": {"rule": {"delta": 0.03, "beta": 0.2},
        "looks": [{"games": 200, "comparisons": [look]}]}})  # fmt: skip
    entry = verdict.changes([_comparison(a, b, run)])[0]
    assert not entry["sequential"] and _row(entry)["verdict"] == "undetermined"


def test_stuart_maxwell_leaves_out_an_outcome_without_discordant_games():
    # VE's games agree on both sides; DS and BK swap 20 and 5 times: McNemar's 15^2 / 25 = 9
    a = ["DS"] * 50 + ["BK"] * 50 + ["VE"] * 30 + ["DS"] * 20 + ["BK"] * 5
    b = ["DS"] * 50 + ["BK"] * 50 + ["VE"] * 30 + ["BK"] * 20 + ["DS"] * 5
    tied = [[w.replace("VE", "tie") for w in side] for side in (a, b)]
    for first, second in ((a, b), tied):
        found = stuart_maxwell(first, second)
        assert found["outcomes"] == ["DS", "BK"] and found["df"] == 1
        assert found["statistic"] == pytest.approx(9.0)
        assert found["p_value"] == pytest.approx(0.0027, abs=1e-4)
    a = ["DS"] * 50 + ["BK"] * 50 + ["VE"] * 30 + ["BK"] * 20 + ["VE"] * 5
    b = ["DS"] * 50 + ["BK"] * 50 + ["VE"] * 30 + ["VE"] * 20 + ["BK"] * 5
    assert stuart_maxwell(a, b)["p_value"] == pytest.approx(0.0027, abs=1e-4)  # DS: none


# --- failures, the report ---------------------------------------------------------------------


def test_more_than_one_percent_of_failed_games_gives_best_and_worst_case_bounds():
    found = verdict.failures(_run(["DS", "BK", "VE"] * 30, errors=10))
    assert found["failed"] == 10 and found["games"] == 100
    assert found["bounds"]["DS"] == (0.3, 0.4)
    assert verdict.failures(_run(["DS", "BK", "VE"] * 100, errors=1)) is None


def data_rows(out: Path) -> list[dict]:
    """(variant, faction) of every Faction's row of a run's verdict."""
    data = json.loads((out / "verdict.json").read_text())
    return [{"variant": v["variant"], "faction": f["faction"]} for v in data["variants"]
            for f in v["factions"]]  # fmt: skip


def _visible(html: str) -> str:
    body = html[html.index("<body>") :]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_the_report_opens_with_the_answer_and_writes_the_verdict_as_json(tmp_path):
    from cli_support import invoke

    out = tmp_path / "r"
    result = invoke(
        "run", "--games", "12", "--jobs", "1", "--quiet", "--out", str(out),
        "--variant", "base", "--variant", "timurs-shadow", "--strategy", "all=random",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    lines = md.splitlines()
    assert lines[2] == "## The answer"  # right after the title
    assert lines[4].startswith("> **PROVISIONAL DATA")  # the caveat before "not balanced"
    bullets = [x for x in lines if x.startswith("- **")]
    assert bullets[0].startswith("- **base**: ") and "under random play in every seat" in bullets[0]
    assert bullets[2].startswith("- **timurs-shadow against base**: ")
    head = md[: md.index("## Provenance")]
    assert "## Verdict in detail" in head and "Stuart-Maxwell" in head
    # the headline's rates and intervals are the win rate table's (one denominator)
    table = md[md.index("## Win rates") :]
    for v in data_rows(out):
        row = f"| {v['variant']} | {v['faction']} | "
        line = next(x for x in table.splitlines() if x.startswith(row))
        rate, goodman = line.split(" | ")[4], line.split(" | ")[6].rstrip(" |")
        answer = next(x for x in bullets if x.startswith(f"- **{v['variant']}**: "))
        assert f"{rate} ({goodman})" in answer, (answer, line)
    data = json.loads((out / "verdict.json").read_text())
    assert [v["variant"] for v in data["variants"]] == ["base", "timurs-shadow"]
    assert [f["faction"] for f in data["comparisons"][0]["factions"]] == list(OUTCOMES)
    assert [a["subject"] for a in data["answers"]] == [
        "base", "timurs-shadow", "timurs-shadow against base",
    ]  # fmt: skip
    # at 800 px wide the answer is on the first screen: before any table, figure or warning;
    # a command (a code span) never breaks across lines
    html = (out / "report" / "report.html").read_text(encoding="utf-8")
    assert re.search(r"code \{[^}]*white-space: nowrap", html)
    page = _visible(html)
    first_screen = page[:1500]
    for answer in data["answers"]:
        assert answer["sentence"][:60].replace("`", "") in first_screen


def test_the_margin_is_the_designers_to_set_and_is_checked(tmp_path):
    from cli_support import invoke

    out = tmp_path / "r"
    made = invoke(
        "run", "--games", "6", "--jobs", "1", "--quiet", "--no-report", "--out", str(out),
        "--strategy", "all=random",
    )  # fmt: skip
    assert made.exit_code == 0
    assert invoke("report", str(out), "--margin", "0.2").exit_code == 0
    text = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "within ±20 percentage points" in text
    bad = invoke("report", str(out), "--margin", "0.5")
    assert bad.exit_code == 2 and "--margin must be in (0, 1/3)" in bad.output
