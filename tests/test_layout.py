"""The layout the folders promise (DESIGN, Layout; issue 41): no import cycle in ``strategies/``
or ``simulate/``, no module over 650 lines outside the rules engine, and the tuning and fitting
code (``strategies/vijayanagara/fitting/``) never loaded by a module that plays a game.

The import graph is read from each module's AST, imports inside functions included (a cycle
hidden in a function is still a cycle: only its moment of failure moves)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("strategies", "simulate")
MAX_LINES = 650
LONG_ALLOWED = (
    "simulate/vijayanagara/rules/",
)  # the engine: one module per rule area, as long as it is
FITTING = "strategies.vijayanagara.fitting"


def _modules() -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _submodule(module: str, name: str, known: dict[str, Path]) -> str:
    """What ``from module import name`` imports: the submodule ``name``, else ``module``."""
    child = f"{module}.{name}"
    return child if child in known else module


def _imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in its body."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (node.module or "").split(".") if node.module else []
            if node.level:
                base = here[: len(here) - node.level + 1] + base
            module = ".".join(base)
            # ``from package import submodule`` imports the submodule, else the package
            targets = [_submodule(module, alias.name, known) for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # ``import a.b.c`` of a name inside c
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports."""
    known = _modules()
    return {name: _imported(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_nothing_else():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_imports_inside_functions_and_relative_ones_count(tmp_path):
    known = {"pkg": tmp_path / "pkg" / "__init__.py", "pkg.a": tmp_path / "a.py", "pkg.b": None}
    source = tmp_path / "a.py"
    source.write_text("def f():\n    from . import b\n    from pkg.b import thing\n")
    assert _imported("pkg.a", source, known) == {"pkg.b"}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    graph = import_graph()
    found = [c for c in cycles(graph) if c[0].split(".")[0] == package]
    assert not found, f"import cycles in {package}/: {found}"


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _strategies_imported_by(package: str) -> set[str]:
    """The modules of ``strategies`` outside ``package`` that its modules import."""
    return {
        t
        for name, targets in import_graph().items()
        if _inside(name, package)
        for t in targets
        if _inside(t, "strategies") and not _inside(t, package)
    }


def test_the_searches_import_no_particular_bot():
    # generic over the policy and evaluation they are given (strategies/vijayanagara/search/protocol.py)
    assert _strategies_imported_by("strategies.vijayanagara.search") <= {"strategies.params"}


def test_the_policies_know_nothing_of_search_or_lineups():
    assert _strategies_imported_by("strategies.policies") == set()


def test_no_module_is_over_650_lines_outside_the_rules_engine():
    long = {}
    for path in _modules().values():
        rel = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text().splitlines())
        if lines > MAX_LINES and not rel.startswith(LONG_ALLOWED):
            long[rel] = lines
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_no_module_outside_the_fitting_package_imports_it():
    graph = import_graph()
    importers = sorted(
        name
        for name, targets in graph.items()
        if not _inside(name, FITTING) and any(_inside(t, FITTING) for t in targets)
    )
    assert not importers, f"{importers} import {FITTING}"


def test_playing_every_built_in_strategy_loads_no_fitting_code():
    code = (
        "import sys\n"
        "from simulate import play_game\n"
        "from strategies import registry\n"
        "names = [n for n, t in registry.known().items() if t.startswith('strategies')]\n"
        "for name in names:\n"
        "    registry.make(name)\n"
        "play_game(1, {'DS': 'heuristic', 'BK': 'mcts:rollouts=1,horizon=1', 'VE': 'greedy'})\n"
        "print(len(names), sorted(m for m in sys.modules if m.startswith('strategies.vijayanagara.fitting')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    count, loaded = out.stdout.strip().split(" ", 1)
    assert int(count) >= 7 and loaded == "[]"


# Issue 65: the layers above the rules speak no game. These modules are generic: none imports
# a game's folder, and none names Vijayanagara's Factions, the Mongols, Influence or Qasbahs.
GAME_FOLDERS = ("simulate.vijayanagara", "strategies.vijayanagara")
GENERIC = (  # every module outside the game folders, but the package's root (see below)
    "simulate.games",
    "simulate.study",
    "simulate.analysis",
    "simulate.cli",
    "simulate.ai",
    "simulate.seeds",
    "simulate.errors",
    "simulate.native",
    "simulate.overrides",
    "simulate.variant_format",
    "strategies.base",
    "strategies.registry",
    "strategies.params",
    "strategies.words",
    "strategies.exploitability",
    "strategies.policies",
)
# ``simulate/__init__.py`` names the default game's one-game API (``from simulate import
# play_game``), imported lazily by name: ``import simulate`` loads no game.
GAME_WORDS = re.compile(r"\b(DS|BK|VE)\b|[Mm]ongol|[Ii]nfluence|[Qq]asbah")


def _generic_modules() -> dict[str, Path]:
    known = _modules()
    return {
        name: path
        for name, path in known.items()
        if any(name == g or name.startswith(g + ".") for g in GENERIC)
    }


def test_no_generic_module_imports_a_game():
    graph = import_graph()
    found = {
        (name, target)
        for name in _generic_modules()
        for target in graph[name]
        if any(target == g or target.startswith(g + ".") for g in GAME_FOLDERS)
    }
    assert not found, f"generic modules import a game: {sorted(found)}"


def test_no_generic_module_names_a_faction_the_mongols_influence_or_qasbahs():
    hits = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in _generic_modules().values()
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if GAME_WORDS.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_a_game_imports_no_other_game():
    from simulate.games import get, names

    folders = {
        name: type(get(name)).__module__.rpartition(".")[0].removeprefix("simulate.")
        for name in names()
    }
    roots = {f: (f"simulate.{f}", f"strategies.{f}") for f in folders.values()}
    graph = import_graph()
    found = [
        (module, target)
        for mine, own in roots.items()
        for module in graph
        if module.startswith(own)
        for target in graph[module]
        for other, theirs in roots.items()
        if other != mine and target.startswith(theirs)
    ]
    assert not found, f"a game imports another: {found}"
