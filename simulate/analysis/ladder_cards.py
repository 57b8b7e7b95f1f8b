"""Where a ladder's gain is made: each seat's score-margin gain step by step.

For a seat and a challenger, the seat's margin after each step (its score, the game's
per-step ``step_score``, less the best other seat's), in the challenger's game less in the
field's game of the same index (the same seed), is averaged over the pairs that reached that
step, with a paired Student-t interval. A gain made at one point of the game shows as a
step: a kind of step (the per-step table's first categorical column) that stands at the
same place in every game, just before it, names a part of the game the field's bot plays
worse than the challenger; what the seat held after each step (the game's ``ladder_held``
columns: paired differences too) says how the challenger played it. The pairs are those of
the gain (``ladder._cells``: a game that errored on either side is dropped).
"""

from __future__ import annotations

import math
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


def held_columns(game: Game | None = None) -> tuple[tuple[str, str], ...]:
    """(per-step column, words) of what a seat held after a step, that a ladder compares:
    the game's ``ladder_held``."""
    return tuple((str(c), str(w)) for c, w in terms.game_of(game).ladder_held)


def kind_column(game: Game | None = None) -> str | None:
    """The per-step column naming a step's kind: the first declared categorical one."""
    return next((c.name for c in terms.game_of(game).step_columns if c.categorical), None)


@dataclass(frozen=True)
class CardGain:
    faction: str
    challenger: str
    turn: int  # 1-based position of the step in the game
    games: int  # pairs whose games both reached this step
    margin_gain: float  # mean paired change of the seat's score margin after this step
    lo: float
    hi: float
    card_kind: str | None  # the kind of this step in most of the field's games
    kind_share: float | None  # in what share of them
    held: dict[str, float]  # mean paired difference of what the seat held after it

    def to_json(self) -> dict[str, Any]:
        return finite(dict(self.__dict__))


def card_gaps(directory: Path, cells: list[tuple[str, str, pl.DataFrame]]) -> dict[Cell, Any]:
    """Per cell of ``ladder._cells(directory)``: one row per pair and step (``game_index``,
    ``turn``, the seat's margin change ``gap``, the field game's ``card_kind``: the step's
    kind, and the change of each ``held_columns`` quantity of the seat). None for a game
    without a per-step score."""
    layout = dataset.layout_of(Path(directory))
    game = layout.game
    if game.step_score is None or not game.step_key:
        return {}
    seat_col, position = game.seat_word, game.step_key[0]
    kind = kind_column(game)
    held = [c for c, _ in held_columns(game)]
    cols = list(dict.fromkeys(["lineup", "game_index", position, seat_col, game.step_score,
                               *([kind] if kind else []), *held]))  # fmt: skip
    turns = pl.from_arrow(dataset.read_table(Path(directory), "turns", cols))
    assert isinstance(turns, pl.DataFrame)
    if turns.height == 0:
        return {}
    turns = turns.rename({position: "turn", seat_col: "faction", game.step_score: "vp"})
    turns = (
        turns.rename({kind: "card_kind"})
        if kind
        else turns.with_columns(pl.lit(None, pl.String).alias("card_kind"))
    )
    seats = list(layout.seats)
    # every seat's score after each step (its last line of the step), one row per step
    vp = (
        turns.group_by(["lineup", "game_index", "turn", "faction"], maintain_order=True)
        .agg(pl.col("vp").last())
        .pivot(on="faction", index=["lineup", "game_index", "turn"], values="vp")
    )
    scored = [f for f in seats if f in vp.columns]
    if vp.select(pl.col(scored).null_count()).sum_horizontal().item():
        # a game whose steps record only the acting seat: each score holds until it changes
        vp = vp.sort("lineup", "game_index", "turn").with_columns(
            pl.col(scored).forward_fill().over("lineup", "game_index")
        )
    kinds = (
        turns.filter(pl.col("lineup") == FIELD)
        .group_by(["game_index", "turn"])
        .agg(pl.col("card_kind").first())
    )
    field = vp.filter(pl.col("lineup") == FIELD).join(kinds, on=["game_index", "turn"])
    last = turns.group_by(["lineup", "game_index", "turn", "faction"], maintain_order=True).agg(
        [pl.col(c).last() for c in held]
    )
    out: dict[Cell, Any] = {}
    for seat, challenger, pairs in cells:
        key = pairs.get_column("lineup")[0]
        games = pairs.select("game_index")
        mine = vp.filter(pl.col("lineup") == key).join(games, on="game_index")
        both = mine.join(field, on=["game_index", "turn"], suffix="_field")
        own = last.filter(pl.col("faction") == seat).drop("faction")
        both = both.join(own, on=["lineup", "game_index", "turn"]).join(
            own.filter(pl.col("lineup") == FIELD).drop("lineup"),
            on=["game_index", "turn"],
            suffix="_field",
        )
        others = [f for f in seats if f != seat]
        gap = (pl.col(seat) - pl.max_horizontal(others)) - (
            pl.col(f"{seat}_field") - pl.max_horizontal([f"{f}_field" for f in others])
        )
        out[(seat, challenger)] = both.select(
            "game_index",
            "turn",
            gap.cast(pl.Float64).alias("gap"),
            "card_kind",
            *[(pl.col(c) - pl.col(f"{c}_field")).cast(pl.Float64).alias(c) for c in held],
        )
    return out


def card_gains(gaps: dict[Cell, list[Any]], confidence: float = 0.95) -> list[CardGain]:
    """The mean margin change per cell and step, with its paired Student-t interval, over
    every frame of ``card_gaps`` given for the cell (several ladders pool by concatenation)."""
    from scipy import stats as sps

    out = []
    for (seat, challenger), parts in gaps.items():
        frame = pl.concat(parts)
        held_cols = [
            c for c in frame.columns if c not in ("game_index", "turn", "gap", "card_kind")
        ]
        by = (
            frame.group_by("turn")
            .agg(
                pl.col("gap").mean().alias("mean"),
                pl.col("gap").std().alias("sd"),
                pl.len().alias("n"),
                pl.col("card_kind").mode().first().alias("kind"),
                (pl.col("card_kind") == pl.col("card_kind").mode().first()).mean().alias("share"),
                *[pl.col(c).mean() for c in held_cols],
            )
            .sort("turn")
        )
        for turn, mean, sd, n, kind, share, *means in by.iter_rows():
            if mean is None:  # no pair where both margins are known yet
                continue
            if n > 1 and sd is not None:
                half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
            else:
                half = math.inf
            held = dict(zip(held_cols, means, strict=True))
            out.append(
                CardGain(
                    seat, challenger, turn, n, mean, mean - half, mean + half, kind, share, held
                )
            )
    return out


def steps(found: list[CardGain], game: Game | None = None) -> list[dict[str, Any]]:
    """Per cell: the gain after the last step most pairs reached, and the step of the
    largest one-step change of the gain in its direction (a rise where the challenger ends
    ahead, a fall where it ends behind: where the gain or loss is made), with the kind of
    the step before it, the cell's usual kind, and the game's words for a step and the
    score (``game`` None: the default game's)."""
    game = terms.game_of(game)
    out = []
    for cell in dict.fromkeys((g.faction, g.challenger) for g in found):
        rows = [g for g in found if (g.faction, g.challenger) == cell]
        kinds = [g.card_kind for g in rows if g.card_kind is not None]
        usual = max(dict.fromkeys(kinds), key=kinds.count) if kinds else None
        most = max(g.games for g in rows)
        rows = [g for g in rows if g.games >= most / 2]  # the last few steps: a few long games
        sign = 1.0 if rows[-1].margin_gain >= 0 else -1.0
        rise, at, before = -math.inf, rows[0], None
        for prev, g in zip([None, *rows], rows, strict=False):
            r = sign * (g.margin_gain - (prev.margin_gain if prev is not None else 0.0))
            if r > rise:
                rise, at, before = r, g, prev
        rise *= sign
        out.append(
            {
                "faction": cell[0],
                "challenger": cell[1],
                "last_turn": rows[-1].turn,
                "gain_end": rows[-1].margin_gain,
                "rise_turn": at.turn,
                "rise": rise,
                "gain_before": before.margin_gain if before is not None else 0.0,
                "after_kind": before.card_kind if before is not None else None,
                "after_share": before.kind_share if before is not None else None,
                "held_before": before.held if before is not None else None,
                "usual_kind": usual,
                "step": game.step_label,
                "score": game.score_label,
            }
        )
    return out


def step_words(s: dict[str, Any], game: Game | None = None) -> str:
    """A ``steps`` entry in plain words (the step's and score's words its own, else
    ``game``'s: None, the default game's)."""
    found = terms.game_of(game)
    step, score = s.get("step") or found.step_label, s.get("score") or found.score_label
    where = f"{step} {s['rise_turn']}"
    kind = s["after_kind"]
    if kind is not None and kind != s.get("usual_kind"):
        share = s["after_share"]
        every = "every game" if share >= 0.999 else f"{100 * share:.0f}% of the games"
        where += f", just after a {kind.capitalize()} {step} ({every})"
    words = (
        f"{s['gain_before']:+.2f} {score} of margin before {step} {s['rise_turn']}, "
        f"{s['gain_end']:+.2f} after {step} {s['last_turn']}; the largest one-{step} "
        f"{'fall' if s['gain_end'] < 0 else 'rise'}, {s['rise']:+.2f}, at {where}"
    )
    held = s.get("held_before")
    if held:
        named = dict(held_columns(found))
        order = [*(c for c in named if c in held), *(c for c in held if c not in named)]
        diffs = ", ".join(
            f"{named.get(c, c.replace('_', ' '))} {held[c]:+.1f}"
            for c in order
            if held.get(c) is not None
        )
        words += f"; the seat held, before it: {diffs}"
    return words


def fixed_kinds(found: list[CardGain]) -> list[str]:
    """The kinds of step that stand at the same place in every game, other than the usual
    kind (where a gain made just after one names a part of the game)."""
    kinds = [g.card_kind for g in found if g.card_kind is not None]
    usual = max(dict.fromkeys(kinds), key=kinds.count) if kinds else None
    every = (g.card_kind for g in found if g.kind_share is not None and g.kind_share >= 0.999)
    return [k for k in dict.fromkeys(every) if k is not None and k != usual]
