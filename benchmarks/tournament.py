"""Tournament: each candidate bot in each faction seat against fixed opponents, on the same
game seeds, with win rates, Wilson 95% intervals and speed.

    python benchmarks/tournament.py --games 200 --seed 1
    python benchmarks/tournament.py --bots random,heuristic --opponents heuristic --games 400
    python benchmarks/tournament.py --bot-games mcts=40 --spec mcts=mcts:rollouts=4

For every seat (DS, BK, VE), every opponent setting (the same bot in the two other seats)
and every candidate bot, the same ``--games`` seeds are played (common random numbers, so
the rows of one column differ only by the bot in the seat). Each cell shows the seat's win
rate with its Wilson 95% interval. Speed is CPU time per game on one core: ``g/s`` for the
whole game (all three bots and the engine), ``bot ms`` for the seat's bot alone.

Targets (issue 6): a heuristic seat wins at least twice as often as a random seat against
the same opponents; greedy >= heuristic; mcts > greedy.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SEATS = ("DS", "BK", "VE")


class Timed:
    """Wraps a strategy and adds up the CPU time spent in its decisions."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", type(inner).__name__)
        self.seconds = 0.0

    def new_game(self, faction, rng, rules) -> None:
        t = time.process_time()
        self.inner.new_game(faction, rng, rules)
        self.seconds += time.process_time() - t

    def choose(self, observation, decision):
        t = time.process_time()
        try:
            return self.inner.choose(observation, decision)
        finally:
            self.seconds += time.process_time() - t


def chunks(args) -> list[tuple]:
    """Cells split into chunks of games (for parallel workers); merged afterwards."""
    tasks = []
    for opp in args.opponents:
        for seat in args.seats:
            for bot in args.bots:
                n = args.bot_games.get(bot, args.games)
                spec = args.spec.get(bot, bot)
                opp_spec = args.spec.get(opp, opp)
                size = max(1, min(args.chunk, n))
                for start in range(0, n, size):
                    k = min(size, n - start)
                    tasks.append(
                        (
                            (seat, bot, opp),
                            (seat, spec, opp_spec, args.seed, start, k, args.variant),
                        )
                    )
    return tasks


def run_chunk(task: tuple) -> dict:
    return play_range(*task)


def play_range(seat, spec, opp_spec, master, start, k, variant=None) -> dict:
    """Games ``start`` .. ``start + k - 1`` of one cell."""
    from simulate import play_game
    from simulate.seeds import game_seed
    from strategies.registry import make

    res = {"wins": 0, "ties": 0, "errors": 0, "cpu": 0.0, "bot_cpu": 0.0, "games": 0, "margin": 0.0}
    for i in range(start, start + k):
        seed = game_seed(master, i)
        timed = Timed(make(spec))
        team = {f: (timed if f == seat else make(opp_spec)) for f in SEATS}
        t = time.process_time()
        try:
            r = play_game(seed, team, variant)
        except Exception as exc:  # a failed game counts as not won
            res["errors"] += 1
            res["games"] += 1
            res["cpu"] += time.process_time() - t
            print(f"error in game {i} ({seat}={spec} vs {opp_spec}): {exc}", file=sys.stderr)
            continue
        res["cpu"] += time.process_time() - t
        res["bot_cpu"] += timed.seconds
        res["games"] += 1
        if r.winner == seat:
            res["wins"] += 1
        elif r.winner is None:
            res["ties"] += 1
        res["margin"] += r.vp[seat] - max(v for f, v in r.vp.items() if f != seat)
    return res


def _pairs(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        key, _, rest = v.partition("=")
        if not rest:
            raise SystemExit(f"expected NAME=VALUE, got {v!r}")
        out[key.strip()] = rest.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per cell (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    ap.add_argument("--bots", default="random,heuristic,greedy,mcts")
    ap.add_argument("--opponents", default="heuristic,random")
    ap.add_argument("--seats", default="DS,BK,VE")
    ap.add_argument(
        "--bot-games",
        action="append",
        default=[],
        metavar="BOT=N",
        help="fewer games for a slow bot, e.g. mcts=40",
    )
    ap.add_argument(
        "--spec",
        action="append",
        default=[],
        metavar="BOT=SPEC",
        help="the spec a bot name stands for, e.g. mcts=mcts:rollouts=4",
    )
    ap.add_argument("--variant", default=None, help="a rule variant name or .toml path")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--chunk", type=int, default=10, help="games per parallel task")
    ap.add_argument("--json", type=Path, help="also write the results as JSON")
    args = ap.parse_args(argv)
    args.bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    args.opponents = [b.strip() for b in args.opponents.split(",") if b.strip()]
    args.seats = [s.strip().upper() for s in args.seats.split(",") if s.strip()]
    args.bot_games = {k: int(v) for k, v in _pairs(args.bot_games).items()}
    args.spec = _pairs(args.spec)

    from simulate.analysis.stats import wilson_interval
    from strategies.registry import make

    for name in set(args.bots) | set(args.opponents):
        make(args.spec.get(name, name))  # fail early on a bad name or parameter

    tasks = chunks(args)
    cells: dict[tuple, dict] = {}
    t0 = time.time()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_chunk, [t for _k, t in tasks]))
    else:
        results = [run_chunk(t) for _k, t in tasks]
    for (key, _t), res in zip(tasks, results, strict=True):
        cell = cells.setdefault(
            key,
            {
                "wins": 0,
                "ties": 0,
                "errors": 0,
                "cpu": 0.0,
                "bot_cpu": 0.0,
                "games": 0,
                "margin": 0.0,
            },
        )
        for k in cell:
            cell[k] += res[k]
    wall = time.time() - t0

    rows = []
    for opp in args.opponents:
        print(
            f"\nOpponents: {args.spec.get(opp, opp)} in the two other seats "
            f"(seed {args.seed}; win rate of the seat, Wilson 95% interval, games)"
        )
        header = f"{'bot':<12}" + "".join(f"{s:>28}" for s in args.seats)
        print(header)
        for bot in args.bots:
            line = f"{bot:<12}"
            for seat in args.seats:
                c = cells[(seat, bot, opp)]
                n = c["games"]
                lo, hi = wilson_interval(c["wins"], n)
                rate = c["wins"] / n if n else 0.0
                err = f" E{c['errors']}" if c["errors"] else ""
                line += f"{f'{rate:6.1%} [{lo:5.1%},{hi:5.1%}] n={n}{err}':>28}"
                rows.append(
                    {
                        "opponents": opp,
                        "seat": seat,
                        "bot": bot,
                        "spec": args.spec.get(bot, bot),
                        "games": n,
                        "wins": c["wins"],
                        "ties": c["ties"],
                        "errors": c["errors"],
                        "win_rate": rate,
                        "ci95": [lo, hi],
                        "mean_vp_margin": c["margin"] / max(1, n),
                        "games_per_s_per_core": n / c["cpu"] if c["cpu"] else None,
                        "bot_ms_per_game": 1000 * c["bot_cpu"] / max(1, n),
                    }
                )
            print(line)
    print("\nSpeed (CPU per core): whole games/s with this bot in the seat; its own ms/game")
    for bot in args.bots:
        mine = [r for r in rows if r["bot"] == bot]
        games = sum(r["games"] for r in mine)
        cpu = sum(cells[(r["seat"], bot, r["opponents"])]["cpu"] for r in mine)
        bot_cpu = sum(cells[(r["seat"], bot, r["opponents"])]["bot_cpu"] for r in mine)
        print(
            f"{bot:<12} {games / cpu if cpu else 0:8.2f} g/s   {1000 * bot_cpu / max(1, games):9.1f} "
            f"ms/game in the bot   ({games} games)"
        )
    print(f"\nwall time {wall:.0f} s on {args.jobs} worker(s)")
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
