"""The compiled copies of Pax Pamir's modules (setup.py) play exactly the games its Python
sources play: random, heuristic and Wakhan games compared by their final-state digests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulate import native

GAMES = (("players-2", "heuristic"), ("players-3", "random"), (None, "heuristic"),
         ("players-5", "random"), ("wakhan-2", "heuristic"), ("wakhan-3", "random"))  # fmt: skip


def digests() -> list[str]:
    """The module file suffix of the engine, then one digest per game of ``GAMES``."""
    from simulate.pax_pamir import engine
    from simulate.pax_pamir.game import GAME, run
    from strategies.registry import make

    out = [Path(engine.__file__).suffix]
    for seed, (variant, spec) in enumerate(GAMES):
        rules = GAME.compile(GAME.load_variant(variant))
        ctx = run(seed, [make(spec, "pax-pamir") for _ in rules.seats], rules)
        out.append(f"{ctx.state.digest()}:{ctx.decisions}")
    return out


@pytest.mark.skipif(
    "compiled" not in native.status().values(), reason="no compiled modules in this install"
)
def test_compiled_pax_pamir_plays_exactly_the_games_its_sources_play():
    here = digests()
    code = (
        "import json, sys; sys.path.insert(0, '.'); from tests.pax_pamir.test_native import "
        "digests; print(json.dumps(digests()))"
    )
    env = dict(os.environ, VSIM_PURE="1")
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, check=True
    )
    pure = json.loads(out.stdout.strip().splitlines()[-1])
    assert here[0] != ".py" and pure[0] == ".py"  # compiled here, the sources there
    assert pure[1:] == here[1:]
