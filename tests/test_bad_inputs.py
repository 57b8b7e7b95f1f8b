"""Bad inputs across variant files, data files and strategies (issue 8): each gives one line
(no traceback), exit status 2, and leaves an existing output directory untouched. The CLI's
own cases are in test_cli.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from cli_support import ROOT, invoke, listing

from simulate.study import dataset
from simulate.vijayanagara.rules.datafiles import DATA_DIR

vsim = invoke
_listing = listing


@pytest.fixture(scope="module")
def existing(tmp_path_factory):
    out = tmp_path_factory.mktemp("existing") / "run"
    result = vsim("run", "--games", "2", "--seed", "1", "--jobs", "1", "--quiet", "--no-report",
                  "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def _variant(folder: Path, body: str, events: dict | str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "v.toml"
    path.write_text('name = "v"\ndescription = "a test variant"\n' + body)
    if events is not None:
        text = events if isinstance(events, str) else yaml.safe_dump(events, sort_keys=False)
        (folder / "ev.yaml").write_text(text)
    return path


def _events(mutate) -> dict:
    data = yaml.safe_load((DATA_DIR / "events.yaml").read_text())
    mutate(data)
    return data


def _set(path: list, value):
    def mutate(data):
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return mutate


CASES = {
    # variant files
    "unknown section": ("[weather]\nrain = true\n", None, "weather: unknown key"),
    "wrong type": ('[combat]\nattack_dice = "four"\n', None, "combat.attack_dice"),
    "out of range": ("[setup]\nresources = {DS = 99}\n", None, "setup.resources.DS"),
    "unknown space": ("[map]\nprosperity = {Atlantis = 1}\n", None, "map.prosperity.Atlantis"),
    "unknown faction": ("[setup]\ncavalry = {XX = 1}\n", None, "setup.cavalry.XX"),
    "TOML syntax": ("[combat\n", None, "invalid TOML"),
    "events file outside": ('[deck]\nevents_file = "../../etc/passwd"\n', None, "events_file"),
    "absolute events file": ('[deck]\nevents_file = "/etc/passwd"\n', None, "events_file"),
    # data files reached through a variant
    "prosperity total": ("[map]\nprosperity = {Sindh = 2}\n", None, "prosperity_total"),
    "joined non-adjacency": ('[map]\nadd_adjacent = [["Malwa", "Gondwana"]]\n', None, "Malwa"),
    "setup pieces": ("[setup.map.Delhi]\ntroop = 9\n", None, "available.DS.troop"),
    "event unknown op": (
        '[deck]\nevents_file = "ev.yaml"\n',
        _events(_set(["events", 4, "shaded", "effects", 0, "op"], "teleport")),
        "card 5",
    ),
    "event bad space": (
        '[deck]\nevents_file = "ev.yaml"\n',
        _events(_set(["events", 0, "unshaded", "effects", 0, "where"], {"space": "Atlantis"})),
        "Atlantis",
    ),
    "event bad faction": (
        '[deck]\nevents_file = "ev.yaml"\n',
        _events(_set(["events", 1, "shaded", "effects", 2, "faction"], "ZZ")),
        "card 2",
    ),
    "event missing field": (
        '[deck]\nevents_file = "ev.yaml"\n',
        _events(lambda d: d["events"][2].pop("order")),
        "card 3",
    ),
    "event YAML with code": (
        '[deck]\nevents_file = "ev.yaml"\n',
        "meta: !!python/object/apply:os.system ['echo pwned']\n",
        "ev.yaml",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_variant_or_data_file_is_one_line_exit_2(name, existing, tmp_path):
    body, events, needle = CASES[name]
    path = _variant(tmp_path / "deep" / "variant", body, events)
    before = _listing(existing)
    result = vsim("run", "--games", "2", "--seed", "1", "--jobs", "1", "--quiet", "--out",
                  str(existing), "--variant", str(path))  # fmt: skip
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert needle in lines[0]
    assert "Traceback" not in result.output
    assert _listing(existing) == before


STRATEGY_CASES = {
    "unknown name": ("all=alphazero", "unknown strategy 'alphazero'"),
    "unknown faction": ("MI=random", "unknown faction 'MI'"),
    "not importable": ("DS=no_such_pkg.bots:Bot", "cannot load strategy"),
    "bad parameter": ("DS=random:depth=2", "random"),
    "bad heuristic weights file": ("BK=heuristic:weights=/no/such/weights.toml", "heuristic"),
    # issue 64: a misspelled search parameter listed the heuristic's weight names
    "misspelled mcts parameter": (
        "all=mcts:rolouts=32",
        "mcts has no parameter 'rolouts' (did you mean rollouts?); its parameters: weights, "
        "rollouts, horizon, top,",
    ),
    "misspelled greedy parameter": ("DS=greedy:sample=2", "(did you mean samples?)"),
    "unknown mcts parameter": ("VE=mcts:zzz=1", "mcts has no parameter 'zzz' (nor a weight"),
    # a lineup's list of what it takes is whole, its search settings to the last
    "misspelled lineup search setting": (
        "all=heuristic:mcts_rolouts=3",
        "(did you mean mcts_rollouts?); its parameters: weights, aggression,",
    ),
    "a lineup's list is not cut short": ("all=heuristic:mcts_rolouts=3", "mcts_value; or any"),
}


@pytest.mark.parametrize("name", list(STRATEGY_CASES))
def test_bad_strategy_is_one_line_exit_2(name, existing):
    spec, needle = STRATEGY_CASES[name]
    before = _listing(existing)
    result = vsim("run", "--games", "2", "--seed", "1", "--jobs", "1", "--quiet", "--out",
                  str(existing), "--strategy", spec)  # fmt: skip
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert needle in lines[0]
    assert _listing(existing) == before


def test_bad_decision_timeout_is_one_line_exit_2(existing):
    result = vsim("run", "--games", "2", "--out", str(existing), "--decision-timeout", "-1")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: --decision-timeout must be a positive number of seconds, got -1.0"
    ]


def test_a_real_process_prints_no_traceback(existing, tmp_path):
    path = _variant(tmp_path / "v", "[combat]\nattack_dice = 0\n")
    proc = subprocess.run([sys.executable, "-m", "simulate.cli", "run", "--games", "2", "--out",
                           str(existing), "--variant", str(path)],
                          cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.strip() == f"Error: {path}: combat.attack_dice: must be 1..6"


def test_output_is_written_only_under_out(tmp_path):
    """Parquet output stays under --out (issue 8)."""
    out = tmp_path / "only" / "here"
    before = {p for p in tmp_path.rglob("*")}
    result = vsim("run", "--games", "2", "--seed", "2", "--jobs", "1", "--quiet", "--no-report",
                  "--out", str(out))  # fmt: skip
    assert result.exit_code == 0, result.output
    new = {p for p in tmp_path.rglob("*")} - before
    assert new and all(p == out or out in p.parents or p in out.parents for p in new)
    assert dataset.shards(out, "games")
