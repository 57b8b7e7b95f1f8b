"""The balance report of any game (issue 65): the tiny test game's runs at 2 and at 5 seats
report their own seats, parity 1/n, a table per declared categorical column and the game's
own section, with no word of Vijayanagara; runs of different seats are never compared."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulate.analysis import compare, verdict
from simulate.analysis.report import build_report
from simulate.analysis.run import ReportError, load_run
from simulate.study import runs
from simulate.study.specs import Study

TINY = "tests.tiny_game:GAME"
GAMES = 40
VIJAYANAGARA = re.compile(
    r"\b(DS|BK|VE|VP)\b|Mongol|Influence|Qasbah|Vijayanagara(?!-sim)|Faction|Deccan|Timur|\bcards?\b",
    re.IGNORECASE,
)


def tiny_run(out: Path, players: int, seed: int = 7) -> Path:
    """A run of the tiny game at ``players`` seats: two variants (goal 12 and 20), paired."""
    study = Study.create(
        GAMES,
        seed,
        ["all=random"],
        settings=[f"setup.players={players}"],
        sweep="scoring.goal=12,20",
        game=TINY,
    )
    runs.run(study, out, jobs=1)
    return out


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny")
    return {n: tiny_run(root / f"seats-{n}", n) for n in (2, 5)}


@pytest.fixture(scope="module")
def reports(folders):
    return {n: build_report(folder) for n, folder in folders.items()}


@pytest.mark.parametrize("players", [2, 5])
def test_the_report_names_the_runs_own_seats_and_parity(reports, players):
    md = reports[players].markdown.read_text(encoding="utf-8")
    seats = [f"P{i}" for i in range(1, players + 1)]
    table = md[md.index("## Win rates") :]
    for seat in seats:
        assert re.search(rf"^\| scoring\.goal=12 \| {seat} \| \d+ \| {GAMES} \| ", table, re.M)
    assert f"P{players + 1}" not in md
    assert f"parity (1/{players})" in md
    even = "an even half" if players == 2 else "an even fifth"
    assert f"against {even} ±" in md
    outcomes = {2: "three", 5: "six"}[players]
    assert f"all {outcomes} outcomes ({', '.join(seats)}, unresolved tie)" in md


@pytest.mark.parametrize("players", [2, 5])
def test_the_verdict_reads_parity_as_one_over_the_seats(folders, players):
    run = load_run(folders[players])
    assert run.seats == tuple(f"P{i}" for i in range(1, players + 1))
    assert run.parity == pytest.approx(1 / players)
    for entry in verdict.balance(run):
        assert [f["faction"] for f in entry["factions"]] == list(run.seats)
    with pytest.raises(ReportError, match=rf"--margin must be in \(0, 1/{players}\)"):
        build_report(folders[players], margin=0.6)


@pytest.mark.parametrize("players", [2, 5])
def test_each_declared_categorical_column_has_its_table_and_the_game_its_section(reports, players):
    md = reports[players].markdown.read_text(encoding="utf-8")
    ending = md[md.index("### ending") :]
    head = ending.splitlines()[4]
    assert head.startswith("| variant | rows |") and {"goal", "limit"} & set(
        head.strip("| ").split(" | ")
    )
    assert "### action" in md  # the per-step table's categorical column too
    section = md[md.index("## Lead changes") :]
    assert "lead changes a game" in section.splitlines()[2]
    assert md.index("## Categories") < md.index("## Lead changes") < md.index("## Failures")


@pytest.mark.parametrize("players", [2, 5])
def test_the_report_says_nothing_of_vijayanagara_and_is_self_contained(reports, players):
    files = reports[players]
    md = files.markdown.read_text(encoding="utf-8")
    found = sorted({m.group(0) for m in VIJAYANAGARA.finditer(md)})
    assert not found, found
    assert "PROVISIONAL" not in md  # the tiny game's data are its own
    page = files.html.read_text(encoding="utf-8")
    sources = re.findall(r"""src\s*=\s*["']([^"']*)["']""", page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert len(sources) == len(list(files.out.glob("*.png")))
    assert "### scoring.goal=20 vs scoring.goal=12" in md  # the paired comparison


def test_runs_of_different_seats_are_never_compared(folders, tmp_path):
    with pytest.raises(compare.CompareError) as found:
        a, b = compare.resolve([folders[2], folders[5]], ("scoring.goal=12", "scoring.goal=12"))
        compare.compare(a, b)
    text = str(found.value)
    assert "\n" not in text and "seats differ" in text and "P1, P2 vs 5: P1" in text
    out = tmp_path / "rep"
    with pytest.raises(ReportError, match="seats differ"):
        build_report(folders[2], out, compare=[folders[5]])
    assert not out.exists()
