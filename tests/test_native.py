"""Compiled copies of the hot modules (setup.py, simulate.native): used only while current,
and they play exactly the games the Python sources play (determinism is a feature)."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulate import native, play_game

SPECS = ("heuristic", {"DS": "heuristic:aggression=0.8", "BK": "heuristic", "VE": "random"})


def _record(tmp_path: Path, text: str, built_from: str) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text(text)
    manifest = tmp_path / "native.json"
    digest = hashlib.sha256(built_from.encode()).hexdigest()
    manifest.write_text(json.dumps({"pkg.mod": {"source": "pkg/mod.py", "sha256": digest}}))
    return manifest


def test_a_compiled_copy_built_from_the_current_source_is_used(tmp_path):
    manifest = _record(tmp_path, "X = 1\n", built_from="X = 1\n")
    assert native.status(manifest, tmp_path, pure=False) == {"pkg.mod": "compiled"}
    assert native.sources_to_use(manifest, tmp_path, pure=False) == ({}, [])


def test_an_edited_source_is_loaded_instead_of_its_stale_compiled_copy(tmp_path):
    manifest = _record(tmp_path, "X = 2\n", built_from="X = 1\n")
    sources, changed = native.sources_to_use(manifest, tmp_path, pure=False)
    assert changed == ["pkg.mod"]
    spec = native.SourceFinder(sources).find_spec("pkg.mod")
    assert spec is not None and spec.origin == str(tmp_path / "pkg" / "mod.py")
    assert native.SourceFinder(sources).find_spec("pkg.other") is None


def test_a_package_init_is_loaded_from_its_source_as_the_package(tmp_path):
    """A package's ``__init__`` is built as ``pkg.__init__`` but imported as ``pkg``: its
    source must stand in for it under that name, as a package (submodules still found)."""
    (tmp_path / "pkg").mkdir()
    init = tmp_path / "pkg" / "__init__.py"
    init.write_text("X = 1\n")
    sources = {"pkg.__init__": init}
    finder = native.SourceFinder(sources)
    spec = finder.find_spec("pkg")
    assert spec is not None and spec.origin == str(init)
    assert spec.submodule_search_locations == [str(tmp_path / "pkg")]
    assert finder.find_spec("pkg.__init__") is None


def test_one_edited_source_loads_every_module_from_its_source(tmp_path):
    """The compiled bots share C class layouts (.pxd): all compiled, or none."""
    manifest = _record(tmp_path, "X = 2\n", built_from="X = 1\n")
    (tmp_path / "pkg" / "other.py").write_text("Y = 1\n")
    record = json.loads(manifest.read_text())
    record["pkg.other"] = {
        "source": "pkg/other.py",
        "sha256": hashlib.sha256(b"Y = 1\n").hexdigest(),
    }
    manifest.write_text(json.dumps(record))
    assert native.status(manifest, tmp_path, pure=False) == {
        "pkg.mod": "changed",
        "pkg.other": "pure",
    }
    sources, changed = native.sources_to_use(manifest, tmp_path, pure=False)
    assert sorted(sources) == ["pkg.mod", "pkg.other"] and changed == ["pkg.mod"]


def test_an_edited_type_declaration_counts_as_an_edited_source(tmp_path):
    manifest = _record(tmp_path, "X = 1\n", built_from="X = 1\n")
    (tmp_path / "pkg" / "mod.pxd").write_text("cdef int X\n")
    assert native.status(manifest, tmp_path, pure=False) == {"pkg.mod": "changed"}


def test_an_edited_declaration_a_module_cimports_counts_as_an_edited_source(tmp_path):
    """A class's C layout lives in its .pxd: a module built against the old layout of a
    class it cimports must not be used (it would read the wrong fields)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "mod.pxd").write_text("from pkg.base cimport Base\n")
    (tmp_path / "pkg" / "base.pxd").write_text("cdef class Base:\n    cdef int a\n")
    manifest = tmp_path / "native.json"
    digest = native.source_digest(tmp_path / "pkg" / "mod.py", tmp_path)
    manifest.write_text(json.dumps({"pkg.mod": {"source": "pkg/mod.py", "sha256": digest}}))
    assert native.status(manifest, tmp_path, pure=False) == {"pkg.mod": "compiled"}
    (tmp_path / "pkg" / "base.pxd").write_text("cdef class Base:\n    cdef int a, b\n")
    assert native.status(manifest, tmp_path, pure=False) == {"pkg.mod": "changed"}


def test_vsim_pure_loads_every_module_from_its_source(tmp_path):
    manifest = _record(tmp_path, "X = 1\n", built_from="X = 1\n")
    sources, changed = native.sources_to_use(manifest, tmp_path, pure=True)
    assert list(sources) == ["pkg.mod"] and changed == []


def test_no_build_record_means_pure_python(tmp_path):
    assert native.status(tmp_path / "missing.json", tmp_path) == {}
    assert native.summary()  # always a line for the benchmarks


def test_vsim_version_says_whether_the_compiled_modules_are_in_use():
    from click.testing import CliRunner

    from simulate.cli import cli

    out = CliRunner().invoke(cli, ["--version"]).output
    assert out.startswith("vsim ") and native.summary() in out


def _digests(n: int) -> list[str]:
    """Digests of ``n`` games, between the files the bot's base module and the commands
    package were loaded from."""
    import simulate.vijayanagara.rules.commands as commands
    import strategies.vijayanagara.heuristic.valuation as valuation

    games = [play_game(500 + i, SPECS[i % len(SPECS)]).state_digest for i in range(n)]
    return [Path(valuation.__file__).suffix, *games, Path(commands.__file__).suffix]


@pytest.mark.skipif(
    "compiled" not in native.status().values(), reason="no compiled modules in this install"
)
def test_compiled_modules_play_exactly_the_games_the_sources_play():
    here = _digests(6)
    code = (
        "import json, sys; sys.path.insert(0, 'tests'); from test_native import _digests; "
        "print(json.dumps(_digests(6)))"
    )
    env = dict(os.environ, VSIM_PURE="1")
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True
    )
    pure = json.loads(out.stdout.strip().splitlines()[-1])
    assert here[0] != ".py" and pure[0] == ".py"  # compiled here, the sources there
    assert pure[-1] == ".py"  # the packages' __init__ too
    assert pure[1:-1] == here[1:-1]


@pytest.mark.parametrize("spec", ["heuristic", "heuristic-fast", "greedy", "random"])
def test_a_finished_game_frees_itself_without_the_garbage_collector(spec):
    """No reference cycles (a bot and its strategy, a recursive closure, a closure a lambda
    reads): what they held waited for the collector, 3 to 7% of the fast tier's time."""
    play_game(1, strategies=spec)  # imports and per-process caches first
    gc.collect()
    gc.disable()
    try:
        play_game(2, strategies=spec)
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize(
    ("value", "on"), [("1", True), ("true", True), ("YES", True), ("0", False), ("", False)]
)
def test_only_a_true_value_turns_a_switch_on(monkeypatch, value, on):
    monkeypatch.setenv("VSIM_PURE", value)
    assert native.env_flag("VSIM_PURE") is on
