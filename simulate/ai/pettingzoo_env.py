"""The game as a PettingZoo AEC environment: agents DS, BK and VE (the Mongols stay part of
the environment); each step answers one engine Decision (docs/ai.md).

>>> from simulate.ai import pettingzoo_env
>>> env = pettingzoo_env.env()
>>> env.reset(seed=7)
>>> env.agent_selection in ("DS", "BK", "VE")
True

``reset(seed=s)`` plays game ``s`` with the deck and dice ``play_game(s)`` uses, so the same
answers give the same game; ``reset()`` with no seed plays the next seed. The rewards come at
the end: 1 for the winner, 0 for the others; ``infos`` then hold each Faction's VP, its VP
margin (its VP less the best other's) and the winner.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from simulate.vijayanagara.rules import victory
from simulate.vijayanagara.rules.pieces import FACTIONS, NAMES
from simulate.vijayanagara.rules.ruleset import load_rules

from .encoding import Encoder, K
from .stepper import DECIDE, Stepper

AGENTS = ("DS", "BK", "VE")
BOUND = 1.0e4  # every encoded value lies within +-BOUND
NOT_STARTED = "call reset() first: no game in progress"


def env(**kwargs) -> AECEnv:
    """The environment. Keywords: ``variant`` (a rule variant name or file), ``max_cycles``
    (truncate after that many steps; None: play to the end), ``render_mode`` (None or
    "ansi"). It checks its own call order (reset first): PettingZoo's order-enforcing wrapper
    cost x1.2 of the engine's time per step (benchmarks/bench_ai.py), so it is not put on."""
    return raw_env(**kwargs)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the environment class)
    """The environment (``env()``)."""

    metadata = {"name": "vijayanagara_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self, variant: object = None, max_cycles: int | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.rules = load_rules(variant)
        self.encoder = Encoder(self.rules)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = list(AGENTS)
        obs = spaces.Dict(
            {
                "observation": spaces.Box(-BOUND, BOUND, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (K,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(K) for a in AGENTS}
        self.next_seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)
        self.stepper: Stepper | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start game ``seed`` (default: the seed after the last game's)."""
        if seed is None:
            seed = self.next_seed
        if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self.seed = int(seed)
        self.next_seed = self.seed + 1
        self.stepper = Stepper.seeded(self.rules, self.seed)
        self.steps = 0
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self._next_turn()

    def observe(self, agent: str) -> dict:
        """The public observation of ``agent``, with its legal actions (none when another
        Faction decides, or the game is over)."""
        if self.stepper is None:
            raise RuntimeError(NOT_STARTED)
        kind, faction, decision = self.stepper.pending
        if kind != DECIDE:
            decision = None
        me = AGENTS.index(agent)
        return {
            "observation": self.encoder.encode(self.stepper.state, me, decision),
            "action_mask": self.encoder.mask(decision if faction == me else None),
        }

    def step(self, action: int | None) -> None:
        """Answer the pending Decision with option ``action`` (ValueError if not legal)."""
        if self.stepper is None:
            raise RuntimeError(NOT_STARTED)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must answer its Decision: an action, not None")
        self._cumulative_rewards[agent] = 0
        self.stepper.answer(int(action))
        self.steps += 1
        self._next_turn()
        if self.stepper.over:  # the rewards are 0 until the end
            self._accumulate_rewards()

    def _next_turn(self) -> None:
        """Select the Faction that decides next, or end the game (rewards, infos)."""
        s = self.stepper
        if s.over:
            self._finish()
            return
        faction = s.pending[1]
        self.encoder.check(s.pending[2])
        self.agent_selection = AGENTS[faction]
        if self.max_cycles is not None and self.steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def _finish(self) -> None:
        st = self.stepper.state
        win, _ = victory.winner(self.rules, st)
        vps = [victory.vp(self.rules, st, f, final=True) for f in FACTIONS]
        for f in FACTIONS:
            name = AGENTS[f]
            self.rewards[name] = 1 if win == f else 0
            best = max(vps[g] for g in FACTIONS if g != f)
            self.infos[name] = {
                "vp": vps[f],
                "vp_margin": vps[f] - best,
                "winner": None if win is None else NAMES[win],
            }
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """A one-line summary of the game (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.stepper is None:
            return None
        st = self.stepper.state
        kind, faction, decision = self.stepper.pending
        vps = " ".join(f"{AGENTS[f]} {victory.vp(self.rules, st, f)} VP" for f in FACTIONS)
        now = "game over" if kind != DECIDE else f"{AGENTS[faction]} decides {decision.kind}"
        return f"card {st.pos}: {vps}; {now}"

    def close(self) -> None:
        self.stepper = None
