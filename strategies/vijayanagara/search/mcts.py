"""Mcts: a budgeted Monte Carlo search over a policy's plans that never sees the deck order.

At each top-level choice (2.3.3) the candidates are the offered options with the policy's
plan for each, every Command and Decree the faction could pick, and the Event by side. The
search has two stages, both on determinised copies of the position (``Observation
.determinise``: the unseen cards redrawn consistently with what is public, 2.3), with dice
from the bot's own generator:

1. screen: each candidate's turn and the rest of the card are played on one copy and scored
   by the evaluation, as ``greedy`` does; the ``top`` best go on. With ``screen = k`` (not 0)
   the other Commands and Decrees are first ranked after the faction's own turn, and only the
   ``k`` best of them finish the card (greedy's ``screen``, ``Searcher.screened``);
2. search: ``rollouts`` playouts per remaining candidate on average, allocated by UCB1 (flat
   Monte Carlo tree search, one level). A playout plays the candidate, the rest of the card,
   then ``horizon`` more cards (0: to the end of the game) with the policy's copies (or the
   bots ``rollout`` makes: random ones for ``mcts:policy=random``), and scores the
   evaluation's margin there (the final VP margin plus ``win_bonus`` for a win when the game
   ends). Playout k of every candidate uses the same copy and dice (common random numbers).

The budget is counted in playouts, not time, so a game is reproducible from its seed. The
candidate with the best mean wins. Every other decision is the policy's. A lineup's
end-game search may carry a fitted prior (``prior.py``): terms by the kind of move added to
the screen's ranking, and a pick among the survivors weighing their margin after the card
with their playouts.

Its parameters: ``rollouts`` (default 8), ``horizon`` (default 4), ``top`` (default 4), ``c``
(UCB1 exploration, in VP, default 1.0), ``win_bonus`` (default 2), ``expand`` (default
true), ``screen`` (default 0), ``exclude`` (moves never considered, e.g. ``event`` or
``event+attack``: an ablation, ``searcher.excluded``), ``prior`` and its ``window`` (the
cards it searches, for the prior's ``late``), and ``value``: a learned value model scoring
the playouts that stop before the end instead of the evaluation (``score``;
``strategies/vijayanagara/value_model.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from strategies.params import checked_count, checked_flag

from .prior import Prior, features
from .protocol import LeafValue, Policy
from .searcher import Searcher, SearchStrategy


class MCTSSearch(SearchStrategy):
    """Flat UCB1 Monte Carlo search over the top-level options on determinised copies."""

    def __init__(
        self,
        policy: Policy,
        rollouts: int = 8,
        horizon: int = 4,
        top: int = 4,
        c: float = 1.0,
        win_bonus: float = 2.0,
        expand: bool = True,
        screen: int = 0,
        exclude: str = "",
        rollout: Callable[[], Any] | None = None,
        prior: Prior | None = None,
        window: int = 0,
        value: LeafValue | None = None,
    ) -> None:
        for key, count, low in (
            ("rollouts", rollouts, 1),
            ("horizon", horizon, 0),
            ("top", top, 1),
            ("screen", screen, 0),
        ):
            checked_count(key, count, low)
        checked_flag("expand", expand)
        self.rollouts = rollouts
        self.horizon = horizon
        self.top = top
        self.c = float(c)
        self.win_bonus = float(win_bonus)
        self.expand = expand
        self.screen = screen
        self.prior = prior  # a lineup's end-game search may have one
        self.window = window
        self.value = value  # a learned value of the playouts' leaves, or None
        self.search = Searcher(policy, rollout, exclude)
        self.params: dict[str, Any] = {
            "rollouts": rollouts,
            "horizon": horizon,
            "top": top,
            "c": self.c,
            "win_bonus": self.win_bonus,
            "expand": expand,
        }
        if screen:
            self.params["screen"] = screen
        self.rng = random.Random(0)

    def score(self, state) -> float:
        """A playout's end: the margin (plus ``win_bonus`` for a win) when the game is over;
        before it, the evaluation's margin, or with a ``value`` model the margin over the
        predicted final Victory Points plus ``win_bonus`` times the predicted chance to win
        (and the worth of being Eligible, 2.3.7, as ``Searcher.margin`` counts it)."""
        search = self.search
        if self.value is not None and not state.over:
            vps, wins = self.value.predict(search.rules, state)
            f = search.faction
            m = search.ev.margin_of(vps, f) + self.win_bonus * wins[f]
            return m + search.elig if state.eligible[f] else m
        m = search.margin(state)
        if state.over and m > 0:
            m += self.win_bonus
        return m

    def decide(self, obs, decision) -> str:
        search = self.search
        cands = search.candidates(obs, decision, self.expand)
        worlds: list[tuple] = []  # (determinised state, dice seed), shared by index

        def world(k: int) -> tuple:
            while len(worlds) <= k:
                worlds.append((obs.determinise(self.rng), self.rng.getrandbits(32)))
            return worlds[k]

        # 1. screen: one card deep, like greedy (and its own-turn screen with ``screen``);
        # a prior corrects the ranking by the kind of move and needs every survivor's card
        prior = self.prior
        card: list[float] = []
        feats: list[tuple] = []
        late = 0.0
        if len(cands) > self.top or (prior is not None and prior.picks):
            state, dice = world(0)
            if self.screen and self.expand:
                scores = search.screened(cands, [(state, dice)], search.default, self.screen)
            else:
                scores = [search.margin(search.play(state, c, dice, True)) for c in cands]
            ranked = scores
            if prior is not None:
                late = 1.0 - obs.cards_remaining / self.window if self.window else 0.0
                feats = [features(c.action, c.plan, search.is_own(c)) for c in cands]
                ranked = [
                    x + prior.bias(prior.rank, f, late) if x > -1e17 else x
                    for x, f in zip(scores, feats, strict=True)
                ]
            screened = sorted(range(len(cands)), key=lambda i: -ranked[i])
            kept = sorted(screened[: self.top])
            cands = [cands[i] for i in kept]
            card = [scores[i] for i in kept]
            if prior is not None:
                feats = [feats[i] for i in kept]
        # 2. search: UCB1 over the survivors, playouts on shared worlds
        n = len(cands)
        visits = [0] * n
        totals = [0.0] * n
        horizon = None if self.horizon == 0 else self.horizon
        fast = search.rollout is not None

        def playout(i: int) -> None:
            state, dice = world(visits[i] + 1)
            end = search.play(state, cands[i], dice, True, horizon, fast)
            totals[i] += self.score(end)
            visits[i] += 1

        for i in range(n):
            playout(i)
        for t in range(n, self.rollouts * n):
            log_t = math.log(t)
            best_i = max(
                range(n),
                key=lambda i: (totals[i] / visits[i] + self.c * math.sqrt(log_t / visits[i]), -i),
            )
            playout(best_i)
        if prior is not None and prior.picks:
            w_card, w_out = prior.card, prior.playouts
            value = [
                w_card * card[i]
                + w_out * totals[i] / visits[i]
                + prior.bias(prior.pick, feats[i], late)
                for i in range(n)
            ]
        else:
            value = [totals[i] / visits[i] for i in range(n)]
        best_i = max(range(n), key=lambda i: (value[i], visits[i], -i))
        chosen = cands[best_i]
        search.policy.follow(chosen.plan)
        return chosen.action
