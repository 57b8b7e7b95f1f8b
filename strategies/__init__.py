"""The bots, in layers (no cycle, tests/test_layout.py):

- ``policies/``: the cheap policies any game can play (``random``);
- ``search/``: ``greedy`` and ``mcts``, generic over the policy and evaluation they are given;
- ``vijayanagara/``: that game's bots: the ``heuristic`` per Faction (its weights in TOML), its
  value model, ``fitting/`` (tuning and fitting, never imported by code that plays a game) and
  ``lineups/``: the tiers as data (``heuristic``, ``heuristic-fast``, ``heuristic-strong``,
  ``heuristic-v1``): a policy, its weight layers and which turns search, per seat
  (``lineup.py`` reads them, ``composition.py`` plays a seat);
- ``registry.py``: a strategy from a spec or a lineup file (``searchers.py``: ``greedy`` and
  ``mcts`` by name, over the default lineup's policy);
"""

import simulate  # noqa: F401  (first: it decides which compiled modules are current)
