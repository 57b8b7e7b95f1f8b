"""Runner figures for the note: scaling, memory per worker, bytes on disk per game.

    python benchmarks/bench_runner.py                  # 600 games, 3 repeats
    python benchmarks/bench_runner.py --games 2000 --repeats 5 --json out.json

* games/s of a whole ``runs.run`` (planning, play, Parquet writing, manifest) at
  ``--jobs 1`` and ``--jobs 2``, median of the repeats, and their ratio (target >= 1.8x),
  after a warm-up run that starts the worker pool (reported separately: a one-off cost);
* the CPU time of a run at ``--jobs 1`` and ``--jobs 2`` (parent plus workers): the
  parallel overhead, and the speed-up 2 x cpu1 / cpu2 that an otherwise idle 2-core machine
  would show (perfect balance assumed); robust when other programs share the machine;
* peak RSS of each loky worker after the ``--jobs 2`` runs (``ru_maxrss`` read inside the
  workers themselves, stdlib only; target <= 150 MB);
* Parquet bytes per game of each table (target <= 1 KB for ``games``), from a traced run.

Not a test: nothing here is asserted. Run it on an otherwise idle machine with >= 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate import native  # noqa: E402
from simulate.study import (  # noqa: E402
    backends,
    dataset,
    records,  # noqa: E402
    runs,
    specs,
)


def _maxrss_mb() -> tuple[int, float]:
    """(pid, peak RSS in MB) of the calling process.

    On Linux the high-water mark of this process's own memory (``VmHWM``): ``ru_maxrss``
    would also count the parent's memory at the fork that preceded the worker's exec.
    """
    try:
        with open(f"/proc/{os.getpid()}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return os.getpid(), int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024  # macOS: bytes; Linux: KB
    return os.getpid(), peak / scale


def timed_run(study: specs.Study, jobs: int, workdir: Path, trace: bool = False) -> float:
    """Seconds for a complete run of ``study`` into a fresh directory."""
    out = Path(tempfile.mkdtemp(prefix=f"jobs{jobs}-", dir=workdir))
    t0 = time.perf_counter()
    runs.run(study, out / "run", jobs=jobs)
    return time.perf_counter() - t0


def _cpu_seconds() -> tuple[int, float]:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return os.getpid(), usage.ru_utime + usage.ru_stime


def worker_cpu(jobs: int) -> dict[int, float]:
    """CPU seconds used so far by each live loky worker."""
    from joblib import Parallel, delayed

    return dict(Parallel(n_jobs=jobs)(delayed(_cpu_seconds)() for _ in range(8 * jobs)))


def cpu_of_run(study: specs.Study, jobs: int, workdir: Path) -> float:
    """CPU seconds of a whole run: this process plus, with workers, the workers' share.

    Unlike wall time this hardly changes when other programs share the machine, so it
    gives the parallel overhead, and the speed-up an idle machine would show, anyway.
    """
    before = worker_cpu(jobs) if jobs > 1 else {}
    start = _cpu_seconds()[1]
    timed_run(study, jobs, workdir)
    used = _cpu_seconds()[1] - start
    if jobs > 1:
        after = worker_cpu(jobs)
        used += sum(after[p] - before[p] for p in after if p in before)
    return used


def worker_rss(jobs: int) -> dict[int, float]:
    """Peak RSS (MB) of each live loky worker, asked of the workers themselves."""
    from joblib import Parallel, delayed

    found: dict[int, float] = {}
    for pid, mb in Parallel(n_jobs=jobs)(delayed(_maxrss_mb)() for _ in range(8 * jobs)):
        found[pid] = max(mb, found.get(pid, 0.0))
    return found


def bytes_per_game(directory: Path, games: int) -> dict[str, float]:
    return {
        table: sum(p.stat().st_size for p in dataset.shards(directory, table)) / games
        for table in records.TABLES
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)

    study = specs.Study.create(games=args.games, seed=args.seed)
    traced = specs.Study.create(games=args.games, seed=args.seed, trace=True)
    with tempfile.TemporaryDirectory(prefix="bench-runner-") as tmp:
        workdir = Path(tmp)
        # Warm-up (untimed in the rates): starts the worker pool and compiles the rules in
        # each worker, a one-off cost of a few seconds that a long study amortises.
        warm = specs.Study.create(games=64, seed=args.seed + 1)
        cold = {jobs: timed_run(warm, jobs, workdir) for jobs in (1, 2)}
        times: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(args.repeats):
            for jobs in (1, 2):
                times[jobs].append(timed_run(study, jobs, workdir))
        rss = worker_rss(2)
        cpu = {jobs: cpu_of_run(study, jobs, workdir) for jobs in (1, 2)}
        out = workdir / "traced"
        runs.run(traced, out, jobs=2)
        sizes = bytes_per_game(out, args.games)
        chunk = json.loads((out / "manifest.json").read_text())["execution"]["chunk_size"]

    rate = {jobs: args.games / statistics.median(ts) for jobs, ts in times.items()}
    best = {jobs: args.games / min(ts) for jobs, ts in times.items()}
    figures = {
        "games": args.games,
        "repeats": args.repeats,
        "cpus": backends.default_jobs(),
        "games_per_s_jobs1": rate[1],
        "games_per_s_jobs2": rate[2],
        "speedup_jobs2": rate[2] / rate[1],
        "speedup_jobs2_best": best[2] / best[1],
        "seconds_jobs1": times[1],
        "seconds_jobs2": times[2],
        "cold_start_seconds_64_games": cold,
        "cpu_seconds_jobs1": cpu[1],
        "cpu_seconds_jobs2_parent_and_workers": cpu[2],
        "projected_speedup_jobs2_idle": 2 * cpu[1] / cpu[2],
        "peak_rss_mb_per_worker": sorted(rss.values()),
        "peak_rss_mb_parent": _maxrss_mb()[1],
        "bytes_per_game": sizes,
        "chunk_size_traced_jobs2": chunk,
    }
    rows = [
        ("games/s, --jobs 1 (median)", f"{rate[1]:.1f}", ""),
        ("games/s, --jobs 2 (median)", f"{rate[2]:.1f}", ""),
        ("speed-up --jobs 2 / --jobs 1 (medians)", f"{rate[2] / rate[1]:.2f}x", ">= 1.8x"),
        ("speed-up --jobs 2 / --jobs 1 (best runs)", f"{best[2] / best[1]:.2f}x", ""),
        ("first 64 games, cold pool, --jobs 2", f"{cold[2]:.2f} s", ""),
        ("CPU per game, --jobs 1", f"{1000 * cpu[1] / args.games:.2f} ms", ""),
        ("CPU per game, --jobs 2 (parent+workers)", f"{1000 * cpu[2] / args.games:.2f} ms", ""),
        ("speed-up projected from CPU (idle box)", f"{2 * cpu[1] / cpu[2]:.2f}x", ">= 1.8x"),
        ("peak RSS per worker", f"{max(rss.values()):.0f} MB", "<= 150 MB"),
        ("Parquet bytes/game: games", f"{sizes['games']:.0f}", "<= 1024"),
        ("Parquet bytes/game: turns", f"{sizes['turns']:.0f}", ""),
        ("Parquet bytes/game: actions (--trace)", f"{sizes['actions']:.0f}", ""),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"runner benchmark: {args.games} games x {args.repeats} repeats, {figures['cpus']} cpus")
    print(f"  modules: {native.summary()}")
    for name, value, target in rows:
        print(f"  {name:<{width}}  {value:>10}  {target}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return figures


if __name__ == "__main__":
    main()
