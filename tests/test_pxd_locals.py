"""The compiled copies' type declarations (issue 42): each ``@cython.locals`` of a ``.pxd``
types names of the function it decorates. A declaration slipped in between a decorator and
its function moves the typing to the wrong one without a word from Cython (the typed function
then runs untyped, several times slower, and plays the same games, so no other test sees it)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PXDS = sorted(
    p
    for d in ("simulate", "strategies")
    for p in (ROOT / d).rglob("*.pxd")
    if p.with_suffix(".py").exists()
)
LOCALS = re.compile(r"@cython\.locals\((.*?)\)\s*\n\s*(?:cpdef|cdef)\s[^(]*?(\w+)\(", re.S)


def typed_locals(pxd: Path) -> list[tuple[str, set[str]]]:
    """(function, the names its @cython.locals types) for each decorator of ``pxd``."""
    text = re.sub(r"#.*", "", pxd.read_text(encoding="utf-8"))
    return [(func, set(re.findall(r"(\w+)\s*=", names))) for names, func in LOCALS.findall(text)]


def names_in(source: Path) -> dict[str, set[str]]:
    """Every function of ``source`` (methods too, by name) and the names it binds or reads."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef):
            seen = out.setdefault(node.name, set())
            seen.update(a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg))
            seen.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    return out


def test_every_declaration_file_types_some_locals():
    assert sum(len(typed_locals(p)) for p in PXDS) > 40


@pytest.mark.parametrize("pxd", PXDS, ids=lambda p: str(p.relative_to(ROOT)))
def test_each_typed_local_is_a_name_of_its_function(pxd):
    functions = names_in(pxd.with_suffix(".py"))
    for func, names in typed_locals(pxd):
        assert func in functions, f"{pxd.name}: @cython.locals on {func}, not in the source"
        stray = names - functions[func]
        assert not stray, (
            f"{pxd.name}: {func}'s @cython.locals types {sorted(stray)}, not its names"
        )
