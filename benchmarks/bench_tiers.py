"""The strength-vs-speed frontier of the bot tiers (issue 18), as a figure for the README.

    python benchmarks/bench_tiers.py --ladder runs/ladder-v2 --ladder runs/ladder-gx \
        [--games 40] [--out docs/tiers.png]

Speed: games per CPU second on one core with the tier in every seat (median of 3 runs of
``--games`` games; fewer for the slow tiers). Strength: the tier's mean deviation gain over
the three seats against the default field, read from the ``ladder.json`` of ``vsim ladder``
runs whose field is the default (``--ladder``, repeatable); the default field is 0 by
definition. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from simulate import play_game  # noqa: E402

TIERS = [
    ("random", 1.0),
    ("heuristic-v1", 1.0),
    ("heuristic-fast", 1.0),
    ("heuristic", 0.5),
    ("heuristic-strong", 0.5),
    ("greedy:finish=false,expand=false", 0.3),
    ("greedy:expand=false", 0.25),
    ("greedy", 0.1),
    ("mcts", 0.02),
]


def speed(spec: str, games: int) -> float:
    play_game(0, strategies=spec)
    rates = []
    for r in range(3):
        t = time.process_time()
        for s in range(games):
            play_game(1000 * (r + 1) + s, strategies=spec)
        rates.append(games / (time.process_time() - t))
    return statistics.median(rates)


def strengths(ladders: list[Path]) -> dict[str, float]:
    out: dict[str, list[float]] = {}
    for folder in ladders:
        data = json.loads((folder / "ladder.json").read_text())
        for rec in data["records"]:
            out.setdefault(rec["challenger"], []).append(rec["gain"])
    return {spec: statistics.mean(g) for spec, g in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ladder", action="append", type=Path, default=[])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "tiers.png")
    args = ap.parse_args()
    gains = strengths(args.ladder) | {"heuristic": 0.0}  # the default field
    rows = []
    for spec, share in TIERS:
        rate = speed(spec, max(1, int(args.games * share)))
        rows.append((spec, rate, gains.get(spec)))
        gain = "n/a" if gains.get(spec) is None else f"{100 * gains[spec]:+.1f}"
        print(f"{spec:36} {rate:8.2f} games/s per core   mean gain vs default field {gain}")
    from simulate.analysis.figures import save, tiers

    save(tiers([r for r in rows if r[2] is not None]), args.out)
    print(f"figure: {args.out}")


if __name__ == "__main__":
    main()
