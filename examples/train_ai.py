"""Train a small agent on the PettingZoo environment with NumPy alone (docs/ai.md).

One seat learns a linear softmax policy over the options of each Decision, by REINFORCE on
the end-of-game reward (1 for a win), against random opponents. An option's features are
its encoded leaves crossed with the Decision's kind (``simulate.ai.encoding``): the policy
learns, per kind of Decision, which spaces, counts and named choices pay. A toy, to show the
loop a real learner plugs into; CI runs it for a few hundred steps.

    python examples/train_ai.py --steps 20000 --seat VE --save ve_policy.npz
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulate.ai import pettingzoo_env
from simulate.ai.agent import PolicyStrategy
from simulate.vijayanagara.ai.encoding import KINDS, OPTION_LEAVES, K


class LinearPolicy:
    """Scores option ``i`` as ``theta[kind] . leaves_i``; picks by softmax."""

    def __init__(self, encoder, rng: np.random.Generator) -> None:
        self.kind_at = encoder.layout["kind"][0]
        self.options_at = encoder.layout["options"][0]
        self.theta = np.zeros((len(KINDS), 2 * OPTION_LEAVES))
        self.rng = rng

    def features(self, observation: np.ndarray, n: int) -> tuple[int, np.ndarray]:
        kind = int(np.argmax(observation[self.kind_at : self.kind_at + len(KINDS)]))
        block = observation[self.options_at : self.options_at + K * 2 * OPTION_LEAVES]
        return kind, block.reshape(K, 2 * OPTION_LEAVES)[:n]

    def act(self, observation: np.ndarray, mask: np.ndarray) -> tuple[int, tuple]:
        n = int(mask.sum())
        kind, leaves = self.features(observation, n)
        logits = leaves @ self.theta[kind]
        p = np.exp(logits - logits.max())
        p /= p.sum()
        action = int(self.rng.choice(n, p=p))
        return action, (kind, leaves, p, action)

    def update(self, trace: list, advantage: float, lr: float) -> None:
        for kind, leaves, p, action in trace:
            self.theta[kind] += lr * advantage * (leaves[action] - p @ leaves)


class LinearStrategy(PolicyStrategy):
    """The trained policy as a strategy: ``weights`` the file ``--save`` wrote (default
    policy.npz in the working folder), e.g.
    ``PYTHONPATH=examples vsim ladder --challenger train_ai:LinearStrategy --seat VE``."""

    name = "linear-policy"

    def __init__(self, weights: str = "policy.npz") -> None:
        try:
            self.theta = np.load(weights)["theta"]
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"cannot read trained weights {weights}: {exc}") from None
        self.params = {"weights": weights}

    def new_game(self, faction, rng, rules) -> None:
        super().new_game(faction, rng, rules)
        self.policy = LinearPolicy(self.encoder, self.np_rng)
        self.policy.theta = self.theta

    def act(self, vector: np.ndarray, mask: np.ndarray) -> int:
        return self.policy.act(vector, mask)[0]


def train(steps: int, seat: str, seed: int, lr: float) -> tuple[LinearPolicy, list[float]]:
    """Play games from ``seed`` on until ``steps`` Decisions were answered; the win of each
    finished game (1 or 0) for ``seat``."""
    env = pettingzoo_env.env()
    rng = np.random.default_rng(seed)
    policy = LinearPolicy(env.unwrapped.encoder, rng)
    wins: list[float] = []
    baseline, done, game = 1 / 3, 0, seed
    while done < steps:
        env.reset(seed=game)
        game += 1
        trace, reward = [], 0.0
        for agent in env.agent_iter():
            obs, r, term, trunc, _ = env.last()
            if agent == seat:
                reward += r
            if term or trunc:
                env.step(None)
                continue
            if agent == seat:
                action, step = policy.act(obs["observation"], obs["action_mask"])
                trace.append(step)
            else:
                action = int(rng.integers(int(obs["action_mask"].sum())))
            env.step(action)
            done += 1
            if done >= steps:
                break
        if done >= steps and not env.terminations.get(seat, True):
            break  # the last game was cut short: no reward to learn from
        policy.update(trace, reward - baseline, lr)
        baseline += 0.05 * (reward - baseline)
        wins.append(reward)
    return policy, wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=5000, help="Decisions to play (all seats)")
    ap.add_argument("--seat", choices=("DS", "BK", "VE"), default="VE")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--save", default=None, metavar="FILE.npz", help="write the weights here")
    args = ap.parse_args()
    if args.steps < 1:
        ap.error("--steps must be a positive integer")
    start = time.perf_counter()
    policy, wins = train(args.steps, args.seat, args.seed, args.lr)
    seconds = time.perf_counter() - start
    rate = f"{np.mean(wins):.2f}" if wins else "n/a"
    print(
        f"{args.steps} steps in {seconds:.1f}s ({args.steps / seconds:.0f} steps/s); "
        f"{len(wins)} games finished, {args.seat} won {rate} of them"
    )
    if args.save:
        np.savez(args.save, theta=policy.theta)
        print(f"weights: {args.save}")


if __name__ == "__main__":
    main()
