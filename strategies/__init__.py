"""The strategies: random, heuristic, greedy and mcts (``registry`` finds them by name)."""

import simulate  # noqa: F401  (first: it decides which compiled modules are current)
