"""Sample sizes: how many games a study needs for the report's verdict to find a change
(``vsim plan``), planned for the test the report runs, and what a pilot run says for a plan.

>>> plan_rows(0.03, 1 / 3, 0.05, 0.8, 0.5)[0]["delta"]
0.01
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from simulate.analysis import stats
from simulate.analysis.compare import OUTCOMES, CompareError, Side, pairing
from simulate.analysis.run import Run
from simulate.vijayanagara.result import FACTIONS

PLAN_DELTAS = (0.01, 0.02, 0.03, 0.05, 0.10)


def plan_level(alpha: float, comparisons: int = 1) -> float:
    """The level each outcome's test is planned at: the report's verdict reads a paired
    interval of every outcome (three Factions and ties) of every comparison, simultaneous by
    Bonferroni, so each is a two-sided test at alpha / (4 x comparisons)."""
    if not isinstance(comparisons, int) or comparisons < 1:
        raise ValueError(f"comparisons must be a positive integer, got {comparisons!r}")
    return alpha / (len(OUTCOMES) * comparisons)


def _hardest(
    d: float, rates: Mapping[str, float], level: float, power: float, rho: float | None
) -> tuple[int, str, float, float]:
    """(games, Faction, from, to) of the change of ``d`` hardest to detect among ``rates``:
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


def plan_rows(
    delta: float,
    p0: float | Mapping[str, float] = 1 / 3,
    alpha: float = 0.05,
    power: float = 0.8,
    paired_rho: float | None = None,
    deltas: Sequence[float] = PLAN_DELTAS,
    comparisons: int = 1,
) -> list[dict[str, Any]]:
    """Games per variant for the report's verdict to find a change of ``delta`` (and a few
    other deltas) in a win rate with probability ``power``, unpaired and (with
    ``paired_rho``) paired: ``stats.games_needed`` at ``plan_level``. ``p0``: the win rate
    before the change, or each Faction's (a pilot's), then the Faction whose change is the
    hardest to detect decides. ValueError if an input is bad."""
    level = plan_level(alpha, comparisons)
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
    p0: float | Mapping[str, float],
    alpha: float,
    power: float,
    paired_rho: float | None,
    comparisons: int = 1,
) -> str:
    """What ``vsim plan`` answers, in one sentence."""
    row = next(r for r in plan_rows(delta, p0, alpha, power, paired_rho, (), comparisons))
    level = plan_level(alpha, comparisons)
    which = (
        f"{row['faction']}'s win rate, the hardest to detect at these rates, "
        if row["faction"]
        else "a faction's win rate "
    )
    test = (
        f"the report's test (a paired interval per outcome excluding 0, simultaneous over the "
        f"{len(OUTCOMES)} outcomes of {comparisons} comparison{'s' if comparisons > 1 else ''} "
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
    """What a pilot run says for a plan: each Faction's win rate under its first variant
    (over finished games), the per-game correlation of each later variant with the first
    (``pairing``) and the smallest lower bound of those, and the comparisons it makes."""
    if len(run.variants) < 2:
        raise CompareError(f"{run.directory}: the run has one variant; nothing to pair")
    first = run.variants[0]
    winners = run.variant_games(first).get_column("winner").to_list()
    if not winners:
        raise CompareError(f"{run.directory}: no finished game of {first}")
    rates = {f: sum(1 for w in winners if w == f) / len(winners) for f in FACTIONS}
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
    }
