"""The heuristic's weights, from data: ``weights.toml`` beside this module, the layers a
lineup lays over it (``tuned.toml``, ``choice.toml``...: ``[seat.F]`` tables for one Faction's
bot), a file a spec names (``heuristic:weights=path.toml``, merged over them) and dotted
overrides (``heuristic:eval.DS.resources=0.1``). See ``weights.toml`` for what each means.

A game makes several bots from the same files: ``shared_weights`` merges them once per
process (``SharedWeights``), and each seat's weights once per overrides.
"""

from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).parent  # the policy's shipped weight files (a lineup's layers)
WEIGHTS_FILE = FOLDER / "weights.toml"
TUNED_FILE = FOLDER / "tuned.toml"  # the default lineup's seat values
CHOICE_FILE = FOLDER / "choice.toml"  # its learned choice, over those
FAST_FILE = FOLDER / "fast.toml"  # the fast tier's, over those


def _read(path: str) -> dict:
    """The parsed file, cached while it is unchanged (its size and modification time)."""
    st = Path(path).stat()
    return _read_cached(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=16)
def _read_cached(path: str, mtime_ns: int, size: int) -> dict:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def default_weights() -> dict:
    """A fresh copy of the shipped weights."""
    return _copy(_read(str(WEIGHTS_FILE)))


def _copy(tree):
    """A copy of parsed TOML (tables and arrays copied, values shared: all immutable); several
    times faster than ``copy.deepcopy``, and done for every bot of every game."""
    if isinstance(tree, dict):
        return {key: _copy(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [_copy(value) for value in tree]
    return tree


def _merge(base: dict, extra: dict, where: str, free: bool = False) -> None:
    """``extra`` over ``base``; a key ``base`` lacks is an error, except in a table that
    is empty in weights.toml (``free``: fitted terms by name, checked where they are read)."""
    for key, value in extra.items():
        if free:
            base[key] = value
            continue
        if key not in base:
            known = ", ".join(sorted(base))
            raise ValueError(f"unknown weight {where}{key!r} (known here: {known})")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise ValueError(f"weight {where}{key!r} is a table, not a value")
            _merge(base[key], value, f"{where}{key}.", free or not base[key])
        else:
            base[key] = value


def shipped_value(key: str) -> Any:
    """The value of a dotted weight in ``weights.toml``; 0 for a term of a table it leaves
    empty (fitted terms by name, ``_merge``'s free tables: a term absent counts 0)."""
    node: Any = _read(str(WEIGHTS_FILE))
    for part in key.split("."):
        if node == {}:
            return 0.0
        node = node[part]
    return node


def set_dotted(weights: dict, key: str, value: Any) -> None:
    """Set ``play.aggression`` or ``eval.DS.resources`` style keys; unknown keys are errors,
    except in a table empty in weights.toml (``play.choice.terms.khalji*c:conscript``: fitted
    terms by name, checked where they are read). A bare key is looked up in ``[play]``."""
    parts = key.split(".")
    if len(parts) == 1:
        parts = ["play", key]
    node, shipped = weights, _read(str(WEIGHTS_FILE))
    for i, part in enumerate(parts):
        free = shipped == {}  # a table empty in weights.toml: fitted terms by name (_merge)
        shipped = shipped.get(part) if isinstance(shipped, dict) else None
        if free and i == len(parts) - 1:
            node[part] = value
            return
        if part not in node:
            where = ".".join(parts[:i]) or "top level"
            known = ", ".join(sorted(node))
            raise ValueError(f"unknown weight {key!r}: no {part!r} in {where} (known: {known})")
        if i == len(parts) - 1:
            if isinstance(node[part], dict):
                raise ValueError(f"weight {key!r} is a table, not a value")
            node[part] = value
        else:
            node = node[part]


SEATS = ("DS", "BK", "VE")


def read_weights_file(path: str | Path) -> dict:
    """A weights TOML file as parsed (cached); ValueError (one line) if missing or malformed."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"weights file {str(path)!r} not found")
    try:
        return _read(str(p.resolve()))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"weights file {str(path)!r}: {' '.join(str(exc).split())}") from None


def merge_weights(weights: dict, extra: dict, label: str = "") -> None:
    """Merge a weights file's content into ``weights``: its top-level tables over the values,
    its ``[seat.F]`` tables (values for one Faction's bot only, e.g. a tuned lineup's) kept
    under ``weights["seat"]`` after checking each against the known weights."""
    extra = dict(extra)
    seats = extra.pop("seat", None)
    try:
        _merge(weights, extra, "")
        if seats is None:
            return
        if not isinstance(seats, dict):
            raise ValueError("'seat' must be a table of [seat.DS], [seat.BK], [seat.VE]")
        for faction, table in seats.items():
            if faction not in SEATS:
                raise ValueError(f"unknown seat {faction!r} (expected DS, BK or VE)")
            if not isinstance(table, dict):
                raise ValueError(f"seat.{faction} must be a table")
            check = _copy(weights)
            check.pop("seat", None)
            _merge(check, table, f"seat.{faction}.")
            _update(weights.setdefault("seat", {}).setdefault(faction, {}), table)
    except ValueError as exc:
        raise ValueError(f"weights file {label!r}: {exc}" if label else str(exc)) from None


def _update(dest: dict, extra: dict) -> None:
    for key, value in extra.items():
        if isinstance(value, dict):
            _update(dest.setdefault(key, {}), value)
        else:
            dest[key] = _copy(value)


def load_weights(
    path: str | None = None,
    overrides: dict | None = None,
    layers: tuple[Path, ...] = (),
) -> dict:
    """The shipped weights, each of ``layers`` (the bot version's own files, e.g. a tuned
    lineup) and the file ``path`` merged over them, then dotted overrides (top level)."""
    weights = default_weights()
    for layer in layers:
        merge_weights(weights, read_weights_file(layer), layer.name)
    if path:
        merge_weights(weights, read_weights_file(path), str(path))
    for key, value in (overrides or {}).items():
        set_dotted(weights, key, value)
    return weights


class SharedWeights:
    """A merged weights tree that every bot made from the same files shares, read-only, with
    each seat's weights (``seat_weights``) merged once per overrides: a game makes 3 to 12
    bots, and merging their weights anew took about 15% of the fast tier's time."""

    __slots__ = ("tree", "_seats", "_derived")

    def __init__(self, tree: dict) -> None:
        self.tree = tree
        self._seats: dict = {}
        self._derived: dict = {}

    def seat(self, faction: str | None, overrides: dict | None = None) -> dict:
        """``seat_weights(self.tree, faction, overrides)``, made once (do not modify it)."""
        key = self._key(faction, overrides)
        if key is None:  # an unhashable override value: merged anew, not kept
            return seat_weights(self.tree, faction, overrides)
        out = self._seats.get(key)
        if out is None:
            out = self._seats[key] = seat_weights(self.tree, faction, overrides)
        return out

    def derived(self, faction: str | None, overrides: dict | None, make: Any) -> Any:
        """``make(self.seat(faction, overrides))`` (a bot's checked, compiled parameters),
        made once per seat and overrides, as the seat's weights are."""
        key = self._key(faction, overrides)
        out = None if key is None else self._derived.get(key)
        if out is None:
            out = make(self.seat(faction, overrides))
            if key is not None:
                self._derived[key] = out
        return out

    @staticmethod
    def _key(faction: str | None, overrides: dict | None) -> tuple | None:
        try:
            key = (faction, tuple(sorted((overrides or {}).items())))
            hash(key)
        except TypeError:
            return None
        return key


def shared_weights(path: str | None, layers: tuple[Path, ...] = ()) -> SharedWeights:
    """``load_weights(path, None, layers)`` as one ``SharedWeights`` per process while its
    files are unchanged (their size and modification time, as ``_read``)."""
    stamps = []
    for f in (*layers, *([path] if path else [])):
        try:
            st = os.stat(f)
        except OSError:  # a missing file: load_weights says so in one line
            return SharedWeights(load_weights(path, None, layers))
        name = os.fspath(f)  # the package's layers are absolute paths already
        stamps.append(
            (name if os.path.isabs(name) else os.path.abspath(name), st.st_mtime_ns, st.st_size)
        )
    return _shared(tuple(stamps), tuple(layers), path)


@lru_cache(maxsize=32)
def _shared(stamps: tuple, layers: tuple[Path, ...], path: str | None) -> SharedWeights:
    return SharedWeights(load_weights(path, None, layers))


def seat_weights(weights: dict, faction: str | None, overrides: dict | None = None) -> dict:
    """The weights one Faction's bot plays with: the top level, its ``[seat.F]`` values over
    them, then the spec's dotted ``overrides`` (the most specific). Without seat values and
    overrides, ``weights`` itself."""
    seat = (weights.get("seat") or {}).get(faction) if faction else None
    if not seat and not overrides and "seat" not in weights:
        return weights
    out = _copy(weights)
    out.pop("seat", None)
    if seat:
        _merge(out, seat, f"seat.{faction}.")
    for key, value in (overrides or {}).items():
        set_dotted(out, key, value)
    return out
