"""The verdict a report opens with: the designer's questions answered in plain words, in
one vocabulary and over one denominator (issue 64).

- **The denominator**: every rate is a share of *finished games* (errored games left out);
  an unresolved tie is nobody's win, so the seats' rates and the tie rate add up to 100%.
  These are the win rate table's numbers.
- **Per variant: is it balanced?** Each seat's win rate against parity (1/n for n seats),
  by the win rate table's 95% Goodman simultaneous intervals (they hold for the n + 1
  outcomes at once): balanced within +-margin when every seat's interval lies inside
  1/n +- margin; not balanced when one lies wholly outside it; otherwise not yet known,
  with the games that would decide it at the observed rates. A game with many unresolved
  ties cannot be balanced: its seats all fall short of parity.
- **Per comparison: did the rule change anything?** Each outcome's paired difference (each
  seat's win rate and the rate of unresolved ties) with one interval: Newcombe's paired
  interval, simultaneous over every outcome of every comparison of the report (Bonferroni:
  a false "change" anywhere in it at most alpha), or for a
  sequential study (``vsim run --until-clear``) its anytime-valid interval
  (``simulate.analysis.sequential``). The words: **a change** when the interval excludes 0
  (a change smaller than delta when it also lies inside +-delta); **no change larger than
  delta** when it lies inside +-delta; **not yet known** otherwise, with the paired games
  that would decide it if the difference and its spread stayed as observed.
- Always: one sentence per variant and per comparison a designer can act on (``answers``),
  which bots played (a balance figure is "under these bots"), how exploitable a lineup a
  ladder measured was found (the manifest's ``exploitability``), and a warning with
  best/worst-case bounds when more than 1% of games failed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from simulate.analysis import stats, terms
from simulate.analysis.formatting import more_of, pct, pct_ci
from simulate.analysis.run import Run

FAILURE_SHARE = 0.01  # above this share of failed games the verdict warns
MIN_ROOM = 0.005  # the least room (half a point) a games-to-decide figure is computed for
SIMULTANEOUS = "simultaneous"  # a fixed-size comparison's intervals: Newcombe, Bonferroni
ANYTIME = "anytime-valid"  # a sequential study's: its confidence sequence


def _points(x: float) -> str:
    """A rate or difference of rates in percentage points, e.g. ``3`` or ``1.5``."""
    return f"{100 * x:g}"


def _outcome_name(outcome: str) -> str:
    return "unresolved ties" if outcome == "tie" else outcome


def _more(n: int, need: float) -> int:
    """Games to add to ``n`` to reach ``need``: at least one (never "0 more")."""
    return max(1, math.ceil(need) - n)


def _about(more: int, what: str) -> str:
    return more_of(more, what)


def signed(x: float) -> str:
    """A difference in percentage points with its sign, one decimal ("+0.0", never "-0.0")."""
    text = f"{100 * x:+.1f}"
    return "+0.0" if text == "-0.0" else text


def interval_name(kind: str, confidence: float) -> str:
    """How a report names its comparison intervals, once."""
    lvl = f"{100 * confidence:g}%"
    if kind == ANYTIME:
        return f"{lvl} anytime-valid intervals (they hold however often the study looked)"
    return (
        f"{lvl} simultaneous intervals (Newcombe's paired interval, Bonferroni over the outcomes)"
    )


# ---------------------------------------------------------------------------------------------
# Balance


def _balance_need(
    rows: list[dict[str, Any]], n: int, margin: float, parity: float
) -> tuple[float, str]:
    """(finished games, what they would show) for the balance question to be decided if
    every rate stayed as observed: each interval shrinks as 1/sqrt(n) until it fits inside
    the band (balanced, every seat) or lies outside it (not balanced, the first to)."""
    low, high = parity - margin, parity + margin
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


def balance(run: Run, margin: float = 0.03, alpha: float = 0.05) -> list[dict[str, Any]]:
    """Per variant: "balanced", "not balanced" or "undetermined" (not yet known), with its
    text; rates over finished games with their (1 - alpha) Goodman simultaneous intervals
    (the win rate table's), against parity (1/n for the run's n seats)."""
    seats, parity, even = run.seats, run.parity, terms.even_share(run.seats)
    out = []
    for v in run.variants:
        winners = run.variant_games(v).get_column("winner").to_list()
        n = len(winners)
        counts = {f: sum(1 for w in winners if w == f) for f in seats}
        counts["tie"] = n - sum(counts.values())
        bounds = stats.goodman_intervals(counts, 1 - alpha)
        rows = [
            {
                "faction": f,
                "wins": counts[f],
                "rate": counts[f] / n if n else math.nan,
                "low": bounds[f][0],
                "high": bounds[f][1],
            }  # fmt: skip
            for f in seats
        ]
        entry: dict[str, Any] = {
            "variant": v,
            "finished_games": n,
            "margin": margin,
            "confidence": 1 - alpha,
            "ties": {
                "games": counts["tie"],
                "rate": counts["tie"] / n if n else math.nan,
                "low": bounds["tie"][0],
                "high": bounds["tie"][1],
            },
        }
        band = (parity - margin, parity + margin)
        outside = [r for r in rows if r["low"] > band[1] or r["high"] < band[0]]
        if n and all(band[0] <= r["low"] and r["high"] <= band[1] for r in rows):
            entry |= {
                "verdict": "balanced",
                "text": f"balanced within ±{_points(margin)} percentage points",
            }
        elif outside:
            worst = max(outside, key=lambda r: abs(r["rate"] - parity))
            side = "favoured" if worst["rate"] > parity else "behind"
            entry |= {
                "verdict": "not balanced",
                "faction": worst["faction"],
                "side": side,
                "text": f"not balanced: {worst['faction']} {side} by "
                f"{100 * (worst['rate'] - parity):+.1f} percentage points "
                f"[{100 * (worst['low'] - parity):+.1f}, {100 * (worst['high'] - parity):+.1f}] "
                f"from {even}",
            }
        elif not n:
            need = stats.games_needed(margin, parity, alpha, 0.5)
            entry |= {
                "verdict": "undetermined",
                "more_games": need,
                "text": f"not yet known: no finished game yet; about {need:,} finished games "
                f"would show whether it is balanced within ±{_points(margin)} percentage points",
            }
        else:
            need, shows = _balance_need(rows, n, margin, parity)
            more = _more(n, need)
            entry |= {
                "verdict": "undetermined",
                "more_games": more,
                "shows": shows,
                "text": f"not yet known: at these rates, {_about(more, 'games')} "
                f"would show {shows}",
            }
        entry["factions"] = [
            {"faction": r["faction"], "rate": r["rate"], "low": r["low"], "high": r["high"]}
            for r in rows
        ]
        out.append(entry)
    return out


def bots_text(run: Run, variant: str) -> str:
    """Which bots played ``variant``, in words ("the default bots", a lineup's name, or each
    seat's bot); the specs themselves are in the details."""
    from strategies.words import bot_words

    for name in run.lineups:
        if variant.endswith(f" / {name}"):
            return f"lineup {name}"
    bots, game = run.strategies, run.game.ref or run.game.name
    if len(set(bots.values())) == 1:
        words = bot_words(next(iter(bots.values())), game)
        return words if words.startswith("the ") else f"{words} in every seat"
    return ", ".join(f"{f} {bot_words(s, game)}" for f, s in bots.items())


def balance_sentence(entry: dict[str, Any], bots: str) -> str:
    """The one sentence a designer reads first about a variant: the answer, then the rates
    and intervals of the win rate table (shares of finished games)."""
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
    t = entry["ties"]
    rates = [f"{r['faction']} {pct(r['rate'])} ({pct_ci(r['low'], r['high'])})"
             for r in entry["factions"]]  # fmt: skip
    first = entry["factions"][0]
    rates[0] = (
        f"{first['faction']} wins {pct(first['rate'])} ({pct_ci(first['low'], first['high'])})"
    )
    rates.append(f"unresolved ties {pct(t['rate'])} ({pct_ci(t['low'], t['high'])})")
    lvl = f"{100 * entry['confidence']:g}%"
    tail = ""
    if verdict == "undetermined":
        tail = f"; {entry['text'].removeprefix('not yet known: ')}"
    return (
        f"{answer}: {', '.join(rates)} of {entry['finished_games']:,} finished games "
        f"({lvl} simultaneous intervals); under {bots}{tail}."
    )


# ---------------------------------------------------------------------------------------------
# Comparisons


def _sequential(comp: Any) -> dict[str, Any] | None:
    """The sequential study's last look at this comparison (``vsim run --until-clear``),
    with its rule and why it stopped, when the comparison pairs the games it saw and the
    look carries intervals (an older SPRT record does not: the fixed-size answer is given)."""
    run = getattr(comp.a, "run", None)
    other = getattr(comp.b, "run", None)
    if run is None or other is None or run.directory.resolve() != other.directory.resolve():
        return None
    entry = run.manifest.get("sequential") or {}
    if not entry.get("looks"):
        return None
    for look in entry["looks"][-1]["comparisons"]:
        if look["a"] == comp.a.variant and look["b"] == comp.b.variant and look["n"] == comp.n:
            if any(t.get("low") is None for t in look["factions"]):
                return None
            return look | {
                "rule": entry["rule"],
                "status": entry.get("status"),
                "reason": entry.get("reason"),
            }
    return None


def _projected(n: int, d: float, lo: float, hi: float, delta: float) -> tuple[float, str] | None:
    """(paired games, what they would show) for a not-yet-known difference to be decided if
    it and its spread stayed as observed: the interval shrinking as 1/sqrt(n) until it
    excludes 0 ("a change") or fits inside +-delta ("no change larger than delta"),
    whichever comes first. None when neither can happen."""
    options = []
    if d > 0 and d - lo > 0:
        options.append((n * ((d - lo) / d) ** 2, "a change"))
    if d < 0 and hi - d > 0:
        options.append((n * ((hi - d) / -d) ** 2, "a change"))
    if abs(d) < delta:
        up = (hi - d) / max(delta - d, MIN_ROOM)
        down = (d - lo) / max(d + delta, MIN_ROOM)
        options.append(
            (n * max(up, down) ** 2, f"no change larger than {_points(delta)} percentage points")
        )
    return min(options) if options else None


def difference_text(r: dict[str, Any], delta: float) -> str:
    """One outcome's answer in the report's one vocabulary: the difference, its interval,
    then "a change", "no change larger than delta" or "not yet known" (with the games that
    would decide it)."""
    f = r["faction"]
    what = f"{_outcome_name(f)} {signed(r['diff'])} percentage points [{signed(r['low'])}, " \
        f"{signed(r['high'])}]"  # fmt: skip
    if r["verdict"] == "change":
        small = -delta <= r["low"] and r["high"] <= delta
        return f"{what}: a change" + (
            f", smaller than {_points(delta)} percentage points" if small else ""
        )
    if r["verdict"] == "no change":
        return f"{what}: no change larger than {_points(delta)} percentage points"
    more = r.get("more_games")
    if not more:
        return f"{what}: not yet known"
    shows = r.get("shows")
    tail = f" would show {shows}" if shows else " would decide it"
    return f"{what}: not yet known; at this difference, {_about(more, 'paired games')}{tail}"


def _fixed_row(w: dict[str, Any], delta: float, level: float) -> dict[str, Any]:
    """One outcome's answer by its paired interval at ``level`` (the report's simultaneous
    level: Bonferroni over every outcome and comparison)."""
    f, d = w["faction"], w["diff"]
    lo, hi = stats.paired_interval(w["b11"], w["b10"], w["b01"], w["b00"], level)
    row: dict[str, Any] = {"faction": f, "test": "fixed", "diff": d, "low": lo, "high": hi,
                           "p_value": w.get("p_value")}  # fmt: skip
    if lo > 0 or hi < 0:
        row["verdict"] = "change"
    elif -delta <= lo and hi <= delta:
        row["verdict"] = "no change"
    else:
        row["verdict"] = "undetermined"
        found = _projected(w["n"], d, lo, hi, delta)
        row["more_games"] = None if found is None else _more(w["n"], found[0])
        row["shows"] = None if found is None else found[1]
    return row | {"text": difference_text(row, delta)}


def _sequential_row(t: dict[str, Any], rule: dict[str, Any]) -> dict[str, Any]:
    """One outcome's answer by the anytime-valid interval of ``--until-clear``."""
    verdict = {"change": "change", "no change": "no change"}.get(t["decision"], "undetermined")
    row = {"faction": t["faction"], "test": "sequential", "diff": t["diff"], "low": t["low"],
           "high": t["high"], "verdict": verdict}  # fmt: skip
    if verdict == "undetermined":
        row |= {"more_games": t.get("more_games"), "shows": t.get("shows")}
    return row | {"text": difference_text(row, rule["delta"])}


def sequential_text(t: dict[str, Any], delta: float) -> str:
    """A sequential look's outcome (``OutcomeTest`` as JSON) in the report's words."""
    return _sequential_row(t, {"delta": delta})["text"]


def _outcomes_of(comp: Any) -> tuple[str, ...]:
    """The outcomes a comparison tests: its run's seats and the tie (else its rows')."""
    run = getattr(comp.a, "run", None)
    return run.outcomes if isinstance(run, Run) else tuple(w["faction"] for w in comp.wins)


def _seat_noun(comp: Any) -> str | None:
    run = getattr(comp.a, "run", None)
    return terms.seat_noun(run.game) if isinstance(run, Run) else None


def changes(comparisons: Sequence[Any], delta: float = 0.03, alpha: float = 0.05) -> list[dict]:
    """Per comparison and outcome (each seat, and unresolved ties): "change", "no change"
    (larger than delta) or "undetermined" (not yet known), each with its interval: the
    report's simultaneous intervals (over every outcome of every comparison), or a
    sequential study's anytime-valid ones."""
    level = 1 - alpha / max(1, sum(len(_outcomes_of(c)) for c in comparisons))
    out = []
    for comp in comparisons:
        look = _sequential(comp)
        decided = {t["faction"]: t for t in look["factions"]} if look else {}
        known = _outcomes_of(comp)
        rows = []
        for w in comp.wins:
            f = w["faction"]
            if f not in known:
                continue
            if f in decided:
                rows.append(_sequential_row(decided[f], look["rule"]))
            else:
                rows.append(_fixed_row(w, delta, level))
        entry = {
            "a": comp.a.label,
            "b": comp.b.label,
            "paired_games": comp.n,
            "overall": comp.overall,
            "confounded": comp.confounded,
            "delta": look["rule"]["delta"] if look else delta,
            "sequential": bool(look),
            "interval": interval_name(ANYTIME if look else SIMULTANEOUS, 1 - alpha),
            "stopped": ({"status": look["status"], "reason": look["reason"]} if look else None),
            "factions": rows,
        }
        entry["sentence"] = comparison_sentence(entry, _seat_noun(comp))
        out.append(entry)
    return out


def _names(outcomes: Sequence[str]) -> str:
    names = [_outcome_name(f) for f in outcomes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def comparison_sentence(entry: dict[str, Any], seat: str | None = None) -> str:
    """The one sentence a designer reads first about a comparison (B against A), after its
    subject (``B against A: ``): every difference with its interval, in one vocabulary.
    ``seat``: what a seat is called ("Faction"; None: the default game's word)."""
    seat = seat or terms.seat_noun()
    rows = entry["factions"]
    delta = entry["delta"]
    kind = "anytime-valid" if entry["sequential"] else "simultaneous"
    level = entry["interval"].split(" ", 1)[0]
    games = f"{entry['paired_games']:,} paired games; {level} {kind} intervals"

    def each(r: dict[str, Any]) -> str:
        return (f"{_outcome_name(r['faction'])} {signed(r['diff'])} "
                f"[{signed(r['low'])}, {signed(r['high'])}]")  # fmt: skip

    if rows and all(r["verdict"] == "no change" for r in rows):
        return (
            f"no change larger than {_points(delta)} percentage points in any {seat}'s win "
            f"rate or in the rate of unresolved ties ({', '.join(each(r) for r in rows)}; "
            f"{games})."
        )
    parts = []
    for r in rows:
        if r["verdict"] == "change":
            d = 100 * r["diff"]
            what = "unresolved ties" if r["faction"] == "tie" else f"{r['faction']} wins"
            small = -delta <= r["low"] and r["high"] <= delta
            parts.append(
                f"{what} {abs(d):.1f} percentage points {'more' if d > 0 else 'less'} "
                f"[{signed(r['low'])}, {signed(r['high'])}], a change"
                + (f" smaller than {_points(delta)} percentage points" if small else "")
            )
    same = [r for r in rows if r["verdict"] == "no change"]
    if same:
        parts.append(
            f"no change larger than {_points(delta)} percentage points for "
            f"{_names([each(r) for r in same])}"
        )
    open_ = [r for r in rows if r["verdict"] == "undetermined"]
    if open_:
        text = f"not yet known for {_names([each(r) for r in open_])}"
        if all(r.get("more_games") for r in open_):
            most = max(r["more_games"] for r in open_)
            them = "it" if len(open_) == 1 else "them"
            text += f": {_about(most, 'paired games')} would decide {them} at these differences"
        parts.append(text)
    return f"{'; '.join(parts)} ({games})."


# ---------------------------------------------------------------------------------------------
# Failures, bots, the whole verdict


def failures(run: Run) -> dict[str, Any] | None:
    """A warning when more than 1% of games failed: each seat's win rate bounded by
    counting every failed game as its loss (worst case) or as its win (best case)."""
    games = run.games
    failed = int(games.get_column("error").is_not_null().sum())
    if not games.height or failed / games.height <= FAILURE_SHARE:
        return None
    ok = run.ok_games()
    bounds = {}
    for f in run.seats:
        wins = int((ok.get_column("winner") == f).sum())
        bounds[f] = (wins / games.height, (wins + failed) / games.height)
    return {"failed": failed, "games": games.height, "bounds": bounds}


def exploitability(run: Run) -> list[dict[str, Any]]:
    """For each lineup of the run that a ladder measured (the game's exploitability file,
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
    whether it has converged (the game's strength file, as the run recorded it), with the
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
