"""The ai extra stays optional: the core never imports it, and without it the registry still
lists ``openspiel-mcts`` and refuses to make it in one line (issue 44)."""

from __future__ import annotations

import subprocess
import sys

from strategies import registry

AI_LIBRARIES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "greenlet")
BLOCK = (  # a process in which the ai extra is not installed
    "import sys\n"
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    f"        if name.split('.')[0] in {AI_LIBRARIES!r}:\n"
    "            raise ModuleNotFoundError(f'No module named {name!r}')\n"
    "sys.meta_path.insert(0, Block())\n"
)


def _run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_core_package_never_imports_the_ai_libraries():
    code = (
        "import sys, simulate; from simulate.vijayanagara.game import play_game; play_game(1); "
        "from strategies import registry; registry.describe('openspiel-mcts'); "
        f"print(sorted(m for m in {AI_LIBRARIES!r} if m in sys.modules))"
    )
    assert _run(code) == "[]"


def test_it_is_a_registered_strategy():
    assert registry.known()["openspiel-mcts"] == "simulate.ai.challenger:OpenSpielMCTSStrategy"


def test_without_the_extra_it_is_listed_and_refused_in_one_line():
    code = BLOCK + (
        "from strategies import registry\n"
        "print(registry.describe('openspiel-mcts'))\n"
        "try:\n"
        "    registry.make('openspiel-mcts')\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    described, refused = _run(code).splitlines()[-2:]
    assert described.startswith("OpenSpiel's MCTSBot")
    assert refused.endswith("needs the ai extra: pip install -e '.[ai]'")
