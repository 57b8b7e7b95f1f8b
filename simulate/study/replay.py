"""Replay: play one recorded game again from its run's manifest and compare final states."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.errors import DataError
from simulate.games import get as get_game
from simulate.seeds import game_seed
from simulate.study import dataset
from simulate.study import manifest as manifest_mod
from simulate.study.batch import compiled_rules
from simulate.study.errors import RunError
from simulate.study.errors import one_line as _one_line


@dataclass
class Replay:
    """A game played again from its record: the record, the new result, and whether the
    final state digests agree (``result`` is None and ``error`` set if it raised)."""

    row: dict[str, Any]
    result: Any  # the game's Outcome
    error: BaseException | None
    matches: bool
    game: Any = None  # the run's game
    rules: Any = None  # the variant's compiled rules
    seats: tuple[str, ...] = ()


def study_from_manifest(directory: Path) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """(manifest, strategies, variants by name) of a run directory; RunError if unusable."""
    try:
        man = manifest_mod.read(Path(directory))
    except ValueError as exc:
        raise RunError(_one_line(exc)) from None
    if man is None:
        raise RunError(f"{directory} has no {manifest_mod.MANIFEST}: not a vsim run directory")
    from simulate.variant_format import Variant

    game = get_game(man.get("game"))
    load_variant = game.load_variant
    BASE = game.base_variant()  # noqa: N806 - the game's implicit base
    variants = {}
    for entry in man.get("variants", []):
        v = None
        path = entry.get("path")
        if path is not None and not Path(path).is_absolute():
            path = str(Path(directory) / path)  # recorded relative to the run folder
        if entry.get("builtin"):
            with contextlib.suppress(DataError):
                v = load_variant(entry["name"])
            if v is not None and v.digest != entry.get("digest"):
                v = None
        elif path is None and entry.get("digest") == BASE.digest:
            v = BASE
        elif path is not None and Path(path).is_file():
            with contextlib.suppress(DataError):
                v = load_variant(Path(path))
            if v is not None and v.digest != entry.get("digest"):
                v = None
        if v is None:  # the file moved or changed: rebuild it from the recorded content
            v = Variant(
                name=entry["name"],
                description=entry.get("description", ""),
                path=Path(path) if path else None,
                content=entry.get("content", {}),
                digest=entry.get("digest", ""),
            )
        variants[entry["name"]] = v
    return man, dict(man.get("strategies", {})), variants


def replay(
    directory: Path,
    game: int,
    variant: str | None = None,
    trace: bool = True,
    lineup: str | None = None,
) -> Replay:
    """Play game ``game`` of the run in ``directory`` again, with the strategies its row
    records, and compare its final state; ``lineup`` picks one of a run of several lineups
    (a ladder's or strength curve's ``lineup`` column)."""
    man, strategies, variants = study_from_manifest(directory)
    if variant is None:
        if len(variants) != 1:
            raise RunError(
                f"the run has several variants; choose one with --variant ({', '.join(variants)})"
            )
        variant = next(iter(variants))
    if variant not in variants:
        raise RunError(f"no variant {variant!r} in this run (it has {', '.join(variants)})")
    import pyarrow.compute as pc

    games = dataset.read_table(directory, "games")
    rows = [
        r
        for r in games.filter(
            pc.and_(
                pc.equal(games.column("variant"), variant),
                pc.equal(games.column("game_index"), game),
            )
        ).to_pylist()
    ]
    if not rows:
        raise RunError(f"no game {game} of variant {variant!r} in {directory}")
    lineups = [r.get("lineup") for r in rows]
    if lineup is not None:
        rows = [r for r in rows if r.get("lineup") == lineup]
        if not rows:
            named = ", ".join(str(x) for x in lineups)
            raise RunError(f"no game {game} of lineup {lineup!r} (the run has {named})")
    elif len(rows) > 1:
        named = ", ".join(str(x) for x in lineups)
        raise RunError(
            f"game {game} was played by several lineups; choose one with --lineup ({named})"
        )
    row = rows[0]
    expected = game_seed(int(man["master_seed"]), game)
    if row["seed"] != expected:
        raise RunError(f"game {game} has seed {row['seed']} but the master seed gives {expected}")
    from strategies.registry import make

    the_game = get_game(man.get("game"))
    seats = tuple(man.get("seats") or the_game.seats())
    try:
        rules = compiled_rules(variants[variant], the_game)
        seats = the_game.seats(rules)
        played = {s: row.get(f"strategy_{s}") or strategies[s] for s in seats}  # the row's
        agents = [make(played[s], the_game.ref) for s in seats]
        result = the_game.play(row["seed"], agents, rules, trace=trace)
    except Exception as exc:
        return Replay(row, None, exc, matches=row["error"] is not None, game=the_game)
    matches = result.state_digest == row["state_digest"]
    return Replay(row, result, None, matches, the_game, rules, seats)
