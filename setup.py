"""Build: the pure-Python packages (pyproject.toml), plus compiled copies of the heuristic bot
and of every engine module a game runs through (Cython, from the very same ``.py`` files,
which stay the source of truth).

A ``.pxd`` file beside a module gives its compiled copy C types (extension-type classes,
typed attributes and hot methods) without touching the ``.py``: the bot classes and the
Evaluator have them. A heuristic game costs about 2.4x fewer instructions than pure Python
and plays exactly the same (a test plays games both ways and compares digests). A compiled module whose ``.py`` or ``.pxd`` has changed since the build is not used:
``simulate.native`` then loads every listed module as Python (``VSIM_PURE=1`` does so too).
``VSIM_PURE_BUILD=1`` builds no compiled copies; a compiler error in any module (or no
compiler) leaves the whole package pure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
MANIFEST = "simulate/native.json"  # what was compiled, from which source (simulate.native)

# every module a heuristic game runs through, move by move: the bot's valuation (where most
# of the time goes), the engine, and the invariants a soak checks after every action; and the
# random policy (the random tier, and the playouts of mcts:policy=random: 3% of a random game).
# Rules loading and validation stay Python; the searches' own modules gain under 1%, measured.
NATIVE = [
    "strategies/vijayanagara/heuristic/counters.py",
    "strategies/vijayanagara/heuristic/valuation.py",
    "strategies/vijayanagara/heuristic/turn.py",
    "strategies/vijayanagara/heuristic/faction_bot.py",
    "strategies/vijayanagara/heuristic/choice.py",
    "strategies/vijayanagara/heuristic/deccan.py",
    "strategies/vijayanagara/heuristic/sultanate.py",
    "strategies/vijayanagara/heuristic/evaluation.py",
    "strategies/vijayanagara/heuristic/bahmani.py",
    "strategies/vijayanagara/heuristic/vijayanagara.py",
    "strategies/vijayanagara/heuristic/__init__.py",
    "strategies/vijayanagara/heuristic/weights.py",
    "strategies/vijayanagara/composition.py",
    "strategies/policies/random.py",
    "simulate/vijayanagara/rules/board.py",
    "simulate/vijayanagara/rules/invariants.py",
    "simulate/vijayanagara/game.py",
    "simulate/vijayanagara/rules/observation.py",
    "simulate/vijayanagara/rules/shuffle.py",
    "simulate/vijayanagara/rules/context.py",
    "simulate/vijayanagara/rules/sequence.py",
    "simulate/vijayanagara/rules/state.py",
    "simulate/vijayanagara/rules/decisions.py",
    "simulate/vijayanagara/rules/placement.py",
    "simulate/vijayanagara/rules/control.py",
    "simulate/vijayanagara/rules/combat.py",
    "simulate/vijayanagara/rules/influence.py",
    "simulate/vijayanagara/rules/tracks.py",
    "simulate/vijayanagara/rules/victory.py",
    "simulate/vijayanagara/rules/invasion.py",
    "simulate/vijayanagara/rules/succession.py",
    "simulate/vijayanagara/rules/events.py",
    "simulate/vijayanagara/rules/event_select.py",
    "simulate/vijayanagara/rules/event_ops.py",
    "simulate/vijayanagara/rules/commands/__init__.py",
    "simulate/vijayanagara/rules/commands/attack.py",
    "simulate/vijayanagara/rules/commands/conscript.py",
    "simulate/vijayanagara/rules/commands/govern.py",
    "simulate/vijayanagara/rules/commands/march.py",
    "simulate/vijayanagara/rules/commands/migrate.py",
    "simulate/vijayanagara/rules/commands/mongol.py",
    "simulate/vijayanagara/rules/commands/rally.py",
    "simulate/vijayanagara/rules/commands/rebel.py",
    "simulate/vijayanagara/rules/decrees/__init__.py",
    "simulate/vijayanagara/rules/decrees/build.py",
    "simulate/vijayanagara/rules/decrees/campaign.py",
    "simulate/vijayanagara/rules/decrees/compel.py",
    "simulate/vijayanagara/rules/decrees/conspire.py",
    "simulate/vijayanagara/rules/decrees/demand_obedience.py",
    "simulate/vijayanagara/rules/decrees/tax.py",
    "simulate/vijayanagara/rules/decrees/trade.py",
    "simulate/vijayanagara/rules/decrees/tribute.py",
    # Pax Pamir (issue 66): its rules, engine and invariants, the heuristic (Wakhan's turn stays
    # Python: a compile time CI's budget does not afford for a seat most games do not have)
    "simulate/pax_pamir/ledger.py",
    "simulate/pax_pamir/state.py",
    "simulate/pax_pamir/lasting.py",
    "simulate/pax_pamir/market.py",
    "simulate/pax_pamir/play.py",
    "simulate/pax_pamir/ruling.py",
    "simulate/pax_pamir/cleanup.py",
    "simulate/pax_pamir/actions.py",
    "simulate/pax_pamir/military.py",
    "simulate/pax_pamir/dominance.py",
    "simulate/pax_pamir/events.py",
    "simulate/pax_pamir/options.py",
    "simulate/pax_pamir/view.py",
    "simulate/pax_pamir/card_actions.py",
    "simulate/pax_pamir/engine.py",
    "simulate/pax_pamir/invariants.py",
    "strategies/pax_pamir/heuristic.py",
]


def module_name(path: str) -> str:
    return path[: -len(".py")].replace("/", ".")


def _native():
    """``simulate/native.py`` on its own (stdlib only): the one definition of a source's hash."""
    spec = importlib.util.spec_from_file_location("_vsim_native", HERE / "simulate" / "native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildNative(build_ext):
    """Builds the compiled copies, then records which were built from which source."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.failed: set[str] = set()
        self._previous: dict = {}  # the last build's record (``run`` reads it)

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1  # one C file per core

    def _reuse(self, ext) -> bool:
        """Reuse the compiled file in the source tree when the last build (its manifest there)
        made it from the very source ``ext`` has now, with the same flags: copy it to where
        this build puts its outputs instead of compiling again."""
        record = self._previous.get(ext.name) or {}
        tree = HERE / self.get_ext_filename(ext.name)
        if not (
            tree.exists()
            and record.get("sha256") == _native().source_digest(HERE / ext.py_source)
            and record.get("flags") == ext.extra_compile_args
        ):
            return False
        target = Path(self.get_ext_fullpath(ext.name))
        if target.resolve() != tree.resolve():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(tree, target)
        return True

    def build_extensions(self) -> None:
        super().build_extensions()
        # what failed is not an output: the install goes on with those modules as Python
        self.extensions = [e for e in self.extensions if e.name not in self.failed]

    def build_extension(self, ext) -> None:
        if self._reuse(ext):  # built before from this very source: a second
            return  # `pip install -e .` (the README's test command) compiles nothing
        stale = Path(self.get_ext_fullpath(ext.name))
        if stale.exists():  # built from another source or flags: never "up to date"
            stale.unlink()
        try:
            super().build_extension(ext)
        except Exception as exc:  # no compiler, or a compiler error: the module stays Python
            self.failed.add(ext.name)
            self.warn(f"{ext.name} not compiled, it runs as Python: {exc}")

    def run(self) -> None:
        try:  # the last build's record (in the source tree), read before this one replaces it
            self._previous = json.loads((HERE / MANIFEST).read_text())
        except (OSError, ValueError):
            self._previous = {}
        super().run()
        outputs = [(ext, self.get_ext_fullpath(ext.name)) for ext in self.extensions]
        if self.failed:
            # all or none: the compiled modules share C class layouts (.pxd), so one of them
            # as Python beside the others compiled would not import; the package stays pure
            for _ext, path in outputs:
                if os.path.exists(path):
                    os.remove(path)
            outputs = []
        digest = _native().source_digest
        built = {}
        for ext, path in outputs:
            if os.path.exists(path):
                built[ext.name] = {
                    "source": ext.py_source,
                    "sha256": digest(HERE / ext.py_source),
                    "flags": ext.extra_compile_args,
                }
        for name in set(self._previous) - set(built):
            # a module no longer listed (or a failed build): a copy left in the source tree
            # would be imported before its .py, and simulate.native routes listed ones only
            (HERE / self.get_ext_filename(name)).unlink(missing_ok=True)
        root = HERE if self.inplace else Path(self.build_lib)
        out = root / MANIFEST
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(built, indent=1, sort_keys=True) + "\n")


def extensions() -> list:
    if _native().env_flag("VSIM_PURE_BUILD"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython: the pure packages are complete on their own
        return []
    from setuptools import Extension

    exts = []
    for path in NATIVE:
        ext = Extension(
            module_name(path),
            [path],
            # floats exactly as CPython computes them: no fused multiply-add (determinism);
            # no debug info: a third of the compile time, the same code (issue 42)
            extra_compile_args=["-O2", "-g0", "-ffp-contract=off"],
        )
        exts.append(ext)
    compiled = cythonize(
        exts,
        compiler_directives={
            "language_level": 3,
            "binding": True,
            "infer_types": None,
            "annotation_typing": False,
        },
        build_dir="build/cython",
        quiet=True,
        nthreads=os.cpu_count() or 1,
    )
    for ext, path in zip(compiled, NATIVE, strict=True):
        ext.py_source = path
    return compiled


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildNative})
