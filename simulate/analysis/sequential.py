"""The stopping rule of ``vsim run --until-clear`` (issue 19): does variant B change any
Faction's win rate (or the rate of unresolved ties) by at least ``delta`` compared with A,
on paired games?

For each outcome (each Faction, and unresolved ties, so that a rule turning wins into ties
shows), the paired per-game differences d = [B had it] - [A had it] (in -1, 0, 1) are
tested by one sequential probability ratio test of mean 0 against a change of ``delta``
either way: the alternative is the even mixture of mean +delta and mean -delta (a mixture
of alternatives keeps Wald's error bounds). Each side's log-likelihood ratio uses the normal
approximation with the variance estimated from the games so far (the generalised SPRT
fishtest uses):

    LLR(mu1) = mu1 / var(d) * (sum(d) - n * mu1 / 2)
    LLR = log((exp(LLR(+delta)) + exp(LLR(-delta))) / 2)

crossing log((1 - beta) / a) accepts the change, log(beta / (1 - a)) rejects it. ``a`` is
``alpha`` split (Bonferroni) over the four outcomes and every comparison of the run, so the
chance of a false "changes" anywhere in the run is at most ``alpha``. The mixture stops an
A/A comparison sooner than two one-sided tests would (both must accept there).

The variance is floored at delta * (1 - delta), the least a change of delta can have (every
changed game moving the same way), and at one discordant game in n: a small look that saw
few discordant games would otherwise estimate a tiny variance and call a change
concentrated in a few percent of the games "no change" (issue 40). "No change" means no
change as large as ``delta`` at this power (a true change of delta / 2 is called "no
change" about half the time), not a change of zero.

Why an SPRT rather than a group-sequential design with an alpha-spending function: the
number of looks is not known in advance (the run stops when every comparison is clear or at
``--max-games``), the SPRT needs no planned maximum, and among tests with these error rates
it uses the fewest games on average near the hypotheses (Wald-Wolfowitz). Looking only at
the ends of batches (not after every game) keeps its error rates conservative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

FACTIONS = ("DS", "BK", "VE")
TIE = "tie"
OUTCOMES = (*FACTIONS, TIE)  # what each comparison tests: the Factions' wins and the ties
CHANGE, NO_CHANGE, OPEN = "change", "no change", "open"


@dataclass(frozen=True)
class Rule:
    """The question and its error rates: a change of at least ``delta`` in the rate of an
    outcome (a Faction's win, an unresolved tie), false "change" at most ``alpha`` in the
    run, missed change at most ``beta``."""

    delta: float = 0.03
    alpha: float = 0.05
    beta: float = 0.2
    comparisons: int = 1

    def __post_init__(self) -> None:
        for name, value, low, high in (
            ("--delta", self.delta, 0.0, 1.0),
            ("--alpha", self.alpha, 0.0, 0.5),
            ("--beta", self.beta, 0.0, 0.5),
        ):
            if not (isinstance(value, int | float) and low < value < high):
                raise ValueError(f"{name} must be in ({low:g}, {high:g}), got {value!r}")
        if self.comparisons < 1:
            raise ValueError("--until-clear needs at least two variants to compare")

    @property
    def side_alpha(self) -> float:
        """The level of each outcome's test (Bonferroni over outcomes and comparisons)."""
        return self.alpha / (len(OUTCOMES) * self.comparisons)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) bounds of each outcome's LLR (Wald)."""
        a = self.side_alpha
        return math.log(self.beta / (1 - a)), math.log((1 - self.beta) / a)

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.bounds
        return {
            "test": "GSPRT per outcome (Factions and ties), mean 0 against +-delta (even "
            "mixture), normal approximation, variance floored at delta * (1 - delta)",
            "outcomes": list(OUTCOMES),
            "delta": self.delta,
            "alpha": self.alpha,
            "beta": self.beta,
            "comparisons": self.comparisons,
            "side_alpha": self.side_alpha,
            "llr_lower": lower,
            "llr_upper": upper,
        }


def llr(d: np.ndarray, mu0: float, mu1: float) -> float:
    """The generalised SPRT's log-likelihood ratio of mean ``mu1`` against ``mu0`` for the
    paired differences ``d``: the variance estimated from them, floored at the least a mean
    of ``mu1`` allows, |mu1| (1 - |mu1|), and at one discordant pair in n."""
    n = d.size
    if n == 0:
        return 0.0
    shift = abs(mu1 - mu0)
    var = max(float(np.var(d)), shift * (1 - shift), 1.0 / n)
    return (mu1 - mu0) / var * (float(d.sum()) - n * (mu0 + mu1) / 2)


@dataclass
class FactionTest:
    """One outcome's test at one look (a Faction's win, or ``tie``)."""

    faction: str
    n: int
    diff: float  # mean of d: B's rate minus A's
    llr_up: float  # mean 0 against +delta
    llr_down: float  # mean 0 against -delta
    llr: float  # mean 0 against the even mixture of +delta and -delta
    decision: str


@dataclass
class Look:
    """One comparison's state at one look."""

    a: str
    b: str
    n: int
    factions: list[FactionTest] = field(default_factory=list)

    @property
    def decision(self) -> str:
        """``change`` once an outcome crossed an upper bound, ``no change`` once every
        outcome crossed its lower bound, else ``open``."""
        if any(t.decision == CHANGE for t in self.factions):
            return CHANGE
        if self.factions and all(t.decision == NO_CHANGE for t in self.factions):
            return NO_CHANGE
        return OPEN

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "n": self.n,
            "decision": self.decision,
            "factions": [dict(t.__dict__) for t in self.factions],
        }


def _labels(winners: Sequence[str | None]) -> np.ndarray:
    """Winners as an array of outcome labels (``tie`` for None)."""
    arr = np.asarray(winners, dtype=object)
    return np.where(np.equal(arr, None), TIE, arr)


def pair_tests(
    winners_a: Sequence[str | None], winners_b: Sequence[str | None], rule: Rule
) -> list[FactionTest]:
    """Each outcome's test on paired winners (game k of A with game k of B; None or ``tie``
    is an unresolved tie)."""
    if len(winners_a) != len(winners_b):
        raise ValueError(f"paired inputs differ in length: {len(winners_a)} vs {len(winners_b)}")
    lower, upper = rule.bounds
    a, b = _labels(winners_a), _labels(winners_b)
    out = []
    for f in OUTCOMES:
        d = (b == f).astype(int) - (a == f).astype(int)
        up = llr(d, 0.0, rule.delta)
        down = llr(d, 0.0, -rule.delta)
        both = max(up, down) + math.log1p(math.exp(-abs(up - down))) - math.log(2)
        if both >= upper:
            decision = CHANGE
        elif both <= lower:
            decision = NO_CHANGE
        else:
            decision = OPEN
        diff = float(d.mean()) if d.size else 0.0
        out.append(FactionTest(f, int(d.size), diff, up, down, both, decision))
    return out


def look(a: str, b: str, winners_a: Sequence, winners_b: Sequence, rule: Rule) -> Look:
    """One comparison's tests at this look."""
    return Look(a, b, len(winners_a), pair_tests(winners_a, winners_b, rule))


def paired_winners(
    rng: np.random.Generator,
    games: int,
    effect: float,
    rho: float,
    base: float | Sequence[float] = 1 / 3,
    concentrated: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic paired winners (A, B) of ``games`` games: A's are won by DS and BK with
    ``base`` each (or by DS, BK and VE with the three rates ``base``), B's by DS ``effect``
    more often (taken from VE). Mixed (the
    default): a game of B repeats A's winner with probability ``rho``, else is drawn afresh.
    ``concentrated``: B repeats A's winner except in ``effect`` of the games, where a win
    of another outcome becomes DS's (the least variance a change of ``effect`` can have);
    with ``effect`` 0 it redraws ``1 - rho`` of the games from A's own rates (an A/A pair)."""
    probs_a = np.array([base, base, 1 - 2 * base] if np.isscalar(base) else base, dtype=float)
    names = np.array(FACTIONS, dtype=object)
    a = names[rng.choice(3, size=games, p=probs_a)]
    if concentrated:
        b = a.copy()
        if effect > 0:
            flip = (a != "DS") & (rng.random(games) < effect / (1 - probs_a[0]))
            b[flip] = "DS"
        else:
            redraw = rng.random(games) >= rho
            b[redraw] = names[rng.choice(3, size=int(redraw.sum()), p=probs_a)]
        return a, b
    shift = np.array([effect, 0.0, -effect]) / (1 - rho)  # B's marginal moves by ``effect``
    probs_b = probs_a + shift
    if probs_b.min() < 0:
        raise ValueError(f"effect {effect} is too large for rho {rho}")
    fresh = names[rng.choice(3, size=games, p=probs_b)]
    return a, np.where(rng.random(games) < rho, a, fresh)


def simulate_decision(
    rng: np.random.Generator,
    rule: Rule,
    effect: float,
    rho: float,
    look_games: int,
    max_games: int,
    base: float | Sequence[float] = 1 / 3,
    concentrated: bool = False,
) -> tuple[str, int]:
    """(decision, games used) of one sequential comparison on synthetic paired games
    (``paired_winners``), looking every ``look_games`` games up to ``max_games``."""
    wa: list[np.ndarray] = []
    wb: list[np.ndarray] = []
    n = 0
    while True:
        n = min(n + look_games, max_games)
        a, b = paired_winners(rng, n - sum(x.size for x in wa), effect, rho, base, concentrated)
        wa.append(a)
        wb.append(b)
        state = look("A", "B", np.concatenate(wa), np.concatenate(wb), rule).decision
        if state != OPEN or n >= max_games:
            return state, n
