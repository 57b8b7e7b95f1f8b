"""``vsim run --lineup``: several lineups on the same seeds, and the report's side-by-side
verdict on whether a variant's effect holds under other bots."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from cli_support import invoke, listing

from simulate.analysis.compare import lineup_agreement
from simulate.study import dataset, runs, specs

ARGS = (
    "--games", "12", "--seed", "3", "--jobs", "1", "--quiet",
    "--lineup", "rnd=all=random", "--lineup", "mixed=all=random", "--lineup", "mixed=DS=heuristic",
    "--variant", "base", "--variant", "timurs-shadow",
)  # fmt: skip


@pytest.fixture(scope="module")
def two_lineups(tmp_path_factory):
    out = tmp_path_factory.mktemp("lineups") / "run"
    result = invoke("run", *ARGS, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.output


def test_every_variant_plays_under_every_lineup_on_the_same_seeds(two_lineups):
    out, _ = two_lineups
    games = dataset.read_table(out, "games").to_pylist()
    cells = {(r["variant"], r["lineup"]) for r in games}
    assert cells == {(v, x) for v in ("base", "timurs-shadow") for x in ("rnd", "mixed")}
    seeds = {}
    for r in games:
        seeds.setdefault((r["variant"], r["lineup"]), []).append(r["seed"])
    assert len({tuple(s) for s in seeds.values()}) == 1  # common random numbers
    mixed = [r for r in games if r["lineup"] == "mixed"]
    assert {r["strategy_DS"] for r in mixed} == {"heuristic"}
    assert {r["strategy_BK"] for r in mixed} == {"random"}


def test_the_summary_and_the_report_are_per_lineup(two_lineups):
    out, output = two_lineups
    assert "base / rnd" in output and "timurs-shadow / mixed" in output
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "Do the conclusions hold under other bots?" in md
    assert "B - A under rnd" in md and "B - A under mixed" in md
    assert "| Lineups |" in md and "**mixed**: DS `heuristic`" in md
    for f in ("DS", "BK", "VE"):
        assert f"- {f}: " in md
    assert "timurs-shadow / mixed vs base / mixed" in md
    verdict = md[: md.index("## Provenance")]
    assert "**Under the other bots, timurs-shadow vs base**: DS: " in verdict


def test_a_multi_lineup_run_resumes_with_nothing_to_play(two_lineups, tmp_path):
    out, _ = two_lineups
    study = specs.Study.create(
        12,
        3,
        None,
        ["base", "timurs-shadow"],
        lineups=["rnd=all=random", "mixed=all=random", "mixed=DS=heuristic"],
    )
    assert runs.run(study, out, jobs=1).played == 0


@pytest.mark.parametrize(
    ("lineups", "message"),
    [
        (["a=random", "b=all=random"], "plays the same bots as 'a'"),
        (["DS=greedy"], "the name must be"),
        (["a="], "expected NAME=SPEC"),
        (["a=no-such-bot"], "no-such-bot"),
    ],
)
def test_bad_lineups_are_one_line_and_write_nothing(tmp_path, lineups, message):
    before = listing(tmp_path)
    args = [a for x in lineups for a in ("--lineup", x)]
    result = invoke("run", "--games", "2", *args, "--out", str(tmp_path / "r"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert listing(tmp_path) == before


def _comparison(diffs: dict[str, tuple[float, float]]):
    wins = [
        {"faction": f, "diff": (lo + hi) / 2, "diff_low": lo, "diff_high": hi}
        for f, (lo, hi) in diffs.items()
    ]
    from simulate.games import get

    run = SimpleNamespace(the_game=get())
    side = SimpleNamespace(label="x / y", seats=tuple(diffs), run=run)
    return SimpleNamespace(wins=wins, a=side, b=side, confidence=0.95)


def test_the_verdict_says_whether_the_lineups_agree():
    up, down, none = (0.01, 0.05), (-0.05, -0.01), (-0.02, 0.02)
    got = lineup_agreement(
        [
            _comparison({"DS": up, "BK": none, "VE": up}),
            _comparison({"DS": down, "BK": none, "VE": none}),
        ],
        ["heuristic", "greedy"],
    )["sentences"]
    assert got[0] == "DS: the sign flips between lineups: the conclusion depends on the bots."
    assert got[1] == "BK: no detectable change under heuristic and under greedy."
    assert got[2].startswith("VE: detected under heuristic but not under greedy")
    same = lineup_agreement([_comparison({f: up for f in ("DS", "BK", "VE")})] * 2, ["a", "b"])
    assert same["sentences"][0] == "DS: up under every lineup: the lineups agree."
