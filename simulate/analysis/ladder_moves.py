"""How a ladder's challenger played its seat differently from the field's bot, step by step.

For a seat and a challenger, the seat's move on each step (``move_columns``: the per-step
table's categorical columns after the step's kind, joined as ``first:second+third``, e.g.
``limited:attack``, ``command_decree:govern+collect_tribute``) in the challenger's games and
in the field's games of the same pairs. Per step: the share of each move on each side, and how far the two mixes are apart
(the total variation distance: half the summed absolute differences of the shares, the share
of the seat's moves that would have to change for the mixes to agree). On the first step
both games of a pair start from the same position (the same seed): a difference there is
the bots' alone. Later it is also the positions' (what was played
before). The pairs are those of the gain (``ladder._cells``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import terms
from simulate.analysis.formatting import finite
from simulate.games import Game
from simulate.study import dataset
from simulate.study.ladder import FIELD

Cell = tuple[str, str]  # (seat, challenger)
SHOWN = 3  # moves kept per card: those whose shares differ most
NOTABLE = 0.1  # a card whose mixes are this far apart is one where the seat played otherwise


@dataclass(frozen=True)
class CardMoves:
    faction: str
    challenger: str
    turn: int  # 1-based position of the step in the game
    games: int  # pairs whose games both reached this step
    distance: float  # total variation distance of the two move mixes, 0..1
    moves: tuple[tuple[str, float, float], ...]  # (move, challenger's share, field's share)

    def to_json(self) -> dict[str, Any]:
        return finite(
            {
                **{k: v for k, v in self.__dict__.items() if k != "moves"},
                "moves": [{"move": m, "challenger": c, "field": f} for m, c, f in self.moves],
            }
        )


def move_columns(game: Game | None = None) -> list[str]:
    """The per-step columns a move is made of: the categorical ones after the first (the
    step's kind), or the only one."""
    found = [c.name for c in terms.game_of(game).step_columns if c.categorical]
    return found[1:] if len(found) > 1 else found


def move_label(columns: list[str] | None = None) -> pl.Expr:
    """A move as one word from the per-step table's ``columns`` (None: the default game's):
    ``first[:second][+third...]``, a null part left out."""
    columns = move_columns() if columns is None else columns
    label: pl.Expr = pl.col(columns[0]).cast(pl.String).fill_null("")
    for i, c in enumerate(columns[1:]):
        sep = ":" if i == 0 else "+"
        part = pl.col(c).cast(pl.String)
        label = label + pl.when(part.is_null()).then(pl.lit("")).otherwise(sep + part)
    return label.alias("move")


def move_counts(
    directory: Path, cells: list[tuple[str, str, pl.DataFrame]]
) -> dict[Cell, pl.DataFrame]:
    """Per cell of ``ladder._cells(directory)``: how often the seat made each move on each
    step, in the challenger's games (``challenger``) and the field's (``field``), over the
    pairs whose two games both reached the step (``games``). None for a game without
    categorical per-step columns."""
    game = dataset.layout_of(Path(directory)).game
    parts = move_columns(game)
    if not parts or not game.step_key:
        return {}
    seat_col, position = game.seat_word, game.step_key[0]
    cols = list(dict.fromkeys(["lineup", "game_index", position, seat_col, *parts]))
    turns = pl.from_arrow(dataset.read_table(Path(directory), "turns", cols))
    assert isinstance(turns, pl.DataFrame)
    if turns.height == 0:
        return {}
    keys = ["lineup", "game_index", position, seat_col]
    moves = (
        turns.group_by(keys, maintain_order=True)
        .agg(pl.all().last())
        .select(*keys, move_label(parts))
        .rename({position: "turn", seat_col: "faction"})
    )
    out: dict[Cell, pl.DataFrame] = {}
    for seat, challenger, pairs in cells:
        key = pairs.get_column("lineup")[0]
        games = pairs.select("game_index")
        own = moves.filter(pl.col("faction") == seat).join(games, on="game_index")
        mine = own.filter(pl.col("lineup") == key).select("game_index", "turn", "move")
        theirs = own.filter(pl.col("lineup") == FIELD).select("game_index", "turn", "move")
        both = mine.join(theirs, on=["game_index", "turn"], suffix="_field")
        reached = both.group_by("turn").agg(pl.len().alias("games"))
        counts = [
            both.group_by("turn", column).agg(pl.len().alias(side)).rename({column: "move"})
            for column, side in (("move", "challenger"), ("move_field", "field"))
        ]
        out[(seat, challenger)] = (
            counts[0]
            .join(counts[1], on=["turn", "move"], how="full", coalesce=True)
            .fill_null(0)
            .join(reached, on="turn")
        )
    return out


def card_moves(counts: dict[Cell, list[pl.DataFrame]]) -> list[CardMoves]:
    """Per cell and step, the two move mixes and their distance, over every frame of
    ``move_counts`` given for the cell (several ladders pool by adding their counts)."""
    out = []
    for (seat, challenger), parts in counts.items():
        frame = (
            pl.concat(parts)
            .group_by("turn", "move")
            .agg(pl.col("challenger").sum(), pl.col("field").sum())
        )
        games = pl.concat([p.select("turn", "games").unique() for p in parts])
        games = games.group_by("turn").agg(pl.col("games").sum())
        shares = frame.join(games, on="turn").with_columns(
            (pl.col("challenger") / pl.col("games")).alias("c"),
            (pl.col("field") / pl.col("games")).alias("f"),
        )
        for (turn,), rows in sorted(shares.group_by("turn"), key=lambda g: g[0][0]):
            n = int(rows.get_column("games")[0])
            # on the counts, not the shares: an exact sum whatever the rows' order
            counts = rows.select(pl.col("challenger", "field").cast(pl.Int64))
            diff = (counts.get_column("challenger") - counts.get_column("field")).abs()
            ranked = rows.with_columns(diff.alias("d")).sort(
                ["d", "move"], descending=[True, False]
            )
            moves = tuple(
                (m, float(c), float(f))
                for m, c, f in ranked.select("move", "c", "f").head(SHOWN).iter_rows()
            )
            out.append(CardMoves(seat, challenger, turn, n, int(diff.sum()) / (2 * n), moves))
    return out


def differences(
    found: list[CardMoves], cards: int = 3, game: Game | None = None
) -> list[dict[str, Any]]:
    """Per cell: the ``cards`` steps where the seat's moves differ most (of those most pairs
    reached), and the first step where they differ by ``NOTABLE`` or more (with the game's
    word for a step; None: the default game's)."""
    step = terms.game_of(game).step_label
    out = []
    for cell in dict.fromkeys((m.faction, m.challenger) for m in found):
        rows = [m for m in found if (m.faction, m.challenger) == cell]
        most = max(m.games for m in rows)
        rows = [m for m in rows if m.games >= most / 2]  # the last few cards: a few long games
        first = next((m for m in rows if m.distance >= NOTABLE), None)
        top = sorted(rows, key=lambda m: (-m.distance, m.turn))[:cards]
        out.append(
            {
                "faction": cell[0],
                "challenger": cell[1],
                "first_turn": None if first is None else first.turn,
                "cards": [m.to_json() for m in top],
                "step": step,
            }
        )
    return out


def moves_words(d: dict[str, Any], game: Game | None = None) -> str:
    """A ``differences`` entry in plain words (its step word, else ``game``'s)."""
    step = d.get("step") or terms.game_of(game).step_label
    cards = d["cards"]
    if d["first_turn"] is None or not cards:
        return (
            f"played like the field's bot (its moves differ by less than {NOTABLE:.0%} on "
            f"every {step})"
        )
    top = cards[0]
    shown = ", ".join(
        f"{m['move']} {m['challenger']:.0%} (field {m['field']:.0%})"
        for m in top["moves"]
        if m["challenger"] != m["field"]
    )
    words = (
        f"played most differently at {step} {top['turn']} (move mixes {top['distance']:.0%} "
        f"apart): {shown}"
    )
    others = [f"{step} {c['turn']} ({c['distance']:.0%})" for c in cards[1:]]
    if others:
        words += "; then " + ", ".join(others)
    return words + f"; first {NOTABLE:.0%} apart at {step} {d['first_turn']}"
