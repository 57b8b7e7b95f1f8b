"""The report of a variant search (``vsim tune``): the best setting against the base game,
every candidate, and how each Faction's win rate moves with each searched key (issue 19)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.analysis import render
from simulate.analysis.formatting import pct
from simulate.result import FACTIONS
from simulate.study import variant_search as vs


@dataclass
class TuneFiles:
    markdown: Path
    html: Path
    figure: Path


def _settings(row: dict[str, Any]) -> str:
    params = json.loads(row["params"])
    return ", ".join(f"{k} = {v}" for k, v in sorted(params.items())) or "(the base game)"


def _row(row: dict[str, Any]) -> tuple:
    return (
        _settings(row),
        row["games"],
        *(pct(row[f"win_{f}"]) for f in FACTIONS),
        f"{row['distance']:.1f} [{row['distance_low']:.1f}, {row['distance_high']:.1f}]",
    )


def write(directory: Path) -> TuneFiles:
    """``DIR/report/tune.{md,html}`` and the sensitivity figure ``DIR/report/tune.png``."""
    from simulate.analysis import figures

    directory = Path(directory)
    state = vs.read_state(directory)
    cfg = state["config"]
    rows = [r for r in vs_rows(directory) if r["trial"] >= 0]
    best, ref = state["best"], state["reference"]
    out = directory / "report"
    out.mkdir(parents=True, exist_ok=True)
    keys = [d["key"] for d in cfg["search"]]
    png = figures.save(figures.sensitivity(rows, keys), out / "tune.png")
    head = ["setting", "games", *(f"{f} win rate" for f in FACTIONS), "distance [bounds]"]
    context = {
        "title": f"Variant search: {directory.resolve().name}",
        "bots": ", ".join(f"{f} `{s}`" for f, s in cfg["strategies"].items()),
        "provisional": state.get("provisional", {}).get("any", True),
        "best_text": (
            f"**{_settings(best)}**: {best['distance']:.1f} points from the target "
            f"[{best['distance_low']:.1f}, {best['distance_high']:.1f}] over {best['games']} "
            f"games, against {ref['distance']:.1f} for the base game on the same seeds."
        ),
        "best": render.table(head, [_row(best), _row(ref)]),
        "search_file": cfg["variant"]["name"],
        "dims": "; ".join(
            f"`{d['key']}` in {d['choices'] if 'choices' in d else [d['low'], d['high']]}"
            for d in cfg["search"]
        ),
        "target": ", ".join(f"{f} {100 * t:.1f}%" for f, t in cfg["target"].items()),
        "seed": cfg["seed"],
        "first": cfg["first"],
        "games_used": f"{state.get('games_used', 0):,}",
        "candidates": render.table(
            ["trial", *head],
            [(r["trial"], *_row(r)) for r in sorted(latest(rows), key=lambda r: r["distance"])],
        ),
        "figure": render.Figure(
            png, "Each Faction's win rate against each searched key's value (every candidate)."
        ),
        "command": " ".join(state.get("command") or ["vsim", "tune", "..."]),
        "directory": str(directory),
    }
    md = out / "tune.md"
    md.write_text(render.markdown("tune.md.j2", **context), "utf-8")
    page = out / "tune.html"
    page.write_text(render.html("tune.md.j2", context["title"], **context), "utf-8")
    return TuneFiles(md, page, png)


def vs_rows(directory: Path) -> list[dict[str, Any]]:
    """Every evaluation row of a search."""
    from simulate.study.tuning_folder import EvaluationLog

    return list(EvaluationLog(Path(directory), keys=("trial", "games")).rows.values())


def latest(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each candidate's row with the most games."""
    out: dict[int, dict[str, Any]] = {}
    for r in rows:
        if r["trial"] not in out or r["games"] > out[r["trial"]]["games"]:
            out[r["trial"]] = r
    return list(out.values())
