"""Paired comparison of two variants (or two runs) played on the same game seeds.

Game ``k`` of a study plays with the seed ``seeds.game_seed(master, k)`` under every variant,
so two variants of one run, or two runs made with the same ``--seed``, can be compared game by
game (common random numbers): the games are joined on ``game_index`` and their ``seed``
columns must agree, else the comparison is refused (:class:`CompareError`, one line).
Games that errored on either side are dropped from the pairs and counted. Two sides of
different games or seats do not pair: refused in one line.

Per seat (and for unresolved ties) the win rates are compared with
``stats.paired_win_comparison`` (Newcombe's paired interval, McNemar's test), and the mean
final score with ``stats.paired_mean_difference`` (paired bootstrap), which also says what the
pairing bought (``variance_reduction`` and the equivalent sample-size multiplier).

>>> a, b = resolve(["runs/x"], ("base", "timurs-shadow"))    # doctest: +SKIP
>>> comparison = compare(a, b)                               # doctest: +SKIP
>>> write(comparison, Path("runs/x/compare-base-vs-timurs-shadow"))  # doctest: +SKIP
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import figures, render, stats, terms
from simulate.analysis.formatting import (
    finite,
    level,
    num,
    p_value,
    pct,
    pp,
    pp_ci,
    reduction,
)
from simulate.analysis.run import ReportError, Run, load_run
from simulate.analysis.stats import stuart_maxwell
from simulate.study.dataset import cell_label


class CompareError(ReportError):
    """Two sides that cannot be compared (the message is one line)."""


class TooFewPairs(CompareError):
    """Fewer than two games finished on both sides."""


@dataclass(frozen=True)
class Side:
    """One variant of one run."""

    run: Run
    variant: str
    label: str

    def games(self) -> pl.DataFrame:
        return self.run.variant_games(self.variant, ok=False)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.run.seats


@dataclass
class Comparison:
    a: Side
    b: Side
    confidence: float
    n: int  # paired games used (finished on both sides)
    common: int  # game indices present on both sides
    only_a: int  # game indices only side a has
    only_b: int
    errored: int  # common games dropped because they errored on a side
    wins: list[dict[str, Any]] = field(default_factory=list)
    vp: list[dict[str, Any]] = field(default_factory=list)
    confounded: list[str] = field(default_factory=list)  # what differs besides the rules
    overall: dict[str, float] = field(default_factory=dict)  # Stuart-Maxwell, all outcomes

    def to_json(self) -> dict[str, Any]:
        return {
            "confounded": self.confounded,
            "overall": self.overall,
            "a": {
                "run": str(self.a.run.directory),
                "variant": self.a.variant,
                "label": self.a.label,
            },
            "b": {
                "run": str(self.b.run.directory),
                "variant": self.b.variant,
                "label": self.b.label,
            },
            "master_seed": self.a.run.master_seed,
            "confidence": self.confidence,
            "paired_games": self.n,
            "common_games": self.common,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "errored_pairs_dropped": self.errored,
            "wins": self.wins,
            "vp": self.vp,
        }


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "_"


def _choose(run: Run, name: str, role: str) -> str:
    if name not in run.variants:
        raise CompareError(
            f"no variant {name!r} in {run.directory} (it has {', '.join(run.variants)}); "
            f"check {role} of --variants"
        )
    return name


def resolve(
    directories: Sequence[Path | str], variants: Sequence[str] | None = None
) -> tuple[Side, Side]:
    """The two sides named on the command line: ``DIR --variants A B`` (one run) or
    ``DIR_A DIR_B [--variants A B]`` (A from DIR_A, B from DIR_B)."""
    if variants is not None and len(variants) != 2:
        raise CompareError("--variants takes exactly two names: A B")
    if len(directories) == 1:
        run = load_run(directories[0])
        if variants:
            a, b = _choose(run, variants[0], "the first"), _choose(run, variants[1], "the second")
        elif len(run.variants) == 2:
            a, b = run.variants
        else:
            raise CompareError(
                f"{run.directory} has {len(run.variants)} variant(s) "
                f"({', '.join(run.variants)}); name two with --variants A B, or give two runs"
            )
        if a == b:
            raise CompareError(f"both sides are variant {a!r}; name two different variants")
        return Side(run, a, a), Side(run, b, b)
    if len(directories) == 2:
        run_a, run_b = load_run(directories[0]), load_run(directories[1])
        if variants:
            a = _choose(run_a, variants[0], "the first")
            b = _choose(run_b, variants[1], "the second")
        else:
            for run in (run_a, run_b):
                if len(run.variants) != 1:
                    raise CompareError(
                        f"{run.directory} has several variants ({', '.join(run.variants)}); "
                        "choose with --variants A B (A from DIR_A, B from DIR_B)"
                    )
            a, b = run_a.variants[0], run_b.variants[0]
        return _two_run_sides(run_a, a, run_b, b)
    raise CompareError("give one run directory (with --variants A B) or two run directories")


def _two_run_sides(run_a: Run, a: str, run_b: Run, b: str) -> tuple[Side, Side]:
    if run_a.directory.resolve() == run_b.directory.resolve():
        return Side(run_a, a, a), Side(run_b, b, b)
    if a != b:
        return Side(run_a, a, a), Side(run_b, b, b)
    la, lb = f"{run_a.name}:{a}", f"{run_b.name}:{b}"
    if la == lb:
        la, lb = f"{run_a.directory}:{a}", f"{run_b.directory}:{b}"
    return Side(run_a, a, la), Side(run_b, b, lb)


def report_pairs(run: Run, others: Sequence[Run]) -> list[tuple[Side, Side]]:
    """The comparisons a report of ``run`` shows: each of its variants after the first against
    the first; and for each run given with ``--compare``, its same-named variants (or, with
    none in common, each of its variants against ``run``'s first)."""
    pairs = []
    first = run.variants[0]
    if run.lineups:  # each variant against the first, under each lineup
        names = [e["name"] for e in run.manifest.get("variants") or []]
        for lineup in run.lineups:
            a = cell_label(names[0], lineup)
            for v in names[1:]:
                b = cell_label(v, lineup)
                if a in run.variants and b in run.variants:
                    pairs.append((Side(run, a, a), Side(run, b, b)))
        return pairs
    for v in run.variants[1:]:
        pairs.append((Side(run, first, first), Side(run, v, v)))
    for other in others:
        if other.directory.resolve() == run.directory.resolve():
            continue  # the run's own variants are compared above
        common = [v for v in run.variants if v in other.variants]
        if common:
            pairs += [_two_run_sides(run, v, other, v) for v in common]
        else:
            pairs += [_two_run_sides(run, first, other, w) for w in other.variants]
    return pairs


def check_seats(a: Side, b: Side) -> None:
    """CompareError (one line) unless both sides play the same game at the same seats."""
    ga, gb = a.run.the_game, b.run.the_game
    if ga.name != gb.name:
        raise CompareError(
            f"cannot compare {a.label} with {b.label}: they play different games "
            f"({ga.name} vs {gb.name})"
        )
    if a.seats != b.seats:
        raise CompareError(
            f"cannot compare {a.label} with {b.label}: their seats differ "
            f"({len(a.seats)}: {', '.join(a.seats)} vs {len(b.seats)}: {', '.join(b.seats)}); "
            "a paired comparison needs the same seats on both sides"
        )


def paired_games(a: Side, b: Side) -> tuple[pl.DataFrame, dict[str, int]]:
    """The games of both sides joined on ``game_index`` (columns of b suffixed ``_b``), only
    those finished on both; CompareError if the sides' seats or a common game's seeds
    differ."""
    check_seats(a, b)
    scores = [a.run.score_column(f) for f in a.seats]
    cols = ["game_index", "seed", "winner", "error", *scores]
    ga = a.games().select(cols)
    gb = b.games().select(cols)
    joined = ga.join(gb, on="game_index", how="inner", suffix="_b").sort("game_index")
    if joined.height == 0:
        raise CompareError(f"{a.label} and {b.label} have no game index in common; nothing to pair")
    bad = joined.filter(pl.col("seed") != pl.col("seed_b"))
    if bad.height:
        k = bad.get_column("game_index")[0]
        raise CompareError(
            f"cannot pair {a.label} with {b.label}: game seeds differ ({bad.height} of "
            f"{joined.height} common games, first game {k}; master seed {a.run.master_seed} vs "
            f"{b.run.master_seed}); a paired comparison needs runs made with the same --seed"
        )
    ok = joined.filter(pl.col("error").is_null() & pl.col("error_b").is_null())
    counts = {
        "common": joined.height,
        "only_a": ga.height - joined.height,
        "only_b": gb.height - joined.height,
        "errored": joined.height - ok.height,
    }
    return ok, counts


def pairing(a: Side, b: Side) -> dict[str, float]:
    """The per-game correlation of the winners of two sides on common seeds, per seat, with
    its lower bound (``stats.pairing_correlation``): the ``rho`` a paired study of these two
    variants can count on, measured on a pilot of their own."""
    ok, _ = paired_games(a, b)
    return stats.pairing_correlation(ok["winner"].to_list(), ok["winner_b"].to_list(), a.seats)


def confounders(a: Side, b: Side) -> list[str]:
    """What differs between the runs of two sides besides their variant: the bots (lineup
    and their parameters), the engine (package version, git commit) or the data files. Any
    of these makes B - A measure more than the rule change. (Other seeds are refused by
    ``paired_games``: nothing pairs.)"""
    if a.run.directory.resolve() == b.run.directory.resolve():
        return []
    ma, mb = a.run.manifest, b.run.manifest
    out = []
    if a.run.strategies != b.run.strategies or ma.get("lineups") != mb.get("lineups"):
        sa = ", ".join(f"{f}={s}" for f, s in a.run.strategies.items())
        sb = ", ".join(f"{f}={s}" for f, s in b.run.strategies.items())
        out.append(f"bots: A {sa}; B {sb}")
    elif ma.get("strategy_params") != mb.get("strategy_params"):
        out.append("bot parameters (weights files)")
    va, vb = ((m.get("package") or {}).get("version") for m in (ma, mb))
    if va != vb or ma.get("git_commit") != mb.get("git_commit"):
        out.append(
            f"engine: {va} ({(ma.get('git_commit') or '?')[:8]}) vs "
            f"{vb} ({(mb.get('git_commit') or '?')[:8]})"
        )
    if (ma.get("config") or {}).get("data_digest") != (mb.get("config") or {}).get("data_digest"):
        out.append("data files")
    return out


def compare(
    a: Side,
    b: Side,
    confidence: float = 0.95,
    n_boot: int = 2000,
    boot_seed: int = 0,
    allow_confounded: bool = False,
) -> Comparison:
    """Compare side ``b`` with side ``a`` on their common seeds (differences are b - a).

    Sides from runs that differ in more than the rules (``confounders``) are refused unless
    ``allow_confounded``; then the comparison carries what differs, shown under a warning.
    Sides of different games or seats are always refused (``check_seats``).
    """
    check_seats(a, b)
    confounded = confounders(a, b)
    if confounded and not allow_confounded:
        raise CompareError(
            f"cannot compare {a.label} with {b.label} as a rule change: the runs also differ "
            f"in {'; '.join(confounded)}; B - A would measure that too (use --confounded to "
            "show it anyway, under a warning)"
        )
    ok, counts = paired_games(a, b)
    if ok.height < 2:
        raise TooFewPairs(
            f"only {ok.height} game(s) of {a.label} and {b.label} finished on both sides; "
            "a paired comparison needs at least two"
        )
    win_a = ["tie" if w is None else w for w in ok.get_column("winner").to_list()]
    win_b = ["tie" if w is None else w for w in ok.get_column("winner_b").to_list()]
    wins = []
    outcomes = a.run.outcomes
    together = simultaneous(confidence, outcomes=len(outcomes))
    for outcome in outcomes:
        row = stats.paired_win_comparison(win_a, win_b, outcome, together)
        ind = stats.paired_mean_difference(
            [w == outcome for w in win_a], [w == outcome for w in win_b], confidence, n_boot=1
        )
        row["variance_reduction"] = ind["variance_reduction"]
        row["pairing_efficiency"] = ind["pairing_efficiency"]
        wins.append(row)
    vp = []
    for f in a.seats:
        column = a.run.score_column(f)
        row = stats.paired_mean_difference(
            ok.get_column(column).to_numpy(),
            ok.get_column(f"{column}_b").to_numpy(),
            confidence,
            n_boot=n_boot,
            seed=boot_seed,
        )
        vp.append({"faction": f, **row})
    return Comparison(
        a,
        b,
        confidence,
        ok.height,
        wins=wins,
        vp=vp,
        confounded=confounded,
        overall=stuart_maxwell(win_a, win_b, outcomes),
        **counts,
    )


def simultaneous(confidence: float, comparisons: int = 1, outcomes: int | None = None) -> float:
    """Each outcome's level so that the n + 1 intervals (``outcomes``: the n seats and
    unresolved ties; None: the default game's) of ``comparisons`` comparisons hold together
    at ``confidence`` (Bonferroni)."""
    count = len(terms.outcomes(terms.default_seats())) if outcomes is None else outcomes
    return 1 - (1 - confidence) / (count * comparisons)


# ---------------------------------------------------------------------------------------------
# Presentation


def win_table(comp: Comparison, answer: dict[str, Any] | None = None) -> render.Table:
    """Each outcome's rates, difference, interval and answer. ``answer``: the verdict of this
    comparison (``verdict.changes``), whose intervals the table shows (a sequential study's
    anytime-valid ones); else the comparison's own simultaneous intervals."""
    rows_of = {r["faction"]: r for r in (answer or {}).get("factions", [])}
    kind = "anytime-valid" if answer and answer.get("sequential") else "simultaneous"
    words = {"change": "change", "no change": "no change", "undetermined": "not yet known"}
    cols = [
        comp.a.run.the_game.seat_word,
        "win rate A",
        "win rate B",
        "B - A",
        f"{level(comp.confidence)} {kind} interval",
        "answer",
        "McNemar p (alone)",
        "B only / A only",
        "variance reduction",
    ]
    rows = []
    for r in comp.wins:
        mine = rows_of.get(r["faction"])
        lo, hi = (mine["low"], mine["high"]) if mine else (r["diff_low"], r["diff_high"])
        rows.append(
            [
                "unresolved tie" if r["faction"] == "tie" else r["faction"],
                pct(r["rate_a"]),
                pct(r["rate_b"]),
                pp(r["diff"]),
                pp_ci(lo, hi),
                words.get(mine["verdict"], mine["verdict"]) if mine else "",
                p_value(r["p_value"]),
                f"{r['b01']} / {r['b10']}",
                reduction(r["variance_reduction"], r["pairing_efficiency"]),
            ]
        )
    return render.table(cols, rows)


def vp_table(comp: Comparison) -> render.Table:
    """Each seat's mean final score on both sides, the difference and its paired interval."""
    game = comp.a.run.the_game
    cols = [
        game.seat_word,
        f"mean {game.score_label} A",
        f"mean {game.score_label} B",
        "B - A",
        f"{level(comp.confidence)} paired bootstrap CI",
        "SE paired / unpaired",
        "variance reduction",
    ]
    rows = [
        [
            r["faction"],
            num(r["mean_a"]),
            num(r["mean_b"]),
            f"{r['diff']:+.2f}",
            f"[{r['diff_low']:+.2f}, {r['diff_high']:+.2f}]",
            f"{num(r['paired_se'], 3)} / {num(r['unpaired_se'], 3)}",
            reduction(r["variance_reduction"], r["pairing_efficiency"]),
        ]
        for r in comp.vp
    ]
    return render.table(cols, rows)


def summary_line(comp: Comparison) -> str:
    a, b = comp.a, comp.b
    parts = [f"Paired on **{comp.n} games** with common seeds (master seed {a.run.master_seed})"]
    extra = []
    if comp.errored:
        extra.append(f"{comp.errored} dropped because they errored on a side")
    if comp.only_a or comp.only_b:
        extra.append(f"{comp.only_a} only in A and {comp.only_b} only in B left out")
    if extra:
        parts.append(" (" + "; ".join(extra) + ")")
    parts.append(f". A = {a.label}, B = {b.label}.")
    return "".join(parts)


def template_context(
    comp: Comparison, figure_path: Path | None = None, answer: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What ``templates/_macros.md.j2``'s ``comparison`` macro shows of a comparison
    (``answer``: its verdict, whose intervals the table shows)."""
    sequential = bool(answer and answer.get("sequential"))
    score = comp.a.run.the_game.score_label
    context: dict[str, Any] = {
        "title": f"{comp.b.label} vs {comp.a.label}",
        "summary": summary_line(comp),
        "confounded": comp.confounded,
        "sequential": sequential,
        "wins": win_table(comp, answer),
        "vp": vp_table(comp),
        "score_label": score,
        "outcomes": terms.number_word(len(comp.a.run.outcomes)),
        "note": None,
    }
    if figure_path is not None:
        context["figure"] = render.Figure(
            figure_path,
            f"{comp.b.label} minus {comp.a.label}, per outcome, with "
            f"{level(comp.confidence)} {'anytime-valid' if sequential else 'simultaneous'} "
            f"intervals of the win rates' differences and paired bootstrap intervals of the "
            f"{score}.",
        )
    return context


def _verdict(lo: float, hi: float) -> str:
    return "up" if lo > 0 else "down" if hi < 0 else "none"


def lineup_agreement(comparisons: Sequence[Comparison], lineups: Sequence[str]) -> dict[str, Any]:
    """The same variant comparison under several lineups, side by side: per seat, B - A
    with its paired interval under each lineup, and whether the conclusions agree."""
    first = comparisons[0]
    a_name, b_name = (s.label.split(" / ")[0] for s in (first.a, first.b))
    rows, sentences = [], []
    for f in first.a.seats:
        cells, verdicts = [f], []
        for comp in comparisons:
            w = next(r for r in comp.wins if r["faction"] == f)
            cells.append(f"{pp(w['diff'])} {pp_ci(w['diff_low'], w['diff_high'])}")
            verdicts.append(_verdict(w["diff_low"], w["diff_high"]))
        rows.append(cells)
        named = dict(zip(lineups, verdicts, strict=True))
        if set(verdicts) == {"none"}:
            text = f"no detectable change under {' and under '.join(lineups)}"
        elif {"up", "down"} <= set(verdicts):
            text = "the sign flips between lineups: the conclusion depends on the bots"
        elif len(set(verdicts)) == 1:
            text = f"{verdicts[0]} under every lineup: the lineups agree"
        else:
            seen = [x for x, v in named.items() if v != "none"]
            unseen = [x for x, v in named.items() if v == "none"]
            text = (
                f"detected under {', '.join(seen)} but not under {', '.join(unseen)}: "
                "the conclusion depends on the bots"
            )
        sentences.append(f"{f}: {text}.")
    level_ = level(first.confidence)
    return {
        "title": f"{b_name} vs {a_name}",
        "table": render.table(
            [first.a.run.the_game.seat_word, *[f"B - A under {x} [{level_}]" for x in lineups]],
            rows,
        ),
        "sentences": sentences,
    }


def figure(comp: Comparison, answer: dict[str, Any] | None = None) -> Any:
    """B - A per outcome with the intervals the table shows (``win_table``)."""
    rows_of = {r["faction"]: r for r in (answer or {}).get("factions", [])}
    wins = [
        w | {"diff_low": rows_of[w["faction"]]["low"], "diff_high": rows_of[w["faction"]]["high"]}
        if w["faction"] in rows_of
        else w
        for w in comp.wins
    ]
    game = comp.a.run.the_game
    return figures.comparison(
        wins,
        comp.vp,
        comp.a.label,
        comp.b.label,
        comp.confidence,
        seats=comp.a.seats,
        score_label=game.score_label,
        names=terms.seat_names(game),
    )


def default_out(a: Side, b: Side) -> Path:
    return b.run.directory / f"compare-{_safe(a.label)}-vs-{_safe(b.label)}"


@dataclass
class CompareFiles:
    out: Path
    markdown: Path
    figure: Path
    json: Path


def decision(comp: Comparison, margin: float = 0.03) -> dict[str, Any]:
    """The report's verdict on this comparison alone (``verdict.changes``): per outcome
    "change", "no change larger than margin" or undetermined, and its sentence."""
    from simulate.analysis import verdict

    return verdict.changes([comp], margin, round(1 - comp.confidence, 12))[0]


def decision_lines(found: dict[str, Any]) -> list[str]:
    """The answer as the report gives it: one sentence, then one line per outcome, and for
    a sequential study why it stopped."""
    lines = [f"{found['b']} against {found['a']}: {found['sentence']}"]
    lines += [f"  {r['text']}" for r in found["factions"]]
    if found.get("stopped"):
        lines.append(f"The sequential study stopped because {found['stopped']['reason']}.")
    return lines


def write(comp: Comparison, out: Path, margin: float = 0.03) -> CompareFiles:
    """Write ``compare.md``, ``compare.png`` and ``compare.json`` into ``out``."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CompareError(f"cannot create {out}: {exc.strerror}") from None
    found = decision(comp, margin)
    png = figures.save(figure(comp, found), out / "compare.png")
    context = template_context(comp, png, found)
    md = out / "compare.md"
    md.write_text(
        render.markdown(
            "compare.md.j2",
            comparison=context,
            figure=context["figure"],
            answer=found,
            confidence=comp.confidence,
        ),
        "utf-8",
    )
    js = out / "compare.json"
    payload = finite(comp.to_json() | {"verdict": found})
    text = json.dumps(payload, indent=2, allow_nan=False, default=_json_default)
    js.write_text(text + "\n", "utf-8")
    return CompareFiles(out, md, png, js)


def _json_default(x: Any) -> Any:
    if hasattr(x, "item"):
        return x.item()
    return str(x)


__all__ = [
    "stuart_maxwell",
    "CompareError",
    "TooFewPairs",
    "Comparison",
    "Side",
    "template_context",
    "lineup_agreement",
    "compare",
    "decision",
    "decision_lines",
    "default_out",
    "figure",
    "paired_games",
    "pairing",
    "report_pairs",
    "resolve",
    "write",
]
