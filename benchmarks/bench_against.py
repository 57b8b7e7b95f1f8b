"""Games per CPU second of this checkout against another build of the project, one core.

    git worktree add --detach /tmp/base main
    pip install "Cython>=3.0"                                   # what setup.py compiles with
    (cd /tmp/base && python setup.py build_ext --inplace)     # its compiled modules, in place
    python benchmarks/bench_against.py --other /tmp/base --strategy random --games 150 --runs 7

Issue 42 quotes each speed target as a ratio against the build before, measured in the same
run, since a shared machine's absolute figures move with its load. Each run is a fresh
process of one build (``PYTHONPATH`` its checkout), the two builds alternating, so a change
of load falls on both; each plays ``--games`` games (seeds 1 on) after a warm-up game and
reports games per CPU second. Prints each build's runs, their medians, the ratio of the
medians and the median of the paired runs' ratios. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = """
import time
from simulate import native, play_game
from simulate.rules.ruleset import load_rules
load_rules()
play_game(0, {strategy!r})
cpu = time.process_time()
for seed in range(1, {games} + 1):
    play_game(seed, {strategy!r})
print({games} / (time.process_time() - cpu), native.summary())
"""


def one_run(checkout: Path, strategy: str, games: int) -> tuple[float, str]:
    """(games per CPU second, which modules are compiled) of one fresh process of a build."""
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONWARNINGS="ignore")
    env.pop("VSIM_PURE", None)
    out = subprocess.run(
        [sys.executable, "-c", RUN.format(strategy=strategy, games=games)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    rate, _, native = out.partition(" ")
    return float(rate), native


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", type=Path, required=True, help="the other build's checkout")
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    if not (args.other / "simulate" / "__init__.py").is_file():
        raise SystemExit(f"--other: {args.other} is not a checkout of this project")
    builds = {"this": ROOT, "other": args.other.resolve()}
    rates: dict[str, list[float]] = {name: [] for name in builds}
    compiled: dict[str, str] = {}
    for _ in range(args.runs):
        for name, checkout in builds.items():
            rate, compiled[name] = one_run(checkout, args.strategy, args.games)
            rates[name].append(rate)
    print(f"{args.strategy}, {args.games} games a run, {args.runs} runs, one core (CPU time)")
    for name, checkout in builds.items():
        runs = ", ".join(f"{r:.1f}" for r in rates[name])
        print(f"  {name} ({checkout}; {compiled[name]}): {runs}")
        print(f"    median {statistics.median(rates[name]):.1f} games/s")
    ratio = statistics.median(rates["this"]) / statistics.median(rates["other"])
    paired = statistics.median([a / b for a, b in zip(rates["this"], rates["other"], strict=True)])
    print(f"  this / other: {ratio:.3f} (medians), {paired:.3f} (median of paired runs)")


if __name__ == "__main__":
    main()
