"""The report's numbers: per-variant rows of win rates, VP, curves, Mongols, length, ties.

Every interval comes from ``simulate.analysis.stats``; errored games are left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from simulate.analysis import stats
from simulate.analysis.run import Run
from simulate.vijayanagara.result import FACTIONS

DECCAN = ("BK", "VE")
MIN_TURN_SHARE = 0.10  # a per-card curve stops when fewer games than this still run
MIN_TURN_GAMES = 5


def win_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """``stats.win_rate_table`` for each variant (finished games only), ``variant`` added."""
    out = []
    for v in run.variants:
        winners = run.variant_games(v).get_column("winner").to_list()
        for row in stats.win_rate_table(winners, FACTIONS, confidence):
            out.append({"variant": v, **row})
    return out


def failure_counts(run: Run) -> dict[str, tuple[int, int]]:
    """variant -> (errored games, all games)."""
    out = {}
    for v in run.variants:
        g = run.variant_games(v, ok=False)
        out[v] = (int(g.get_column("error").is_not_null().sum()), g.height)
    return out


def _mean_ci(values: Sequence[float], confidence: float) -> tuple[float, float, float]:
    if len(values) == 0:
        return (math.nan, math.nan, math.nan)
    return stats.mean_interval(values, confidence)


def vp_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Final VP per variant and faction: mean with its interval, median, spread; and the
    final Deccan Influence of BK and VE."""
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        for f in FACTIONS:
            x = g.get_column(f"vp_{f}").drop_nulls()
            mean, low, high = _mean_ci(x.to_list(), confidence)
            row = {
                "variant": v,
                "faction": f,
                "n": x.len(),
                "mean": mean,
                "low": low,
                "high": high,
                "median": float(x.median()) if x.len() else math.nan,
                "sd": float(x.std()) if x.len() > 1 else math.nan,
                "min": int(x.min()) if x.len() else None,
                "max": int(x.max()) if x.len() else None,
            }
            if f in DECCAN:
                inf = g.get_column(f"influence_{f}").drop_nulls().to_list()
                row["influence"] = _mean_ci(inf, confidence)
            out.append(row)
    return out


def turn_curves(
    run: Run, column: str, factions: Sequence[str], confidence: float = 0.95
) -> pl.DataFrame:
    """Mean of ``turns.column`` at each card position, with its interval, per variant and
    faction, over the finished games still running at that card. A curve stops when fewer
    than max(MIN_TURN_GAMES, MIN_TURN_SHARE of the games) reach the card."""
    schema = {
        "variant": pl.String,
        "faction": pl.String,
        "turn": pl.Int64,
        "n": pl.Int64,
        "mean": pl.Float64,
        "low": pl.Float64,
        "high": pl.Float64,
    }
    ok = run.ok_games().select("variant", "game_index")
    t = run.turns.join(ok, on=["variant", "game_index"], how="semi")
    t = t.filter(pl.col("faction").is_in(list(factions)) & pl.col(column).is_not_null())
    if t.height == 0:
        return pl.DataFrame(schema=schema)
    grouped = (
        t.group_by("variant", "faction", "turn")
        .agg(pl.col(column).alias("values"))
        .sort("variant", "faction", "turn")
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


def action_shares(run: Run) -> pl.DataFrame:
    """Share of each action (event, command_decree, command, limited, pass) among the turns
    where a faction acted (action != none), per variant and faction."""
    ok = run.ok_games().select("variant", "game_index")
    t = run.turns.join(ok, on=["variant", "game_index"], how="semi")
    t = t.filter(pl.col("action") != "none").with_columns(
        pl.when(pl.col("action").str.starts_with("event"))
        .then(pl.lit("event"))
        .otherwise(pl.col("action"))
        .alias("action")
    )
    counts = t.group_by("variant", "faction", "action").len("count")
    totals = counts.group_by("variant", "faction").agg(pl.col("count").sum().alias("total"))
    return (
        counts.join(totals, on=["variant", "faction"])
        .with_columns((pl.col("count") / pl.col("total")).alias("share"))
        .sort("variant", "faction", "action")
    )


def tie_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    """Unresolved ties and ties broken by Resources (5.0), with Wilson intervals."""
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        n = g.height
        tb = g.get_column("tiebreak").to_list()
        unresolved = sum(1 for x in tb if x == "unresolved")
        by_resources = sum(1 for x in tb if x == "resources")
        out.append(
            {
                "variant": v,
                "n": n,
                "unresolved": unresolved,
                "unresolved_ci": stats.wilson_interval(unresolved, n, confidence),
                "resources": by_resources,
                "resources_ci": stats.wilson_interval(by_resources, n, confidence),
            }
        )
    return out


def mongol_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    out = []
    for v in run.variants:
        g = run.variant_games(v)
        delhi = g.get_column("mongols_in_delhi_end").drop_nulls().to_list()
        bonus = g.get_column("delhi_timur_bonus").drop_nulls().to_list()
        lost = g.get_column("troops_lost_to_mongols").drop_nulls().to_list()
        dist = {b: bonus.count(b) for b in sorted(set(bonus))}
        out.append(
            {
                "variant": v,
                "n": g.height,
                "delhi": _mean_ci(delhi, confidence),
                "delhi_empty": sum(1 for d in delhi if d == 0),
                "bonus": _mean_ci(bonus, confidence),
                "bonus_dist": dist,
                "lost": _mean_ci(lost, confidence),
                "lost_max": max(lost) if lost else None,
            }
        )
    return out


def length_rows(run: Run, confidence: float = 0.95) -> list[dict[str, Any]]:
    out = []
    for v in run.variants:
        x = run.variant_games(v).get_column("cards_played").drop_nulls()
        out.append(
            {
                "variant": v,
                "n": x.len(),
                "mean": _mean_ci(x.to_list(), confidence),
                "min": int(x.min()) if x.len() else None,
                "median": float(x.median()) if x.len() else math.nan,
                "max": int(x.max()) if x.len() else None,
            }
        )
    return out
