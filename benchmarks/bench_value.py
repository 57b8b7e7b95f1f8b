"""Cost of a playout leaf: the learned value model (``strategies/vijayanagara/value_model.py``) against the
hand-set evaluation's margin, on the positions of a few default games; median of several
runs of microseconds per leaf (CPU time), and their ratio.

    python benchmarks/bench_value.py                      # 4 games' positions, 5 runs
    python benchmarks/bench_value.py --games 10 --runs 9

The figure that matters is per game: mcts plays many cards per leaf, so a leaf costs little
beside its playout (the strength study's games/s per core give the whole cost).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def positions(games: int) -> list:
    """A copy of the state at every action of ``games`` games of the fast tier."""
    from simulate import play_game

    out: list = []
    for seed in range(games):
        play_game(seed, "heuristic-fast", on_action=lambda ctx: out.append(ctx.state.copy()))
    return [st for st in out if not st.over]


def per_leaf(score, states: list) -> float:
    """Microseconds of CPU per call of ``score`` over ``states``."""
    t = time.process_time()
    for st in states:
        score(st)
    return (time.process_time() - t) / len(states) * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="games whose positions are scored")
    ap.add_argument("--runs", type=int, default=5, help="runs; the median is shown")
    args = ap.parse_args(argv)

    from simulate.vijayanagara.rules.ruleset import load_rules
    from strategies.vijayanagara.heuristic.evaluation import Evaluator
    from strategies.vijayanagara.heuristic.weights import default_weights
    from strategies.vijayanagara.value_model import load_value

    rules = load_rules()
    states = positions(args.games)
    ev = Evaluator(rules, default_weights())
    model = load_value()
    hand = [per_leaf(lambda st: ev.margin(st, 0), states) for _ in range(args.runs)]
    learned = [per_leaf(lambda st: model.predict(rules, st), states) for _ in range(args.runs)]
    h, v = statistics.median(hand), statistics.median(learned)
    print(f"{len(states)} positions, median of {args.runs} runs (us of CPU per leaf):")
    print(f"  hand-set margin  {h:8.1f}")
    print(f"  value model      {v:8.1f}   ({v / h:.1f}x the hand-set margin)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
