"""A strength curve's statistics: how each answer moves as every seat plays stronger.

Per variant, rung and seat: the win rate with its Wilson interval, the mean score margin
(the seat's final score less the best other seat's, what decides the winner) with its
Student-t interval, and the change from the rung below, paired game by game (the rungs play
the same seeds: Newcombe's paired interval). Then three verdicts:

- **Convergence**, between the two strongest rungs, per variant and seat: *converged*
  when an equivalence test (two one-sided tests at ``alpha``: the (1 - 2 alpha) paired
  interval of the change inside +-margin) passes; *still moving* when McNemar's paired test
  finds a change (said per doubling of the search budget when the two rungs are one search
  bot at two budgets, ``simulate.study.budgets``); else undetermined.
- **Variant comparisons**: each variant's paired effect against the first at every rung, and
  whether its sign holds (no rung's interval on the other side of 0) and its size holds (the
  per-game difference between a rung's effect and the strongest rung's inside +-margin by an
  equivalence test, statsmodels' ``ttost_mean``).
- **The base game at the strongest rung**: ``strongest_balance`` says it in one sentence.

>>> payload = curve(Path("runs/strength"))          # doctest: +SKIP
>>> strongest_balance(payload)                      # doctest: +SKIP
'At the strongest rung measured (mcts-4x, all=mcts:rollouts=32, 40 games), base: ...'
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simulate.analysis import stats
from simulate.analysis.formatting import finite
from simulate.analysis.run import ReportError
from simulate.study import dataset
from simulate.study import manifest as manifest_mod
from simulate.study.budgets import budget_of
from simulate.study.strength import KIND

ALPHA = 0.05  # the project's level: 1 - the reports' 95% confidence
MARGIN = 0.03  # the reports' balance margin (3 points)
_STEP = ("change", "change_lo", "change_hi", "change_games")  # from the rung below, paired
_COLUMNS = ["variant", "lineup", "game_index", "winner", "error", "seconds"]
_SCORE = "score:"  # a seat's final score column, as ``load`` names it: ``score:P1``


# ---------------------------------------------------------------------------------------------
# Pure statistics


def vp_margins(vps: dict[str, Sequence[float]], faction: str) -> np.ndarray:
    """Per game: ``faction``'s final score less the best other seat's (``vps``: every
    seat's scores)."""
    others = np.max([np.asarray(vps[f], float) for f in vps if f != faction], axis=0)
    return np.asarray(vps[faction], float) - others


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def convergence(
    before: Sequence[str | None],
    after: Sequence[str | None],
    faction: str,
    alpha: float = ALPHA,
    margin: float = MARGIN,
    doublings: float | None = None,
) -> dict[str, Any]:
    """Whether ``faction``'s win rate has stopped moving between two rungs, from the winners
    of the same games (same seeds) at the weaker rung (``before``) and the stronger.

    ``converged`` when the (1 - 2 alpha) paired interval of the change lies inside +-margin
    (TOST at ``alpha``); verdict ``moving`` when McNemar's test finds a change at ``alpha``,
    else ``undetermined``. ``doublings``: log2 of the budget ratio, when the rungs are one
    search bot at two budgets (the change is then also given per doubling).
    """
    if len(before) < 2:
        raise ValueError("a convergence test needs at least two paired games")
    tost = stats.paired_win_comparison(before, after, faction, 1 - 2 * alpha)
    change, lo, hi = tost["diff"], tost["diff_low"], tost["diff_high"]
    n = tost["n"]
    converged = -margin < lo and hi < margin
    moving = not converged and tost["p_value"] < alpha
    per = change / doublings if doublings else None
    if converged:
        verdict = "converged"
        text = (
            f"{faction} converged: {100 * change:+.1f} percentage points [{100 * lo:+.1f}, "
            f"{100 * hi:+.1f}], inside ±{100 * margin:g}"
        )
    elif moving:
        verdict = "moving"
        how = (
            f"{100 * per:+.1f} percentage points per doubling of budget"
            if per is not None
            else f"{100 * change:+.1f} percentage points between the two strongest rungs"
        )
        text = f"still moving: {faction} {how}"
    else:
        verdict = "undetermined"
        more = _games_to_decide(before, after, faction, tost, alpha, margin)
        text = f"{faction} undetermined: {more_games_text(more)} would decide"
    return {
        "faction": faction,
        "games": n,
        "converged": converged,
        "verdict": verdict,
        "change": change,
        "lo": lo,
        "hi": hi,
        "p_value": tost["p_value"],
        "per_doubling": per,
        "text": text,
    }


def more_games_text(more: int) -> str:
    """Paired games still needed, in words: "a few more paired games" under 10 (never
    "about 1 more paired games")."""
    from simulate.analysis.formatting import more_of

    return more_of(more, "paired games")


def _games_to_decide(
    before: Sequence[str | None],
    after: Sequence[str | None],
    faction: str,
    tost: dict[str, Any],
    alpha: float,
    margin: float,
) -> int:
    """More paired games after which, if the change stays what it is, one test decides:
    the (1 - 2 alpha) interval narrows inside +-margin, or the (1 - alpha) one excludes 0
    (intervals narrow as one over the square root of the games)."""
    n, change = tost["n"], abs(tost["diff"])
    needed = math.inf
    if change < margin:
        half = max(tost["diff_high"] - tost["diff"], tost["diff"] - tost["diff_low"])
        needed = n * (half / (margin - change)) ** 2
    if change > 0:
        wide = stats.paired_win_comparison(before, after, faction, 1 - alpha)
        half = max(wide["diff_high"] - wide["diff"], wide["diff"] - wide["diff_low"])
        needed = min(needed, n * (half / change) ** 2)
    return max(1, math.ceil(needed) - n)


def _contrast(
    per_game: np.ndarray, alpha: float, margin: float
) -> tuple[float, float, float, float, float]:
    """(mean, its (1 - alpha) interval's low and high ends, p of equivalence within
    +-margin, p of a change) of per-game differences, by statsmodels' one-sample t-tests
    and t interval (the interval excludes 0 when the p of a change is below alpha; a
    constant sample decides by its value, its interval that value)."""
    mean = float(per_game.mean())
    if per_game.size < 2 or float(per_game.std()) == 0.0:
        return mean, mean, mean, float(abs(mean) >= margin), float(mean == 0.0)
    from statsmodels.stats.weightstats import DescrStatsW

    d = DescrStatsW(per_game)
    lo, hi = (float(x) for x in d.tconfint_mean(alpha))
    return mean, lo, hi, float(d.ttost_mean(-margin, margin)[0]), float(d.ttest_mean(0.0)[1])


def robustness(
    effects: Sequence[dict[str, Any]],
    contrasts: Sequence[np.ndarray],
    alpha: float = ALPHA,
    margin: float = MARGIN,
    rungs: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Whether a variant's effect on a seat holds across rungs.

    ``effects``: its paired effect at each rung (``stats.paired_win_comparison`` rows),
    weakest first, for the rungs ``rungs`` (names; default r0, r1, ...); ``contrasts``: per
    rung below the strongest, the per-game difference between that rung's effect and the
    strongest rung's (on games both played). Sign ``holds`` when every rung's effect has the
    strongest rung's sign, ``flips`` when some rung's interval lies on the other side of 0,
    else ``unclear``; size ``holds`` when every contrast is within +-margin (equivalence at
    ``alpha``), ``changes`` when one differs from 0 at ``alpha``, else ``undetermined``.
    Returned with ``effects_by_rung`` (each rung's effect on its own games, the ones the
    text quotes) and ``versus_strongest`` (each contrast: the rung, the strongest, the games
    both played, the mean difference of effects on them with its (1 - alpha) interval, and
    its two tests' p-values).
    """
    names = list(rungs) if rungs is not None else [f"r{i}" for i in range(len(effects))]
    top = _sign(effects[-1]["diff"])
    flips = any(
        (top > 0 and e["diff_high"] < 0) or (top < 0 and e["diff_low"] > 0) for e in effects
    )
    same = top != 0 and all(_sign(e["diff"]) == top for e in effects)
    sign = "flips" if flips else "holds" if same else "unclear"
    tests = [_contrast(c, alpha, margin) for c in contrasts]
    if all(t[3] < alpha for t in tests):
        size = "holds"
    elif any(t[4] < alpha for t in tests):
        size = "changes"
    else:
        size = "undetermined"
    return {
        "sign": sign,
        "size": size,
        "effects_by_rung": [
            {"rung": r, "games": e.get("n"), "effect": e["diff"], "lo": e["diff_low"],
             "hi": e["diff_high"]}
            for r, e in zip(names, effects, strict=True)
        ],
        "versus_strongest": [
            {"rung": r, "strongest": names[-1], "games": int(c.size), "difference": m,
             "lo": lo, "hi": hi, "p_equivalent": p_eq, "p_change": p_ch}
            for r, c, (m, lo, hi, p_eq, p_ch) in zip(names[:-1], contrasts, tests, strict=True)
        ],
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# A strength folder


def load(directory: Path) -> tuple[dict[str, Any], pl.DataFrame]:
    """(manifest, games) of the strength study in ``directory``: each row with its ``rung``
    (a ``vsim run``'s rows, without a lineup, are its adopted rung's), only each rung's games
    ``0..games-1``, each seat's final score as ``score:SEAT``. ReportError (one line) for a
    folder that holds no strength study."""
    directory = Path(directory)
    try:
        man = manifest_mod.read(directory)
    except ValueError as exc:
        raise ReportError(" ".join(str(exc).split())) from None
    if man is None or man.get("kind") != KIND or not man.get("rungs"):
        raise ReportError(f"{directory} holds no strength study (no strength manifest.json)")
    adopted = (man.get("extends") or {}).get("rung")
    layout = dataset.layout_of(directory)
    scores = {layout.game.score_column(f): f"{_SCORE}{f}" for f in layout.seats}
    games = pl.from_arrow(dataset.read_table(directory, "games", [*_COLUMNS, *scores]))
    assert isinstance(games, pl.DataFrame)
    games = games.rename(scores)
    counts = pl.DataFrame(
        {"rung": [r["name"] for r in man["rungs"]], "games": [r["games"] for r in man["rungs"]]}
    )
    games = (
        games.with_columns(pl.col("lineup").fill_null(adopted or "").alias("rung"))
        .join(counts, on="rung")
        .filter(pl.col("game_index") < pl.col("games"))
        .drop("games")
    )
    return man, games


def doublings_between(
    a: dict[str, str], b: dict[str, str], game: str | None = None
) -> float | None:
    """log2 of the budget ratio of two lineups that play one search bot in every seat at
    two budgets; None otherwise."""
    found = []
    for lineup in (a, b):
        specs = set(lineup.values())
        budget = budget_of(specs.pop(), game) if len(specs) == 1 else None
        if budget is None:
            return None
        found.append(budget)
    (bot_a, x), (bot_b, y) = found
    return math.log2(y / x) if bot_a == bot_b and x != y else None


def _pairs(games: pl.DataFrame, variant: str, a: str, b: str) -> pl.DataFrame:
    """Games of ``variant`` played at rungs ``a`` and ``b`` on the same index, both finished."""
    mine = games.filter(pl.col("variant") == variant, pl.col("error").is_null())
    return (
        mine.filter(pl.col("rung") == a)
        .join(mine.filter(pl.col("rung") == b), on="game_index", suffix="_b")
        .sort("game_index")
    )


def _rung_rows(man: dict[str, Any], games: pl.DataFrame) -> list[dict[str, Any]]:
    out = []
    for r in man["rungs"]:
        mine = games.filter(pl.col("rung") == r["name"])
        seconds = float(mine.get_column("seconds").sum() or 0.0)
        out.append(
            {
                "name": r["name"],
                "spec": r["spec"],
                "games": r["games"],
                "played": mine.height,
                "failed": int(mine.get_column("error").is_not_null().sum()),
                "game_seconds": seconds,  # each game timed on its worker (one core)
                "games_per_s": mine.height / seconds if seconds > 0 else math.nan,
            }
        )
    return out


def seats_of(games: pl.DataFrame) -> list[str]:
    """The seats of a ``load``-ed games frame, in turn order."""
    return [c.removeprefix(_SCORE) for c in games.columns if c.startswith(_SCORE)]


def _records(
    man: dict[str, Any], games: pl.DataFrame, variants: list[str], confidence: float
) -> list[dict[str, Any]]:
    seats = seats_of(games)
    out = []
    names = [r["name"] for r in man["rungs"]]
    for v in variants:
        for i, rung in enumerate(names):
            ok = games.filter(
                pl.col("variant") == v, pl.col("rung") == rung, pl.col("error").is_null()
            )
            n = ok.height
            winners = ok.get_column("winner").to_list()
            vps = {f: ok.get_column(f"{_SCORE}{f}").to_list() for f in seats}
            below = _pairs(games, v, names[i - 1], rung) if i else None
            for f in seats:
                wins = sum(w == f for w in winners)
                lo, hi = stats.wilson_interval(wins, n, confidence)
                margin = (
                    stats.mean_interval(vp_margins(vps, f), confidence) if n else (math.nan,) * 3
                )
                step: dict[str, Any] = dict.fromkeys(_STEP)
                if below is not None and below.height:
                    w = stats.paired_win_comparison(
                        below.get_column("winner").to_list(),
                        below.get_column("winner_b").to_list(),
                        f,
                        confidence,
                    )
                    step = {"change": w["diff"], "change_lo": w["diff_low"]}
                    step |= {"change_hi": w["diff_high"], "change_games": w["n"]}
                out.append(
                    {"variant": v, "rung": rung, "faction": f, "games": n, "wins": wins}
                    | {"win": wins / n if n else math.nan, "win_lo": lo, "win_hi": hi}
                    | {"vp_margin": margin[0], "vp_margin_lo": margin[1]}
                    | {"vp_margin_hi": margin[2]}
                    | step
                )
    return out


def _convergence(
    man: dict[str, Any], games: pl.DataFrame, variants: list[str], alpha: float, margin: float
) -> list[dict[str, Any]]:
    a, b = man["rungs"][-2], man["rungs"][-1]
    game = man.get("config", {}).get("game")
    doublings = doublings_between(a["strategies"], b["strategies"], game)
    out = []
    for v in variants:
        pairs = _pairs(games, v, a["name"], b["name"])
        for f in seats_of(games):
            if pairs.height < 2:
                continue
            found = convergence(
                pairs.get_column("winner").to_list(),
                pairs.get_column("winner_b").to_list(),
                f,
                alpha,
                margin,
                doublings,
            )
            out.append({"variant": v, "from": a["name"], "to": b["name"]} | found)
    return out


def _won(frame: pl.DataFrame, column: str, faction: str) -> np.ndarray:
    return (frame.get_column(column) == faction).fill_null(False).to_numpy().astype(float)


def _variant_effects(
    man: dict[str, Any],
    games: pl.DataFrame,
    variants: list[str],
    confidence: float,
    alpha: float,
    margin: float,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(effects, robustness) of every variant against the first, rung by rung."""
    names = [r["name"] for r in man["rungs"]]
    ok = games.filter(pl.col("error").is_null())
    reference = variants[0]
    effects: list[dict[str, Any]] = []
    verdicts: list[dict[str, Any]] = []
    for v in variants[1:]:
        paired = {}  # rung -> the reference's and v's games on the same indices
        for rung in names:
            at = ok.filter(pl.col("rung") == rung)
            paired[rung] = (
                at.filter(pl.col("variant") == reference)
                .join(at.filter(pl.col("variant") == v), on="game_index", suffix="_v")
                .sort("game_index")
            )
        rungs = [r for r in names if paired[r].height >= 2]
        if not rungs:
            continue
        top = paired[rungs[-1]]
        for f in seats_of(games):
            rows = []
            for rung in rungs:
                p = paired[rung]
                w = stats.paired_win_comparison(
                    p.get_column("winner").to_list(),
                    p.get_column("winner_v").to_list(),
                    f,
                    confidence,
                )
                rows.append(w)
                effects.append(
                    {"variant": v, "reference": reference, "rung": rung, "faction": f}
                    | {"games": w["n"], "effect": w["diff"], "lo": w["diff_low"]}
                    | {"hi": w["diff_high"], "p_value": w["p_value"]}
                )
            contrasts = []
            for rung in rungs[:-1]:
                both = paired[rung].join(top, on="game_index", suffix="_top")
                here = _won(both, "winner_v", f) - _won(both, "winner", f)
                there = _won(both, "winner_v_top", f) - _won(both, "winner_top", f)
                contrasts.append(here - there)
            found = robustness(rows, contrasts, alpha, margin, rungs)
            verdicts.append(
                {"variant": v, "reference": reference, "faction": f}
                | found
                | {"text": _robustness_text(v, reference, f, found, rows, rungs)}
            )
    return effects, verdicts


def _robustness_text(
    v: str, ref: str, f: str, found: dict[str, Any], rows: list[dict], rungs: list[str]
) -> str:
    span = ", ".join(f"{100 * w['diff']:+.1f} at {r}" for w, r in zip(rows, rungs, strict=True))
    return (
        f"{v} vs {ref}, {f}'s win rate: sign {found['sign']}, size {found['size']} "
        f"across rungs (effect in percentage points, each rung on its own games: {span})"
    )


def curve(directory: Path, confidence: float = 0.95, margin: float = MARGIN) -> dict[str, Any]:
    """Everything ``strength.json`` holds, from the strength study in ``directory``."""
    if not 0.0 < confidence < 1.0:
        raise ReportError(f"--confidence must be in (0, 1), got {confidence}")
    alpha = 1 - confidence
    man, games = load(directory)
    seats = seats_of(games)
    if not 0.0 < margin < 1 / len(seats):
        raise ReportError(f"--margin must be in (0, 1/{len(seats)}), got {margin}")
    variants = [str(v["name"]) for v in man["config"]["variants"]]
    effects, held = _variant_effects(man, games, variants, confidence, alpha, margin)
    payload = {
        "command": _command(man),
        "bots": _versions(man),
        "variants": variants,
        "seats": seats,
        "master_seed": man["master_seed"],
        "confidence": confidence,
        "alpha": alpha,
        "margin": margin,
        "extends": {k: v for k, v in (man.get("extends") or {}).items() if k != "config"},
        "rungs": _rung_rows(man, games),
        "records": _records(man, games, variants, confidence),
        "convergence": _convergence(man, games, variants, alpha, margin),
        "effects": effects,
        "robustness": held,
    } | ({"game": man["config"]["game"]} if "game" in man["config"] else {})
    payload["strongest"] = strongest_balance(payload)
    return finite(payload)


def _command(man: dict[str, Any]) -> str | None:
    """The ``vsim strength`` command of the study as it stands (its latest session's: a
    rerun with more games per rung extends the study), rerunnable from the working folder
    (an absolute path inside it made relative: the file is shipped)."""
    from simulate.analysis.commands import rerunnable, rerunnable_words

    commands = [s.get("command") for s in man.get("sessions") or [] if s.get("command")]
    mine = [c for c in commands if "strength" in c[:2]] or commands
    if not mine:
        return None
    last = mine[-1]
    return rerunnable(last) if isinstance(last, str) else rerunnable_words(last)


def _versions(man: dict[str, Any]) -> dict[str, str]:
    """The version of each versioned bot the rungs play (a search bot's rollouts play the
    default's), so that a curve names the bots it measured."""
    out: dict[str, str] = {}
    for lineup in man.get("lineups") or []:
        for f, spec in lineup["strategies"].items():
            version = (lineup.get("strategy_params") or {}).get(f, {}).get("version")
            if version:
                out[spec.partition(":")[0]] = str(version)
    return out


def strongest_balance(payload: dict[str, Any] | Path, variant: str | None = None) -> str:
    """One sentence: the balance of ``variant`` (default: the base game, else the first
    variant) at the strongest rung measured, and whether it has converged; from a
    ``strength.json`` (its path or its content)."""
    if isinstance(payload, Path):
        payload = json.loads(payload.read_text(encoding="utf-8"))
    variants = payload["variants"]
    chosen = variant or ("base" if "base" in variants else variants[0])
    top = payload["rungs"][-1]
    mine = [r for r in payload["records"] if r["variant"] == chosen and r["rung"] == top["name"]]
    if not mine or not mine[0]["games"]:
        return f"No finished game of {chosen} at the strongest rung ({top['name']}) yet."
    rates = ", ".join(
        f"{r['faction']} {100 * r['win']:.1f}% [{100 * r['win_lo']:.1f}, {100 * r['win_hi']:.1f}]"
        for r in mine
    )
    from strategies.words import lineup_words

    game = payload.get("game")
    head = (
        f"{lineup_words(top['spec'], game).capitalize()} (the strongest rung measured, "
        f"{mine[0]['games']} games), {chosen}: {rates}"
    )
    found = [c for c in payload["convergence"] if c["variant"] == chosen]
    if not found:
        return head + "."
    specs = {r["name"]: r.get("spec", r["name"]) for r in payload["rungs"]}
    below = lineup_words(specs.get(found[0]["from"], found[0]["from"]), game)
    below = below.removeprefix("with ")
    margin = 100 * payload["margin"]
    parts = []
    for verdict, words in (
        ("converged", f"converged within ±{margin:g} percentage points for"),
        ("moving", "still moving for"),
        ("undetermined", "undetermined for"),
    ):
        fs = [c for c in found if c["verdict"] == verdict]
        if not fs:
            continue
        if verdict == "moving":
            parts.append(
                "still moving: " + "; ".join(c["text"].removeprefix("still moving: ") for c in fs)
            )
        else:
            parts.append(f"{words} {_and([c['faction'] for c in fs])}")
    return f"{head}; against the rung below it ({below}): {'; '.join(parts)}."


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
