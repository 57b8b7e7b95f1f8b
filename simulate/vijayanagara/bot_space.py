"""Vijayanagara's tunable policy (``Game.tunable``, ``simulate.study.tunable``): what ``vsim
tune-bots`` searches, each Faction's heuristic weights with their ranges
(``strategies/vijayanagara/heuristic/tuning.toml``), the strategy spec that plays a seat's
values, and the weights file a tuning writes."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from simulate.study import tuning_folder
from simulate.study.errors import RunError
from simulate.study.tunable import Param, Space, fmt_value, range_param, read_space_file
from simulate.vijayanagara.result import FACTIONS

SPACE_FILE = (
    Path(__file__).resolve().parents[2]
    / "strategies"
    / "vijayanagara"
    / "heuristic"
    / "tuning.toml"
)
BASE_BOT = "heuristic-v1"  # the weights every tuned seat value is laid over
# the bots a tuning may lay its seat values over: the hand-set weights alone, the default
# lineup with its layers (tuned.toml, choice.toml, its lookaheads), so that a tuning plays
# against the current field and its result keeps the default's structure, or the fast tier
# (the default's layers and fast.toml, no lookaheads), so that its own values fit it
BASES = (BASE_BOT, "heuristic", "heuristic-fast")
SPACE_REF = "strategies/vijayanagara/heuristic/tuning.toml"  # how manifests name it


def load_space(path: Path | str = SPACE_FILE) -> Space:
    """A checked space file, or RunError (one line)."""
    from strategies.vijayanagara.heuristic.weights import default_weights, set_dotted

    where = f"--space {path}"
    raw = read_space_file(path)
    unknown = sorted(set(raw) - {"common", *FACTIONS})
    if unknown:
        raise RunError(f"{where}: unknown table [{unknown[0]}] (common, DS, BK or VE)")
    weights = default_weights()
    out = {}
    for f in FACTIONS:
        table = dict(raw.get("common", {})) | dict(raw.get(f, {}))
        params = []
        for key, bounds in sorted(table.items()):
            params.append(_param(key, bounds, where, weights, set_dotted))
        out[f] = tuple(params)
    if not any(out.values()):
        raise RunError(f"{where}: nothing to search")
    return Space(out)


def _param(key: str, bounds: Any, where: str, weights: dict, set_dotted: Any) -> Param:
    param = range_param(key, bounds, where)
    try:
        set_dotted(weights, key, param.low)
    except ValueError as exc:
        raise RunError(f"{where}: {exc}") from None
    return param


@lru_cache(maxsize=256)
def base_value(key: str) -> float:
    """The value of a dotted weight in the base bot's ``weights.toml`` (0 for a term of a
    table of fitted terms, which it leaves empty)."""
    from strategies.vijayanagara.heuristic.weights import shipped_value

    return shipped_value(key)


def start_values(
    space: Space, path: Path | None, base: str = BASE_BOT
) -> dict[str, dict[str, float]]:
    """Each seat's starting values, clipped into the searched ranges: the ``[seat.F]`` values
    of ``path`` (over ``heuristic-v1``, default the shipped tuned.toml), else what the seat of
    a lineup ``base`` plays (all its layers: a choice table's value is choice.toml's), else
    the base bot's."""
    from strategies.vijayanagara.heuristic.weights import (
        TUNED_FILE,
        default_weights,
        merge_weights,
        read_weights_file,
    )

    if str(path) == BASE_BOT:  # start from the base bot itself
        return {f: {p.key: p.clip(base_value(p.key)) for p in ps} for f, ps in space.params.items()}
    seats: dict = {}
    if path is not None or base == BASE_BOT:
        chosen = Path(path or TUNED_FILE)
        try:
            content = read_weights_file(chosen)
            merge_weights(default_weights(), content, str(chosen))  # checks every value's name
        except ValueError as exc:
            raise RunError(f"--start: {exc}") from None
        seats = content.get("seat", {})
    out = {}
    for f, params in space.params.items():
        given = _flatten(seats.get(f, {}))
        played = _played(base, f) if params else {}
        out[f] = {
            p.key: p.clip(given.get(p.key, played.get(p.key, base_value(p.key)))) for p in params
        }
    return out


def _played(base: str, faction: str) -> dict[str, Any]:
    """What ``faction``'s seat of lineup ``base`` plays, flat (none for ``heuristic-v1``)."""
    if base == BASE_BOT:
        return {}
    from strategies.registry import resolve

    return _flatten(resolve(base).policy_for(None, {}, faction).shared.seat(faction))


def _flatten(table: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out |= _flatten(value, f"{prefix}{key}.")
        else:
            out[f"{prefix}{key}"] = value
    return out


def spec_of(values: dict[str, float], base: str = BASE_BOT) -> str:
    """The strategy spec of a seat playing ``values`` over the ``base`` bot. Over
    ``heuristic-v1``, values equal to its own are left out (its own values give exactly
    ``heuristic-v1``); over ``heuristic`` every value is given, as its seats differ."""
    if base != BASE_BOT:  # no values: the base itself ("heuristic:" names no strategy)
        given = ",".join(f"{k}={fmt_value(v)}" for k, v in sorted(values.items()))
        return f"{base}:{given}" if given else base
    changed = {k: v for k, v in sorted(values.items()) if fmt_value(v) != fmt_value(base_value(k))}
    if not changed:
        return BASE_BOT
    return BASE_BOT + ":" + ",".join(f"{k}={fmt_value(v)}" for k, v in changed.items())


def write_weights(path: Path, field_: dict[str, dict[str, float]], tuning: Any, games: int) -> None:
    """The tuned lineup as a weights file (one ``[seat.F]`` table per Faction) that the
    tuning's base (``heuristic-v1:weights=FILE``, or ``heuristic:weights=FILE``; shipped as
    ``tuned.toml``, ``heuristic``) plays."""
    base = getattr(tuning, "base", "heuristic-v1")
    over = "weights.toml" if base == "heuristic-v1" else "the default lineup's layers"
    lines = [
        "# Seat values of a heuristic lineup tuned by `vsim tune-bots` (merged over",
        f"# {over} for one Faction's bot each). Play it with",
        f"#   --strategy all={base}:weights={path.name}",
        f"# Seed {tuning.seed}, {tuning.rounds} rounds, {games:,} games in all; variant "
        f"{tuning.variant.name}.",
    ]
    for f in FACTIONS:
        tables: dict[str, dict[str, Any]] = {}
        for key, value in sorted(field_[f].items()):
            table, _, name = key.rpartition(".")
            tables.setdefault(table, {})[name] = value
        for table, values in sorted(tables.items()):
            lines.append("")
            lines.append(f"[seat.{f}.{table}]")
            lines += [
                f"{tuning_folder.toml_key(name)} = {fmt_value(v)}"
                for name, v in sorted(values.items())
            ]
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(path)
