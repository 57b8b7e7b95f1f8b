"""The report of a variant search (``vsim tune``): the winner against the base game on fresh
seeds (and whether it beats it beyond noise), every candidate, and how each seat's win
rate moves with each searched key (issues 19, 40)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.analysis import render, terms
from simulate.analysis.formatting import pct
from simulate.analysis.provenance import provisional_note
from simulate.study import variant_search as vs


@dataclass
class TuneFiles:
    markdown: Path
    html: Path
    figure: Path


def _settings(row: dict[str, Any]) -> str:
    params = json.loads(row["params"])
    return ", ".join(f"{k} = {v}" for k, v in sorted(params.items())) or "(the base game)"


def _row(row: dict[str, Any], seats: tuple[str, ...]) -> tuple:
    return (
        _settings(row),
        row["games"],
        *(pct(row[f"win_{f}"]) for f in seats),
        f"{row['distance']:.1f} [{row['distance_low']:.1f}, {row['distance_high']:.1f}]",
    )


def write(directory: Path) -> TuneFiles:
    """``DIR/report/tune.{md,html}`` and the sensitivity figure ``DIR/report/tune.png``."""
    from simulate.analysis import figures

    directory = Path(directory)
    state = vs.read_state(directory)
    cfg = state["config"]
    game = terms.game_of(cfg.get("game"))
    seats = tuple(cfg.get("target") or cfg["strategies"])
    names = terms.seat_names(game)
    rows = [r for r in vs_rows(directory) if r["trial"] >= 0]
    best, ref = state["best"], state["reference"]
    chosen = state.get("search_best") or best
    out = directory / "report"
    out.mkdir(parents=True, exist_ok=True)
    keys = [d["key"] for d in cfg["search"]]
    png = figures.save(figures.sensitivity(rows, keys, seats=seats, names=names), out / "tune.png")
    head = ["setting", "games", *(f"{f} win rate" for f in seats), "distance [bounds]"]
    context = {
        "title": f"Variant search: {directory.resolve().name}",
        "bots": ", ".join(f"{f} `{s}`" for f, s in cfg["strategies"].items()),
        "provisional": provisional_note(state, game),
        "count": terms.number_word(len(seats)),
        "best_text": answer(state),
        "beats_base": state.get("beats_base", True),
        "best": render.table(
            ["", *head],
            [
                ("winner, fresh seeds", *_row(best, seats)),
                ("base game, the same fresh seeds", *_row(ref, seats)),
                (
                    "winner, the search's own games (chosen for them: looks better)",
                    *_row(chosen, seats),
                ),
            ],
        ),
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
            [
                (r["trial"], *_row(r, seats))
                for r in sorted(latest(rows), key=lambda r: r["distance"])
            ],
        ),
        "figure": render.Figure(
            png,
            f"Each {terms.seat_noun(game)}'s win rate against each searched key's value "
            "(every candidate).",
        ),
        "command": " ".join(state.get("command") or ["vsim", "tune", "..."]),
        "directory": str(directory),
    }
    md = out / "tune.md"
    md.write_text(render.markdown("tune.md.j2", **context), "utf-8")
    page = out / "tune.html"
    page.write_text(render.html("tune.md.j2", context["title"], **context), "utf-8")
    return TuneFiles(md, page, png)


def answer(state: dict[str, Any]) -> str:
    """What the search found, in one paragraph: the winner's figures on fresh seeds against
    the base game's, and whether it beats it beyond noise."""
    best, ref = state["best"], state["reference"]
    gain = state.get("gain")
    figures = (
        f"{best['distance']:.1f} percentage points from the target [{best['distance_low']:.1f}, "
        f"{best['distance_high']:.1f}] over {best['games']} fresh games, against "
        f"{ref['distance']:.1f} for the base game on the same games"
    )
    if gain is None:  # a search made before the fresh games existed
        return f"**{_settings(best)}**: {figures}."
    diff = (
        f"difference {gain['diff']:+.1f} [{gain['low']:+.1f}, {gain['high']:+.1f}], 90% "
        "paired bootstrap: better beyond noise when the whole interval is below 0"
    )
    if state.get("beats_base"):
        return f"**{_settings(best)}** beats the base game: {figures} ({diff})."
    return (
        f"**No candidate beat the base game** beyond noise. The search's best, "
        f"{_settings(best)}, is {figures} ({diff}): no better than the base game on fresh "
        "seeds. Its variant is written anyway."
    )


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
