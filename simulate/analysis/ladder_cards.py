"""Where a ladder's gain is made: each seat's VP-margin gain card by card.

For a seat and a challenger, the seat's VP margin after each card (its VP less the best other
Faction's, 5.0), in the challenger's game less in the field's game of the same index (the same
seed, so the same deck: 2.1), is averaged over the pairs that reached that card, with a paired
Student-t interval. A gain made at one point of the deck shows as a step: the Succession
cards (2.5) stand at the same places in every game, so a step just after one names a part of
the game the field's bot plays worse than the challenger; what the seat held after each card
(Resources, Cavalry, Units on the map, Controlled Provinces: paired differences too) says how
the challenger played it. The pairs are those of the gain (``ladder._cells``: a game that
errored on either side is dropped).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis.formatting import finite
from simulate.study import dataset
from simulate.study.ladder import FIELD
from simulate.vijayanagara.result import FACTIONS

Cell = tuple[str, str]  # (seat, challenger)
# what the seat held after the card (turns table column, words): paired differences too
HELD = (
    ("units_on_map", "Units on the map"),
    ("resources", "Resources"),
    ("cavalry", "Cavalry"),
    ("controlled_provinces", "Controlled Provinces"),
)


@dataclass(frozen=True)
class CardGain:
    faction: str
    challenger: str
    turn: int  # 1-based position of the card in the deck
    games: int  # pairs whose games both reached this card
    margin_gain: float  # mean paired change of the seat's VP margin after this card
    lo: float
    hi: float
    card_kind: str  # the kind of this card in most of the field's games (event, succession...)
    kind_share: float  # in what share of them
    held: dict[str, float]  # mean paired difference of what the seat held after it (HELD)

    def to_json(self) -> dict[str, Any]:
        return finite(dict(self.__dict__))


def card_gaps(directory: Path, cells: list[tuple[str, str, pl.DataFrame]]) -> dict[Cell, Any]:
    """Per cell of ``ladder._cells(directory)``: one row per pair and card (``game_index``,
    ``turn``, the seat's margin change ``gap``, the field game's ``card_kind``, and the
    change of each ``HELD`` quantity of the seat)."""
    cols = ["lineup", "game_index", "turn", "faction", "vp", "card_kind", *[c for c, _ in HELD]]
    turns = pl.from_arrow(dataset.read_table(Path(directory), "turns", cols))
    assert isinstance(turns, pl.DataFrame)
    if turns.height == 0:
        return {}
    # every Faction's VP after each card (its last line of the card), one row per card
    vp = (
        turns.group_by(["lineup", "game_index", "turn", "faction"], maintain_order=True)
        .agg(pl.col("vp").last())
        .pivot(on="faction", index=["lineup", "game_index", "turn"], values="vp")
    )
    kinds = (
        turns.filter(pl.col("lineup") == FIELD)
        .group_by(["game_index", "turn"])
        .agg(pl.col("card_kind").first())
    )
    field = vp.filter(pl.col("lineup") == FIELD).join(kinds, on=["game_index", "turn"])
    held = [c for c, _ in HELD]
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
        others = [f for f in FACTIONS if f != seat]
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
    """The mean margin change per cell and card, with its paired Student-t interval, over
    every frame of ``card_gaps`` given for the cell (several ladders pool by concatenation)."""
    from scipy import stats as sps

    out = []
    for (seat, challenger), parts in gaps.items():
        frame = pl.concat(parts)
        by = (
            frame.group_by("turn")
            .agg(
                pl.col("gap").mean().alias("mean"),
                pl.col("gap").std().alias("sd"),
                pl.len().alias("n"),
                pl.col("card_kind").mode().first().alias("kind"),
                (pl.col("card_kind") == pl.col("card_kind").mode().first()).mean().alias("share"),
                *[pl.col(c).mean() for c, _ in HELD],
            )
            .sort("turn")
        )
        for turn, mean, sd, n, kind, share, *means in by.iter_rows():
            if n > 1 and sd is not None:
                half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
            else:
                half = math.inf
            held = {c: m for (c, _), m in zip(HELD, means, strict=True)}
            out.append(
                CardGain(
                    seat, challenger, turn, n, mean, mean - half, mean + half, kind, share, held
                )
            )
    return out


def steps(found: list[CardGain]) -> list[dict[str, Any]]:
    """Per cell: the gain after the last card most pairs reached, and the card of the largest
    one-card change of the gain in its direction (a rise where the challenger ends ahead, a
    fall where it ends behind: where the gain or loss is made), with the kind of the card
    before it."""
    out = []
    for cell in dict.fromkeys((g.faction, g.challenger) for g in found):
        rows = [g for g in found if (g.faction, g.challenger) == cell]
        most = max(g.games for g in rows)
        rows = [g for g in rows if g.games >= most / 2]  # the last few cards: a few long games
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
            }
        )
    return out


def step_words(s: dict[str, Any]) -> str:
    """A ``steps`` entry in plain words."""
    where = f"card {s['rise_turn']}"
    kind = s["after_kind"]
    if kind is not None and kind != "event":
        share = s["after_share"]
        every = "every game" if share >= 0.999 else f"{100 * share:.0f}% of the games"
        where += f", just after a {kind.capitalize()} card ({every})"
    words = (
        f"{s['gain_before']:+.2f} VP of margin before card {s['rise_turn']}, "
        f"{s['gain_end']:+.2f} after card {s['last_turn']}; the largest one-card "
        f"{'fall' if s['gain_end'] < 0 else 'rise'}, {s['rise']:+.2f}, at {where}"
    )
    held = s.get("held_before")
    if held:
        diffs = ", ".join(f"{name} {held[c]:+.1f}" for c, name in HELD if held.get(c) is not None)
        words += f"; the seat held, before it: {diffs}"
    return words
