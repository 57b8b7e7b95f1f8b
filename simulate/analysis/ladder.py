"""A ladder's verdict: each seat's deviation gain per challenger, and its exploitability.

For a seat and a challenger, the games played with the challenger in that seat are paired
with the field-only games of the same index (same seed): the gain is the seat's win rate with
the challenger minus with the field's bot, with Newcombe's paired interval
(``stats.paired_win_comparison``), the mean score difference, and the mean difference of the
seat's score margin (its final score less the best other seat's, what decides the winner)
with a paired Student-t interval: a finer measure than wins, which a change of a few games
hides. A pair whose game errored on either side is dropped. A seat's *exploitability* is its
largest gain over challengers. Where each gain is made, step by step: ``ladder_cards``; how
each challenger played its seat: ``ladder_moves`` (both in ``by_card``). The seats, the score
and the words come from the ladder's game (``dataset.layout_of``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import ladder_cards, ladder_moves, render, stats, terms
from simulate.analysis.formatting import finite, level, pct, pp, pp_ci
from simulate.analysis.provenance import provisional_note
from simulate.analysis.run import ReportError
from simulate.study import dataset
from simulate.study import manifest as manifest_mod
from simulate.study.ladder import FIELD

_SCORE = "score:"  # a seat's final score column, as ``_cells`` names it: ``score:P1``


@dataclass(frozen=True)
class Gain:
    faction: str
    challenger: str
    games: int  # paired games used
    win_field: float
    win_challenger: float
    gain: float
    gain_lo: float
    gain_hi: float
    vp_gain: float
    p_value: float
    margin_gain: float  # mean paired change of the seat's score margin over the best other
    margin_lo: float
    margin_hi: float

    def to_json(self) -> dict[str, Any]:
        return finite(dict(self.__dict__))


def gains(directory: Path, confidence: float = 0.95) -> tuple[dict[str, Any], list[Gain]]:
    """(manifest, gains) of the ladder in ``directory``."""
    man, cells = _cells(Path(directory))
    return man, [_gain(seat, challenger, pairs, confidence) for seat, challenger, pairs in cells]


def pooled_gains(
    directories: list[Path], confidence: float = 0.95, notes: list[str] | None = None
) -> list[Gain]:
    """The gains of several ladders of the same field and rules, each cell's paired games
    pooled over the ladders that play it: a second seed for a cell near its bound. Ladders of
    one master seed pool only if they share no cell (other challengers on the same games).
    A field written otherwise (a lineup file, its specs, another version's name) pools if the
    first ladder's field replays both ladders' first field games exactly (``same_play``;
    a line for each such ladder is added to ``notes``). ReportError (one line) for ladders
    that do not pool."""
    if len(directories) < 2:
        raise ReportError("pooling needs at least two ladders")
    cells: dict[tuple[str, str], list[pl.DataFrame]] = {}
    first: tuple[Path, tuple, dict[str, Any]] | None = None
    seeds: dict[tuple[str, str], dict[int, Path]] = {}  # cell -> master seed -> its ladder
    played: dict[str, tuple[Path, Any]] = {}  # challenger -> (ladder, its parameters)
    checked = False  # whether the first ladder's field has replayed its own games
    replayed: set[tuple[str, Path]] = set()  # (challenger, ladder) replayed alike
    for directory in map(Path, directories):
        man, found = _cells(directory)
        what = _measured(man)
        if first is None:
            first = (directory, what, man)
        elif what != first[1]:
            why = "different rules" if what[1:] != first[1][1:] else None
            if why is None and not checked:  # the first's field still plays its own games
                why, checked = same_play(first[0], first[2], first[0]), True
            why = why or same_play(first[0], first[2], directory)
            if why is not None:
                raise ReportError(
                    f"{directory} and {first[0]} measure different fields, bot versions or "
                    f"rules: their gains do not pool ({why})"
                )
            if notes is not None:
                notes.append(
                    f"{directory}: its field is written otherwise than {first[0]}'s "
                    f"({_field_words(man)}), and plays its first {REPLAYED} field games "
                    "exactly as the first ladder's field does: pooled"
                )
        seed = man["master_seed"]
        for name, params in (man.get("challengers") or {}).items():
            if name in played and played[name][1] != params:
                # recorded otherwise (a tier renamed since): pooled if it replays both
                ladders = tuple(
                    d for d in (played[name][0], directory) if (name, d) not in replayed
                )
                why = _same_challenger(first[0], first[2], name, ladders)
                replayed.update((name, d) for d in ladders)
                if why is not None:
                    raise ReportError(
                        f"challenger {name!r} plays with other parameters in {directory} than "
                        f"in {played[name][0]}: its gains do not pool ({why})"
                    )
                if notes is not None:
                    notes.append(
                        f"{directory}: challenger {name} was recorded with other parameters "
                        f"than in {played[name][0]}, and plays its first {REPLAYED} games of "
                        "each seat exactly as it does today in both: pooled"
                    )
            played.setdefault(name, (directory, params))
        for seat, challenger, pairs in found:
            owners = seeds.setdefault((seat, challenger), {})
            if seed in owners:
                raise ReportError(
                    f"{directory} and {owners[seed]} share master seed {seed} for {challenger} "
                    f"in {seat}'s seat: the same games, not more"
                )
            owners[seed] = directory
            cells.setdefault((seat, challenger), []).append(pairs)
    return [
        _gain(seat, challenger, pl.concat(parts), confidence)
        for (seat, challenger), parts in cells.items()
    ]


def card_gains(directories: list[Path], confidence: float = 0.95) -> list[ladder_cards.CardGain]:
    """Each cell's score-margin gain step by step (``ladder_cards``), over the paired games of
    every ladder in ``directories`` that plays it (as ``pooled_gains`` pools them)."""
    return ladder_cards.card_gains(_by_cell(directories, ladder_cards.card_gaps), confidence)


def card_moves(directories: list[Path]) -> list[ladder_moves.CardMoves]:
    """Each cell's moves card by card against the field's bot's (``ladder_moves``), over the
    paired games of every ladder in ``directories`` that plays it."""
    return ladder_moves.card_moves(_by_cell(directories, ladder_moves.move_counts))


def _by_cell(directories: list[Path], read: Any) -> dict[tuple[str, str], list[pl.DataFrame]]:
    """``read(directory, cells)`` of every ladder, its frames gathered by cell (to pool)."""
    out: dict[tuple[str, str], list[pl.DataFrame]] = {}
    for directory in map(Path, directories):
        _, cells = _cells(directory)
        for cell, frame in read(directory, cells).items():
            out.setdefault(cell, []).append(frame)
    return out


@dataclass(frozen=True)
class ByCard:
    """A ladder's (or pooled ladders') cells card by card: the seat's margin gain and where
    it is made (``ladder_cards``), its moves against the field's bot's and the cards where
    they differ most (``ladder_moves``)."""

    gains: list[ladder_cards.CardGain]
    made: list[dict[str, Any]]
    moves: list[ladder_moves.CardMoves]
    played: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        """The ``card_gains``, ``where_made``, ``card_moves`` and ``played_differently``
        entries of ``ladder.json``."""
        return {
            "card_gains": [g.to_json() for g in self.gains],
            "where_made": finite(self.made),
            "card_moves": [m.to_json() for m in self.moves],
            "played_differently": self.played,
        }


def by_card(directories: list[Path], confidence: float = 0.95) -> ByCard:
    """``card_gains`` and ``card_moves`` of ``directories``, with their summaries."""
    game = dataset.layout_of(Path(directories[0])).game if directories else None
    gains = card_gains(directories, confidence)
    moves = card_moves(directories)
    made = ladder_cards.steps(gains, game) if gains else []
    return ByCard(gains, made, moves, ladder_moves.differences(moves, game=game))


REPLAYED = 3  # field games of each ladder replayed by ``same_play``


def same_play(
    first: Path, first_man: dict[str, Any], other: Path, rung: dict[str, Any] | None = None
) -> str | None:
    """None if the field of the ladder in ``first``, as its specs resolve today, plays the
    first ``REPLAYED`` field games of the ladder in ``other`` to the very final states they
    recorded (so ``other`` measured the same bots, however its field was written; with
    ``other`` = ``first``, that the field still plays as it did); else why not, in words.
    With ``rung`` (one of ``other``'s manifest ``lineups``), the same for that rung's games,
    its challenger (as its spec resolves today) in its seat of ``first``'s field."""
    from simulate.games import get as get_game
    from simulate.study.batch import compiled_rules
    from simulate.study.replay import study_from_manifest
    from strategies.registry import make

    field = dict(first_man["config"]["field"])
    key, who = FIELD, f"{first}'s field"
    if rung is not None:
        field[rung["seat"]] = rung["challenger"]
        key, who = rung["key"], f"{rung['challenger']} in {rung['seat']}'s seat of {who}"
    man, _, variants = study_from_manifest(other)
    game = get_game(man.get("game"))
    rows = (
        pl.from_arrow(dataset.read_table(other, "games"))
        .filter((pl.col("lineup") == key) & pl.col("error").is_null())
        .sort("game_index")
        .head(REPLAYED)
    )
    for row in rows.iter_rows(named=True):
        try:
            rules = compiled_rules(variants[row["variant"]], game)
            agents = [make(field[s]) for s in game.seats(rules)]
            result = game.play(row["seed"], agents, rules)
        except Exception as exc:  # noqa: BLE001 - a field that no longer plays
            return f"{who} no longer plays: {type(exc).__name__}: {exc}"
        if result.state_digest != row["state_digest"]:
            game = row["game_index"]
            return f"game {game} of {other} ends otherwise under {who} as it resolves today"
    return None


def _same_challenger(
    first: Path, first_man: dict[str, Any], name: str, ladders: tuple[Path, ...]
) -> str | None:
    """None if challenger ``name``, as its spec resolves today, replays its first games in
    every seat it took in each of ``ladders`` (``same_play`` of each rung); else why not."""
    for directory in ladders:
        man = manifest_mod.read(directory) or {}
        for rung in man.get("lineups", []):
            if rung.get("challenger") == name and rung.get("seat"):
                why = same_play(first, first_man, directory, rung)
                if why is not None:
                    return why
    return None


def _field_words(man: dict[str, Any]) -> str:
    """A ladder's field in words: each seat's spec, once if all seats share it."""
    field = man["config"]["field"]
    specs = set(field.values())
    return specs.pop() if len(specs) == 1 else ", ".join(f"{k}={v}" for k, v in field.items())


def _measured(man: dict[str, Any]) -> tuple:
    """What a ladder measures: its field (specs and bot parameters, versions included), its
    rules (variant and data digests)."""
    config = man["config"]
    variants = tuple(v.get("digest") for v in config.get("variants", []))
    field = json.dumps([config["field"], man.get("strategy_params")], sort_keys=True)
    return field, variants, config.get("data_digest")


def _cells(directory: Path) -> tuple[dict[str, Any], list[tuple[str, str, pl.DataFrame]]]:
    """(manifest, [(seat, challenger, pairs)]) of the ladder in ``directory``: each rung's
    games joined to the field's of the same index; a pair that errored on either side is
    dropped."""
    man = manifest_mod.read(directory)
    if man is None or man.get("kind") != "ladder":
        raise ReportError(f"{directory} holds no ladder (no ladder manifest.json)")
    layout = dataset.layout_of(directory)
    scores = {layout.game.score_column(f): f"{_SCORE}{f}" for f in layout.seats}
    cols = ["lineup", "game_index", "winner", "error", *scores]
    games = pl.from_arrow(dataset.read_table(directory, "games", cols))
    assert isinstance(games, pl.DataFrame)
    games = games.rename(scores)
    field_games = games.filter(pl.col("lineup") == FIELD)
    out = []
    for rung in man.get("lineups", []):
        seat, challenger = rung.get("seat"), rung.get("challenger")
        if seat is None:
            continue
        pairs = (
            games.filter(pl.col("lineup") == rung["key"])
            .join(field_games, on="game_index", suffix="_field")
            .filter(pl.col("error").is_null() & pl.col("error_field").is_null())
            .sort("game_index")
        )
        if pairs.height:
            out.append((seat, challenger, pairs))
    return man, out


def _gain(seat: str, challenger: str, pairs: pl.DataFrame, confidence: float) -> Gain:
    """The seat's gain with ``challenger`` over its paired games ``pairs``."""
    w = stats.paired_win_comparison(
        pairs.get_column("winner_field").to_list(),
        pairs.get_column("winner").to_list(),
        seat,
        confidence,
    )
    vp = (pairs.get_column(f"{_SCORE}{seat}") - pairs.get_column(f"{_SCORE}{seat}_field")).mean()
    change = (_margin(pairs, seat, "") - _margin(pairs, seat, "_field")).to_list()
    margin, margin_lo, margin_hi = stats.mean_interval(change, confidence)
    return Gain(
        seat,
        challenger,
        pairs.height,
        w["rate_a"],
        w["rate_b"],
        w["diff"],
        w["diff_low"],
        w["diff_high"],
        float(vp) if vp is not None else math.nan,
        w["p_value"],
        margin,
        margin_lo,
        margin_hi,
    )


def _margin(pairs: pl.DataFrame, seat: str, suffix: str) -> pl.Series:
    """The seat's final score less the best other seat's in each game (ties broken by the
    game's tiebreak are not counted)."""
    seats = [c.removeprefix(_SCORE) for c in pairs.columns
             if c.startswith(_SCORE) and not c.endswith("_field")]  # fmt: skip
    others = [pairs.get_column(f"{_SCORE}{f}{suffix}") for f in seats if f != seat]
    best = pl.DataFrame(others).max_horizontal()
    return pairs.get_column(f"{_SCORE}{seat}{suffix}") - best


def exploitability(
    found: list[Gain], seats: Sequence[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Per seat (``seats`` in turn order; None: as the gains name them): the largest gain
    over challengers, and by which challenger."""
    out: dict[str, dict[str, Any]] = {}
    for f in seats if seats is not None else dict.fromkeys(g.faction for g in found):
        mine = [g for g in found if g.faction == f]
        if mine:
            best = max(mine, key=lambda g: g.gain)
            out[f] = {"gain": best.gain, "challenger": best.challenger, "lo": best.gain_lo}
            out[f] |= {"hi": best.gain_hi}
    return out


def seat_words(e: dict[str, Any]) -> str:
    """A seat's exploitability (an ``exploitability`` entry) in plain words: a negative or
    insignificant gain means no tested challenger beats the field there."""
    gain = f"{100 * e['gain']:+.1f} percentage points [{100 * e['lo']:+.1f}, {100 * e['hi']:+.1f}]"
    if e["lo"] > 0:
        return f"{e['challenger']} beats the field in this seat by {gain}"
    if e["gain"] <= 0:
        return (
            f"no tested challenger beats the field in this seat (the closest, "
            f"{e['challenger']}: {gain})"
        )
    return (
        f"no tested challenger beats the field significantly in this seat (the best, "
        f"{e['challenger']}: {gain})"
    )


def budget_curves(
    man: dict[str, Any], found: list[Gain], seats: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """With ``--budgets``: each seat's gain per challenger as given (``of``) and multiple of
    its search budget (``factor``), from the smallest budget up: exploitability as a curve."""
    scaled = {b["challenger"]: b for b in man["config"].get("budgets") or []}
    rows = [
        {"of": scaled[g.challenger]["of"], "factor": scaled[g.challenger]["factor"]}
        | {"challenger": g.challenger, "faction": g.faction, "games": g.games, "gain": g.gain}
        | {"gain_lo": g.gain_lo, "gain_hi": g.gain_hi, "margin_gain": g.margin_gain}
        for g in found
        if g.challenger in scaled
    ]
    order = list(seats) if seats is not None else list(dict.fromkeys(g.faction for g in found))
    return sorted(rows, key=lambda r: (r["of"], order.index(r["faction"]), r["factor"]))


@dataclass
class LadderFiles:
    json: Path
    markdown: Path
    html: Path
    figure: Path


def write(directory: Path, confidence: float = 0.95) -> LadderFiles:
    """``DIR/ladder.json`` and ``DIR/report/ladder.{md,html,png}``."""
    from simulate.analysis import figures

    directory = Path(directory)
    man, found = gains(directory, confidence)
    layout = dataset.layout_of(directory)
    game, seats = layout.game, layout.seats
    names = terms.seat_names(game)
    worst = exploitability(found, seats)
    js = directory / "ladder.json"
    payload = {
        "field": man["config"]["field"],
        "variant": man["config"]["variants"][0]["name"],
        "master_seed": man["master_seed"],
        "confidence": confidence,
        "records": [g.to_json() for g in found],
        "exploitability": finite(worst),
    }
    cards = by_card([directory], confidence)
    made, played = cards.made, cards.played
    payload |= cards.to_json()
    curves = budget_curves(man, found, seats)
    if curves:
        payload["budget_curves"] = finite(curves)
    js.write_text(json.dumps(payload, indent=2, allow_nan=False) + "\n", "utf-8")
    out = directory / "report"
    out.mkdir(parents=True, exist_ok=True)
    png = figures.save(
        figures.ladder(found, confidence, seats=seats, names=names), out / "ladder.png"
    )
    lvl = level(confidence)
    budgets = _budget_figures(curves, out, confidence, seats, names)
    cards_png = None
    step, score = game.step_label, game.score_label
    fixed = ladder_cards.fixed_kinds(cards.gains)
    if cards.gains:
        from simulate.analysis.strength_figures import ladder_cards as cards_figure

        drawn = cards_figure(cards.gains, confidence, seats=seats, names=names, step=step,
                             score=score, fixed=fixed)  # fmt: skip
        cards_png = figures.save(drawn, out / "ladder-cards.png")
    context = {
        "title": f"Bot ladder: {directory.resolve().name}",
        "field": ", ".join(f"{f} `{s}`" for f, s in man["config"]["field"].items()),
        "variant": payload["variant"],
        "seed": man["master_seed"],
        "level": lvl,
        "provisional": provisional_note(man, game),
        "seat": terms.seat_noun(game),
        "seat_word": game.seat_word,
        "score": score,
        "step": step,
        "fixed": [k.capitalize() for k in fixed],
        "moves": ", ".join(ladder_moves.move_columns(game)),
        "strategy_columns": ", ".join(f"`strategy_{f}`" for f in seats),
        "gains": render.table(
            ["seat", "challenger", "paired games", "win rate (field bot)"]
            + ["win rate (challenger)", "gain", f"{lvl} paired CI", f"mean {score} gain"]
            + [f"{score} margin gain", f"{lvl} paired CI (margin)"],
            [
                (
                    g.faction,
                    f"`{g.challenger}`",
                    g.games,
                    pct(g.win_field),
                    pct(g.win_challenger),
                    pp(g.gain),
                    pp_ci(g.gain_lo, g.gain_hi),
                    f"{g.vp_gain:+.2f}",
                    f"{g.margin_gain:+.2f}",
                    f"[{g.margin_lo:+.2f}, {g.margin_hi:+.2f}]",
                )
                for g in found
            ],
        ),
        "exploitability": render.table(
            [game.seat_word, "exploitability", f"{lvl} paired CI", "by", "in words"],
            [
                (
                    f,
                    pp(e["gain"]),
                    pp_ci(e["lo"], e["hi"]),
                    f"`{e['challenger']}`",
                    seat_words(e),
                )
                for f, e in worst.items()
            ],
        ),
        "figure": render.Figure(
            png, f"Deviation gain per seat and challenger, with {lvl} paired intervals."
        ),
        "directory": str(directory),
        "cards_figure": None
        if cards_png is None
        else render.Figure(
            cards_png,
            f"Each seat's {score}-margin gain after every {step}, {lvl} paired intervals: "
            "where the gain is made.",
        ),
        "where_made": render.table(
            ["seat", "challenger", "where the gain is made"],
            [
                (s["faction"], f"`{s['challenger']}`", ladder_cards.step_words(s, game))
                for s in made
            ],
        ),  # fmt: skip
        "played_differently": render.table(
            ["seat", "challenger", "how it played the seat"],
            [
                (d["faction"], f"`{d['challenger']}`", ladder_moves.moves_words(d, game))
                for d in played
            ],
        )  # fmt: skip
        if played
        else None,
        "budgets": budgets,
        "budget_table": render.table(
            ["challenger", "budget", "seat", "paired games", "gain", f"{lvl} paired CI"],
            [
                (
                    f"`{r['of']}`",
                    f"{r['factor']:g}x",
                    r["faction"],
                    r["games"],
                    pp(r["gain"]),
                    pp_ci(r["gain_lo"], r["gain_hi"]),
                )
                for r in curves
            ],
        ),
    }
    md = out / "ladder.md"
    md.write_text(render.markdown("ladder.md.j2", **context), "utf-8")
    page = out / "ladder.html"
    page.write_text(render.html("ladder.md.j2", context["title"], **context), "utf-8")
    return LadderFiles(js, md, page, png)


def _budget_figures(
    curves: list[dict[str, Any]],
    out: Path,
    confidence: float,
    seats: Sequence[str] | None = None,
    names: dict[str, str] | None = None,
) -> list:
    """One figure per challenger given with ``--budgets``: each seat's gain against budget."""
    from simulate.analysis import figures
    from simulate.analysis.strength_figures import gain_against_budget
    from simulate.study.batch import safe_name

    found = []
    for base in dict.fromkeys(r["of"] for r in curves):
        mine = [r for r in curves if r["of"] == base]
        fig = gain_against_budget(mine, base, confidence, seats=seats, names=names)
        png = figures.save(fig, out / f"ladder-budget-{safe_name(base)}.png")
        found.append(
            render.Figure(
                png, f"Each seat's gain against the budget of `{base}`, paired intervals."
            )
        )
    return found
