"""The sequential test of ``vsim run --until-clear`` by simulation (issue 19): its false
"change" rate on A/A comparisons, its power at a planted change of 2 x delta, and its games
against the fixed-size study for the same error rates (``vsim plan``, Bonferroni over the
three Factions). Synthetic paired games, so it runs in seconds; nothing is asserted.

    python benchmarks/bench_sequential.py [--reps 1000] [--look 100]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate.analysis import sequential as seq  # noqa: E402
from simulate.analysis.stats import games_needed  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--look", type=int, default=100, help="games per look")
    ap.add_argument("--delta", type=float, default=0.03)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.2)
    args = ap.parse_args()
    rule = seq.Rule(args.delta, args.alpha, args.beta, 1)
    print(f"delta {args.delta}, alpha {args.alpha}, beta {args.beta}; looks every {args.look}")
    print(
        f"{'rho':>4} {'effect':>7} {'P(change)':>10} {'mean games':>11} {'median':>7} {'fixed':>7}"
    )
    for rho in (0.3, 0.8):
        fixed = games_needed(args.delta, alpha=args.alpha / 3, power=1 - args.beta, paired_rho=rho)
        for effect in (0.0, 2 * args.delta):
            rng = np.random.default_rng(19)
            runs = [
                seq.simulate_decision(rng, rule, effect, rho, args.look, 100_000)
                for _ in range(args.reps)
            ]
            change = np.mean([d == seq.CHANGE for d, _ in runs])
            used = [n for _, n in runs]
            print(
                f"{rho:4.1f} {effect:7.2f} {change:10.3f} {np.mean(used):11.0f} "
                f"{np.median(used):7.0f} {fixed:7d}"
            )


if __name__ == "__main__":
    main()
