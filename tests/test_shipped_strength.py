"""The shipped strength curve of the base game (strategies/vijayanagara/strength.json): every run records
it and every report says, under The answer, where the base game stands as all seats play
stronger, so that a balance figure never comes without the strength it was measured at."""

from __future__ import annotations

import json

import pytest
from cli_support import invoke

from simulate.analysis.strength import strongest_balance
from simulate.study import runs
from simulate.study.errors import RunError
from strategies import exploitability as known

FACTIONS = ("DS", "BK", "VE")


def ship(monkeypatch, kind, path):
    """The default game ships ``path`` as its ``kind`` file (``Game.lineup_files``)."""
    from simulate.games import get

    game = get()
    files = game.lineup_files() | {kind: path}
    monkeypatch.setattr(type(game), "lineup_files", lambda self: files)


def _study(tmp_path, **change):
    """A small strength.json of two variants and two rungs, as `vsim strength` writes it."""
    rungs = [("heuristic", "all=heuristic", 400), ("mcts-1x", "all=mcts", 200)]
    records = [
        {"variant": v, "rung": r, "faction": f, "games": g, "win": w}
        | {"win_lo": w - 0.05, "win_hi": w + 0.05, "vp_margin": -1.0}
        for v in ("fort-penalty-2", "base")
        for r, _, g in rungs
        for f, w in zip(FACTIONS, (0.62, 0.13, 0.25), strict=True)
    ]
    convergence = [
        {"variant": v, "from": "heuristic", "to": "mcts-1x", "faction": f}
        | {"verdict": "undetermined", "text": f"{f} undetermined"}
        for v in ("fort-penalty-2", "base")
        for f in FACTIONS
    ]
    payload = {
        "command": "vsim strength --variant base --seed 43",
        "bots": {"heuristic": "v19"},
        "margin": 0.03,
        "variants": ["fort-penalty-2", "base"],
        "rungs": [{"name": n, "spec": s, "games": g, "games_per_s": 1.0} for n, s, g in rungs],
        "records": records,
        "convergence": convergence,
        "effects": [],
    } | change
    path = tmp_path / "strength.json"
    path.write_text(json.dumps(payload))
    return path


def test_the_shipped_study_is_the_base_games_part_with_its_command_and_bots(tmp_path):
    shipped = known.shipped_strength(_study(tmp_path))
    assert shipped["command"].startswith("vsim strength") and shipped["bots"] == {
        "heuristic": "v19"
    }
    assert shipped["variants"] == ["base"]
    assert {r["variant"] for r in shipped["records"]} == {"base"}
    assert {c["variant"] for c in shipped["convergence"]} == {"base"}
    assert [r["name"] for r in shipped["rungs"]] == ["heuristic", "mcts-1x"]


def test_no_shipped_study_is_none(tmp_path):
    assert known.shipped_strength(tmp_path / "absent.json") is None


@pytest.mark.parametrize("change", [{"command": None} | {"rungs": None}, {"records": [{}]}])
def test_a_bad_shipped_study_is_refused_in_one_line(tmp_path, change):
    path = _study(tmp_path, **change)
    with pytest.raises(ValueError, match="cannot read the shipped strength study") as err:
        known.shipped_strength(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_a_bad_shipped_study_stops_a_run_with_a_one_line_error(tmp_path, monkeypatch):
    ship(monkeypatch, "strength", _study(tmp_path, variants=[]))
    with pytest.raises(RunError):
        runs.shipped_strength()
    out = tmp_path / "run"
    result = invoke("run", "--games", "4", "--jobs", "1", "-q", "--out", str(out))
    assert result.exit_code == 2 and "cannot read the shipped strength study" in result.output
    assert not (out / "games").exists()


def test_a_run_records_the_study_and_its_report_leads_with_where_it_stands(tmp_path, monkeypatch):
    ship(monkeypatch, "strength", _study(tmp_path))
    out = tmp_path / "run"
    assert invoke("run", "--games", "4", "--jobs", "1", "-q", "--out", str(out)).exit_code == 0
    recorded = json.loads((out / "manifest.json").read_text())["strength"]
    assert recorded == known.shipped_strength()
    text = (out / "report" / "report.md").read_text(encoding="utf-8")
    answer = text[: text.index("\n## ", text.index("The answer"))]
    assert strongest_balance(recorded) in answer
    assert (
        "With every seat searching at the search bot's default budget (the strongest rung "
        "measured, 200 games), base: DS 62.0%" in answer
    )
    assert "all=mcts" not in answer  # issue 64: no strategy spec in the answer
    provenance = text[text.index("## Provenance") :]
    assert "| Strength curve (base game) | `vsim strength`: its command is under" in provenance
    assert "```\nvsim strength --variant base --seed 43\n```" in provenance  # rerunnable


def test_the_shipped_study_is_a_vsim_strength_of_the_base_game_at_every_rung():
    shipped = known.shipped_strength()
    assert shipped is not None, "strategies/vijayanagara/strength.json is shipped"
    assert shipped["command"].startswith("vsim strength ") and "--seed" in shipped["command"]
    assert shipped["variants"] == ["base"]
    names = [r["name"] for r in shipped["rungs"]]
    assert {(r["rung"], r["faction"]) for r in shipped["records"]} == {
        (n, f) for n in names for f in FACTIONS
    }
    for r in shipped["records"]:
        assert r["games"] > 0 and r["win_lo"] <= r["win"] <= r["win_hi"]
