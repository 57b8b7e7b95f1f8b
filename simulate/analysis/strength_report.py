"""A strength study's outputs: ``DIR/strength.json`` and ``DIR/report/strength.{md,html,png}``
from the statistics of ``simulate.analysis.strength``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.analysis import render, terms
from simulate.analysis.formatting import level, num, pct, pct_ci, pp, pp_ci
from simulate.analysis.provenance import provisional_note
from simulate.analysis.strength import MARGIN, curve
from simulate.games import Game
from simulate.study import dataset
from simulate.study import manifest as manifest_mod


@dataclass
class StrengthFiles:
    json: Path
    markdown: Path
    html: Path
    figure: Path
    payload: dict[str, Any]


def _rate(x: float | None) -> str:
    return "–" if x is None else f"{x:.3g}"


def _vp(mean: float | None, lo: float | None, hi: float | None) -> str:
    if mean is None:
        return "–"
    return num(mean) if lo is None else f"{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _variant_table(payload: dict[str, Any], variant: str, lvl: str, game: Game) -> render.Table:
    rows = []
    for r in payload["records"]:
        if r["variant"] != variant:
            continue
        change = (
            "–"
            if r["change"] is None
            else f"{pp(r['change'])} {pp_ci(r['change_lo'], r['change_hi'])}"
        )
        rows.append(
            (
                r["rung"],
                r["faction"],
                r["games"],
                pct(r["win"]) if r["win"] is not None else "–",
                pct_ci(r["win_lo"], r["win_hi"]),
                _vp(r["vp_margin"], r["vp_margin_lo"], r["vp_margin_hi"]),
                change,
            )
        )
    return render.table(
        [
            "rung",
            game.seat_word,
            "games",
            "win rate",
            f"{lvl} CI",
            f"{game.score_label} margin",
            "change from the rung below",
        ],
        rows,
    )


def write(directory: Path, confidence: float = 0.95, margin: float = MARGIN) -> StrengthFiles:
    """Write ``strength.json`` and the report of the strength study in ``directory``."""
    from simulate.analysis import figures
    from simulate.analysis.strength_figures import strength_curve

    directory = Path(directory)
    payload = curve(directory, confidence, margin)
    layout = dataset.layout_of(directory)
    game = layout.game
    js = directory / "strength.json"
    js.write_text(json.dumps(payload, indent=2, allow_nan=False) + "\n", "utf-8")
    out = directory / "report"
    out.mkdir(parents=True, exist_ok=True)
    png = figures.save(
        strength_curve(
            payload["records"],
            payload["rungs"],
            payload["variants"],
            confidence,
            seats=layout.seats,
            names=terms.seat_names(game),
        ),  # fmt: skip
        out / "strength.png",
    )
    man = manifest_mod.read(directory) or {}
    lvl = level(confidence)
    context = {
        "title": f"Strength curve: {directory.resolve().name}",
        "provisional": provisional_note(man, game),
        "seat": terms.seat_noun(game),
        "score": game.score_label,
        "strongest": payload["strongest"],
        "convergence_lines": [
            f"{c['variant']}, {c['from']} → {c['to']}: {c['text']} ({c['games']} paired games)"
            for c in payload["convergence"]
        ],
        "robustness_lines": [r["text"] for r in payload["robustness"]],
        "margin": f"{100 * margin:g}",
        "alpha": f"{payload['alpha']:.3g}",
        "tost_level": level(1 - 2 * payload["alpha"]),
        "level": lvl,
        "extends": payload["extends"] or None,
        "variants": payload["variants"],
        "seed": payload["master_seed"],
        "rungs": render.table(
            [
                "rung",
                "lineup",
                "games per variant",
                "played",
                "failed",
                "time in games (s)",
                "games/s",
            ],
            [
                (
                    f"**{r['name']}**",
                    f"`{r['spec']}`",
                    r["games"],
                    r["played"],
                    r["failed"],
                    f"{r['game_seconds']:.1f}",
                    _rate(r["games_per_s"]),
                )
                for r in payload["rungs"]
            ],
        ),
        "figure": render.Figure(
            png,
            f"Each {terms.seat_noun(game)}'s win rate against the rung ({lvl} Wilson "
            "intervals); grey bars: "
            "games per second on one core.",
        ),
        "per_variant": [
            {"name": v, "table": _variant_table(payload, v, lvl, game)} for v in payload["variants"]
        ],
        "effects": render.table(
            ["variant", "rung", game.seat_word, "paired games", "effect", f"{lvl} paired CI"],
            [
                (
                    e["variant"],
                    e["rung"],
                    e["faction"],
                    e["games"],
                    pp(e["effect"]),
                    pp_ci(e["lo"], e["hi"]),
                )  # fmt: skip
                for e in payload["effects"]
            ],
        )
        if payload["effects"]
        else None,
        "directory": str(directory),
    }
    md = out / "strength.md"
    md.write_text(render.markdown("strength.md.j2", **context), "utf-8")
    page = out / "strength.html"
    page.write_text(render.html("strength.md.j2", context["title"], **context), "utf-8")
    return StrengthFiles(js, md, page, png, payload)
