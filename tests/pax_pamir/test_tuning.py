"""``vsim tune-bots --game pax-pamir`` (issue 66/67): one parametrised heuristic for every
seat, its weights tuned by self-play; the space file, the specs and the weights files."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from cli_support import invoke

from simulate.pax_pamir import bot_space
from simulate.pax_pamir.game import GAME
from simulate.study import bot_tuning as bt
from simulate.study.errors import RunError
from strategies.pax_pamir.heuristic import Heuristic, load_weights

TINY = (
    "--rounds", "1", "--generations", "1", "--popsize", "4", "--games", "4",
    "--validation-games", "4", "--probe-games", "0", "--jobs", "1", "--quiet",
)  # fmt: skip


@pytest.fixture(autouse=True)
def tunable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game answers ``tunable()`` with this module (until ``PaxPamir`` declares it)."""
    monkeypatch.setattr(type(GAME), "tunable", lambda self: bot_space)


def _space(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(text)
    return path


def test_the_shipped_space_searches_every_seat_inside_the_ranges_of_its_weights():
    space = bot_space.load_space()
    assert set(space.params) == set(bot_space.SEATS)
    keys = {p.key for p in space.params["P1"]}
    assert keys == bot_space.weight_names() - {"cost"}  # the unit is not searched
    for p in space.params["P5"]:
        assert p.low <= bot_space.base_value(p.key) <= p.high, p.key


def test_a_seat_table_adds_a_range_for_that_seat_only(tmp_path):
    space = bot_space.load_space(
        _space(tmp_path, "[common]\ntax = [0.2, 1.5]\n[P2]\ncost = [0.2, 1.0]\ntax = [0.5, 1]\n")
    )
    assert [p.key for p in space.params["P1"]] == ["tax"]
    assert [(p.key, p.low, p.high) for p in space.params["P2"]] == [
        ("cost", 0.2, 1.0),
        ("tax", 0.5, 1),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[DS]\ntax = [0.0, 1.0]\n", "unknown table [DS]"),
        ("[common]\ntaxes = [0.0, 1.0]\n", "'taxes' is no weight of the heuristic"),
        ("[common]\ntax = [1.0]\n", "'tax' must be [low, high]"),
        ("[common]\ntax = [1.0, 1.0]\n", "'tax' has an empty range"),
        ("common = 3\n", "common must be a table"),
        ("[common]\ntax = [0.0,\n", "--space"),
        ("[P1]\n", "nothing to search"),
    ],
)
def test_a_bad_space_file_is_refused_in_one_line(tmp_path, text, message):
    with pytest.raises(RunError, match="--space") as caught:
        bot_space.load_space(_space(tmp_path, text))
    assert message in str(caught.value) and "\n" not in str(caught.value)
    result = invoke(
        "tune-bots", "--game", "pax-pamir", "--out", str(tmp_path / "t"),
        "--space", str(tmp_path / "space.toml"),
    )  # fmt: skip
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "t").exists()


def test_the_spec_of_the_base_values_is_the_base_bot_and_a_change_names_its_weight():
    space = bot_space.load_space()
    start = bot_space.start_values(space, None)
    assert {bot_space.spec_of(v) for v in start.values()} == {bot_space.BASE_BOT}
    assert bot_space.spec_of(start["P1"] | {"tax": 1.5, "pass": -0.25}) == (
        "heuristic:pass=-0.25,tax=1.5"
    )
    assert bot_space.start_values(space, Path("heuristic")) == start


def test_a_start_file_starts_every_seat_and_a_bad_one_is_refused_in_one_line(tmp_path):
    (tmp_path / "start.toml").write_text("tax = 1.25\n")
    start = bot_space.start_values(bot_space.load_space(), tmp_path / "start.toml")
    assert {v["tax"] for v in start.values()} == {1.25}
    (tmp_path / "start.toml").write_text("taxes = 1.25\n")
    with pytest.raises(RunError, match="--start: .*taxes") as caught:
        bot_space.start_values(bot_space.load_space(), tmp_path / "start.toml")
    assert "\n" not in str(caught.value)


def test_a_tuning_searches_the_seats_of_its_variant_only():
    four = bt.Tuning.create(game="pax-pamir")
    assert four.seats == ("P1", "P2", "P3", "P4") and set(four.start) == set(four.seats)
    three = bt.Tuning.create(game="pax-pamir", variant="players-3")
    assert set(three.space.params) == {"P1", "P2", "P3"}
    assert three.config()["game"] == "pax-pamir" and three.pool == ("heuristic",)
    with pytest.raises(RunError, match="--faction 'P4': expected P1, P2 or P3"):
        bt.Tuning.create(game="pax-pamir", variant="players-3", factions=["P4"])


def test_the_shared_weights_are_the_mean_over_the_searched_seats(tmp_path):
    tuning = bt.Tuning.create(game="pax-pamir", variant="players-3", factions=["P1", "P3"])
    field = {s: dict(v) for s, v in tuning.start.items()}
    field["P1"]["tax"], field["P3"]["tax"], field["P2"]["tax"] = 1.0, 1.5, 9.0
    (tmp_path / "weights-P5.toml").write_text("tax = 1.0\n")  # another tuning's
    bot_space.write_weights(tmp_path / "weights.toml", field, tuning, 10)
    assert load_weights(tmp_path / "weights.toml").tax == 1.25
    assert load_weights(tmp_path / "weights-P3.toml").tax == 1.5
    assert sorted(p.name for p in tmp_path.glob("weights-*")) == [
        "weights-P1.toml",
        "weights-P3.toml",
    ]


def test_the_cli_tunes_three_seats_and_writes_weights_the_heuristic_plays(tmp_path):
    out = tmp_path / "t"
    result = invoke(
        "tune-bots", "--game", "pax-pamir", "--variant", "players-3", "--out", str(out),
        *TINY, "--ladder-games", "4", "--challenger", "random",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert all(f"round 1 P{i}" in result.output for i in (1, 2, 3))
    assert f"all=heuristic:weights={out / 'weights.toml'}" in result.output
    state = json.loads((out / "tune.json").read_text())
    assert state["status"] == "complete" and state["seats"] == ["P1", "P2", "P3"]
    assert (out / "report" / "tune-bots.html").is_file()
    assert (out / "ladder" / "ladder.json").is_file()
    shared = tomllib.loads((out / "weights.toml").read_text())
    assert set(shared) == {p.key for p in bot_space.load_space().params["P1"]}
    for seat in ("P1", "P2", "P3"):
        own = tomllib.loads((out / f"weights-{seat}.toml").read_text())
        assert own == pytest.approx(state["field"][seat], abs=1e-4)
    bot = Heuristic(weights=str(out / "weights.toml"))
    assert bot.w.tax == pytest.approx(shared["tax"])
    played = invoke(
        "run", "--game", "pax-pamir", "--variant", "players-3", "-n", "4", "--jobs", "1",
        "--strategy", f"all=heuristic:weights={out / 'weights.toml'}",
        "--strategy", f"P1=heuristic:weights={out / 'weights-P1.toml'}",
        "--out", str(tmp_path / "run"), "--quiet", "--json",
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    summary = json.loads(played.output.splitlines()[0])
    assert summary["played"] == 4 and summary["failures"] == 0
