"""The balance report of a run: Markdown and self-contained HTML, with matplotlib figures.

``vsim report DIR`` calls :func:`build_report`, which reads the run's Parquet tables and
manifest (:func:`load_run`), summarises them with :mod:`simulate.stats` (Wilson and Goodman
intervals, Student-t intervals of means, paired comparisons) and writes into ``DIR/report/``
(or ``--out``)::

    report.html        one file: tables, text and every figure embedded as a base64 PNG
    report.md          the same content, figures linked as the PNG files beside it
    *.png              win_rates, vp_distribution, vp_per_turn, influence, mongols,
                       game_length, action_mix, and compare-*.png for each comparison

Errored games (a ``games`` row with ``error`` set) are left out of every rate and mean and
counted in the "failures" line. The header states the run's provenance and, always, whether
the map and the Event deck it used were provisional stand-ins.

>>> from simulate.report import build_report               # doctest: +SKIP
>>> build_report("runs/forts").html                         # doctest: +SKIP
PosixPath('runs/forts/report/report.html')
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from simulate import figures, stats
from simulate import manifest as manifest_mod
from simulate.result import FACTIONS

if TYPE_CHECKING:
    from simulate.compare import Comparison

DECCAN = ("BK", "VE")
MAP_FILE = "simulate/data/map.yaml"
EVENTS_FILE = "simulate/data/events.yaml"
MIN_TURN_SHARE = 0.10  # a per-card curve stops when fewer games than this still run
MIN_TURN_GAMES = 5


class ReportError(ValueError):
    """A run directory that cannot be reported on (the message is one line)."""


# ---------------------------------------------------------------------------------------------
# A run on disk


@dataclass
class Run:
    """One run directory: its manifest and its ``games`` and ``turns`` tables."""

    directory: Path
    manifest: dict[str, Any]
    games: pl.DataFrame  # every row, errored games included
    turns: pl.DataFrame
    variants: list[str]  # in the order of the manifest

    @property
    def name(self) -> str:
        return self.directory.resolve().name

    @property
    def master_seed(self) -> int | None:
        seed = self.manifest.get("master_seed", (self.manifest.get("config") or {}).get("seed"))
        return None if seed is None else int(seed)

    @property
    def strategies(self) -> dict[str, str]:
        found = self.manifest.get("strategies") or {}
        if not found and self.games.height:
            first = self.games.row(0, named=True)
            found = {f: first[f"strategy_{f}"] for f in FACTIONS}
        return {f: str(found.get(f, "?")) for f in FACTIONS}

    def variant_games(self, variant: str, *, ok: bool = True) -> pl.DataFrame:
        """The games of ``variant``; only those that finished unless ``ok`` is False."""
        g = self.games.filter(pl.col("variant") == variant)
        return g.filter(pl.col("error").is_null()) if ok else g

    def ok_games(self) -> pl.DataFrame:
        return self.games.filter(pl.col("error").is_null())

    def description(self, variant: str) -> str:
        for entry in self.manifest.get("variants") or []:
            if entry.get("name") == variant:
                return str(entry.get("description") or "")
        return ""


def load_run(directory: Path | str) -> Run:
    """Read a run directory written by ``vsim run``; ReportError (one line) if unusable."""
    from simulate import runner

    directory = Path(directory)
    if not directory.is_dir():
        raise ReportError(f"{directory} is not a directory")
    try:
        man = manifest_mod.read(directory)
    except ValueError as exc:
        raise ReportError(" ".join(str(exc).split())) from None
    if man is None:
        raise ReportError(f"{directory} has no manifest.json: not a vsim run directory")
    if not runner.shards(directory, "games"):
        raise ReportError(f"{directory} has no games yet (games/*.parquet is empty)")
    try:
        games = pl.from_arrow(runner.read_table(directory, "games"))
        turns = pl.from_arrow(runner.read_table(directory, "turns"))
    except Exception as exc:  # a damaged shard
        detail = " ".join(str(exc).split())
        raise ReportError(
            f"{directory}: cannot read the tables ({type(exc).__name__}: {detail})"
        ) from None
    assert isinstance(games, pl.DataFrame) and isinstance(turns, pl.DataFrame)
    present = set(games.get_column("variant").unique().to_list())
    ordered = [e["name"] for e in man.get("variants") or [] if isinstance(e, dict) and "name" in e]
    variants = [v for v in ordered if v in present] + sorted(present - set(ordered))
    return Run(directory, man, games, turns, variants)


# ---------------------------------------------------------------------------------------------
# Summaries (each a list of row dicts or a polars frame; every interval from simulate.stats)


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


# ---------------------------------------------------------------------------------------------
# Provenance


def provisional_status(run: Run) -> dict[str, Any]:
    """What was provisional in the run: data files (from the manifest) and, per variant, the
    compiled Rules' ``provisional`` flags when today's data files are those the run used."""
    man = run.manifest
    prov = man.get("provisional")
    files: list[str] = []
    known = isinstance(prov, dict)
    if known:
        files = [str(f) for f in prov.get("files") or [] if not str(f).startswith("variants/")]
    flags: dict[str, dict[str, bool]] = {}
    try:
        current = manifest_mod.data_digest(manifest_mod.data_files())
        if current == (man.get("config") or {}).get("data_digest"):
            from simulate import runner

            _, _, variants = runner.study_from_manifest(run.directory)
            for name, variant in variants.items():
                flags[name] = dict(runner.compiled_rules(variant).provisional)
    except Exception:  # the data changed since, or a variant no longer compiles
        flags = {}
    return {"known": known, "files": files, "flags": flags, "note": (prov or {}).get("note")}


def _provisional_text(status: dict[str, Any]) -> str:
    flags = status["flags"]
    files = status["files"]
    any_flag = any(any(f.values()) for f in flags.values())
    if not status["known"]:
        head = (
            "**PROVISIONAL DATA (status not recorded).** This run's manifest does not say which "
            "data were provisional; assume the map's Prosperity/adjacency and the Event deck "
            "are provisional stand-ins, as in the shipped data."
        )
    elif not files and not any_flag:
        return (
            "No data file of this run is marked provisional: the map and the Event deck are "
            "those the designer entered."
        )
    else:
        parts = []
        map_prov = "map.yaml" in files or any(
            f.get("map_prosperity") or f.get("map_adjacency") for f in flags.values()
        )
        deck_prov = "events.yaml" in files or any(f.get("event_deck") for f in flags.values())
        if map_prov:
            parts.append(f"the map's Prosperity values and adjacencies (`{MAP_FILE}`)")
        if deck_prov:
            parts.append(f"the Event deck (`{EVENTS_FILE}`)")
        others = [f for f in files if f not in ("map.yaml", "events.yaml")]
        if others:
            parts.append("also " + ", ".join(f"`simulate/data/{f}`" for f in others))
        what = " and ".join(parts) if parts else "some data files"
        head = (
            f"**PROVISIONAL DATA: {what} are provisional stand-ins, not the printed game.** "
            "Read these numbers as a test of the tool, not a verdict on the game's balance."
        )
    fix = (
        f" To replace them, correct `{MAP_FILE}` (Prosperity, adjacencies) and "
        f"`{EVENTS_FILE}` (the cards), or override them for one study with a variant file "
        "(`[map] prosperity`, `add_adjacent`, `remove_adjacent`, `[deck] events_file`; the "
        "format is in `simulate/data/variants/base.toml`), then run the study again."
    )
    detail = ""
    if flags:
        labels = {
            "map_prosperity": "Prosperity",
            "map_adjacency": "adjacency",
            "event_deck": "Event deck",
        }
        bits = []
        for name, f in flags.items():
            prov = [labels.get(k, k) for k, val in f.items() if val]
            bits.append(f"{name}: " + (", ".join(prov) + " provisional" if prov else "none"))
        detail = " Per variant: " + "; ".join(bits) + "."
    return head + fix + detail


def provenance_rows(run: Run) -> list[tuple[str, str]]:
    man = run.manifest
    fails = failure_counts(run)
    per_variant = [
        f"{v}: {total - err} finished" + (f" ({err} failed)" if err else "")
        for v, (err, total) in fails.items()
    ]
    total = sum(t for _, t in fails.values())
    err_total = sum(e for e, _ in fails.values())
    pkg = man.get("package") or {}
    strategies = run.strategies
    if len(set(strategies.values())) == 1:
        strat = f"all factions: `{strategies['DS']}`"
    else:
        strat = ", ".join(f"{f} `{s}`" for f, s in strategies.items())
    variants = "; ".join(
        f"**{v}**" + (f" — {run.description(v)}" if run.description(v) else "")
        for v in run.variants
    )
    rows = [
        ("Run", f"`{run.directory}` (run id `{man.get('run_id', '?')}`)"),
        ("N games", f"{total} ({'; '.join(per_variant)})"),
        ("Master seed", str(run.master_seed)),
        ("Strategies", strat),
        ("Variants", variants),
        ("Package", f"{pkg.get('name', manifest_mod.PACKAGE)} {pkg.get('version', '?')}"),
        ("Git commit", f"`{man['git_commit']}`" if man.get("git_commit") else "not recorded"),
        ("Played", f"{man.get('start_time', '?')} to {man.get('end_time', '?')}"),
        ("Status", str(man.get("status", "?"))),
        (
            "Failures",
            f"{err_total} of {total} games raised an error; they are excluded from every rate"
            + (" (see the Failures section)" if err_total else ""),
        ),
    ]
    return rows


# ---------------------------------------------------------------------------------------------
# A tiny document model rendered both as Markdown and as HTML


@dataclass
class Block:
    kind: str  # heading | para | warning | table | figure | list
    text: str = ""
    level: int = 2
    columns: Sequence[str] = ()
    rows: Sequence[Sequence[str]] = ()
    path: Path | None = None
    items: Sequence[str] = ()


@dataclass
class Document:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def h(self, text: str, level: int = 2) -> None:
        self.blocks.append(Block("heading", text, level=level))

    def p(self, text: str) -> None:
        self.blocks.append(Block("para", text))

    def warn(self, text: str) -> None:
        self.blocks.append(Block("warning", text))

    def table(self, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        self.blocks.append(
            Block("table", columns=list(columns), rows=[[str(c) for c in r] for r in rows])
        )

    def figure(self, path: Path, caption: str) -> None:
        self.blocks.append(Block("figure", caption, path=path))

    def bullets(self, items: Iterable[str]) -> None:
        self.blocks.append(Block("list", items=list(items)))

    def markdown(self) -> str:
        out = [f"# {self.title}", ""]
        for b in self.blocks:
            if b.kind == "heading":
                out += ["#" * b.level + " " + b.text, ""]
            elif b.kind == "para":
                out += [b.text, ""]
            elif b.kind == "warning":
                out += ["> " + b.text, ""]
            elif b.kind == "list":
                out += [f"- {item}" for item in b.items] + [""]
            elif b.kind == "table":
                out.append("| " + " | ".join(_md_cell(c) for c in b.columns) + " |")
                out.append("|" + "|".join(" --- " for _ in b.columns) + "|")
                out += ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in b.rows]
                out.append("")
            elif b.kind == "figure" and b.path is not None:
                out += [f"![{b.text}]({b.path.name})", "", f"*{b.text}*", ""]
        return "\n".join(out).rstrip() + "\n"

    def html(self) -> str:
        body = []
        for b in self.blocks:
            if b.kind == "heading":
                anchor = re.sub(r"[^a-z0-9]+", "-", b.text.lower()).strip("-")
                body.append(f'<h{b.level} id="{anchor}">{_inline(b.text)}</h{b.level}>')
            elif b.kind == "para":
                body.append(f"<p>{_inline(b.text)}</p>")
            elif b.kind == "warning":
                body.append(f'<div class="warning">{_inline(b.text)}</div>')
            elif b.kind == "list":
                items = "".join(f"<li>{_inline(i)}</li>" for i in b.items)
                body.append(f"<ul>{items}</ul>")
            elif b.kind == "table":
                head = "".join(f"<th>{_inline(c)}</th>" for c in b.columns)
                rows = "".join(
                    "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in b.rows
                )
                body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
            elif b.kind == "figure" and b.path is not None:
                body.append(
                    f'<figure><img src="{figures.data_uri(b.path)}" alt="{html.escape(b.text)}">'
                    f"<figcaption>{_inline(b.text)}</figcaption></figure>"
                )
        return _HTML.format(title=html.escape(self.title), body="\n".join(body))


_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
body {{ font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1150px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }}
h1 {{ border-bottom: 3px solid #14a3a3; padding-bottom: .2em; }}
h2 {{ border-bottom: 1px solid #ddd; padding-bottom: .15em; margin-top: 2em; }}
table {{ border-collapse: collapse; margin: .8em 0; font-size: .92em; }}
th, td {{ border: 1px solid #ccc; padding: .3em .6em; text-align: right; }}
th {{ background: #f2f2f2; }}
td:first-child, th:first-child {{ text-align: left; }}
code {{ background: #f4f4f4; padding: 0 .2em; border-radius: 3px; }}
.warning {{ background: #fff4d6; border: 2px solid #e0aa00; border-left: 10px solid #e0aa00;
            padding: .8em 1em; margin: 1em 0; }}
figure {{ margin: 1.2em 0; }}
figure img {{ max-width: 100%; border: 1px solid #eee; }}
figcaption {{ font-size: .9em; color: #555; }}
</style>
</head>
<body>
<h1>{title}</h1>
{body}
</body>
</html>
"""


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _inline(text: str) -> str:
    """Escape HTML, then render **bold**, *italic* and `code`."""
    out = html.escape(str(text), quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![\w*])\*(?![\s*])(.+?)(?<![\s*])\*(?![\w*])", r"<em>\1</em>", out)
    out = re.sub(r"`(.+?)`", r"<code>\1</code>", out)
    return out


# ---------------------------------------------------------------------------------------------
# Formatting


def pct(x: float, digits: int = 1) -> str:
    return "–" if x is None or x != x else f"{100 * x:.{digits}f}%"


def pct_ci(lo: float, hi: float, digits: int = 1) -> str:
    if lo != lo or hi != hi:
        return "–"
    return f"{100 * lo:.{digits}f}–{100 * hi:.{digits}f}%"


def num(x: float | None, digits: int = 2) -> str:
    if x is None or x != x:
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:.{digits}f}"


def mean_ci(m: tuple[float, float, float], digits: int = 2) -> str:
    mean, lo, hi = m
    if mean != mean:
        return "–"
    if math.isinf(lo) or math.isinf(hi):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


# ---------------------------------------------------------------------------------------------
# The report


@dataclass
class ReportFiles:
    out: Path
    html: Path
    markdown: Path
    figures: list[Path]


def build_report(
    directory: Path | str,
    out: Path | str | None = None,
    compare: Sequence[Path | str] = (),
    confidence: float = 0.95,
    n_boot: int = 2000,
) -> ReportFiles:
    """Write the report of the run in ``directory`` (and its comparison with each run in
    ``compare``) into ``out`` (default ``directory/report``)."""
    from simulate import compare as compare_mod

    if not 0.0 < confidence < 1.0:
        raise ReportError(f"--confidence must be in (0, 1), got {confidence}")
    run = load_run(directory)
    others = [load_run(d) for d in compare]
    # Every comparison is computed (and a seed mismatch refused) before anything is written.
    comparisons: list[Any] = []
    for a, b in compare_mod.report_pairs(run, others):
        try:
            comparisons.append(compare_mod.compare(a, b, confidence=confidence, n_boot=n_boot))
        except compare_mod.TooFewPairs as exc:
            comparisons.append(str(exc))  # shown as a note; a seed mismatch still refuses
    out = Path(out) if out is not None else run.directory / "report"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create {out}: {exc.strerror}") from None
    doc, pngs = _document(run, out, comparisons, confidence, others)
    md = out / "report.md"
    md.write_text(doc.markdown(), encoding="utf-8")
    page = out / "report.html"
    page.write_text(doc.html(), encoding="utf-8")
    return ReportFiles(out, page, md, pngs)


def _document(
    run: Run,
    out: Path,
    comparisons: Sequence[Comparison | str],
    confidence: float,
    others: Sequence[Run] = (),
) -> tuple[Document, list[Path]]:
    from simulate import compare as compare_mod

    level = f"{100 * confidence:g}%"
    doc = Document(f"Vijayanagara balance report: {run.name}")
    pngs: list[Path] = []

    def fig(name: str, figure: Any, caption: str) -> None:
        path = figures.save(figure, out / f"{name}.png")
        pngs.append(path)
        doc.figure(path, caption)

    status = provisional_status(run)
    doc.warn(_provisional_text(status))
    doc.h("Provenance")
    doc.table(["what", "value"], provenance_rows(run))
    variants = run.variants
    ok = run.ok_games()

    # Win rates
    doc.h("Win rates")
    doc.p(
        f"Share of finished games won by each faction, with the {level} Wilson interval of "
        f"that share alone and the {level} Goodman simultaneous intervals, which hold for all "
        "four outcomes (DS, BK, VE, unresolved tie) at once — use Goodman to ask whether the "
        "game as a whole is balanced. Errored games are excluded."
    )
    wins = win_rows(run, confidence)
    doc.table(
        ["variant", "outcome", "wins", "games", "win rate", f"{level} Wilson", f"{level} Goodman"],
        [
            (
                r["variant"],
                "unresolved tie" if r["faction"] == "tie" else r["faction"],
                r["wins"],
                r["n"],
                pct(r["rate"]),
                pct_ci(r["wilson_low"], r["wilson_high"]),
                pct_ci(r["goodman_low"], r["goodman_high"]),
            )
            for r in wins
        ],
    )
    fig(
        "win_rates",
        figures.win_rates(wins, variants),
        f"Win rate per faction and variant; red: {level} Wilson interval, grey: {level} "
        "Goodman simultaneous interval.",
    )

    # Paired comparisons
    if comparisons:
        doc.h("Paired comparisons")
        doc.p(
            "Variants played on the same game seeds (common random numbers) are compared game "
            "by game: the difference of win rates has Newcombe's paired interval and McNemar's "
            "test, the difference of mean VP a paired bootstrap interval. *Variance reduction* "
            "is what the pairing bought: the share of the variance of an unpaired comparison "
            "removed by pairing, and the equivalent multiplier on the number of games."
        )
        for i, comp in enumerate(comparisons):
            if isinstance(comp, str):
                doc.p(f"Not compared: {comp}.")
                continue
            doc.h(f"{comp.b.label} vs {comp.a.label}", level=3)
            for block in compare_mod.blocks(comp):
                doc.blocks.append(block)
            fig(
                f"compare-{i + 1}",
                compare_mod.figure(comp),
                f"{comp.b.label} minus {comp.a.label}, per faction, with {level} paired intervals.",
            )

    # VP
    doc.h("Victory points")
    doc.p(
        f"Final VP (5.1-5.3) of finished games: mean with its {level} Student-t interval, "
        "median, standard deviation and range; and the final Deccan Influence of BK and VE."
    )
    vps = vp_rows(run, confidence)
    doc.table(
        [
            "variant",
            "faction",
            "games",
            f"mean VP [{level}]",
            "median",
            "sd",
            "range",
            "final Influence",
        ],
        [
            (
                r["variant"],
                r["faction"],
                r["n"],
                mean_ci((r["mean"], r["low"], r["high"])),
                num(r["median"], 1),
                num(r["sd"]),
                f"{r['min']}–{r['max']}" if r["min"] is not None else "–",
                mean_ci(r["influence"]) if "influence" in r else "",
            )
            for r in vps
        ],
    )
    fig("vp_distribution", figures.vp_distribution(ok, variants), "Final VP per faction.")
    vp_curves = turn_curves(run, "vp", FACTIONS, confidence)
    fig(
        "vp_per_turn",
        figures.over_turns(
            vp_curves,
            variants,
            FACTIONS,
            title="Mean victory points after each card",
            ylabel="victory points (VP)",
        ),
        f"Mean VP after each card with its {level} band, over the games still running at that "
        f"card (a curve stops when fewer than {MIN_TURN_SHARE:.0%} of the games reach it). "
        "DS's VP include the Timur bonus only at the end.",
    )

    # Influence
    doc.h("Deccan Influence")
    doc.p(
        "The Bahmani Kingdom's and Vijayanagara's positions on the Deccan Influence track (1.9) "
        "after each card, mean and band as above. Final values are in the VP table."
    )
    fig(
        "influence",
        figures.over_turns(
            turn_curves(run, "influence", DECCAN, confidence),
            variants,
            DECCAN,
            title="Deccan Influence after each card (BK, VE)",
            ylabel="Influence (track spaces)",
        ),
        f"Mean Deccan Influence after each card, {level} band.",
    )

    # Mongols
    doc.h("Mongol outcomes")
    doc.table(
        [
            "variant",
            "games",
            "Invaders in Delhi at end (mean)",
            "Delhi free of Invaders",
            "Timur bonus to DS (mean)",
            "Timur bonus distribution",
            "Troops lost to Mongols (mean)",
            "max",
        ],
        [
            (
                r["variant"],
                r["n"],
                mean_ci(r["delhi"]),
                pct(r["delhi_empty"] / r["n"]) if r["n"] else "–",
                mean_ci(r["bonus"]),
                ", ".join(
                    f"{b:+d}: {pct(c / r['n'], 0)}" for b, c in sorted(r["bonus_dist"].items())
                ),
                mean_ci(r["lost"]),
                r["lost_max"] if r["lost_max"] is not None else "–",
            )
            for r in mongol_rows(run, confidence)
        ],
    )
    fig(
        "mongols",
        figures.mongol_outcomes(ok, variants),
        "Mongol Invaders left in Delhi at the end, the resulting Timur bonus to the Sultanate "
        "(5.1: 3 minus the Invaders, at least -3), and Sultanate Troops removed by Mongols.",
    )

    # Game length
    doc.h("Game length")
    doc.table(
        ["variant", "games", f"cards played (mean [{level}])", "min", "median", "max"],
        [
            (
                r["variant"],
                r["n"],
                mean_ci(r["mean"], 1),
                r["min"] if r["min"] is not None else "–",
                num(r["median"], 0),
                r["max"] if r["max"] is not None else "–",
            )
            for r in length_rows(run, confidence)
        ],
    )
    fig("game_length", figures.game_length(ok, variants), "Cards played per game.")

    # Action mix
    doc.h("Action mix")
    doc.p(
        "What each faction did on the cards where it acted (an eligible faction choosing "
        "Event, Command with a Decree, Command alone, Limited Command, or Pass); cards where "
        "it could not act are left out."
    )
    shares = action_shares(run)
    lookup = {(r["variant"], r["faction"], r["action"]): r for r in shares.iter_rows(named=True)}
    mix_rows = []
    for v in variants:
        for f in FACTIONS:
            total = next(
                (lookup[(v, f, a)]["total"] for a in figures.ACTIONS if (v, f, a) in lookup), 0
            )
            mix_rows.append(
                (
                    v,
                    f,
                    total,
                    *(
                        pct(lookup[(v, f, a)]["share"]) if (v, f, a) in lookup else pct(0.0)
                        for a in figures.ACTIONS
                    ),
                )
            )
    doc.table(
        ["variant", "faction", "actions", *(figures.ACTION_LABELS[a] for a in figures.ACTIONS)],
        mix_rows,
    )
    fig("action_mix", figures.action_mix(shares, variants), "Action mix per faction.")

    # Ties
    doc.h("Ties")
    doc.p(
        "A tie in VP is broken by Resources (5.0); a tie that survives it is *unresolved* and "
        f"counts as nobody's win. Rates over finished games, {level} Wilson intervals."
    )
    doc.table(
        [
            "variant",
            "games",
            "unresolved ties",
            "rate",
            f"{level} Wilson",
            "broken by Resources",
            "rate",
            f"{level} Wilson",
        ],
        [
            (
                r["variant"],
                r["n"],
                r["unresolved"],
                pct(r["unresolved"] / r["n"]) if r["n"] else "–",
                pct_ci(*r["unresolved_ci"]),
                r["resources"],
                pct(r["resources"] / r["n"]) if r["n"] else "–",
                pct_ci(*r["resources_ci"]),
            )
            for r in tie_rows(run, confidence)
        ],
    )

    # Failures
    doc.h("Failures")
    failed = run.games.filter(pl.col("error").is_not_null())
    total = run.games.height
    doc.p(
        f"**Failures: {failed.height} of {total} games** raised an error and are excluded from "
        "every rate, mean and figure above."
    )
    if failed.height:
        items = [
            f"{r['variant']} #{r['game_index']}: `"
            + str(r["error"]).replace("<DIR>", str(run.directory))
            + "`"
            for r in failed.head(20).iter_rows(named=True)
        ]
        if failed.height > 20:
            items.append(f"... and {failed.height - 20} more (column `error` of the games table)")
        doc.bullets(items)

    doc.h("How to read and reproduce")
    cmd = _run_command(run)
    doc.bullets(
        [
            f"Data: `{run.directory}/games/*.parquet` (one row per game), "
            f"`{run.directory}/turns/*.parquet` (one row per card and faction), "
            f"`{run.directory}/manifest.json` (provenance).",
            f"Rerun the study: `{cmd}`" if cmd else "The run's command was not recorded.",
            f"Regenerate this report: `vsim report {run.directory}`"
            + "".join(f" --compare {o.directory}" for o in others)
            + ".",
            "Sample size: `vsim plan --delta 0.03` says how many games per variant detect a "
            "3-point change in a win rate; pass the variance reduction of a paired comparison "
            "as `--paired-rho`.",
        ]
    )
    return doc, pngs


def _run_command(run: Run) -> str | None:
    sessions = run.manifest.get("sessions") or []
    for s in sessions:
        cmd = s.get("command") if isinstance(s, dict) else None
        if cmd:
            return " ".join(str(c) for c in cmd)
    cfg = run.manifest.get("config") or {}
    if "games" in cfg and "seed" in cfg:
        parts = ["vsim", "run", "--games", str(cfg["games"]), "--seed", str(cfg["seed"])]
        for f, s in run.strategies.items():
            parts += ["--strategy", f"{f}={s}"]
        for v in run.variants:
            parts += ["--variant", v]
        parts += ["--out", str(run.directory)]
        return " ".join(parts)
    return None
