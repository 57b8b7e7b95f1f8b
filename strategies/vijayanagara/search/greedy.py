"""Greedy: one-step lookahead over a policy's plans, on its evaluation.

At each top-level choice (2.3.3: Command + Decree, Event, Command, Limited Command, Pass) the
bot plays every offered option on a private copy of the position, with the policy deciding
the details of its turn and the policy's copies the other factions' turns on the card, and
keeps the option whose resulting position the policy's evaluation likes best. Every other
decision is the policy's. The copies are ``Observation.determinise``d (the unseen cards
redrawn), their dice come from the bot's own generator, and all options of one choice are
tried on the same copy and dice (common random numbers), so the comparison is fair.

Its parameters: ``samples`` (copies per choice, default 1), ``expand`` (also try every other
Command and Decree, not only the policy's pick, default true), ``finish`` (play out the rest
of the card, default true), ``screen`` (with ``expand``: play those other Commands and
Decrees for the faction's own turn only, and finish the card for the ``screen`` best of them
and for what the policy would play, ``Searcher.screened``; 0, the default, finishes every
one), ``exclude`` (moves never considered, e.g. ``event``: an ablation,
``searcher.excluded``).
"""

from __future__ import annotations

import random
from typing import Any

from strategies.params import checked_count, checked_flag

from .protocol import Policy
from .searcher import Candidate, Searcher, SearchStrategy

TIE = 0.05  # the policy's own action wins near-ties (VP)


class GreedySearch(SearchStrategy):
    """One-step lookahead: plays each top-level option on a copy, keeps the best."""

    def __init__(
        self,
        policy: Policy,
        samples: int = 1,
        expand: bool = True,
        finish: bool = True,
        screen: int = 0,
        exclude: str = "",
    ) -> None:
        checked_count("samples", samples, 1)
        checked_flag("finish", finish)
        checked_count("screen", screen)
        checked_flag("expand", expand)
        self.samples = samples
        self.expand = expand
        self.finish = finish
        self.screen = screen
        self.search = Searcher(policy, exclude=exclude)
        self.params: dict[str, Any] = {"samples": samples, "expand": expand, "finish": finish}
        if screen:
            self.params["screen"] = screen
        self.rng = random.Random(0)

    def decide(self, obs, decision) -> str:
        search = self.search
        cands = search.candidates(obs, decision, self.expand)
        default = search.default
        worlds = [
            (obs.determinise(self.rng), self.rng.getrandbits(32)) for _ in range(self.samples)
        ]
        if self.screen and self.finish and self.expand:
            scores = search.screened(cands, worlds, default, self.screen)
        else:
            scores = self._scores(cands, worlds)
        chosen = cands[self._best(cands, scores, default)]
        search.policy.follow(chosen.plan)
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
        """The best candidate; the policy's own action wins ties (and near-ties within
        sampling noise)."""
        best_i = 0
        best_v = -1e18
        for i, cand in enumerate(cands):
            v = scores[i] + (TIE if cand.action == default else 0.0)
            if v > best_v:
                best_i, best_v = i, v
        return best_i
