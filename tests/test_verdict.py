"""The report's verdict: balance by exact equivalence tests, changes of every outcome (ties
included) with Holm over the whole report, the games that would decide an open question and
which way, a sequential run's own answer, one sentence a designer can act on per variant
and comparison, the bots that played, and a warning when games failed."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest
from scipy.stats import binom

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
    assert f"about {v['more_games']:,} more decided games would show it balanced" in v["text"]


def test_each_factions_equivalence_test_keeps_its_level_at_every_number_of_games():
    # the true rate on the band's edge: "within the band" at most alpha of the time. Wilson's
    # interval reached 0.053 near 1,947 decided games; Clopper-Pearson's never exceeds 0.05
    for n in (1940, 1947, 1953):
        for edge in (1 / 3 - 0.03, 1 / 3 + 0.03):
            ks = range(int(n * 0.25), int(n * 0.42))
            size = sum(binom.pmf(k, n, edge) for k in ks if verdict.equivalent(k, n, 0.03, 0.05))
            assert size <= 0.05, (n, edge, size)


def test_a_faction_whose_exact_bound_misses_the_band_is_not_called_balanced():
    # BK 624 of 1,947 decided games: Wilson's 90% interval just inside 1/3 +- 3, the exact not
    (v,) = verdict.balance(_run(["BK"] * 624 + ["DS"] * 662 + ["VE"] * 661))
    assert stats.wilson_interval(624, 1947, 0.9)[0] >= 1 / 3 - 0.03
    assert v["verdict"] == "undetermined"


def test_the_tie_rate_is_reported_beside_balance_over_all_finished_games():
    (v,) = verdict.balance(_run(["DS", "BK", "VE"] * 30 + [None] * 10))
    assert v["decided_games"] == 90 and v["ties"]["games"] == 10
    assert v["ties"]["rate"] == pytest.approx(0.1)
    assert v["ties"]["low"] < 0.1 < v["ties"]["high"]
    sentence = verdict.balance_sentence(v, "the default bots (`heuristic`)")
    assert "10% of the games end in an unresolved tie" in sentence


def test_a_variants_sentence_leads_with_the_answer_the_rates_and_the_bots():
    (v,) = verdict.balance(_run(["DS"] * 690 + ["BK"] * 100 + ["VE"] * 200 + [None] * 10))
    sentence = verdict.balance_sentence(v, verdict.bots_text(_run(["DS"]), "base"))
    assert re.fullmatch(
        r"not balanced: DS wins 70% of decided games \(6\d–7\d%\), BK 10% \(\d+–\d+%\), "
        r"VE 20% \(\d+–\d+%\); 1\.0% of the games end in an unresolved tie; under the default "
        r"bots \(`heuristic`\)\.",
        sentence,
    ), sentence


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


def test_holm_covers_every_comparison_of_the_report():
    # DS +3 points on 400 games, McNemar p about 0.006: a change alone (4 tests) ...
    a, b = _winners(100, 2, 14, 284)
    alone = verdict.changes([_comparison(a, b)])
    assert _row(alone[0])["verdict"] == "change" and _row(alone[0])["p_holm"] < 0.05
    # ... but not among the 16 tests of four comparisons
    many = verdict.changes([_comparison(a, b)] + [_comparison(a, a)] * 3)
    assert _row(many[0])["verdict"] == "undetermined" and _row(many[0])["p_holm"] > 0.05


def test_the_games_to_decide_come_from_the_observed_difference_and_are_never_zero():
    # d = -0.6 points over 1,000 paired games; the 90% interval just past -3: a few dozen more
    # games (the interval shrinking as 1/sqrt(n)) would fit it inside +-3, not "0 more"
    a, b = _winners(300, 116, 110, 474)
    row = _row(verdict.changes([_comparison(a, b)])[0])
    lo, hi = stats.paired_interval(300, 116, 110, 474, 0.9)
    assert lo < -0.03 < hi < 0.03 and row["verdict"] == "undetermined"
    need = 1000 * ((-0.006 - lo) / (0.03 - 0.006)) ** 2
    assert row["more_games"] == math.ceil(need) - 1000 > 0
    assert (
        f"about {row['more_games']:,} more paired games would show no change larger than 3"
        in (row["text"])
    )


def test_a_large_difference_short_of_significance_says_how_many_games_would_show_a_change():
    a, b = _winners(100, 14, 30, 256)  # DS +4 points over 400 games, McNemar p about 0.02
    entry = verdict.changes([_comparison(a, b)])[0]
    row = _row(entry)
    assert row["verdict"] == "undetermined" and row["p_holm"] > 0.05
    p = stats.paired_win_comparison(a, b, "DS")["p_value"]
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    need = 400 * (z(1 - 0.05 / (2 * 4)) / z(1 - p / 2)) ** 2
    assert row["more_games"] == math.ceil(need) - 400
    assert row["text"].endswith("paired games would show a change")


def test_no_change_uses_the_same_one_minus_two_alpha_interval_as_balance():
    # the 95% interval reaches past -3 points, the 90% one does not: equivalence at 5%
    a, b = _winners(300, 80, 74, 546)
    assert stats.paired_interval(300, 80, 74, 546, 0.95)[0] < -0.03
    row = _row(verdict.changes([_comparison(a, b)])[0])
    assert row["verdict"] == "no change"
    assert row["text"] == "no change in DS's win rate larger than 3 percentage points"


def test_a_rule_that_turns_wins_into_ties_shows_as_a_change_of_the_tie_rate():
    a = ["DS", "BK", "VE"] * 200
    b = [None if i % 10 == 0 else w for i, w in enumerate(a)]  # 10% of the games now tie
    b = ["tie" if w is None else w for w in b]
    entry = verdict.changes([_comparison(a, b)])[0]
    tie = _row(entry, "tie")
    assert tie["verdict"] == "change"
    assert tie["text"].startswith("changes the rate of unresolved ties by +10.0 percentage points")
    assert "unresolved ties 10.0 percentage points more" in entry["sentence"]


def test_a_comparison_with_no_change_anywhere_says_so_in_one_sentence():
    same = ["DS", "BK", "VE"] * 400
    entry = verdict.changes([_comparison(same, same)])[0]
    assert entry["sentence"] == (
        "no change larger than 3 percentage points in any Faction's win rate or in the rate "
        "of unresolved ties (1,200 paired games)."
    )


def test_a_sequential_runs_answer_is_the_sequential_tests():
    # the fixed-size tests leave DS open on these 200 games; the sequential test that stopped
    # here said "no change": the report gives its answer, not a second one
    a, b = _winners(60, 5, 3, 132)
    look = {
        "a": "A", "b": "B", "n": 200, "decision": "no change",
        "factions": [
            {"faction": o, "n": 200, "diff": -0.01 if o == "DS" else 0.0, "llr": -2.0,
             "llr_up": -2.0, "llr_down": -2.0, "decision": "no change"}
            for o in OUTCOMES
        ],
    }  # fmt: skip
    rule = {"delta": 0.03, "alpha": 0.05, "beta": 0.2}
    run = _run(["DS"], manifest={"sequential": {"rule": rule, "looks": [
        {"games": 200, "comparisons": [look]}]}})  # fmt: skip
    fixed = verdict.changes([_comparison(a, b)])[0]
    assert _row(fixed)["verdict"] == "undetermined"
    entry = verdict.changes([_comparison(a, b, run)])[0]
    assert entry["sequential"] and {r["verdict"] for r in entry["factions"]} == {"no change"}
    assert _row(entry)["text"] == (
        "no change in DS's win rate as large as 3 percentage points (sequential test, 80% "
        "power: a smaller change may remain)"
    )
    assert entry["sentence"].endswith("(200 paired games, sequential test).")


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
    assert lines[4].startswith("- **base**: ") and "under `random` in every seat" in lines[4]
    assert lines[6].startswith("- **timurs-shadow against base**: ")
    head = md[: md.index("## Provenance")]
    assert "## Verdict in detail" in head and "Stuart-Maxwell" in head
    assert md.index("## The answer") < md.index("PROVISIONAL")
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
