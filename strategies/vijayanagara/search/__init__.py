"""The searches: ``greedy`` (one-step lookahead) and ``mcts`` (budgeted Monte Carlo), each
choosing a turn's action (2.3.3) over the plans of a policy it is given and scoring by that
policy's evaluation (``protocol.py``: what they need of both). They import no particular bot:
``strategies/vijayanagara/searchers.py`` sets them over the default lineup's heuristic for the ``greedy``
and ``mcts`` spec names, and a lineup (``strategies/vijayanagara/composition.py``) lets them choose some of
its seats' turns."""
