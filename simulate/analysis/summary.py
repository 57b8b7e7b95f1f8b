"""The short summary a run prints: win rate with its Wilson interval, mean VP, ties, failures."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.analysis.stats import wilson_interval
from simulate.study import dataset, records


@dataclass(frozen=True)
class FactionSummary:
    wins: int
    win_rate: float
    low: float
    high: float
    mean_vp: float | None


@dataclass(frozen=True)
class VariantSummary:
    variant: str
    games: int  # rows, errors included
    failures: int
    ties: int
    factions: dict[str, FactionSummary]


def summarize(
    directory: Path | dict[str, list[Any]],
    variants: Sequence[str] | None = None,
    layout: records.Layout | None = None,
) -> list[VariantSummary]:
    """Win rate (95% Wilson interval), mean score, ties and failures per variant and seat.

    ``directory`` is a run directory, or what ``outcomes`` read from one (then ``layout``
    names its game and seats; None: the default game's).
    """
    if isinstance(directory, dict):
        t, layout = directory, layout or records.default_layout()
    else:
        t, layout = dataset.outcomes(directory), dataset.layout_of(directory)
    if any(t.get("lineup") or ()):  # a multi-lineup study: one summary per variant x lineup
        t = dict(t) | {
            "variant": [
                dataset.cell_label(v, x) for v, x in zip(t["variant"], t["lineup"], strict=True)
            ]
        }
    names = list(variants) if variants else sorted(set(t["variant"]))
    out = []
    for name in names:
        idx = [i for i, v in enumerate(t["variant"]) if v == name]
        ok = [i for i in idx if t["error"][i] is None]
        n = len(ok)
        factions = {}
        for f in layout.seats:
            wins = sum(1 for i in ok if t["winner"][i] == f)
            col = t[layout.game.score_column(f)]
            vps = [col[i] for i in ok if col[i] is not None]
            lo, hi = wilson_interval(wins, n) if n else (math.nan, math.nan)
            factions[f] = FactionSummary(
                wins, wins / n if n else math.nan, lo, hi, sum(vps) / len(vps) if vps else None
            )
        ties = sum(1 for i in ok if t["winner"][i] is None)
        out.append(VariantSummary(name, len(idx), len(idx) - n, ties, factions))
    return out
