"""``greedy``: one-step lookahead on the heuristic's evaluation.

At each top-level choice (2.3.3: Command + Decree, Event, Command, Limited Command, Pass) the
bot plays every offered option on a private copy of the position, with the heuristic deciding
the details of its turn and the other factions' turns on the card, and keeps the option whose
resulting position the evaluation (``heuristic/evaluation.py``) likes best. Every other
decision is the heuristic's. The copies are ``Observation.determinise``d (the unseen cards
redrawn), their dice come from the bot's own generator, and all options of one choice are
tried on the same copy and dice (common random numbers), so the comparison is fair.

Parameters: ``samples`` (copies per choice, default 1), ``expand`` (also try every other
Command and Decree, not only the heuristic's pick, default true), ``finish`` (play out the
rest of the card, default true), ``weights`` and any heuristic parameter.
"""

from __future__ import annotations

import random
from typing import Any

from .lookahead import Searcher, SearchStrategy


class GreedyStrategy(SearchStrategy):
    """One-step lookahead: plays each top-level option on a copy, keeps the best."""

    name = "greedy"
    description = "one-step lookahead on the evaluation (each top-level option on a copy)"

    def __init__(
        self,
        weights: str | None = None,
        samples: int = 1,
        expand: bool = True,
        finish: bool = True,
        **params: Any,
    ) -> None:
        if not isinstance(samples, int) or isinstance(samples, bool) or samples < 1:
            raise ValueError(f"samples must be a positive integer, got {samples!r}")
        for key, value in (("expand", expand), ("finish", finish)):
            if not isinstance(value, bool):
                raise ValueError(f"{key} must be true or false, got {value!r}")
        self.samples = samples
        self.expand = expand
        self.finish = finish
        self.search = Searcher(weights, params)
        self.params: dict[str, Any] = dict(sorted(params.items()))
        self.params.update(samples=samples, expand=expand, finish=finish)
        self._finish_init(weights)

    @classmethod
    def around(cls, base: Any, expand: bool = True, finish: bool = True) -> GreedyStrategy:
        """Greedy over ``base``'s plans (a heuristic bot that never weighs the Event): the
        lookahead a heuristic seat plays with ``play.lookahead = "greedy"``."""
        bot = cls.__new__(cls)
        bot.samples, bot.expand, bot.finish = 1, expand, finish
        bot.search = Searcher.around(base)
        bot.params = {"samples": 1, "expand": expand, "finish": finish}
        bot.rng = random.Random(0)
        return bot

    def decide(self, obs, decision) -> str:
        search = self.search
        cands = search.candidates(obs, decision, self.expand)
        default = search.base.bot.last.get("choice")
        scores = [0.0] * len(cands)
        for _ in range(self.samples):
            state = obs.determinise(self.rng)
            dice = self.rng.getrandbits(32)
            for i, cand in enumerate(cands):
                scores[i] += search.margin(search.play(state, cand, dice, self.finish))
        best_i = 0
        best_v = -1e18
        for i, cand in enumerate(cands):
            # the heuristic's own choice wins ties (and near-ties within sampling noise)
            v = scores[i] / self.samples + (0.05 if cand.action == default else 0.0)
            if v > best_v:
                best_i, best_v = i, v
        chosen = cands[best_i]
        search.base.bot.plan = dict(chosen.plan)
        return chosen.action
