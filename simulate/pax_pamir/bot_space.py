"""Pax Pamir's tunable policy (``Game.tunable``, ``simulate.study.tunable``; issue 66/67): what
``vsim tune-bots --game pax-pamir`` searches, the heuristic's weights with their ranges
(``strategies/pax_pamir/tuning.toml``: ``[common]`` for every seat, optional ``[P1]``..``[P5]``
tables for one seat; those of seats the variant does not seat go unused), the strategy spec
that plays a seat's values (``heuristic:tax=1.5,...``) and the weights file a tuning writes.

The heuristic is one bot for every seat, so a tuning's ``OUT/weights.toml`` holds the field's
shared values: each tuned weight is the mean of its values over the seats the tuning searched
(``--faction``; integers rounded), a plain weights file that ``heuristic:weights=FILE`` plays
in every seat (and the final ladder measures). Each searched seat's own values are written
beside it, ``OUT/weights-P1.toml`` and so on, for ``--strategy P1=heuristic:weights=...``."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulate.errors import DataError
from simulate.study import tuning_folder
from simulate.study.errors import RunError
from simulate.study.tunable import Param, Space, fmt_value, range_param, read_space_file

SPACE_FILE = Path(__file__).resolve().parents[2] / "strategies" / "pax_pamir" / "tuning.toml"
SPACE_REF = "strategies/pax_pamir/tuning.toml"  # how manifests name it
BASE_BOT = "heuristic"  # the weights every tuned seat value is laid over
BASES = (BASE_BOT,)
SEATS = tuple(f"P{i}" for i in range(1, 6))  # every seat of any player count (RB p4: 2-5)
SEAT_FILE = re.compile(r"-P\d+\.toml$")  # a seat's own values beside the shared file


def weight_names() -> frozenset[str]:
    """The heuristic's weights, as a spec or a weights file names them (``pass``, not
    ``pass_``)."""
    from strategies.pax_pamir.heuristic import Weights

    return frozenset(Weights.model_fields) - {"pass_"} | {"pass"}


def load_space(path: Path | str = SPACE_FILE) -> Space:
    """A checked space file (every seat of any player count), or RunError (one line)."""
    where = f"--space {path}"
    raw = read_space_file(path)
    for name, table in raw.items():
        if name not in ("common", *SEATS):
            raise RunError(f"{where}: unknown table [{name}] (common or P1..P5)")
        if not isinstance(table, dict):
            raise RunError(f"{where}: {name} must be a table ([{name}]), got {table!r}")
    known = weight_names()
    out = {}
    for seat in SEATS:
        table = dict(raw.get("common", {})) | dict(raw.get(seat, {}))
        out[seat] = tuple(_param(k, b, where, known) for k, b in sorted(table.items()))
    if not any(out.values()):
        raise RunError(f"{where}: nothing to search")
    return Space(out)


def _param(key: str, bounds: Any, where: str, known: frozenset[str]) -> Param:
    if key not in known:
        raise RunError(f"{where}: {key!r} is no weight of the heuristic (weights.toml)")
    return range_param(key, bounds, where)


@lru_cache(maxsize=1)
def _shipped() -> Any:
    from strategies.pax_pamir.heuristic import load_weights

    return load_weights()


def base_value(key: str) -> float:
    """The value of a weight in the shipped ``weights.toml`` (ValueError for no weight)."""
    if key not in weight_names():
        raise ValueError(f"{key!r} is no weight of the heuristic (weights.toml)")
    return getattr(_shipped(), "pass_" if key == "pass" else key)


def start_values(
    space: Space, path: Path | None, base: str = BASE_BOT
) -> dict[str, dict[str, float]]:
    """Each seat's starting values, clipped into the searched ranges: the keys of the weights
    file ``path`` (a tuning's ``weights.toml``, say) over the shipped ones, the same for every
    seat; the shipped weights when ``path`` is None or ``heuristic``."""
    weights = _shipped()
    if path is not None and str(path) != BASE_BOT:
        from strategies.pax_pamir.heuristic import load_weights

        try:
            weights = load_weights(Path(path))
        except DataError as exc:
            raise RunError(f"--start: {' '.join(str(exc).split())}") from None
    return {
        seat: {p.key: p.clip(getattr(weights, "pass_" if p.key == "pass" else p.key)) for p in ps}
        for seat, ps in space.params.items()
    }


def spec_of(values: dict[str, float], base: str = BASE_BOT) -> str:
    """The strategy spec of a seat playing ``values``: the values equal to the shipped ones are
    left out, so the shipped values give exactly ``heuristic``."""
    changed = {k: v for k, v in sorted(values.items()) if fmt_value(v) != fmt_value(base_value(k))}
    if not changed:
        return base
    return base + ":" + ",".join(f"{k}={fmt_value(v)}" for k, v in changed.items())


def shared_values(field_: dict[str, dict[str, float]], tuning: Any) -> dict[str, float]:
    """The field's shared values: each weight's mean over the searched seats holding it
    (integers rounded)."""
    seats = list(getattr(tuning, "factions", None) or field_)
    integer = {p.key: p.integer for s in seats for p in tuning.space.params.get(s, ())}
    values: dict[str, list[float]] = {}
    for seat in seats:
        for key, value in field_[seat].items():
            values.setdefault(key, []).append(value)
    out = {}
    for key, found in sorted(values.items()):
        mean = sum(found) / len(found)
        out[key] = int(round(mean)) if integer.get(key) else float(mean)
    return out


def seat_file(path: Path, seat: str) -> Path:
    """Where ``seat``'s own tuned values are written beside the shared ``path``."""
    return path.with_name(f"{path.stem}-{seat}{path.suffix}")


def write_weights(path: Path, field_: dict[str, dict[str, float]], tuning: Any, games: int) -> None:
    """The tuned lineup as heuristic weights files: ``path``, the field's shared values
    (``shared_values``), which ``heuristic:weights=FILE`` plays in every seat; and each searched
    seat's own values beside it (``seat_file``). A seat file of another tuning is removed."""
    seats = list(getattr(tuning, "factions", None) or field_)
    about = (
        f"# Seed {tuning.seed}, {tuning.rounds} rounds, {games:,} games in all; variant "
        f"{tuning.variant.name}."
    )
    shared = [
        "# Heuristic weights tuned by `vsim tune-bots --game pax-pamir` (merged over",
        "# weights.toml). The heuristic is one bot for every seat: each weight here is the",
        f"# mean of its tuned values over the seats searched ({', '.join(seats)});",
        f"# each seat's own values are in {seat_file(path, seats[0]).name} and so on.",
        "# Play it with",
        f"#   --strategy all={BASE_BOT}:weights={path.name}",
        about,
    ]
    files = {path: (shared, shared_values(field_, tuning))}
    for seat in seats:
        own = seat_file(path, seat)
        lines = [
            f"# {seat}'s heuristic weights tuned by `vsim tune-bots --game pax-pamir` (merged",
            f"# over weights.toml); the field's shared values are in {path.name}. Play it with",
            f"#   --strategy {seat}={BASE_BOT}:weights={own.name}",
            about,
        ]
        files[own] = (lines, dict(sorted(field_[seat].items())))
    for stale in path.parent.glob(f"{path.stem}-P*{path.suffix}"):
        if stale not in files and SEAT_FILE.search(stale.name):
            stale.unlink()
    for target, (lines, values) in files.items():
        body = [f"{tuning_folder.toml_key(k)} = {fmt_value(v)}" for k, v in values.items()]
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_text("\n".join([*lines, "", *body]) + "\n")
        tmp.replace(target)
