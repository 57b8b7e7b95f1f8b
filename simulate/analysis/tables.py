"""The report's numbers: per-variant rows of win rates, scores, per-step curves, length, ties
and the shares of each categorical column's values.

Every interval comes from ``simulate.analysis.stats``; errored games are left out. Column
names come from the run's game (``simulate.games``): its score and length columns, its
per-step table's seat column and position.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from simulate.analysis import stats
from simulate.analysis.run import Run

MIN_TURN_SHARE = 0.10  # a per-step curve stops when fewer games than this still run
MIN_TURN_GAMES = 5
NONE = "(none)"  # how a categorical table names a null value


def win_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """``stats.win_rate_table`` for each variant (finished games only), ``variant`` added."""
    out = []
    for v in run.variants:
        winners = run.variant_games(v).get_column("winner").to_list()
        for row in stats.win_rate_table(winners, run.seats, confidence):
            out.append({"variant": v, **row})
    return out


def failure_counts(run: Run) -> dict[str, tuple[int, int]]:
    """variant -> (errored games, all games)."""
    out = {}
    for v in run.variants:
        g = run.variant_games(v, ok=False)
        out[v] = (int(g.get_column("error").is_not_null().sum()), g.height)
    return out


def mean_ci(values: Sequence[float], confidence: float) -> tuple[float, float, float]:
    """``stats.mean_interval``, or NaNs for no values."""
    if len(values) == 0:
        return (math.nan, math.nan, math.nan)
    return stats.mean_interval(values, confidence)


def score_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Final score per variant and seat: mean with its interval, median, spread."""
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        for f in run.seats:
            x = g.get_column(run.score_column(f)).drop_nulls()
            mean, low, high = mean_ci(x.to_list(), confidence)
            out.append(
                {
                    "variant": v,
                    "faction": f,
                    "n": x.len(),
                    "mean": mean,
                    "low": low,
                    "high": high,
                    "median": float(x.median()) if x.len() else math.nan,
                    "sd": float(x.std()) if x.len() > 1 else math.nan,
                    "min": x.min() if x.len() else None,
                    "max": x.max() if x.len() else None,
                }
            )
    return out


def step_columns(run: Run) -> tuple[str, str]:
    """(seat column, position column) of the run's per-step table."""
    game = run.the_game
    position = game.step_key[0] if game.step_key else "turn"
    return game.seat_word, position


def turn_curves(
    run: Run, column: str, factions: Sequence[str], confidence: float = 0.95
) -> pl.DataFrame:
    """Mean of the per-step table's ``column`` at each step position, with its interval,
    per variant and seat, over the finished games still running there. A curve stops when
    fewer than max(MIN_TURN_GAMES, MIN_TURN_SHARE of the games) reach the step. The frame's
    columns: variant, faction (the seat), turn (the position), n, mean, low, high."""
    schema = {
        "variant": pl.String,
        "faction": pl.String,
        "turn": pl.Int64,
        "n": pl.Int64,
        "mean": pl.Float64,
        "low": pl.Float64,
        "high": pl.Float64,
    }
    seat, position = step_columns(run)
    ok = run.ok_games().select("variant", "game_index")
    t = run.turns.join(ok, on=["variant", "game_index"], how="semi")
    t = t.filter(pl.col(seat).is_in(list(factions)) & pl.col(column).is_not_null())
    if t.height == 0:
        return pl.DataFrame(schema=schema)
    grouped = (
        t.group_by("variant", seat, position)
        .agg(pl.col(column).alias("values"))
        .sort("variant", seat, position)
    )
    sizes = dict(ok.group_by("variant").len().iter_rows())
    rows = []
    for v, f, turn, values in grouped.iter_rows():
        need = max(MIN_TURN_GAMES, math.ceil(MIN_TURN_SHARE * sizes.get(v, 0)))
        if len(values) < need:
            continue
        mean, low, high = stats.mean_interval(values, confidence)
        rows.append((v, f, int(turn), len(values), mean, low, high))
    return pl.DataFrame(rows, schema=schema, orient="row")


def tiebreaks(run: Run) -> list[str]:
    """The tiebreaks that decided a finished game of the run, in order of first use."""
    found = run.ok_games().get_column("tiebreak").drop_nulls().to_list()
    return [t for t in dict.fromkeys(found) if t not in ("none", "unresolved")]


def tie_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Unresolved ties, and the ties each of the game's tiebreaks broke (``broken``: the
    tiebreak -> (games, Wilson interval)), per variant."""
    kinds = tiebreaks(run)
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        n = g.height
        tb = g.get_column("tiebreak").to_list()
        unresolved = sum(1 for x in tb if x == "unresolved")
        broken = {}
        for kind in kinds:
            count = sum(1 for x in tb if x == kind)
            broken[kind] = (count, stats.wilson_interval(count, n, confidence))
        out.append(
            {
                "variant": v,
                "n": n,
                "unresolved": unresolved,
                "unresolved_ci": stats.wilson_interval(unresolved, n, confidence),
                "broken": broken,
            }
        )
    return out


def length_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """The game's length (its declared length column) per variant: mean, range, median."""
    out = []
    for v in run.variants:
        x = run.variant_games(v).get_column(run.the_game.length).drop_nulls()
        out.append(
            {
                "variant": v,
                "n": x.len(),
                "mean": mean_ci(x.to_list(), confidence),
                "min": x.min() if x.len() else None,
                "median": float(x.median()) if x.len() else math.nan,
                "max": x.max() if x.len() else None,
            }
        )
    return out


def categorical_shares(run: Run, column: str, table: str = "games") -> pl.DataFrame:
    """The share of each value of a categorical ``column`` of ``table`` (``games`` or the
    per-step ``turns``) per variant, over the finished games' rows (null: ``NONE``). Columns:
    variant, value, count, total, share; values in order of first appearance."""
    ok = run.ok_games()
    rows = (
        ok
        if table == "games"
        else run.turns.join(
            ok.select("variant", "game_index"), on=["variant", "game_index"], how="semi"
        )
    )
    schema = {"variant": pl.String, "value": pl.String, "count": pl.Int64}
    if rows.height == 0 or column not in rows.columns:
        return pl.DataFrame(schema=schema | {"total": pl.Int64, "share": pl.Float64})
    values = rows.select(
        pl.col("variant"), pl.col(column).cast(pl.String).fill_null(NONE).alias("value")
    )
    counts = values.group_by("variant", "value", maintain_order=True).len("count")
    totals = counts.group_by("variant").agg(pl.col("count").sum().alias("total"))
    return counts.join(totals, on="variant").with_columns(
        (pl.col("count") / pl.col("total")).alias("share")
    )
