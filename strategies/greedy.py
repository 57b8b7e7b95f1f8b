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
rest of the card, default true), ``screen`` (with ``expand``: play those other Commands and
Decrees for the faction's own turn only, and finish the card for the ``screen`` best of them
and for what the heuristic would play, ``Searcher.screened``; 0, the default, finishes every
one), ``exclude`` (moves never considered, e.g. ``event``: an
ablation, ``lookahead.excluded``), ``weights`` and any heuristic parameter.
"""

from __future__ import annotations

import random
from typing import Any

from .heuristic import checked_count, checked_flag
from .lookahead import Candidate, Searcher, SearchStrategy

TIE = 0.05  # the heuristic's own action wins near-ties (VP)


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
        screen: int = 0,
        exclude: str = "",
        **params: Any,
    ) -> None:
        checked_count("samples", samples, 1)
        checked_flag("finish", finish)
        checked_count("screen", screen)
        checked_flag("expand", expand)
        self.samples = samples
        self.expand = expand
        self.finish = finish
        self.screen = screen
        self.search = Searcher(weights, params, exclude=exclude)
        self.params: dict[str, Any] = dict(sorted(params.items()))
        self.params.update(samples=samples, expand=expand, finish=finish)
        if screen:
            self.params["screen"] = screen
        self._finish_init(weights, exclude)

    @classmethod
    def around(
        cls, base: Any, expand: bool = True, finish: bool = True, screen: int = 0
    ) -> GreedyStrategy:
        """Greedy over ``base``'s plans (a heuristic bot that never weighs the Event): the
        lookahead a heuristic seat plays with ``play.lookahead`` ("greedy": ``expand``
        false; "greedy-full": true, with ``play.screen``)."""
        bot = cls.__new__(cls)
        bot.samples, bot.expand, bot.finish, bot.screen = 1, expand, finish, screen
        bot.search = Searcher.around(base)
        bot.params = {"samples": 1, "expand": expand, "finish": finish, "screen": screen}
        bot.rng = random.Random(0)
        return bot

    def decide(self, obs, decision) -> str:
        search = self.search
        cands = search.candidates(obs, decision, self.expand)
        default = search.base.bot.last.get("choice")
        worlds = [
            (obs.determinise(self.rng), self.rng.getrandbits(32)) for _ in range(self.samples)
        ]
        if self.screen and self.finish and self.expand:
            scores = search.screened(cands, worlds, default, self.screen)
        else:
            scores = self._scores(cands, worlds)
        chosen = cands[self._best(cands, scores, default)]
        search.base.bot.plan = dict(chosen.plan)
        return chosen.action

    def _scores(self, cands: list[Candidate], worlds: list[tuple]) -> list[float]:
        """Mean margin after each candidate over the same copies and dice."""
        search = self.search
        scores = [0.0] * len(cands)
        for state, dice in worlds:
            for i, cand in enumerate(cands):
                scores[i] += search.margin(search.play(state, cand, dice, self.finish))
        return [v / len(worlds) for v in scores]

    @staticmethod
    def _best(cands: list[Candidate], scores: list[float], default: str | None) -> int:
        """The best candidate; the heuristic's own action wins ties (and near-ties within
        sampling noise)."""
        best_i = 0
        best_v = -1e18
        for i, cand in enumerate(cands):
            v = scores[i] + (TIE if cand.action == default else 0.0)
            if v > best_v:
                best_i, best_v = i, v
        return best_i
