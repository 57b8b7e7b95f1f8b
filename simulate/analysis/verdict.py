"""The verdict a report opens with: the designer's questions answered in plain words.

- **Per variant: is it balanced?** Among decided games (unresolved ties left out), each
  Faction's share of wins is compared with an even split (1/3) by an equivalence test: two
  exact one-sided tests (the (1 - 2 alpha) Clopper-Pearson interval inside 1/3 +- margin),
  whose level holds at every number of games. Balanced within +-margin when all three pass;
  not balanced when a Faction's interval lies wholly outside the band; otherwise
  undetermined, with the games that would decide it at the observed rates. The rate of
  unresolved ties, over all finished games, is given beside it.
- **Per comparison: did the rule change anything?** Each outcome's paired difference (each
  Faction's win rate and the rate of unresolved ties: a rule that turns wins into ties
  shows): McNemar's test, its p-values adjusted together over every comparison and outcome
  of the report (Holm), and Newcombe's paired interval. "Changes" when the Holm-adjusted
  p < alpha; "no change larger than delta" when the (1 - 2 alpha) paired interval lies
  within +-delta (the same equivalence level as balance); else undetermined, with the
  paired games that would decide it at the observed difference, and which way. One
  Stuart-Maxwell test per comparison covers all outcomes at once. A comparison a sequential
  test answered (``vsim run --until-clear``) takes that test's answer: one report, one answer
  per outcome.
- Always: one sentence per variant and per comparison a designer can act on (``answers``),
  which bots played (a balance figure is "under these bots"), how exploitable a lineup a
  ladder measured was found (the manifest's ``exploitability``), and a warning with
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
PARITY = 1 / 3
OUTCOMES = (*FACTIONS, "tie")
MIN_ROOM = 0.005  # the least room (half a point) a games-to-decide figure is computed for


def _points(x: float) -> str:
    """A rate or difference of rates in points, e.g. ``3`` or ``1.5``."""
    return f"{100 * x:g}"


def _outcome_name(outcome: str) -> str:
    return "unresolved ties" if outcome == "tie" else outcome


def _rate_name(outcome: str) -> str:
    return "the rate of unresolved ties" if outcome == "tie" else f"{outcome}'s win rate"


def _more(n: int, need: float) -> int:
    """Games to add to ``n`` to reach ``need``: at least one (never "0 more")."""
    return max(1, math.ceil(need) - n)


def _about(more: int, what: str) -> str:
    return f"a few more {what}" if more < 10 else f"about {more:,} more {what}"


# ---------------------------------------------------------------------------------------------
# Balance


def _balance_need(rows: list[dict[str, Any]], n: int, margin: float) -> tuple[float, str]:
    """(decided games, what they would show) for the equivalence test to decide if every
    rate stayed as observed: each interval shrinks as 1/sqrt(n) until it fits inside the band
    (balanced, every Faction) or lies outside it (not balanced, the first Faction to)."""
    low, high = PARITY - margin, PARITY + margin
    if all(low < r["rate"] < high for r in rows):
        need = 0.0
        for r in rows:
            up = (r["high"] - r["rate"]) / max(high - r["rate"], MIN_ROOM)
            down = (r["rate"] - r["low"]) / max(r["rate"] - low, MIN_ROOM)
            need = max(need, n * max(up, down) ** 2)
        return need, f"it balanced within ±{_points(margin)} percentage points"
    options = []
    for r in rows:
        if r["rate"] >= high:
            room = max(r["rate"] - high, MIN_ROOM)
            options.append((n * ((r["rate"] - r["low"]) / room) ** 2, r["faction"], "favoured"))
        elif r["rate"] <= low:
            room = max(low - r["rate"], MIN_ROOM)
            options.append((n * ((r["high"] - r["rate"]) / room) ** 2, r["faction"], "behind"))
    need, faction, side = min(options)
    return need, f"it not balanced ({faction} {side})"


def equivalent(wins: int, n: int, margin: float = 0.03, alpha: float = 0.05) -> bool:
    """Whether one Faction's ``wins`` of ``n`` decided games show its rate within 1/3 +-
    ``margin``: two exact one-sided tests at ``alpha`` (the (1 - 2 alpha) Clopper-Pearson
    interval inside the band), whose level holds at every ``n``."""
    if n == 0:
        return False
    low, high = stats.clopper_pearson(wins, n, 1 - 2 * alpha)
    return PARITY - margin <= low and high <= PARITY + margin


def balance(run: Run, margin: float = 0.03, alpha: float = 0.05) -> list[dict[str, Any]]:
    """Per variant: "balanced", "not balanced" or "undetermined", with its sentence."""
    out = []
    for v in run.variants:
        winners = run.variant_games(v).get_column("winner").to_list()
        decided = [w for w in winners if w]
        n, ties = len(decided), len(winners) - len(decided)
        rows = []
        for f in FACTIONS:
            k = sum(1 for w in decided if w == f)
            lo, hi = stats.clopper_pearson(k, n, 1 - 2 * alpha)  # two exact one-sided tests
            rows.append({"faction": f, "wins": k, "rate": k / n if n else math.nan,
                         "low": lo, "high": hi})  # fmt: skip
        tie_lo, tie_hi = stats.clopper_pearson(ties, len(winners), 1 - 2 * alpha)
        entry: dict[str, Any] = {
            "variant": v,
            "decided_games": n,
            "finished_games": len(winners),
            "margin": margin,
            "ties": {
                "games": ties,
                "rate": ties / len(winners) if winners else math.nan,
                "low": tie_lo,
                "high": tie_hi,
            },
        }
        band = (PARITY - margin, PARITY + margin)
        outside = [r for r in rows if r["low"] > band[1] or r["high"] < band[0]]
        if n and all(equivalent(r["wins"], n, margin, alpha) for r in rows):
            entry |= {
                "verdict": "balanced",
                "text": f"balanced within ±{_points(margin)} percentage points",
            }
        elif outside:
            worst = max(outside, key=lambda r: abs(r["rate"] - PARITY))
            side = "favoured" if worst["rate"] > PARITY else "behind"
            entry |= {
                "verdict": "not balanced",
                "faction": worst["faction"],
                "side": side,
                "text": f"not balanced: {worst['faction']} {side} by "
                f"{100 * (worst['rate'] - PARITY):+.1f} percentage points "
                f"[{100 * (worst['low'] - PARITY):+.1f}, {100 * (worst['high'] - PARITY):+.1f}]",
            }
        elif not n:
            need = stats.games_needed(margin, PARITY, 2 * alpha, 0.5)
            entry |= {
                "verdict": "undetermined",
                "more_games": need,
                "text": f"undetermined: no decided game yet; about {need:,} decided games "
                f"would show whether it is balanced within ±{_points(margin)} percentage points",
            }
        else:
            need, shows = _balance_need(rows, n, margin)
            more = _more(n, need)
            entry |= {
                "verdict": "undetermined",
                "more_games": more,
                "shows": shows,
                "text": f"undetermined: at these rates, {_about(more, 'decided games')} "
                f"would show {shows}",
            }
        entry["factions"] = [
            {
                "faction": r["faction"],
                "rate": r["rate"],
                "tost_low": r["low"],
                "tost_high": r["high"],
            }  # fmt: skip
            for r in rows
        ]
        out.append(entry)
    return out


def bots_text(run: Run, variant: str) -> str:
    """Which bots played ``variant``: "the default bots (`heuristic`)", a lineup's name, or
    each Faction's bot."""
    from strategies.registry import DEFAULT

    for name in run.lineups:
        if variant.endswith(f" / {name}"):
            return f"lineup {name}"
    bots = run.strategies
    if set(bots.values()) == {DEFAULT}:
        return f"the default bots (`{DEFAULT}`)"
    if len(set(bots.values())) == 1:
        return f"`{bots['DS']}` in every seat"
    return ", ".join(f"{f} `{s}`" for f, s in bots.items())


def balance_sentence(entry: dict[str, Any], bots: str) -> str:
    """The one sentence a designer reads first about a variant."""
    verdict = entry["verdict"]
    if verdict == "balanced":
        answer = f"balanced within ±{_points(entry['margin'])} percentage points"
    elif verdict == "not balanced":
        answer = "not balanced"
    else:
        answer = (
            f"not yet known whether it is balanced within ±{_points(entry['margin'])} "
            "percentage points"
        )
    rates = [
        f"{r['faction']} {_share(r['rate'])} ({_share(r['tost_low'], '')}–{_share(r['tost_high'])})"
        for r in entry["factions"]
    ]
    faction, _, rest = rates[0].partition(" ")
    share, _, interval = rest.partition(" ")
    rates[0] = f"{faction} wins {share} of decided games {interval}"
    t = entry["ties"]
    ties = (
        f"{_share(t['rate'])} of the games end in an unresolved tie"
        if t["games"]
        else "no game ends in an unresolved tie"
    )
    tail = ""
    if verdict == "undetermined":
        tail = f"; {entry['text'].removeprefix('undetermined: ')}"
    return f"{answer}: {', '.join(rates)}; {ties}; under {bots}{tail}."


def _share(x: float, unit: str = "%") -> str:
    """A rate in whole percent (one decimal under 1.5%)."""
    if x != x:
        return "–"
    return f"{100 * x:.{1 if 100 * x < 1.5 else 0}f}{unit}"


# ---------------------------------------------------------------------------------------------
# Comparisons


def _sequential(comp: Any) -> dict[str, Any] | None:
    """The sequential test's last look at this comparison (``vsim run --until-clear``), with
    its rule, when the comparison pairs the games that test saw; else None."""
    run = getattr(comp.a, "run", None)
    other = getattr(comp.b, "run", None)
    if run is None or other is None or run.directory.resolve() != other.directory.resolve():
        return None
    entry = run.manifest.get("sequential") or {}
    if not entry.get("looks"):
        return None
    for look in entry["looks"][-1]["comparisons"]:
        if look["a"] == comp.a.variant and look["b"] == comp.b.variant and look["n"] == comp.n:
            return look | {"rule": entry["rule"], "status": entry.get("status")}
    return None


def _paired_need(
    w: dict[str, Any], tost: tuple[float, float], delta: float, alpha: float, tests: int
) -> tuple[float, str] | None:
    """(paired games, what they would show) for an undetermined outcome to be decided if its
    difference and spread stayed as observed: the (1 - 2 alpha) interval shrinking as
    1/sqrt(n) until it fits inside +-delta ("no change"), or the McNemar statistic growing as
    sqrt(n) until it passes the report's Holm bound (at most alpha / tests: "a change"; the
    statistic read from McNemar's p, or from the difference and its spread when an exact p
    is 1), whichever comes first. None when neither can happen."""
    n, d = w["n"], w["diff"]
    lo, hi = tost
    options = []
    if abs(d) < delta:
        up = (hi - d) / max(delta - d, MIN_ROOM)
        down = (d - lo) / max(d + delta, MIN_ROOM)
        shows = f"no change larger than {_points(delta)} percentage points"
        options.append((n * max(up, down) ** 2, shows))
    p = w["p_value"]
    if d != 0:
        spread = (w["b01"] + w["b10"]) / n - d * d  # the per-game variance of the difference
        wald = abs(d) / math.sqrt(max(spread, 1 / n) / n)
        z_seen = NormalDist().inv_cdf(1 - p / 2) if 0 < p < 1 else wald  # exact p of 1: Wald
        z_need = NormalDist().inv_cdf(1 - alpha / (2 * tests))
        if z_seen > 0:
            options.append((n * (z_need / z_seen) ** 2, "a change"))
    return min(options) if options else None


def _fixed_row(
    w: dict[str, Any], p_adj: float, delta: float, alpha: float, tests: int
) -> dict[str, Any]:
    """One outcome's answer by the fixed-size tests (Holm-adjusted McNemar, equivalence)."""
    f, d, lo, hi = w["faction"], w["diff"], w["diff_low"], w["diff_high"]
    tost = stats.paired_interval(w["b11"], w["b10"], w["b01"], w["b00"], 1 - 2 * alpha)
    row: dict[str, Any] = {"faction": f, "test": "fixed", "p_holm": float(p_adj),
                           "diff": d, "tost_low": tost[0], "tost_high": tost[1]}  # fmt: skip
    if p_adj < alpha:
        return row | {
            "verdict": "change",
            "text": f"changes {_rate_name(f)} by {100 * d:+.1f} percentage points "
            f"[{100 * lo:+.1f}, {100 * hi:+.1f}]",
        }
    if -delta <= tost[0] and tost[1] <= delta:
        return row | {
            "verdict": "no change",
            "text": f"no change in {_rate_name(f)} larger than {_points(delta)} percentage points",
        }
    found = _paired_need(w, tost, delta, alpha, tests)
    if found is None:
        return row | {"verdict": "undetermined", "more_games": None,
                      "text": f"{_outcome_name(f)}: undetermined"}  # fmt: skip
    need, shows = found
    more = _more(w["n"], need)
    return row | {
        "verdict": "undetermined",
        "more_games": more,
        "shows": shows,
        "text": f"{_outcome_name(f)}: undetermined ({100 * d:+.1f} percentage points "
        f"[{100 * lo:+.1f}, {100 * hi:+.1f}]): at this difference, "
        f"{_about(more, 'paired games')} would show {shows}",
    }


def _sequential_row(t: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any]:
    """One outcome's answer by the sequential test of ``--until-clear``."""
    f, d = t["faction"], t["diff"]
    delta, power = rule["delta"], 1 - rule["beta"]
    row = {"faction": f, "test": "sequential", "p_holm": None, "diff": d, "llr": t["llr"]}
    if t["decision"] == "change":
        return row | {
            "verdict": "change",
            "text": f"changes {_rate_name(f)} by {100 * d:+.1f} percentage points "
            "(sequential test)",
        }
    if t["decision"] == "no change":
        return row | {
            "verdict": "no change",
            "text": f"no change in {_rate_name(f)} as large as {_points(delta)} percentage "
            f"points (sequential test, {100 * power:g}% power: a smaller change may remain)",
        }
    return row | {
        "verdict": "undetermined",
        "more_games": None,
        "text": f"{_outcome_name(f)}: undetermined ({100 * d:+.1f} percentage points): the "
        f"sequential test stopped at --max-games before deciding",
    }


def changes(comparisons: Sequence[Any], delta: float = 0.03, alpha: float = 0.05) -> list[dict]:
    """Per comparison and outcome (each Faction, and unresolved ties): "change", "no change
    larger than delta" or undetermined. Holm's adjustment over every comparison and outcome
    the fixed-size tests answer; a comparison a sequential test answered takes its answer."""
    from statsmodels.stats.multitest import multipletests

    looks = [_sequential(c) for c in comparisons]
    decided = [
        {t["faction"]: t for t in look["factions"]} if look else {} for look in looks
    ]  # fmt: skip
    cells = [
        (i, w)
        for i, c in enumerate(comparisons)
        for w in c.wins
        if w["faction"] in OUTCOMES and w["faction"] not in decided[i]
    ]
    usable = [w["p_value"] if w["p_value"] == w["p_value"] else 1.0 for _, w in cells]
    adjusted = dict(zip(
        [(i, w["faction"]) for i, w in cells],
        multipletests(usable, method="holm")[1] if usable else [],
        strict=True,
    ))  # fmt: skip
    out = []
    for i, comp in enumerate(comparisons):
        rows = []
        for w in comp.wins:
            f = w["faction"]
            if f not in OUTCOMES:
                continue
            if f in decided[i]:
                rows.append(_sequential_row(decided[i][f], looks[i]["rule"]))
            else:
                rows.append(_fixed_row(w, adjusted[(i, f)], delta, alpha, max(1, len(cells))))
        entry = {
            "a": comp.a.label,
            "b": comp.b.label,
            "paired_games": comp.n,
            "overall": comp.overall,
            "confounded": comp.confounded,
            "delta": looks[i]["rule"]["delta"] if looks[i] else delta,
            "sequential": bool(looks[i]),
            "factions": rows,
        }
        entry["sentence"] = comparison_sentence(entry)
        out.append(entry)
    return out


def _names(outcomes: Sequence[str]) -> str:
    names = [_outcome_name(f) for f in outcomes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def comparison_sentence(entry: dict[str, Any]) -> str:
    """The one sentence a designer reads first about a comparison (B against A), after its
    subject (``B against A: ``)."""
    rows = entry["factions"]
    delta = _points(entry["delta"])
    games = f"{entry['paired_games']:,} paired games" + (
        ", sequential test" if entry["sequential"] else ""
    )
    if rows and all(r["verdict"] == "no change" for r in rows):
        return (
            f"no change larger than {delta} percentage points in any Faction's win "
            f"rate or in the rate of unresolved ties ({games})."
        )
    parts = []
    for r in rows:
        if r["verdict"] == "change":
            d = 100 * r["diff"]
            what = "unresolved ties" if r["faction"] == "tie" else f"{r['faction']} wins"
            parts.append(f"{what} {abs(d):.1f} percentage points {'more' if d > 0 else 'less'}")
    same = [r["faction"] for r in rows if r["verdict"] == "no change"]
    if same:
        parts.append(f"no change larger than {delta} percentage points for {_names(same)}")
    open_ = [r for r in rows if r["verdict"] == "undetermined"]
    if open_:
        text = f"not yet known for {_names([r['faction'] for r in open_])}"
        if all(r.get("more_games") for r in open_):
            most = max(r["more_games"] for r in open_)
            them = "it" if len(open_) == 1 else "them"
            text += f": {_about(most, 'paired games')} would decide {them} at these differences"
        parts.append(text)
    return f"{'; '.join(parts)} ({games})."


# ---------------------------------------------------------------------------------------------
# Failures, bots, the whole verdict


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


def strength(run: Run) -> dict[str, Any] | None:
    """The base game's balance at the strongest rung of the shipped strength study and
    whether it has converged (``strategies/strength.json`` as the run recorded it), with the
    bots and command that measured it; None for a run that recorded none."""
    from simulate.analysis.strength import strongest_balance

    shipped = run.manifest.get("strength")
    if not shipped:
        return None
    bots = ", ".join(f"{k} {v}" for k, v in shipped["bots"].items())
    return {"sentence": strongest_balance(shipped), "bots": bots, "command": shipped["command"]}


def verdict(
    run: Run, comparisons: Sequence[Any], margin: float = 0.03, alpha: float = 0.05
) -> dict[str, Any]:
    """Everything the report's opening block says, as data (written as DIR/verdict.json)."""
    alpha = round(alpha, 12)  # 1 - 0.95 is 0.050000000000000044
    variants = balance(run, margin, alpha)
    compared = changes(comparisons, margin, alpha)
    answers = [
        {"subject": v["variant"], "sentence": balance_sentence(v, bots_text(run, v["variant"]))}
        for v in variants
    ] + [{"subject": f"{c['b']} against {c['a']}", "sentence": c["sentence"]} for c in compared]
    return {
        "answers": answers,
        "strength": strength(run),
        "bots": run.strategies,
        "lineups": run.lineups,
        "exploitability": exploitability(run),
        "margin": margin,
        "alpha": alpha,
        "variants": variants,
        "comparisons": compared,
        "failures": failures(run),
    }
