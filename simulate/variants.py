"""Rule variants: small TOML files that overlay the base data files before they are compiled.

A designer asks "what if the Forts cost two dice?" by writing a variant file rather than by
editing ``simulate/vijayanagara/data/*.yaml``. The flow is::

    raw = load_raw()                                   # simulate.vijayanagara.rules.datafiles
    variant = load_variant("fort-penalty-2")           # or a path, or None for the base
    raw = apply_variant(raw, variant)                  # a new dict; the input is untouched
    rules = compile(raw)                               # validated and built by the compiler

Files are read with ``tomllib`` and checked against the schema below; nothing in them is
ever executed. Every problem is a one-line :class:`~simulate.vijayanagara.rules.datafiles.DataError`
naming the file and the dotted path of the bad key or value, e.g.
``my.toml: combat.attack_dice: must be 1..6`` or ``my.toml: map.prosperity.Atlantis: unknown
space``. Keys are checked for their type and range when the file is loaded; names that depend
on the data (spaces, pieces, rule flags, adjacencies) are checked again against the raw data
when the variant is applied. Cross-checks of the merged data (piece totals, Prosperity total,
deck size) belong to the compiler.

Variant file format: every section and key is optional except ``name`` and ``description``;
values are absolute, not deltas; a ``{...}`` table is merged into the base key by key. The
annotated reference of every key, its range and the rule it changes is
``simulate/vijayanagara/data/variants/base.toml`` (the implicit base, no overlay); ``SCHEMA`` below checks
it. Sections map onto the raw data: ``[rules]`` -> ``raw["rules"]["flags"]``, ``[setup]`` ->
``raw["setup"]``, ``[map]`` -> ``raw["map"]``, ``[deck]`` -> ``raw["setup"]["deck"]`` (an
``events_file`` must lie inside the variant's folder), ``[combat]``, ``[sequence]``,
``[decrees]``, ``[mongols]`` and ``[readings]`` -> the tables of ``raw["rules"]`` of the same
name.

Variant-made map edits are marked ``confidence: variant`` (edited Prosperity and added
adjacencies) so that reports can say where a number came from.

The built-in variants live in ``simulate/vijayanagara/data/variants/``; ``base.toml`` there is the
annotated reference of the format and is equal to the implicit base (no overlay).
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulate.vijayanagara.rules.datafiles import DATA_DIR, DataError

__all__ = [
    "BASE_DESCRIPTION",
    "VARIANTS_DIR",
    "Variant",
    "apply_variant",
    "list_variants",
    "load_variant",
]

VARIANTS_DIR = DATA_DIR / "variants"
BASE_NAME = "base"
BASE_DESCRIPTION = "The rules as printed (with the provisional map and deck)"
OUTSIDE = "data files cannot read outside their own folder"

FACTIONS = ("DS", "BK", "VE")
DECCAN = ("BK", "VE")  # the Factions on the Deccan Influence track (1.9)
HOLDERS = ("DS", "BK", "VE", "MI")  # Available boxes, Mongol Invaders included (1.4)


@dataclass(frozen=True)
class Variant:
    """A parsed, checked variant file; ``content`` is recorded as is in run manifests.

    ``path`` is None for the implicit base, whose ``digest`` is that of the canonical JSON
    of its content; a file variant's digest is the sha256 of the file's bytes.
    """

    name: str
    description: str
    path: Path | None
    content: dict[str, Any] = field(hash=False)
    digest: str

    @property
    def is_base(self) -> bool:
        """True for the implicit base, which changes nothing."""
        return self.path is None


def _canonical_digest(content: dict[str, Any]) -> str:
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_BASE_CONTENT = {"name": BASE_NAME, "description": BASE_DESCRIPTION}
BASE = Variant(
    name=BASE_NAME,
    description=BASE_DESCRIPTION,
    path=None,
    content=_BASE_CONTENT,
    digest=_canonical_digest(_BASE_CONTENT),
)


# ---------------------------------------------------------------------------------------------
# Schema: a small tree of checkers. Each check raises _Bad(path, message); the caller turns
# it into a one-line DataError prefixed by the file.


class _Bad(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


@dataclass(frozen=True)
class _Names:
    """Names that depend on the data; None while only the file itself is checked."""

    spaces: dict[str, str]  # name -> kind
    pieces: dict[str, str]  # name -> owning faction
    flags: frozenset[str]
    adjacent: frozenset[frozenset[str]]
    not_adjacent: dict[frozenset[str], str]  # pair -> rule
    readings: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Ctx:
    folder: Path | None  # the variant file's folder (for events_file)
    names: _Names | None


class _Spec(ABC):
    """What one key of a variant file may hold."""

    @abstractmethod
    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        """Raise DataError naming ``path`` when ``value`` does not fit."""


@dataclass(frozen=True)
class _Int(_Spec):
    lo: int
    hi: int

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(path, f"must be an integer {self.lo}..{self.hi}")
        if not self.lo <= value <= self.hi:
            raise _Bad(path, f"must be {self.lo}..{self.hi}")


@dataclass(frozen=True)
class _Bool(_Spec):
    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        if not isinstance(value, bool):
            raise _Bad(path, "must be true or false")


@dataclass(frozen=True)
class _Line(_Spec):
    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        if not isinstance(value, str):
            raise _Bad(path, "must be a string")
        if not value.strip():
            raise _Bad(path, "must not be empty")
        if "\n" in value or "\r" in value:
            raise _Bad(path, "must be one line")


@dataclass(frozen=True)
class _Ints(_Spec):
    lo: int
    hi: int
    length: int | None = None
    unique: bool = False

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        if not isinstance(value, list):
            raise _Bad(path, "must be a list of integers")
        if self.length is not None and len(value) != self.length:
            raise _Bad(path, f"must have exactly {self.length} values")
        item = _Int(self.lo, self.hi)
        seen: set[int] = set()
        for i, v in enumerate(value):
            item.check(v, f"{path}[{i}]", ctx)
            if self.unique and v in seen:
                raise _Bad(f"{path}[{i}]", f"{v} is listed twice")
            seen.add(v)


def _table(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad(path, "must be a table")
    return value


@dataclass(frozen=True)
class _Table(_Spec):
    fields: dict[str, _Spec]
    required: tuple[str, ...] = ()

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        value = _table(value, path)
        for key in self.required:
            if key not in value:
                raise _Bad(_join(path, key), "required")
        for key, v in value.items():
            spec = self.fields.get(key)
            if spec is None:
                raise _Bad(_join(path, key), f"unknown key (expected: {', '.join(self.fields)})")
            spec.check(v, _join(path, key), ctx)


@dataclass(frozen=True)
class _ByFaction(_Spec):
    """A table keyed by Faction, merged into the base key by key."""

    value: _Spec
    factions: tuple[str, ...] = FACTIONS

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        for key, v in _table(value, path).items():
            if key not in self.factions:
                raise _Bad(
                    _join(path, key), f"unknown faction (expected: {', '.join(self.factions)})"
                )
            self.value.check(v, _join(path, key), ctx)


@dataclass(frozen=True)
class _Pieces(_Spec):
    """piece -> count; with ``owner`` every piece must belong to that Faction's box."""

    owner: str | None = None

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        count = _Int(0, 32)
        for key, v in _table(value, path).items():
            where = _join(path, key)
            if ctx.names is not None:
                if key not in ctx.names.pieces:
                    raise _Bad(where, f"unknown piece (expected: {', '.join(ctx.names.pieces)})")
                if self.owner is not None and ctx.names.pieces[key] != self.owner:
                    raise _Bad(where, f"a {ctx.names.pieces[key]} piece, not {self.owner}'s")
            count.check(v, where, ctx)


@dataclass(frozen=True)
class _Available(_Spec):
    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        for key, v in _table(value, path).items():
            if key not in HOLDERS:
                raise _Bad(_join(path, key), f"unknown faction (expected: {', '.join(HOLDERS)})")
            _Pieces(owner=key).check(v, _join(path, key), ctx)


def _space(name: Any, path: str, ctx: _Ctx) -> None:
    if not isinstance(name, str):
        raise _Bad(path, "must be a space name (a string)")
    if ctx.names is not None and name not in ctx.names.spaces:
        raise _Bad(path, "unknown space")


@dataclass(frozen=True)
class _BySpace(_Spec):
    value: _Spec
    provinces_only: bool = False

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        for key, v in _table(value, path).items():
            where = _join(path, key)
            _space(key, where, ctx)
            if (
                self.provinces_only
                and ctx.names is not None
                and ctx.names.spaces[key] != "province"
            ):
                raise _Bad(where, "not a Province (only Provinces have Prosperity, 1.3.1)")
            self.value.check(v, where, ctx)


@dataclass(frozen=True)
class _Pairs(_Spec):
    """A list of [space, space]; ``adjacent`` says whether the base must have the pair."""

    adjacent: bool

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        if not isinstance(value, list):
            raise _Bad(path, "must be a list of [space, space] pairs")
        seen: set[frozenset[str]] = set()
        for i, pair in enumerate(value):
            where = f"{path}[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                raise _Bad(where, "must be a pair [space, space]")
            for j, name in enumerate(pair):
                _space(name, f"{where}[{j}]", ctx)
            key = frozenset(pair)
            if len(key) != 2:
                raise _Bad(where, "a space is not adjacent to itself")
            if key in seen:
                raise _Bad(where, "listed twice")
            seen.add(key)
            if ctx.names is None:
                continue
            a, b = pair
            if self.adjacent and key not in ctx.names.adjacent:
                raise _Bad(where, f"{a} and {b} are not adjacent in the base map")
            if not self.adjacent and key in ctx.names.adjacent:
                raise _Bad(where, f"{a} and {b} are already adjacent")
            if not self.adjacent and key in ctx.names.not_adjacent:
                rule = ctx.names.not_adjacent[key]
                raise _Bad(where, f"{a} and {b} are confirmed not adjacent ({rule})")


@dataclass(frozen=True)
class _Flags(_Spec):
    """A table of true/false keys named in rules.yaml: the optional rules (``flags``) or the
    readings of disputed rules (``readings``)."""

    group: str = "flags"

    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        for key, v in _table(value, path).items():
            where = _join(path, key)
            known_keys = getattr(ctx.names, self.group) if ctx.names is not None else None
            if known_keys is not None and key not in known_keys:
                known = ", ".join(sorted(known_keys))
                label = "rule flags" if self.group == "flags" else "readings"
                raise _Bad(where, f"unknown key ({label}: {known})")
            _Bool().check(v, where, ctx)


def _events_file(rel: str, folder: Path) -> Path:
    """The events file named by a variant, which must lie inside the variant's folder."""
    if Path(rel).is_absolute() or Path(rel).drive or rel.startswith(("/", "\\")):
        raise _Bad("deck.events_file", OUTSIDE)
    base = folder.resolve()
    target = (base / rel).resolve()
    if not target.is_relative_to(base):
        raise _Bad("deck.events_file", OUTSIDE)
    return target


@dataclass(frozen=True)
class _EventsFile(_Spec):
    def check(self, value: Any, path: str, ctx: _Ctx) -> None:
        _Line().check(value, path, ctx)
        if ctx.folder is None:
            raise _Bad(path, "only a variant file can name an events file")
        target = _events_file(value, ctx.folder)
        if not target.is_file():
            raise _Bad(path, f"no such file in {ctx.folder}")


SCHEMA = _Table(
    {
        "name": _Line(),
        "description": _Line(),
        "rules": _Flags(),
        "readings": _Flags("readings"),
        "setup": _Table(
            {
                "resources": _ByFaction(_Int(0, 24)),
                "cavalry": _ByFaction(_Int(0, 10)),
                "influence": _ByFaction(_Int(0, 4), DECCAN),
                "map": _BySpace(_Pieces()),
                "available": _Available(),
            }
        ),
        "map": _Table(
            {
                "prosperity": _BySpace(_Int(1, 2), provinces_only=True),  # 1.3.1
                "prosperity_total": _Int(0, 48),
                "add_adjacent": _Pairs(adjacent=False),
                "remove_adjacent": _Pairs(adjacent=True),
            }
        ),
        "deck": _Table(
            {
                "remove": _Ints(1, 36, unique=True),
                "events_file": _EventsFile(),
                "events_per_stack": _Int(1, 9),
                "mongol_per_stack": _Ints(0, 6, length=3),
            }
        ),
        "combat": _Table(
            {
                "attack_dice": _Int(1, 6),
                "defend_dice": _Int(1, 6),
                "fort_penalty": _Int(0, 3),
                "mongol_dice_in_delhi": _Int(1, 6),
                "max_hits": _Int(1, 12),
                "always_miss": _Int(1, 7),
            }
        ),
        "sequence": _Table({"pass_income": _ByFaction(_Int(0, 24))}),
        "decrees": _Table(
            {
                "collect_tribute_cavalry": _Int(0, 10),
                "trade_cavalry": _Ints(0, 10, length=5),
                "campaign_range": _Int(1, 6),
                "conspire_influential": _Int(0, 4),
                "compel_influential": _Int(0, 4),
            }
        ),
        "mongols": _Table(
            {
                "amass": _Int(0, 12),
                "region_cap": _Int(1, 12),
                "plunder_floor": _Int(0, 24),
                "keep_after_plunder": _Int(0, 12),
            }
        ),
    },
    required=("name", "description"),
)


def _label(variant: Variant) -> str:
    return str(variant.path) if variant.path is not None else f"variant {variant.name!r}"


def _check(content: Any, label: str, ctx: _Ctx) -> None:
    try:
        SCHEMA.check(content, "", ctx)
    except _Bad as exc:
        raise DataError(f"{label}: {exc}") from None


def _names(raw: dict[str, Any]) -> _Names:
    """The names a variant may refer to, read from the raw data it overlays."""
    try:
        spaces = {s["name"]: s.get("kind", "") for s in raw["map"]["spaces"]}
        pieces = {name: p.get("faction", "") for name, p in raw["pieces"]["pieces"].items()}
        flags = frozenset((raw["rules"].get("flags") or {}).keys())
        readings = frozenset((raw["rules"].get("readings") or {}).keys())
        adjacent = frozenset(frozenset(e["pair"]) for e in raw["map"].get("adjacent") or ())
        not_adjacent = {
            frozenset(e["pair"]): str(e.get("rule", ""))
            for e in raw["map"].get("not_adjacent") or ()
        }
    except (KeyError, TypeError, AttributeError) as exc:
        raise DataError(f"base data: malformed map, pieces or rules ({exc!r})") from None
    return _Names(spaces, pieces, flags, adjacent, not_adjacent, readings)


# ---------------------------------------------------------------------------------------------
# Loading


def _builtin_names() -> list[str]:
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.toml"))


def _load_file(path: Path) -> Variant:
    label = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{label}: cannot read ({exc.strerror})") from None
    try:
        content = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DataError(f"{label}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        message = " ".join(str(exc).split())
        raise DataError(f"{label}: invalid TOML ({message})") from None
    _check(content, label, _Ctx(folder=path.parent, names=None))
    if content["name"] != path.stem:  # a run names its variants; the file says which
        raise DataError(f"{label}: name: must equal the file name '{path.stem}'")
    return Variant(
        name=content["name"],
        description=content["description"],
        path=path.resolve(),
        content=content,
        digest=hashlib.sha256(data).hexdigest(),
    )


def variant_from_content(content: dict[str, Any], path: Path) -> Variant:
    """A variant from parsed TOML that came from ``path`` (checked like a file; its name need
    not be the file's: e.g. the base of a ``vsim tune`` search file)."""
    label = str(path)
    _check(content, label, _Ctx(folder=path.parent, names=None))
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Variant(
        name=content["name"],
        description=content["description"],
        path=path.resolve(),
        content=content,
        digest=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )


def load_variant(ref: str | Path | None) -> Variant:
    """A variant by reference: None or "base", a built-in name, or a path to a TOML file.

    A reference that is a ``Path``, ends in ``.toml`` or contains a path separator is a file;
    anything else is the name of a built-in in ``simulate/vijayanagara/data/variants/``. Every reference
    to the built-in base (including its file) gives the same implicit base.

    >>> load_variant(None).name
    'base'
    >>> load_variant("timurs-shadow").content["rules"]
    {'timurs_shadow': True}
    """
    if ref is None or ref == BASE_NAME:
        return BASE
    if isinstance(ref, Path) or ref.endswith(".toml") or "/" in ref or "\\" in ref:
        path = Path(ref)
        if path.resolve() == (VARIANTS_DIR / f"{BASE_NAME}.toml").resolve():
            return BASE
        return _load_file(path)
    names = _builtin_names()
    if ref not in names:
        raise DataError(
            f"unknown variant {ref!r}: built-in variants are {', '.join(names)}"
            " (or give the path of a .toml file)"
        )
    return _load_file(VARIANTS_DIR / f"{ref}.toml")


def list_variants() -> list[Variant]:
    """The built-in variants, sorted by name (the base included, as the implicit base)."""
    return [load_variant(name) for name in _builtin_names()]


# ---------------------------------------------------------------------------------------------
# Applying


def apply_variant(raw: dict[str, Any], variant: Variant) -> dict[str, Any]:
    """A new raw dict (as from ``load_raw``) with the variant's overlay applied.

    The input is never modified. The content is checked again against the names in ``raw``
    (spaces, pieces, rule flags, adjacencies), so a hand-made ``Variant`` is checked too.
    """
    label = _label(variant)
    folder = variant.path.parent if variant.path is not None else None
    _check(variant.content, label, _Ctx(folder=folder, names=_names(raw)))
    out = copy.deepcopy(raw)
    c = variant.content

    if "rules" in c:
        out["rules"].setdefault("flags", {}).update(c["rules"])

    setup = c.get("setup", {})
    for key in ("resources", "cavalry", "influence"):
        if key in setup:
            out["setup"].setdefault(key, {}).update(setup[key])
    for space, pieces in setup.get("map", {}).items():
        placed = {piece: n for piece, n in pieces.items() if n > 0}
        board = out["setup"].setdefault("map", {})
        if placed:
            board[space] = placed
        else:
            board.pop(space, None)
    for holder, pieces in setup.get("available", {}).items():
        out["setup"].setdefault("available", {}).setdefault(holder, {}).update(pieces)

    edits = c.get("map", {})
    for space in out["map"]["spaces"]:
        if space["name"] in edits.get("prosperity", {}):
            space["prosperity"] = edits["prosperity"][space["name"]]
            space["confidence"] = "variant"
    if "prosperity_total" in edits:
        out["map"]["prosperity_total"] = edits["prosperity_total"]
    removed = {frozenset(p) for p in edits.get("remove_adjacent", ())}
    if removed:
        out["map"]["adjacent"] = [
            e for e in out["map"]["adjacent"] if frozenset(e["pair"]) not in removed
        ]
    for a, b in edits.get("add_adjacent", ()):
        out["map"].setdefault("adjacent", []).append({"pair": [a, b], "confidence": "variant"})

    deck_edits = c.get("deck", {})
    deck = out["setup"].setdefault("deck", {})
    if "remove" in deck_edits:
        deck["remove"] = sorted(set(deck.get("remove") or ()) | set(deck_edits["remove"]))
    if "events_per_stack" in deck_edits:
        deck["events_per_stack"] = deck_edits["events_per_stack"]
    if "mongol_per_stack" in deck_edits:
        stacks = deck.get("stacks") or []
        if len(stacks) < len(deck_edits["mongol_per_stack"]):
            raise DataError(
                f"{label}: deck.mongol_per_stack: the base deck has only {len(stacks)} stacks"
            )
        for stack, n in zip(stacks, deck_edits["mongol_per_stack"], strict=False):
            stack["mongol_invasions"] = n
    if "events_file" in deck_edits and folder is not None:  # a file variant: checked above
        out["events_path"] = _events_file(deck_edits["events_file"], folder)

    for section in ("combat", "decrees", "mongols", "readings"):
        if section in c:
            out["rules"].setdefault(section, {}).update(copy.deepcopy(c[section]))
    if "pass_income" in c.get("sequence", {}):
        income = out["rules"].setdefault("sequence", {}).setdefault("pass_income", {})
        income.update(c["sequence"]["pass_income"])
    return out
