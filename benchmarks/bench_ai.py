"""Speed of the AI adapters (simulate/ai), and the option-count bound K (issue 44).

python benchmarks/bench_ai.py speed [--games 100] [--runs 3]
    PettingZoo steps/s with random legal actions (observation encoding included) against
    the engine's own decisions/s in ``play_game`` on the same games (target: within 2x), in
    CPU seconds, the best of the runs;
    the engine in its greenlet alone; and the other ways to invert its control: replaying
    the card from its start at every step, and a worker thread handing each Decision over.
python benchmarks/bench_ai.py options [--random 2000] [--default 200]
    The largest option count of any Decision over random and default-bot games, by kind,
    and the longest OpenSpiel history (moves and chance outcomes) of random games.
"""

from __future__ import annotations

import argparse
import collections
import queue
import threading
import time

import numpy as np

from simulate import native, play_game
from simulate.ai import pettingzoo_env
from simulate.vijayanagara.ai.encoding import K
from simulate.vijayanagara.ai.stepper import CARD, DECIDE, Stepper
from simulate.vijayanagara.game import make_strategies
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.seeds import streams

AGENTS = ("DS", "BK", "VE")


def engine_rate(seeds: range) -> float:
    """Games per second of ``play_game`` with random strategies."""
    start = time.process_time()
    for seed in seeds:
        play_game(seed, "random")
    return len(seeds) / (time.process_time() - start)


def env_run(env, seeds: range) -> tuple[float, int]:
    """(games/s, steps) of the PettingZoo loop, choosing as ``random`` would (the same draws
    from the same streams, so the very games ``play_game`` plays)."""
    steps = 0
    start = time.process_time()
    for seed in seeds:
        rngs = streams(seed)
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            n = int(np.count_nonzero(obs["action_mask"]))
            env.step(int(rngs[agent].random() * n))
            steps += 1
    return len(seeds) / (time.process_time() - start), steps


def stepper_run(seeds: range) -> float:
    """Games/s of the engine in its greenlet alone, answering as ``random`` would."""
    rules = load_rules()
    start = time.process_time()
    for seed in seeds:
        rngs = streams(seed)
        s = Stepper.seeded(rules, seed)
        while not s.over:
            _, faction, decision = s.pending
            s.answer(int(rngs[AGENTS[faction]].random() * len(decision.options)))
    return len(seeds) / (time.process_time() - start)


def replay_run(seeds: range) -> float:
    """Games/s when every step replays the card from its start (a copy at each step)."""
    rules = load_rules()
    start = time.process_time()
    for seed in seeds:
        rngs = streams(seed)
        s = Stepper.seeded(rules, seed)
        while not s.over:
            _, faction, decision = s.pending
            choice = int(rngs[AGENTS[faction]].random() * len(decision.options))
            s = s.copy()
            s.answer(choice)
    return len(seeds) / (time.process_time() - start)


class ThreadSeat:
    """A strategy that hands each Decision to another thread and waits for its answer."""

    def __init__(self, asks: queue.SimpleQueue, answers: queue.SimpleQueue) -> None:
        self.asks, self.answers = asks, answers

    def new_game(self, faction, rng, rules) -> None:
        pass

    def choose(self, observation, decision):
        self.asks.put(decision)
        return decision.options[self.answers.get()]


def _play_then_stop(seed: int, seats: tuple, asks: queue.SimpleQueue) -> None:
    play_game(seed, seats)
    asks.put(None)


def thread_run(seeds: range) -> float:
    """Games/s with the engine in a worker thread and the caller answering through queues."""
    start = time.process_time()
    for seed in seeds:
        rngs = streams(seed)
        asks: queue.SimpleQueue = queue.SimpleQueue()
        answers: queue.SimpleQueue = queue.SimpleQueue()
        seats = tuple(ThreadSeat(asks, answers) for _ in AGENTS)
        worker = threading.Thread(target=_play_then_stop, args=(seed, seats, asks))
        worker.start()
        while (decision := asks.get()) is not None:
            answers.put(int(rngs[decision.faction].random() * len(decision.options)))
        worker.join()
    return len(seeds) / (time.process_time() - start)


def speed(args: argparse.Namespace) -> None:
    seeds = range(args.games)
    play_game(0, "random")
    env = pettingzoo_env.env()  # loads the rules once, as a training run does
    _, steps = env_run(env, range(1))
    results = collections.defaultdict(list)
    for _ in range(args.runs):
        results["engine"].append(engine_rate(seeds))
        rate, steps = env_run(env, seeds)
        results["pettingzoo"].append(rate)
        results["stepper"].append(stepper_run(seeds))
        results["replay"].append(replay_run(seeds))
        results["thread"].append(thread_run(seeds))
    per_game = steps / args.games
    print(f"modules: {native.summary()}")
    print(f"{args.games} random games x {args.runs} runs; {per_game:.0f} Decisions per game")
    engine = max(results["engine"]) * per_game  # the best run: the least disturbed by other load
    for name, label in (
        ("engine", "play_game (engine alone)"),
        ("pettingzoo", "PettingZoo env, greenlet"),
        ("stepper", "greenlet stepper alone"),
        ("replay", "replay the card each step"),
        ("thread", "worker thread per game"),
    ):
        rate = max(results[name]) * per_game
        print(f"{label:<28} {rate:9.0f} Decisions/s   x{engine / rate:4.2f} of the engine's time")


def options(args: argparse.Namespace) -> None:
    """The largest option count by Decision kind, and the longest OpenSpiel history."""
    import pyspiel

    import simulate.ai.openspiel_game  # noqa: F401

    largest: collections.Counter = collections.Counter()

    class Counting:
        def __init__(self, inner) -> None:
            self.inner = inner

        def new_game(self, faction, rng, rules) -> None:
            self.inner.new_game(faction, rng, rules)

        def choose(self, observation, decision):
            largest[decision.kind] = max(largest[decision.kind], len(decision.options))
            return self.inner.choose(observation, decision)

    for spec, games in (("random", args.random), ("heuristic", args.default)):
        for seed in range(games):
            play_game(seed, tuple(Counting(s) for s in make_strategies(spec)))
    print(f"{args.random} random and {args.default} default games; K = {K}")
    for kind, n in largest.most_common():
        print(f"  {kind:<22} {n}")
    game = pyspiel.load_game("python_vijayanagara")
    longest = 0
    rules = load_rules()
    for seed in range(args.random // 10):
        rng = streams(seed)["DS"]
        s = Stepper.with_chance(rules)
        n = 0
        while not s.over:
            kind, _, payload = s.pending
            if kind == DECIDE:
                s.answer(int(rng.random() * len(payload.options)))
            elif kind == CARD:
                s.answer(payload[int(rng.random() * len(payload))][0])
            else:
                s.answer(int(rng.random() * 6))
            n += 1
        longest = max(longest, n)
    print(f"longest history over {args.random // 10} random games: {longest} "
          f"(max_game_length {game.max_game_length()})")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    sp = sub.add_parser("speed")
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--runs", type=int, default=3)
    op = sub.add_parser("options")
    op.add_argument("--random", type=int, default=2000)
    op.add_argument("--default", type=int, default=200)
    args = ap.parse_args()
    speed(args) if args.what == "speed" else options(args)


if __name__ == "__main__":
    main()
