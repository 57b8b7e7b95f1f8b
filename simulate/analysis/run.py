"""A run folder loaded for analysis: its manifest, its game and seats, and its tables as
polars frames."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simulate.analysis import terms
from simulate.games import Game, UnknownGame
from simulate.games import get as get_game
from simulate.study import dataset
from simulate.study import manifest as manifest_mod
from simulate.study.dataset import cell_label


class ReportError(ValueError):
    """A run directory that cannot be reported on (the message is one line)."""


# ---------------------------------------------------------------------------------------------
# A run on disk


@dataclass
class Run:
    """One run directory: its manifest, its ``games`` and ``turns`` tables (and the game's
    own, ``tables``), and the game and seats it played (the manifest's; a folder that names
    none: the default game's)."""

    directory: Path
    manifest: dict[str, Any]
    games: pl.DataFrame  # every row, errored games included
    turns: pl.DataFrame  # the game's per-step table
    variants: list[str]  # in the order of the manifest
    game: Game | None = None  # None: the manifest's game (or the default)
    seats: tuple[str, ...] = ()  # in turn order; empty: the manifest's (or the game's)
    confidence: float = 0.95  # the report's level (the game's own sections read it)
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)  # the game's own tables

    def __post_init__(self) -> None:
        if self.game is None:
            try:
                self.game = get_game(self.manifest.get("game"))
            except UnknownGame as exc:
                raise ReportError(f"{self.directory}: {exc}") from None
        self.seats = tuple(self.seats or self.manifest.get("seats") or self.game.seats())

    @property
    def the_game(self) -> Game:
        """The run's game (never None once the run is built)."""
        assert self.game is not None
        return self.game

    @property
    def outcomes(self) -> tuple[str, ...]:
        """Each seat's win and the unresolved tie."""
        return terms.outcomes(self.seats)

    @property
    def parity(self) -> float:
        """1/n: each seat's win rate in a balanced game."""
        return terms.parity(self.seats)

    def score_column(self, seat: str) -> str:
        """The games table's column of ``seat``'s final score."""
        return self.the_game.score_column(seat)

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
            found = {f: first.get(f"strategy_{f}") for f in self.seats}
        return {f: str(found.get(f) or "?") for f in self.seats}

    def variant_games(self, variant: str, *, ok: bool = True) -> pl.DataFrame:
        """The games of ``variant``; only those that finished unless ``ok`` is False."""
        g = self.games.filter(pl.col("variant") == variant)
        return g.filter(pl.col("error").is_null()) if ok else g

    def ok_games(self) -> pl.DataFrame:
        return self.games.filter(pl.col("error").is_null())

    @property
    def lineups(self) -> list[str]:
        """The names of the run's lineups (``--lineup``); empty for a one-lineup run."""
        return [str(e["name"]) for e in self.manifest.get("lineups") or [] if isinstance(e, dict)]

    def description(self, variant: str) -> str:
        name = variant.split(" / ")[0] if self.lineups else variant
        for entry in self.manifest.get("variants") or []:
            if entry.get("name") == name:
                return str(entry.get("description") or "")
        return ""


def load_run(directory: Path | str) -> Run:
    """Read a run directory written by ``vsim run``; ReportError (one line) if unusable."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ReportError(f"{directory} is not a directory")
    try:
        man = manifest_mod.read(directory)
    except ValueError as exc:
        raise ReportError(" ".join(str(exc).split())) from None
    if man is None:
        raise ReportError(f"{directory} has no manifest.json: not a vsim run directory")
    if not dataset.shards(directory, "games"):
        raise ReportError(f"{directory} has no games yet (games/*.parquet is empty)")
    try:
        layout = dataset.layout_of(directory)
    except UnknownGame as exc:
        raise ReportError(f"{directory}: {' '.join(str(exc).split())}") from None
    try:
        games = pl.from_arrow(dataset.read_table(directory, "games"))
        turns = pl.from_arrow(dataset.read_table(directory, "turns"))
        own = {t: pl.from_arrow(dataset.read_table(directory, t)) for t in layout.game.tables}
    except Exception as exc:  # a damaged shard
        detail = " ".join(str(exc).split())
        raise ReportError(
            f"{directory}: cannot read the tables ({type(exc).__name__}: {detail})"
        ) from None
    assert isinstance(games, pl.DataFrame) and isinstance(turns, pl.DataFrame)
    tables = {t: f for t, f in own.items() if isinstance(f, pl.DataFrame)}
    ordered = [e["name"] for e in man.get("variants") or [] if isinstance(e, dict) and "name" in e]
    lineups = [e["name"] for e in man.get("lineups") or [] if isinstance(e, dict)]
    if lineups:  # every table and figure per variant x lineup: "variant / lineup"
        games, turns = (_by_cell(t) for t in (games, turns))
        tables = {t: _by_cell(f) for t, f in tables.items()}
        ordered = [cell_label(v, x) for v in ordered for x in lineups]
    present = set(games.get_column("variant").unique().to_list())
    variants = [v for v in ordered if v in present] + sorted(present - set(ordered))
    return Run(directory, man, games, turns, variants, layout.game, layout.seats, tables=tables)


def _by_cell(frame: pl.DataFrame) -> pl.DataFrame:
    """``variant`` relabelled as ``variant / lineup``; the variant's own name kept in
    ``variant_name``."""
    return frame.with_columns(
        pl.col("variant").alias("variant_name"),
        pl.when(pl.col("lineup").is_null())
        .then(pl.col("variant"))
        .otherwise(pl.concat_str([pl.col("variant"), pl.lit(" / "), pl.col("lineup")]))
        .alias("variant"),
    )
