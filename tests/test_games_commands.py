"""The tiny test game (tests/tiny_game, Pig) through every command that plays or reads games
at 2 and at 5 seats (issue 65): run with two variants and its report, compare, a sequential
study, plan, ladder and strength. Each says its seats and none names Vijayanagara's."""

from __future__ import annotations

import json
import re

import pytest
from cli_support import invoke

TINY = "tests.tiny_game:GAME"
GAME_WORDS = re.compile(r"\b(DS|BK|VE)\b|Mongol|Influence|Qasbah")
SEATS = (2, 5)


def _seats(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def _play(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module", params=SEATS)
def two_variants(request, tmp_path_factory):
    """A run of the base game and a longer race, on the same seeds, at 2 or 5 seats."""
    out = tmp_path_factory.mktemp(f"tiny{request.param}") / "run"
    _play("run", "--game", TINY, "-n", "60", "-s", "5", "-j", "2",
          "--set", f"setup.players={request.param}", "--sweep", "scoring.goal=12,20",
          "--strategy", "all=random", "--out", str(out))  # fmt: skip
    return request.param, out


def test_the_report_of_a_run_names_its_seats_and_no_other_game(two_variants):
    n, out = two_variants
    text = (out / "report" / "report.md").read_text()
    for seat in _seats(n):
        assert seat in text
    assert not GAME_WORDS.search(text)


def test_compare_pairs_the_two_variants_of_the_tiny_game(two_variants):
    n, out = two_variants
    names = [v["name"] for v in json.loads((out / "manifest.json").read_text())["variants"]]
    text = _play("compare", str(out), "--variants", *names, "--out", str(out / "cmp"))
    for seat in _seats(n):
        assert seat in text
    assert not GAME_WORDS.search(text)


@pytest.mark.parametrize("players", SEATS)
def test_a_sequential_study_of_the_tiny_game_stops_and_says_why(tmp_path, players):
    out = tmp_path / "seq"
    text = _play("run", "--game", TINY, "-n", "40", "-j", "1", "--until-clear",
                 "--max-games", "80", "--set", f"setup.players={players}",
                 "--sweep", "scoring.goal=12,13", "--strategy", "all=random",
                 "--out", str(out), "--no-report")  # fmt: skip
    status = json.loads((out / "manifest.json").read_text())["sequential"]["status"]
    assert status in ("decided", "budget spent")
    assert "P1" in text


@pytest.mark.parametrize("players", SEATS)
def test_plan_starts_from_parity_among_the_seats(players):
    text = _play("plan", "--delta", "0.05", "--game", TINY, "--seats", str(players))
    assert f"from {100 / players:.1f}%" in text


@pytest.mark.parametrize("players", SEATS)
def test_a_ladder_of_the_tiny_game_measures_each_seat(tmp_path, players):
    out = tmp_path / "ladder"
    variant = tmp_path / "n.toml"
    variant.write_text(f'name = "n"\ndescription = "n seats"\n[setup]\nplayers = {players}\n')
    text = _play("ladder", "--game", TINY, "--variant", str(variant), "--field", "all=random",
                 "--challenger", "bold", "--games", "20", "-j", "1",
                 "--out", str(out), "--quiet")  # fmt: skip
    gains = json.loads((out / "ladder.json").read_text())
    assert {g["faction"] for g in gains["records"]} == set(_seats(players))
    assert "P1" in text


@pytest.mark.parametrize("players", SEATS)
def test_a_strength_curve_of_the_tiny_game_plays_its_rungs(tmp_path, players):
    out = tmp_path / "strength"
    variant = tmp_path / "n.toml"
    variant.write_text(f'name = "n"\ndescription = "n seats"\n[setup]\nplayers = {players}\n')
    _play("strength", "--game", TINY, "--variant", str(variant), "--games", "20", "-j", "1",
          "--out", str(out), "--quiet")  # fmt: skip
    curve = json.loads((out / "strength.json").read_text())
    assert [r["name"] for r in curve["rungs"]] == ["random", "cautious"]
    assert {r["faction"] for r in curve["records"]} == set(_seats(players))
