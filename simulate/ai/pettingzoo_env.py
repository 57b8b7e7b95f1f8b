"""Any game with an encoder as a PettingZoo AEC environment: the agents are its seats (their
number its rules'); each step answers one engine Decision (docs/ai.md).

>>> from simulate.ai import pettingzoo_env
>>> env = pettingzoo_env.env()
>>> env.reset(seed=7)
>>> env.agent_selection in env.possible_agents
True

``reset(seed=s)`` plays game ``s`` with the streams the game's ``play(s)`` uses, so the same
answers give the same game; ``reset()`` with no seed plays the next seed. The rewards come at
the end: 1 for the winner, 0 for the others; ``infos`` then hold each seat's score (under the
game's score name, ``vp`` for Vijayanagara), its margin over the best other's
(``<score>_margin``) and the winner.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .encoding import DECIDE, adapted

NOT_STARTED = "call reset() first: no game in progress"


def env(**kwargs) -> AECEnv:
    """The environment. Keywords: ``game`` (a Game, a registered name or ``module:OBJECT``;
    default the default game), ``variant`` (a rule variant name, file or Variant),
    ``max_cycles`` (truncate after that many steps; None: play to the end), ``render_mode``
    (None or "ansi"). It checks its own call order (reset first): PettingZoo's
    order-enforcing wrapper cost x1.2 of the engine's time per step (benchmarks/bench_ai.py),
    so it is not put on."""
    return raw_env(**kwargs)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the environment class)
    """The environment (``env()``)."""

    metadata = {"name": "game_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        variant: object = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
        game: object = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.game, self.rules, self.encoder = adapted(game, variant)
        self.metadata = {**self.metadata, "name": f"{self.game.name}_v0"}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = list(self.encoder.seats)
        bound, actions = self.encoder.bound, self.encoder.actions
        obs = spaces.Dict(
            {
                "observation": spaces.Box(-bound, bound, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.next_seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0] >> 1)
        self.stepper = None

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
        self.stepper = self.encoder.seeded(self.seed)
        self.steps = 0
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0)
        self._cumulative_rewards = dict.fromkeys(agents, 0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self._next_turn()

    def observe(self, agent: str) -> dict:
        """The observation of ``agent``, with its legal actions (none when another seat
        decides, or the game is over)."""
        if self.stepper is None:
            raise RuntimeError(NOT_STARTED)
        kind, seat, decision = self.stepper.pending
        if kind != DECIDE:
            decision = None
        me = self.possible_agents.index(agent)
        return {
            "observation": self.encoder.encode(self.stepper.view, me, decision),
            "action_mask": self.encoder.mask(decision if seat == me else None),
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
        """Select the seat that decides next, or end the game (rewards, infos)."""
        s = self.stepper
        if s.over:
            self._finish()
            return
        self.encoder.check(s.pending[2])
        self.agent_selection = self.possible_agents[s.pending[1]]
        if self.max_cycles is not None and self.steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    def _finish(self) -> None:
        encoder, agents = self.encoder, self.possible_agents
        win = encoder.winner(self.stepper)
        scores = encoder.scores(self.stepper)
        key = self.game.score
        for i, name in enumerate(agents):
            self.rewards[name] = 1 if win == i else 0
            best = max(scores[j] for j in range(len(agents)) if j != i)
            self.infos[name] = {
                key: scores[i],
                f"{key}_margin": scores[i] - best,
                "winner": None if win is None else agents[win],
            }
        self.terminations = dict.fromkeys(self.agents, True)

    def render(self) -> str | None:
        """A one-line summary of the game (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.stepper is None:
            return None
        return self.encoder.render(self.stepper)

    def close(self) -> None:
        self.stepper = None
