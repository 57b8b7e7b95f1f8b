"""The stopping rule of ``vsim run --until-clear`` (issues 19, 40, 64): is each outcome of
each comparison (variant B against A, on paired games) changed, unchanged within ``delta``,
or not yet known?

For each outcome (each seat's win, and unresolved ties, so that a rule turning wins into
ties shows), the paired per-game differences d = [B had it] - [A had it] (in -1, 0, 1) get
an *anytime-valid* confidence interval for their mean: Robbins' normal-mixture confidence
sequence with the variance estimated from the games so far (the asymptotic confidence
sequence of Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas, 2024, "Time-uniform central limit
theory and asymptotic confidence sequences"):

    |mean(d) - mu| <= sqrt((n v + rho) * log((n v + rho) / (rho a^2))) / n

holding at every look at once with probability at least 1 - a, so looking after every batch
and stopping when it suits does not bend it. The interval at a look is the intersection of
this one with every earlier look's (still valid, and it never widens). One vocabulary, the
same as the fixed-size verdict's (``simulate.analysis.verdict``):

- **change**: the interval excludes 0;
- **no change larger than delta**: the interval lies inside +-delta (a smaller change may
  remain; both can hold: a change smaller than delta);
- **open** (not yet known) otherwise, with the paired games that would decide it if the
  difference and its spread stayed as observed.

``a`` is ``alpha`` split (Bonferroni) over the outcomes and every comparison of the run, so
all its intervals hold together with probability at least 1 - alpha: the chance of a false
"change" anywhere in the run is at most alpha, at any stopping time.

The variance is floored at delta * (1 - delta) and at one discordant game in n: a change of
delta has at least that variance (E d^2 >= |E d|), so the floor costs the "no change" answer
nothing it could rightly give, while a small look that saw few discordant games can no longer
estimate a tiny variance and call a concentrated change "no change" (issue 40). ``rho`` is
fixed in advance, ``RHO_SCALE / delta^2``: the mixture is tightest near the games an interval
of +-delta needs at the spread of the paired games it was calibrated on; any fixed ``rho``
keeps the guarantee. The outcomes are the rule's seats' (``Rule.seats``; the default game's
when it names none) and the tie.

**When a study stops** (``stopping``): when every outcome of every comparison is decided
(a change or no change), or when ``--max-games`` per variant are played ("budget spent", the
open outcomes said so); with ``--stop-at-first-change``, also as soon as any outcome is a
change. Looks come at the ends of batches (``--games`` per variant each).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulate.analysis.terms import TIE, default_seats

CHANGE, NO_CHANGE, OPEN = "change", "no change", "open"
RHO_SCALE = 0.05  # rho = RHO_SCALE / delta^2 (in units of games x variance)
MAX_PROJECTED = 10**8  # a games-to-decide projection past this is "never at this difference"

# Why a study stopped (the manifest's ``sequential.status``) and the words each is said in.
DECIDED, FIRST_CHANGE, BUDGET, RUNNING = "decided", "first change", "budget spent", "running"
STOP_REASONS = {
    DECIDED: "every outcome of every comparison was decided",
    FIRST_CHANGE: "an outcome changed and --stop-at-first-change was given",
    BUDGET: "it reached --max-games with outcomes not yet known",
    RUNNING: "it has not stopped yet (interrupted, or still playing)",
}


@dataclass(frozen=True)
class Rule:
    """The question and its error rates: each outcome's rate (a seat's win, an unresolved
    tie) changed, unchanged within ``delta``, or open; a false "change" anywhere in the run
    at most ``alpha``, however often it is looked at. ``seats``: the study's (None: the
    default game's)."""

    delta: float = 0.03
    alpha: float = 0.05
    comparisons: int = 1
    stop_at_first_change: bool = False
    seats: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        for name, value, low, high in (
            ("--delta", self.delta, 0.0, 1.0),
            ("--alpha", self.alpha, 0.0, 0.5),
        ):
            if not (isinstance(value, int | float) and low < value < high):
                raise ValueError(f"{name} must be in ({low:g}, {high:g}), got {value!r}")
        if self.comparisons < 1:
            raise ValueError("--until-clear needs at least two variants to compare")
        if self.seats is not None:
            object.__setattr__(self, "seats", tuple(self.seats))

    @property
    def outcomes(self) -> tuple[str, ...]:
        """What each comparison tests: each seat's wins and the ties."""
        return (*(default_seats() if self.seats is None else self.seats), TIE)

    @property
    def side_alpha(self) -> float:
        """The level of each outcome's interval (Bonferroni over outcomes and comparisons)."""
        return self.alpha / (len(self.outcomes) * self.comparisons)

    @property
    def rho(self) -> float:
        return RHO_SCALE / self.delta**2

    def to_json(self) -> dict[str, Any]:
        return {
            "test": "anytime-valid interval per outcome (seats and ties): normal-mixture "
            "confidence sequence, variance estimated and floored at delta * (1 - delta); "
            "change when it excludes 0, no change when it lies inside +-delta",
            "outcomes": list(self.outcomes),
            "delta": self.delta,
            "alpha": self.alpha,
            "comparisons": self.comparisons,
            "side_alpha": self.side_alpha,
            "rho": self.rho,
            "stop_at_first_change": self.stop_at_first_change,
        }


def variance(d: np.ndarray, delta: float) -> float:
    """The spread of the paired differences the interval uses: their variance, floored at
    delta * (1 - delta) and at one discordant game in n."""
    n = d.size
    return max(float(np.var(d)) if n else 0.0, delta * (1 - delta), 1.0 / max(n, 1))


def half_width(n: int, var: float, rule: Rule) -> float:
    """The anytime-valid interval's half-width on the mean of ``n`` paired differences of
    variance ``var`` (Robbins' normal mixture, two-sided, at the rule's per-outcome level)."""
    if n <= 0:
        return math.inf
    v = n * var + rule.rho
    return math.sqrt(v * math.log(v / (rule.rho * rule.side_alpha**2))) / n


def classify(low: float, high: float, delta: float) -> str:
    """An interval's answer: ``change`` when it excludes 0, ``no change`` when it lies
    inside +-delta, else ``open``. A change smaller than delta is still a change."""
    if low > 0 or high < 0:
        return CHANGE
    if -delta <= low and high <= delta:
        return NO_CHANGE
    return OPEN


def games_to_decide(diff: float, var: float, rule: Rule) -> tuple[int, str] | None:
    """(paired games, what they would show) at which an open outcome would be decided if
    its difference and spread stayed as observed (the interval shrinking with n); None when
    it never would (a difference of exactly +-delta)."""

    def decided(n: int) -> bool:
        w = half_width(n, var, rule)
        return abs(diff) > w or abs(diff) + w <= rule.delta

    high = 1
    while not decided(high):
        high *= 2
        if high > MAX_PROJECTED:
            return None
    low = high // 2
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if decided(mid) else (mid, high)
    if abs(diff) > half_width(high, var, rule):
        return high, "a change"
    return high, f"no change larger than {100 * rule.delta:g} percentage points"


@dataclass
class OutcomeTest:
    """One outcome's interval and answer at one look (a seat's win, or ``tie``)."""

    faction: str
    n: int
    diff: float  # mean of d: B's rate minus A's
    low: float  # the anytime-valid interval, intersected with the earlier looks'
    high: float
    decision: str
    more_games: int | None = None  # open: paired games to add that would decide it
    shows: str | None = None  # open: what they would show at this difference


@dataclass
class Look:
    """One comparison's state at one look."""

    a: str
    b: str
    n: int
    factions: list[OutcomeTest] = field(default_factory=list)

    @property
    def decision(self) -> str:
        """``change`` once an outcome changed, ``no change`` once every outcome is no
        change, else ``open``."""
        if any(t.decision == CHANGE for t in self.factions):
            return CHANGE
        if self.factions and all(t.decision == NO_CHANGE for t in self.factions):
            return NO_CHANGE
        return OPEN

    @property
    def decided(self) -> bool:
        """Every outcome answered (a change or no change)."""
        return all(t.decision != OPEN for t in self.factions)

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "n": self.n,
            "decision": self.decision,
            "decided": self.decided,
            "factions": [dict(t.__dict__) for t in self.factions],
        }


def _labels(winners: Sequence[str | None]) -> np.ndarray:
    """Winners as an array of outcome labels (``tie`` for None)."""
    arr = np.asarray(winners, dtype=object)
    return np.where(np.equal(arr, None), TIE, arr)


def pair_tests(
    winners_a: Sequence[str | None],
    winners_b: Sequence[str | None],
    rule: Rule,
    earlier: Mapping[str, tuple[float, float]] | None = None,
) -> list[OutcomeTest]:
    """Each outcome's interval and answer on paired winners (game k of A with game k of B;
    None or ``tie`` is an unresolved tie), intersected with ``earlier`` looks' intervals
    (outcome -> (low, high))."""
    if len(winners_a) != len(winners_b):
        raise ValueError(f"paired inputs differ in length: {len(winners_a)} vs {len(winners_b)}")
    a, b = _labels(winners_a), _labels(winners_b)
    known = rule.outcomes
    won = {f: ((a == f).astype(int), (b == f).astype(int)) for f in known}
    if sum(int(x.sum()) + int(y.sum()) for x, y in won.values()) != a.size + b.size:
        stray = next(w for w in (*a, *b) if w not in known)
        raise ValueError(
            f"winner {stray!r} is none of the rule's outcomes ({', '.join(known)}): "
            "give the study's seats to Rule(seats=...)"
        )
    out = []
    for f in known:
        d = won[f][1] - won[f][0]
        diff = float(d.mean()) if d.size else 0.0
        var = variance(d, rule.delta)
        w = half_width(d.size, var, rule)
        low, high = max(diff - w, -1.0), min(diff + w, 1.0)
        if earlier and f in earlier:
            was_low, was_high = earlier[f]
            if max(low, was_low) <= min(high, was_high):  # empty only where coverage failed
                low, high = max(low, was_low), min(high, was_high)
        decision = classify(low, high, rule.delta)
        more = shows = None
        if decision == OPEN:
            found = games_to_decide(diff, var, rule)
            if found is not None:
                more, shows = max(1, found[0] - int(d.size)), found[1]
        out.append(OutcomeTest(f, int(d.size), diff, low, high, decision, more, shows))
    return out


def look(
    a: str,
    b: str,
    winners_a: Sequence,
    winners_b: Sequence,
    rule: Rule,
    earlier: Look | Mapping[str, Any] | None = None,
) -> Look:
    """One comparison's answers at this look; ``earlier``: its previous look (a Look or its
    JSON), whose intervals this one's are intersected with."""
    return Look(a, b, len(winners_a), pair_tests(winners_a, winners_b, rule, intervals(earlier)))


def intervals(found: Look | Mapping[str, Any] | None) -> dict[str, tuple[float, float]]:
    """outcome -> (low, high) of a look (a Look or its JSON; an old SPRT look has none)."""
    if found is None:
        return {}
    rows = found.factions if isinstance(found, Look) else found.get("factions", [])
    out = {}
    for t in rows:
        row = t.__dict__ if isinstance(t, OutcomeTest) else t
        if row.get("low") is not None and row.get("high") is not None:
            out[row["faction"]] = (float(row["low"]), float(row["high"]))
    return out


def stopping(looks: Sequence[Look], rule: Rule, games: int, max_games: int) -> str | None:
    """Why the study stops after these looks (``DECIDED``, ``FIRST_CHANGE``, ``BUDGET``),
    or None to play on."""
    if all(lk.decided for lk in looks):
        return DECIDED
    if rule.stop_at_first_change and any(lk.decision == CHANGE for lk in looks):
        return FIRST_CHANGE
    if games >= max_games:
        return BUDGET
    return None


def paired_winners(
    rng: np.random.Generator,
    games: int,
    effect: float,
    rho: float,
    base: float | Sequence[float] | None = None,
    concentrated: bool = False,
    seats: Sequence[str] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic paired winners (A, B) of ``games`` games among ``seats`` (None: the default
    game's): A's are won by every seat but the last with ``base`` each (None: parity; or by
    each seat with the rates ``base``), B's by the first seat ``effect`` more often (taken
    from the last). Mixed (the default): a game of B repeats A's winner with probability
    ``rho``, else is drawn afresh. ``concentrated``: B repeats A's winner except in
    ``effect`` of the games, where a win of another outcome becomes the first seat's (the
    least variance a change of ``effect`` can have); with ``effect`` 0 it redraws
    ``1 - rho`` of the games from A's own rates (an A/A pair)."""
    names = np.array(default_seats() if seats is None else tuple(seats), dtype=object)
    k = len(names)
    if base is None:
        base = 1 / k
    probs_a = np.array(
        [base] * (k - 1) + [1 - (k - 1) * base] if np.isscalar(base) else base, dtype=float
    )
    a = names[rng.choice(k, size=games, p=probs_a)]
    if concentrated:
        b = a.copy()
        if effect > 0:
            flip = (a != names[0]) & (rng.random(games) < effect / (1 - probs_a[0]))
            b[flip] = names[0]
        else:
            redraw = rng.random(games) >= rho
            b[redraw] = names[rng.choice(k, size=int(redraw.sum()), p=probs_a)]
        return a, b
    shift = np.zeros(k)
    shift[0], shift[-1] = effect, -effect
    probs_b = probs_a + shift / (1 - rho)  # B's marginal moves by ``effect``
    if probs_b.min() < 0:
        raise ValueError(f"effect {effect} is too large for rho {rho}")
    fresh = names[rng.choice(k, size=games, p=probs_b)]
    return a, np.where(rng.random(games) < rho, a, fresh)


def simulate_study(
    rng: np.random.Generator,
    rule: Rule,
    effect: float,
    rho: float,
    look_games: int,
    max_games: int,
    base: float | Sequence[float] | None = None,
    concentrated: bool = False,
) -> tuple[Look, str]:
    """(last look, why it stopped) of one sequential comparison on synthetic paired games
    (``paired_winners``), looking every ``look_games`` games up to ``max_games``."""
    wa: list[np.ndarray] = []
    wb: list[np.ndarray] = []
    n, last = 0, None
    while True:
        n = min(n + look_games, max_games)
        a, b = paired_winners(
            rng, n - sum(x.size for x in wa), effect, rho, base, concentrated, rule.seats
        )
        wa.append(a)
        wb.append(b)
        last = look("A", "B", np.concatenate(wa), np.concatenate(wb), rule, last)
        reason = stopping([last], rule, n, max_games)
        if reason is not None:
            return last, reason


def __getattr__(name: str) -> Any:
    """``FACTIONS`` and ``OUTCOMES``: the default game's seats, and those with the tie."""
    if name == "FACTIONS":
        return default_seats()
    if name == "OUTCOMES":
        return (*default_seats(), TIE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
