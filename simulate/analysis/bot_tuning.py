"""The report of a bot tuning (``vsim tune-bots``): its phases, the tuned values and the
tuned lineup's ladder (issue 18)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.analysis import render, terms
from simulate.analysis.formatting import pct, pp, pp_ci
from simulate.analysis.provenance import provisional_note
from simulate.games import get as get_game
from simulate.study import bot_tuning
from simulate.study.tunable import fmt_value, tunable_of


@dataclass
class TuneFiles:
    markdown: Path
    html: Path
    figure: Path


def _phase_row(p: dict[str, Any]) -> tuple:
    validated = p.get("validated")
    return (
        p["round"] + 1,
        p["faction"],
        pct(p["win_rate"]),
        f"{100 * p['incumbent']:.1f}",
        f"{100 * p['best']:.1f}",
        "—" if not validated else f"{100 * validated[0]:.1f} → {100 * validated[1]:.1f}",
        "yes" if p["accepted"] else "no",
        ", ".join(f"`{k}`" for k in p.get("inert", ())) or "—",
    )


def _value_rows(
    field: dict[str, dict[str, float]],
    start: dict[str, dict[str, float]] | None,
    tunable: Any,
) -> list[tuple]:
    """Each tuned value that differs from its reference: ``start`` (where the search began,
    for a tuning over the default lineup) if given, else the base bot's own value."""
    rows = []
    for f, values in field.items():
        for key, value in sorted(values.items()):
            ref = start[f][key] if start and key in start.get(f, {}) else tunable.base_value(key)
            if fmt_value(value) != fmt_value(ref):
                rows.append((f, f"`{key}`", f"{ref:g}", f"{value:g}"))
    return rows or [("—", "no value changed", "", "")]


def write(directory: Path) -> TuneFiles:
    """``DIR/report/tune-bots.{md,html}`` and its progress figure."""
    from simulate.analysis import figures
    from simulate.analysis import ladder as ladder_report
    from simulate.analysis.ladder import exploitability, gains

    directory = Path(directory)
    state = bot_tuning.read_state(directory)
    cfg = state["config"]
    phases = state.get("phases", [])
    out = directory / "report"
    out.mkdir(parents=True, exist_ok=True)
    game = get_game(cfg.get("game"))
    seats = tuple(state.get("seats") or game.seats())
    progress = figures.tuning_progress(
        phases, seats=seats, names=terms.seat_names(game), score_label=game.score_label
    )
    png = figures.save(progress, out / "tune-bots.png")
    ladder_rows = None
    ladder_dir = directory / "ladder"
    if (ladder_dir / "manifest.json").is_file():
        ladder_report.write(ladder_dir)
        _, found = gains(ladder_dir)
        worst = exploitability(found, seats)
        ladder_rows = render.table(
            ["seat", "challenger", "paired games", "gain", "95% paired CI", "exploitability"],
            [
                (
                    g.faction, f"`{g.challenger}`", g.games, pp(g.gain),
                    pp_ci(g.gain_lo, g.gain_hi),
                    "◀" if worst.get(g.faction, {}).get("challenger") == g.challenger else "",
                )
                for g in found
            ],
        )  # fmt: skip
    games = state.get("games", {})
    tunable = tunable_of(get_game(cfg.get("game")))
    base = cfg.get("base", tunable.BASE_BOT)  # (absent: a tuning over the base bot)
    over_default = base != tunable.BASE_BOT
    start = cfg.get("start") if over_default else None  # its seats differ from the base bot
    reference = "start" if over_default else tunable.BASE_BOT
    context = {
        "title": f"Bot tuning: {directory.resolve().name}",
        "provisional": provisional_note(state, game),
        "seat": terms.seat_noun(game),
        "score": game.score_label,
        "settings": render.table(
            ["setting", "value"],
            [
                ("seats", ", ".join(cfg["factions"])),
                ("rounds", len({p["round"] for p in phases})),
                ("CMA-ES generations × population", f"{cfg['generations']} × {cfg['popsize']}"),
                ("games per candidate and pool lineup", cfg["games"]),
                ("validation games per pool lineup", cfg["validation_games"]),
                ("bots the seat values are laid over", f"`{base}`"),
                ("fixed pool lineups", ", ".join(f"`{s}`" for s in cfg["pool"]) or "none"),
                ("variant", cfg["variant"]["name"]),
                ("probe games per value and range end", cfg.get("probe_games", 0) or "none"),
                ("master seed", cfg["seed"]),
                ("games in all", f"{games.get('total', 0):,}"),
            ],
        ),
        "space": state.get("space_file", tunable.SPACE_REF),
        "vp_weight": cfg["vp_weight"],
        "probe_games": cfg.get("probe_games", 0),
        "phases": render.table(
            ["round", "seat", "incumbent win rate", "incumbent score", "best score"]
            + ["validation (incumbent → best)", "accepted", "not searched (changed no game)"],
            [_phase_row(p) for p in phases],
        ),
        "figure": render.Figure(png, "Each seat's score against its pool, round by round."),
        "values": render.table(
            ["seat", "weight", reference, "tuned"],
            _value_rows(state.get("field", {}), start, tunable),
        ),
        "reference": reference,
        "weights": f"{directory}/weights.toml",
        "base": base,
        "ladder": ladder_rows,
        "ladder_games": (state.get("ladder_games") or 0),
        "command": " ".join(state.get("command") or ["vsim", "tune-bots", "..."]),
        "directory": str(directory),
    }
    md = out / "tune-bots.md"
    md.write_text(render.markdown("tune_bots.md.j2", **context), "utf-8")
    page = out / "tune-bots.html"
    page.write_text(render.html("tune_bots.md.j2", context["title"], **context), "utf-8")
    (out / "tune-bots.json").write_text(json.dumps(phases, indent=2) + "\n", "utf-8")
    return TuneFiles(md, page, png)
