"""The sequential study of ``vsim run --until-clear`` by simulation (issues 19, 40, 64):
run to its stop (every outcome decided, or the budget), its false "change" rate on A/A
comparisons, how often it finds a planted change, and its games against the fixed-size study
planned for delta (``vsim plan``); then the same at small looks (20 to 100 games), where a
change concentrated in a few percent of the games is the hard case, and how often a change of
delta or of half of delta is called "no change". P(change) and P(no change) are DS's answer
(the outcome the change is planted in); "any change" is a change called for any outcome.
Synthetic paired games (``simulate.analysis.sequential.paired_winners``), so it runs in
minutes; nothing is asserted.

    python benchmarks/bench_sequential.py [--reps 1000] [--look 100] [--small-reps 1000]
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
from simulate.analysis.planning import plan_rows  # noqa: E402

MAX_GAMES = 100_000


def _repeat(rule: seq.Rule, reps: int, look: int, effect: float, rho: float, concentrated: bool):
    """(P(DS change), P(DS no change), P(any change), mean games, median games) over
    ``reps`` sequential studies."""
    rng = np.random.default_rng(19)
    runs = [
        seq.simulate_study(rng, rule, effect, rho, look, MAX_GAMES, concentrated=concentrated)[0]
        for _ in range(reps)
    ]
    ds = [lk.factions[0].decision for lk in runs]
    change = np.mean([d == seq.CHANGE for d in ds])
    none = np.mean([d == seq.NO_CHANGE for d in ds])
    anywhere = np.mean([lk.decision == seq.CHANGE for lk in runs])
    used = [lk.n for lk in runs]
    return change, none, anywhere, float(np.mean(used)), float(np.median(used))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--small-reps", type=int, default=1000, help="repetitions at small looks")
    ap.add_argument("--look", type=int, default=100, help="games per look")
    ap.add_argument("--delta", type=float, default=0.03)
    ap.add_argument("--alpha", type=float, default=0.05)
    args = ap.parse_args()
    rule = seq.Rule(args.delta, args.alpha, 1)
    print(f"delta {args.delta}, alpha {args.alpha}; looks every {args.look}")
    print(
        f"{'rho':>4} {'effect':>7} {'P(change)':>10} {'P(no change)':>13} {'any change':>11} "
        f"{'mean games':>11} {'median':>7} {'fixed':>7}"
    )
    for rho in (0.3, 0.8):
        rows = plan_rows(args.delta, 1 / 3, args.alpha, 0.8, rho)
        row = next(r for r in rows if r["chosen"])
        fixed = row["paired"]
        for effect in (0.0, args.delta / 2, 2 * args.delta):
            change, none, anywhere, mean, median = _repeat(
                rule, args.reps, args.look, effect, rho, False
            )
            print(
                f"{rho:4.1f} {effect:7.3f} {change:10.3f} {none:13.3f} {anywhere:11.3f} "
                f"{mean:11.0f} {median:7.0f} {fixed:7d}"
            )

    d = args.delta
    cases = (
        ("A/A, 80% of games repeat", 0.0, 0.8, False),
        ("A/A, 97% of games repeat", 0.0, 0.97, True),
        (f"+{100 * d:g} pp in {100 * d:g}% of games", d, 0.0, True),
        (f"+{50 * d:g} pp in {50 * d:g}% of games", d / 2, 0.0, True),
    )
    print()
    print(f"Small looks ({args.small_reps} repetitions each)")
    print(
        f"{'look':>5} {'true change':<26} {'P(change)':>10} {'P(no change)':>13} "
        f"{'any change':>11} {'mean games':>11} {'median':>7}"
    )
    for look in (20, 50, 100):
        for name, effect, rho, concentrated in cases:
            change, none, anywhere, mean, median = _repeat(
                rule, args.small_reps, look, effect, rho, concentrated
            )
            print(
                f"{look:5d} {name:<26} {change:10.3f} {none:13.3f} {anywhere:11.3f} "
                f"{mean:11.0f} {median:7.0f}"
            )


if __name__ == "__main__":
    main()
