"""Speed of this checkout against another build of the project: games, soak or study.

    git worktree add --detach /tmp/base main
    pip install "Cython>=3.0"                                   # what setup.py compiles with
    (cd /tmp/base && python setup.py build_ext --inplace)     # its compiled modules, in place
    python benchmarks/bench_against.py --other /tmp/base --strategy random --games 150 --runs 7
    python benchmarks/bench_against.py --other /tmp/base --task soak --games 400 --runs 3
    python benchmarks/bench_against.py --other /tmp/base --task study --games 4000 --runs 3

Issue 42 quotes each speed target as a ratio against the build before, measured in the same
run, since a shared machine's absolute figures move with its load. Each run is a fresh
process of one build (``PYTHONPATH`` its checkout), the two builds alternating, so a change
of load falls on both. The tasks:

* ``games`` (one core): ``--games`` games of ``--strategy`` (seeds 1 on) after a warm-up
  game, in games per CPU second of the games alone;
* ``soak`` (one core): ``vsim soak --games N --jobs 1`` (invariants after every action; its
  default strategies unless ``--strategy``), in games per CPU second of the whole process;
* ``study`` (``--jobs``, default 2): ``vsim run --games N`` on the default lineup into a
  fresh folder, Parquet and report included, in games per wall second of the whole command.

Prints each build's runs, their medians, the ratio of the medians and the median of the
paired runs' ratios. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GAMES = """
import time
from simulate import native, play_game
from simulate.vijayanagara.rules.ruleset import load_rules
load_rules()
play_game(0, {strategy!r})
cpu = time.process_time()
for seed in range(1, {games} + 1):
    play_game(seed, {strategy!r})
print({games} / (time.process_time() - cpu), native.summary())
"""

COMMAND = """
import sys
from simulate import native
from simulate.cli.app import main
try:
    main({argv!r})
except SystemExit as exc:
    if exc.code:
        raise
print(native.summary())
"""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _python(checkout: Path, code: str) -> str:
    """The last line a fresh process of a build prints running ``code``."""
    env = dict(os.environ, PYTHONPATH=str(checkout), PYTHONWARNINGS="ignore")
    env.pop("VSIM_PURE", None)
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.strip().splitlines()[-1]


def one_run(checkout: Path, args: argparse.Namespace) -> tuple[float, str]:
    """(the task's rate, which modules are compiled) of one fresh process of a build."""
    if args.task == "games":
        rate, _, native = _python(
            checkout, GAMES.format(strategy=args.strategy, games=args.games)
        ).partition(" ")
        return float(rate), native
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        if args.task == "soak":
            argv = ["soak", "--games", str(args.games), "--jobs", "1", "--seed", "5"]
            argv += [x for s in (args.strategy or "").split(",") if s for x in ("--strategy", s)]
        else:
            argv = [
                "run",
                "--games",
                str(args.games),
                "--jobs",
                str(args.jobs),
                "--out",
                f"{tmp}/run",
            ]
        cpu, wall = _children_cpu(), time.perf_counter()
        native = _python(checkout, COMMAND.format(argv=argv))
        cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
    return args.games / (cpu if args.task == "soak" else wall), native


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--other", type=Path, required=True, help="the other build's checkout")
    ap.add_argument("--task", choices=("games", "soak", "study"), default="games")
    ap.add_argument("--strategy", default=None, help="games: random by default; soak: a,b,...")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2, help="study: worker processes")
    args = ap.parse_args()
    if args.task == "games" and args.strategy is None:
        args.strategy = "random"
    if not (args.other / "simulate" / "__init__.py").is_file():
        raise SystemExit(f"--other: {args.other} is not a checkout of this project")
    builds = {"this": ROOT, "other": args.other.resolve()}
    rates: dict[str, list[float]] = {name: [] for name in builds}
    compiled: dict[str, str] = {}
    for _ in range(args.runs):
        for name, checkout in builds.items():
            rate, compiled[name] = one_run(checkout, args)
            rates[name].append(rate)
    what = {
        "games": f"{args.strategy}, {args.games} games a run, one core (CPU time)",
        "soak": f"vsim soak, {args.games} games a run, one core (CPU time of the process)",
        "study": f"vsim run, {args.games} games a run, {args.jobs} workers (wall time)",
    }[args.task]
    print(f"{what}, {args.runs} runs")
    for name, checkout in builds.items():
        runs = ", ".join(f"{r:.3g}" for r in rates[name])
        med = statistics.median(rates[name])
        print(f"  {name} ({checkout}; {compiled[name]}): {runs}")
        print(f"    median {med:.3g} games/s ({args.games / med:.1f} s a run)")
    ratio = statistics.median(rates["this"]) / statistics.median(rates["other"])
    paired = statistics.median([a / b for a, b in zip(rates["this"], rates["other"], strict=True)])
    print(f"  this / other: {ratio:.3f} (medians), {paired:.3f} (median of paired runs)")


if __name__ == "__main__":
    main()
