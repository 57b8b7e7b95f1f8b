"""Which compiled copies of modules a process uses (``setup.py`` builds them, with Cython, from
the very same ``.py`` files; they play exactly the same, only faster).

A compiled copy is used only while its source is the one it was built from (the hash recorded
in ``native.json`` at build time): an edited source is loaded as Python instead, so a stale
build can never hide a change. ``VSIM_PURE=1`` loads every such module as Python.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

MANIFEST = Path(__file__).with_name("native.json")
ROOT = Path(__file__).resolve().parent.parent  # the folder holding simulate/ and strategies/


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules as their ``.py`` source, ahead of any compiled copy. A
    package's ``__init__`` (built as ``pkg.__init__``) is found under the package's name."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = {name.removesuffix(".__init__"): src for name, src in sources.items()}

    def find_spec(self, name, path=None, target=None):
        src = self.sources.get(name)
        if src is None:
            return None
        if src.name == "__init__.py":  # a package: its submodules are found beside it
            return importlib.util.spec_from_file_location(
                name, src, submodule_search_locations=[str(src.parent)]
            )
        return importlib.util.spec_from_file_location(name, src)


def source_digest(source: Path, root: Path = ROOT) -> str:
    """sha256 of a module's ``.py`` and, when there is one, the ``.pxd`` beside it that gives
    the compiled copy its C types, and every ``.pxd`` that one cimports, to the last (all
    decide what the build makes: a class's C layout changes with its ``.pxd``, and a module
    built against the old layout must be rebuilt too)."""
    h = hashlib.sha256(source.read_bytes())
    for pxd in _pxd_closure(source.with_suffix(".pxd"), root):
        h.update(pxd.read_bytes())
    return h.hexdigest()


def _pxd_closure(pxd: Path, root: Path) -> list[Path]:
    """``pxd`` (when it exists) and the ``.pxd`` files under ``root`` it cimports, transitively."""
    out: list[Path] = []
    todo = [pxd]
    while todo:
        path = todo.pop()
        if path in out or not path.exists():
            continue
        out.append(path)
        for line in path.read_text().splitlines():
            words = line.split()
            if len(words) >= 4 and words[0] == "from" and words[2] == "cimport":
                todo.append(root.joinpath(*words[1].split(".")).with_suffix(".pxd"))
    return out


def built(manifest: Path = MANIFEST) -> dict[str, dict]:
    """The build's record: module name -> its ``source`` path (from ``ROOT``) and ``sha256``."""
    try:
        return json.loads(manifest.read_text())
    except (OSError, ValueError):
        return {}  # a pure build (or none): nothing compiled


def status(manifest: Path = MANIFEST, root: Path = ROOT, pure: bool | None = None) -> dict:
    """Each module with a compiled copy: ``compiled``, ``changed`` (source edited since the
    build: the source is used) or ``pure`` (the source is used: ``VSIM_PURE`` is set, or
    another module changed)."""
    return _states(built(manifest), root, pure)


def _states(record: dict, root: Path, pure: bool | None) -> dict[str, str]:
    if pure is None:
        pure = env_flag("VSIM_PURE")
    if pure:
        return {name: "pure" for name in sorted(record)}
    out = {}
    for name, entry in sorted(record.items()):
        try:
            digest = source_digest(root / entry["source"], root)
        except OSError:
            digest = ""
        out[name] = "compiled" if digest == entry["sha256"] else "changed"
    if "changed" in out.values():
        # all or none: the compiled bots share C class layouts (their .pxd files), so one
        # module from source and its neighbours compiled would not fit together
        out = {name: "pure" if state == "compiled" else state for name, state in out.items()}
    return out


def summary() -> str:
    """One line for benchmarks and run manifests: how many compiled copies are in use."""
    states = status()
    used = sum(1 for v in states.values() if v == "compiled")
    if not states:
        return "pure Python (no compiled modules built)"
    return f"{used} of {len(states)} hot modules compiled" + (
        "" if used == len(states) else " (VSIM_PURE or sources changed since the build)"
    )


def sources_to_use(manifest: Path = MANIFEST, root: Path = ROOT, pure: bool | None = None):
    """The modules to load from source instead of their compiled copy (name -> ``.py``), and
    those of them whose source changed since the build."""
    record = built(manifest)
    states = _states(record, root, pure)
    sources = {n: root / e["source"] for n, e in record.items() if states[n] != "compiled"}
    return sources, sorted(n for n, v in states.items() if v == "changed")


def install() -> None:
    """Route the modules whose compiled copy must not be used to their source (once per
    process; before any of them is imported)."""
    if any(isinstance(f, SourceFinder) for f in sys.meta_path):
        return
    sources, changed = sources_to_use()
    if not sources:
        return
    sys.meta_path.insert(0, SourceFinder(sources))
    if changed:
        warnings.warn(
            f"compiled copies of {', '.join(changed)} are older than their sources, which are "
            "used instead (slower); rebuild with: pip install -e .",
            RuntimeWarning,
            stacklevel=2,
        )


def env_flag(name: str) -> bool:
    """An environment switch: on for 1, true, yes or on (any case); ``0``, ``false``, empty
    or unset leave it off."""
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")
