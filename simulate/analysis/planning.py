"""Sample sizes: how many games a study needs for the report's verdict to find a change
(``vsim plan``), planned for the test the report runs, and what a pilot run says for a plan.

>>> plan_rows(0.03, 0.25, 0.05, 0.8, 0.5)[0]["delta"]
0.01
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from simulate.analysis import stats, terms
from simulate.analysis.compare import CompareError, Side, pairing
from simulate.analysis.run import Run

PLAN_DELTAS = (0.01, 0.02, 0.03, 0.05, 0.10)


def _outcomes(outcomes: int | None) -> int:
    """The number of outcomes each comparison tests (None: the default game's n seats + 1)."""
    return len(terms.default_seats()) + 1 if outcomes is None else outcomes


def plan_level(alpha: float, comparisons: int = 1, outcomes: int | None = None) -> float:
    """The level each outcome's test is planned at: the report's verdict reads a paired
    interval of every outcome (``outcomes``: n seats and ties; None: the default game's) of
    every comparison, simultaneous by Bonferroni, so each is a two-sided test at
    alpha / ((n + 1) x comparisons)."""
    if not isinstance(comparisons, int) or comparisons < 1:
        raise ValueError(f"comparisons must be a positive integer, got {comparisons!r}")
    return alpha / (_outcomes(outcomes) * comparisons)


def _hardest(
    d: float, rates: Mapping[str, float], level: float, power: float, rho: float | None
) -> tuple[int, str, float, float]:
    """(games, seat, from, to) of the change of ``d`` hardest to detect among ``rates``:
    each rate moved up or down by ``d`` (where it can), the move that needs the most games."""
    worst: tuple[int, str, float, float] | None = None
    for faction, rate in rates.items():
        p = min(max(rate, 0.001), 0.999)  # a rate of 0 or 1 in a pilot: not certain
        for start, end in ((p, p + d), (p, p - d)):
            if not 0.0 < end < 1.0:
                continue
            n = stats.games_needed(d, min(start, end), level, power, rho)
            if worst is None or n > worst[0]:
                worst = (n, faction, start, end)
    if worst is None:
        raise ValueError(f"delta {d} is too large for the rates {dict(rates)}")
    return worst


def _count(p0: float | Mapping[str, float] | None, outcomes: int | None) -> int | None:
    """The outcomes of a plan: given, else a pilot's seats and the tie, else the default's."""
    if outcomes is None and isinstance(p0, Mapping):
        return len(p0) + 1
    return outcomes


def plan_rows(
    delta: float,
    p0: float | Mapping[str, float] | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    paired_rho: float | None = None,
    deltas: Sequence[float] = PLAN_DELTAS,
    comparisons: int = 1,
    outcomes: int | None = None,
) -> list[dict[str, Any]]:
    """Games per variant for the report's verdict to find a change of ``delta`` (and a few
    other deltas) in a win rate with probability ``power``, unpaired and (with
    ``paired_rho``) paired: ``stats.games_needed`` at ``plan_level``. ``p0``: the win rate
    before the change (None: parity, 1/n), or each seat's (a pilot's, whose seats then give
    the outcomes), then the seat whose change is the hardest to detect decides.
    ``outcomes``: the n + 1 outcomes each comparison tests (None: the default game's).
    ValueError if an input is bad."""
    count = _outcomes(_count(p0, outcomes))
    level = plan_level(alpha, comparisons, count)
    if p0 is None:
        p0 = 1 / (count - 1)
    if isinstance(p0, Mapping):
        rates = dict(p0)
        stats.games_needed(delta, 0.5, alpha, power, paired_rho)  # validates the rest
    else:
        stats.games_needed(delta, p0, alpha, power, paired_rho)  # validates every input
        rates = {"": p0}
    chosen = [delta] + [d for d in deltas if not math.isclose(d, delta)]
    out = []
    for d in sorted(chosen):
        if not isinstance(p0, Mapping) and p0 + d > 1.0:
            continue
        try:
            n, faction, start, end = _hardest(d, rates, level, power, None)
        except ValueError:
            continue
        row = {
            "delta": d,
            "unpaired": n,
            "chosen": d == delta,
            "faction": faction or None,
            "from": start,
            "to": end,
        }
        if paired_rho is not None:
            row["paired"] = _hardest(d, rates, level, power, paired_rho)[0]
        out.append(row)
    return out


def plan_sentence(
    delta: float,
    p0: float | Mapping[str, float] | None,
    alpha: float,
    power: float,
    paired_rho: float | None,
    comparisons: int = 1,
    outcomes: int | None = None,
    seat_word: str | None = None,
) -> str:
    """What ``vsim plan`` answers, in one sentence (``seat_word``: what a seat is called;
    None: the default game's word)."""
    count = _outcomes(_count(p0, outcomes))
    row = next(r for r in plan_rows(delta, p0, alpha, power, paired_rho, (), comparisons, count))
    level = plan_level(alpha, comparisons, count)
    word = seat_word or terms.game_of().seat_word
    which = (
        f"{row['faction']}'s win rate, the hardest to detect at these rates, "
        if row["faction"]
        else f"a {word}'s win rate "
    )
    test = (
        f"the report's test (a paired interval per outcome excluding 0, simultaneous over the "
        f"{count} outcomes of {comparisons} comparison{'s' if comparisons > 1 else ''} "
        f"at alpha = {alpha:g}: {level:.4g} each, two-sided)"
    )
    text = (
        f"To detect a change of {100 * delta:g} percentage points in {which}(from "
        f"{100 * row['from']:.1f}% to {100 * row['to']:.1f}%) with {test} and "
        f"{100 * power:g}% power, play {row['unpaired']:,} games per variant"
    )
    if paired_rho is None:
        return text + " (unpaired; variants on common seeds need fewer: give --paired-rho)."
    return (
        text + f" unpaired, or {row['paired']:,} per variant on common seeds with per-game "
        f"correlation rho = {paired_rho:g}."
    )


def pilot_figures(run: Run) -> dict[str, Any]:
    """What a pilot run says for a plan: each seat's win rate under its first variant
    (over finished games), the per-game correlation of each later variant with the first
    (``pairing``) and the smallest lower bound of those, and the comparisons it makes."""
    if len(run.variants) < 2:
        raise CompareError(f"{run.directory}: the run has one variant; nothing to pair")
    first = run.variants[0]
    winners = run.variant_games(first).get_column("winner").to_list()
    if not winners:
        raise CompareError(f"{run.directory}: no finished game of {first}")
    rates = {f: sum(1 for w in winners if w == f) / len(winners) for f in run.seats}
    pairs = [
        (other, pairing(Side(run, first, first), Side(run, other, other)))
        for other in run.variants[1:]
    ]
    return {
        "first": first,
        "games": len(winners),
        "rates": rates,
        "pairs": pairs,
        "rho": round(max(0.0, min(p["low"] for _, p in pairs)), 2),
        "comparisons": len(pairs),
        "outcomes": len(run.outcomes),
    }
