"""The verdict a report opens with: the designer's questions answered in plain words.

- **Per variant: is it balanced?** Among decided games (unresolved ties left out), each
  Faction's share of wins is compared with an even split (1/3) by an equivalence test (two
  one-sided tests, TOST: the (1 - 2 alpha) Wilson interval inside 1/3 +- margin). Balanced
  within +-margin when all three pass; "F favoured by y points" when F's (1 - alpha) interval
  lies above 1/3 + margin; otherwise undetermined, with the games that would decide it.
- **Per comparison: did the rule change anything?** Each Faction's paired difference
  (Newcombe interval, McNemar test); the p-values of every comparison and Faction of the
  report are adjusted together (Holm), and one Stuart-Maxwell test per comparison covers all
  outcomes at once. "Changes F's win rate by y points" when the Holm-adjusted p < alpha, "no
  change larger than d" when the paired interval lies within +-d, else undetermined.
- Always: which bots played (a balance figure is "under these bots"), how exploitable a
  lineup a ladder measured was found (the manifest's ``exploitability``), and a warning with
  best/worst-case bounds when more than 1% of games failed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from simulate.analysis import stats
from simulate.analysis.run import Run
from simulate.result import FACTIONS

FAILURE_SHARE = 0.01  # above this share of failed games the verdict warns


def _z(alpha: float) -> float:
    return NormalDist().inv_cdf(1 - alpha)


def _games_to_decide(p: float, half_width_needed: float, alpha: float) -> int:
    """Decided games for a one-sided (1 - alpha) bound of a rate p to be within the width."""
    if half_width_needed <= 0:
        return 0
    return math.ceil((_z(alpha) ** 2) * p * (1 - p) / half_width_needed**2)


def balance(run: Run, margin: float = 0.03, alpha: float = 0.05) -> list[dict[str, Any]]:
    """Per variant: "balanced", "favoured" or "undetermined", with its sentence."""
    out = []
    parity = 1 / 3
    for v in run.variants:
        winners = [w for w in run.variant_games(v).get_column("winner").to_list() if w]
        n = len(winners)
        rows = []
        for f in FACTIONS:
            k = sum(1 for w in winners if w == f)
            lo2, hi2 = stats.wilson_interval(k, n, 1 - 2 * alpha)  # TOST at level alpha
            lo1, hi1 = stats.wilson_interval(k, n, 1 - alpha)
            rows.append({"faction": f, "wins": k, "rate": k / n if n else math.nan,
                         "tost": (lo2, hi2), "one_sided": (lo1, hi1)})  # fmt: skip
        entry: dict[str, Any] = {"variant": v, "decided_games": n, "margin": margin}
        inside = all(
            parity - margin <= r["tost"][0] and r["tost"][1] <= parity + margin for r in rows
        )
        favoured = [r for r in rows if r["one_sided"][0] > parity + margin]
        if n and inside:
            entry |= {"verdict": "balanced", "text": f"balanced within ±{100 * margin:g} points"}
        elif favoured:
            best = max(favoured, key=lambda r: r["rate"])
            lo, hi = stats.wilson_interval(best["wins"], n, 1 - 2 * alpha)
            entry |= {
                "verdict": "favoured",
                "faction": best["faction"],
                "text": f"{best['faction']} favoured by {100 * (best['rate'] - parity):+.1f} "
                f"points [{100 * (lo - parity):+.1f}, {100 * (hi - parity):+.1f}]",
            }
        else:
            need = 0
            for r in rows:
                p = r["rate"] if n else parity
                dev = abs(p - parity)
                width = margin - dev if dev < margin else dev - margin
                need = max(need, _games_to_decide(p, max(width, 0.005), alpha))
            more = max(0, need - n)
            entry |= {
                "verdict": "undetermined",
                "more_games": more,
                "text": f"undetermined: about {more:,} more decided games would decide "
                f"whether it is balanced within ±{100 * margin:g} points",
            }
        entry["factions"] = [
            {
                "faction": r["faction"],
                "rate": r["rate"],
                "tost_low": r["tost"][0],
                "tost_high": r["tost"][1],
            }  # fmt: skip
            for r in rows
        ]
        out.append(entry)
    return out


def changes(comparisons: Sequence[Any], delta: float = 0.03, alpha: float = 0.05) -> list[dict]:
    """Per comparison and Faction: "change", "no change larger than delta" or undetermined;
    Holm's adjustment over every comparison and Faction together."""
    from statsmodels.stats.multitest import multipletests

    cells = [(i, w) for i, c in enumerate(comparisons) for w in c.wins if w["faction"] in FACTIONS]
    pvals = [w["p_value"] for _, w in cells]
    usable = [p if p == p else 1.0 for p in pvals]
    adjusted = multipletests(usable, method="holm")[1] if usable else []
    out = []
    for i, comp in enumerate(comparisons):
        rows = []
        for (j, w), p_adj in zip(cells, adjusted, strict=True):
            if j != i:
                continue
            lo, hi, d = w["diff_low"], w["diff_high"], w["diff"]
            f = w["faction"]
            if p_adj < alpha:
                text = f"changes {f}'s win rate by {100 * d:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
                verdict = "change"
            elif -delta <= lo and hi <= delta:
                text = f"no change in {f}'s win rate larger than {100 * delta:g} points"
                verdict = "no change"
            else:
                half = max(hi - d, d - lo)
                more = max(0, math.ceil(comp.n * (half / delta) ** 2) - comp.n)
                text = f"{f}: undetermined: about {more:,} more paired games would decide"
                verdict = "undetermined"
            rows.append({"faction": f, "verdict": verdict, "text": text, "p_holm": float(p_adj)})
        out.append(
            {
                "a": comp.a.label,
                "b": comp.b.label,
                "paired_games": comp.n,
                "overall": comp.overall,
                "confounded": comp.confounded,
                "factions": rows,
            }
        )
    return out


def failures(run: Run) -> dict[str, Any] | None:
    """A warning when more than 1% of games failed: each Faction's win rate bounded by
    counting every failed game as its loss (worst case) or as its win (best case)."""
    games = run.games
    failed = int(games.get_column("error").is_not_null().sum())
    if not games.height or failed / games.height <= FAILURE_SHARE:
        return None
    ok = run.ok_games()
    bounds = {}
    for f in FACTIONS:
        wins = int((ok.get_column("winner") == f).sum())
        bounds[f] = (wins / games.height, (wins + failed) / games.height)
    return {"failed": failed, "games": games.height, "bounds": bounds}


def exploitability(run: Run) -> list[dict[str, Any]]:
    """For each lineup of the run that a ladder measured (``strategies/exploitability.json``,
    recorded in the manifest when the run began): its name and the seats a challenger beat
    significantly, the largest gain first."""
    man = run.manifest
    lineups = [lu for lu in man.get("lineups") or [] if isinstance(lu, dict)]
    found = [(lu.get("name"), lu.get("exploitability")) for lu in lineups]
    if not lineups:
        found = [(None, man.get("exploitability"))]
    out = []
    for name, known in found:
        if not known:
            continue
        seats = sorted(
            ((f, rec) for f, rec in known["seats"].items() if rec),
            key=lambda item: -item[1]["gain"],
        )
        out.append(
            {"lineup": name} | {k: v for k, v in known.items() if k != "seats"} | {"seats": seats}
        )
    return out


def verdict(
    run: Run, comparisons: Sequence[Any], margin: float = 0.03, alpha: float = 0.05
) -> dict[str, Any]:
    """Everything the report's opening block says, as data (written as DIR/verdict.json)."""
    return {
        "bots": run.strategies,
        "lineups": run.lineups,
        "exploitability": exploitability(run),
        "margin": margin,
        "alpha": alpha,
        "variants": balance(run, margin, alpha),
        "comparisons": changes(comparisons, margin, alpha),
        "failures": failures(run),
    }
