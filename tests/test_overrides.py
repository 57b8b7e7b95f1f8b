"""``vsim run --set KEY=VALUE`` and ``--sweep KEY=V1,V2,...``: variants without a file."""

from __future__ import annotations

import json

import pytest
from cli_support import invoke, listing

from simulate.overrides import parse_setting, with_settings
from simulate.study import dataset
from simulate.vijayanagara.variants import BASE


def test_a_setting_is_read_as_toml_and_overlays_the_variant():
    assert parse_setting("combat.fort_penalty=2") == ("combat.fort_penalty", 2)
    assert parse_setting("rules.timurs_shadow=true") == ("rules.timurs_shadow", True)
    v = with_settings(BASE, [("combat.fort_penalty", 2)])
    assert v.content["combat"] == {"fort_penalty": 2} and v.name.endswith("fort_penalty=2")
    assert v.digest != BASE.digest


def test_set_changes_the_rules_of_the_run_and_replays(tmp_path):
    out = tmp_path / "r"
    result = invoke(
        "run", "--games", "6", "--jobs", "1", "--quiet", "--no-report",
        "--set", "combat.fort_penalty=2", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    man = json.loads((out / "manifest.json").read_text())
    assert man["variants"][0]["content"]["combat"] == {"fort_penalty": 2}
    name = man["variants"][0]["name"]
    replayed = invoke("replay", str(out), "--game", "2", "--variant", name)
    assert "final state digest matches the record" in replayed.output


def test_a_sweep_plays_one_variant_per_value_on_the_same_seeds_and_plots_it(tmp_path):
    out = tmp_path / "s"
    result = invoke(
        "run", "--games", "8", "--jobs", "1", "--quiet",
        "--sweep", "combat.fort_penalty=0,2", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    games = dataset.read_table(out, "games").to_pylist()
    by = {}
    for r in games:
        by.setdefault(r["variant"], []).append(r["seed"])
    assert set(by) == {"combat.fort_penalty=0", "combat.fort_penalty=2"}
    assert by["combat.fort_penalty=0"] == by["combat.fort_penalty=2"]
    md = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Sweep: win rate against `combat.fort_penalty`" in md
    assert (out / "report" / "sweep.png").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "combat.fort_penalty=9"], "combat.fort_penalty: must be 0..3"),
        (["--set", "combat.nope=1"], "combat.nope: unknown key"),
        (["--set", "combat.fort_penalty"], "expected KEY=VALUE"),
        (["--sweep", "combat.fort_penalty=1"], "at least two different values"),
    ],
)
def test_bad_settings_are_one_line_and_write_nothing(tmp_path, args, message):
    before = listing(tmp_path)
    result = invoke("run", "--games", "2", *args, "--out", str(tmp_path / "r"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert listing(tmp_path) == before
