"""The report's verdict: balance by an equivalence test, changes with Holm over the whole
report, the bots that played, and a warning when games failed."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import polars as pl

from simulate.analysis import verdict
from simulate.analysis.run import Run


def _run(winners: list[str | None], errors: int = 0) -> Run:
    games = pl.DataFrame(
        {
            "variant": ["base"] * (len(winners) + errors),
            "winner": winners + [None] * errors,
            "error": [None] * len(winners) + ["X: boom"] * errors,
        }
    )
    man = {"strategies": {"DS": "heuristic", "BK": "heuristic", "VE": "heuristic"}}
    return Run(Path("."), man, games, pl.DataFrame(), ["base"])


def test_an_even_split_over_many_games_is_balanced_within_the_margin():
    (v,) = verdict.balance(_run(["DS", "BK", "VE"] * 1500), margin=0.03)
    assert v["verdict"] == "balanced" and v["text"] == "balanced within ±3 points"


def test_a_clear_lead_is_reported_as_favoured_with_its_interval():
    (v,) = verdict.balance(_run(["DS"] * 360 + ["BK", "VE"] * 120))
    assert v["verdict"] == "favoured" and v["text"].startswith("DS favoured by +26.7 points [")


def test_too_few_games_is_undetermined_with_the_games_that_would_decide():
    (v,) = verdict.balance(_run(["DS", "BK", "VE"] * 10))
    assert v["verdict"] == "undetermined" and v["more_games"] > 100
    assert f"about {v['more_games']:,} more decided games" in v["text"]


def _comparison(p: float, lo: float, hi: float):
    wins = [
        {"faction": f, "p_value": p, "diff": (lo + hi) / 2, "diff_low": lo, "diff_high": hi}
        for f in ("DS", "BK", "VE")
    ]
    side = SimpleNamespace(label="x")
    return SimpleNamespace(wins=wins, a=side, b=side, n=1000, overall={}, confounded=[])


def test_holm_covers_every_comparison_of_the_report():
    # one comparison alone: p = 0.01 on three Factions survives Holm (3 x 0.01 < 0.05) ...
    alone = verdict.changes([_comparison(0.01, 0.01, 0.05)])
    assert [f["verdict"] for f in alone[0]["factions"]] == ["change"] * 3
    # ... but not among six tests of two comparisons (6 x 0.01 > 0.05)
    two = verdict.changes([_comparison(0.01, 0.01, 0.05), _comparison(0.5, -0.01, 0.01)])
    assert [f["verdict"] for f in two[0]["factions"]] == ["undetermined"] * 3
    assert [f["verdict"] for f in two[1]["factions"]] == ["no change"] * 3


def test_more_than_one_percent_of_failed_games_gives_best_and_worst_case_bounds():
    found = verdict.failures(_run(["DS", "BK", "VE"] * 30, errors=10))
    assert found["failed"] == 10 and found["games"] == 100
    assert found["bounds"]["DS"] == (0.3, 0.4)
    assert verdict.failures(_run(["DS", "BK", "VE"] * 100, errors=1)) is None


def test_the_report_opens_with_the_verdict_and_writes_it_as_json(tmp_path):
    from cli_support import invoke

    out = tmp_path / "r"
    result = invoke(
        "run", "--games", "12", "--jobs", "1", "--quiet", "--out", str(out),
        "--variant", "base", "--variant", "timurs-shadow",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    head = md[: md.index("## Provenance")]
    assert "## Verdict" in head and "Under these bots: DS `heuristic`" in head
    assert "**timurs-shadow vs base**" in head and "Stuart-Maxwell" in head
    data = json.loads((out / "verdict.json").read_text())
    assert [v["variant"] for v in data["variants"]] == ["base", "timurs-shadow"]
    assert data["comparisons"][0]["factions"][0]["faction"] == "DS"


def test_the_margin_is_the_designers_to_set_and_is_checked(tmp_path):
    from cli_support import invoke

    out = tmp_path / "r"
    assert (
        invoke(
            "run", "--games", "6", "--jobs", "1", "--quiet", "--no-report", "--out", str(out)
        ).exit_code
        == 0
    )
    assert invoke("report", str(out), "--margin", "0.2").exit_code == 0
    assert "within ±20 points" in (out / "report" / "report.md").read_text(encoding="utf-8")
    bad = invoke("report", str(out), "--margin", "0.5")
    assert bad.exit_code == 2 and "--margin must be in (0, 1/3)" in bad.output
