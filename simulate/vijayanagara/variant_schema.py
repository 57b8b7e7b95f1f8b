"""Vijayanagara's variant files: the model of every key (its type and range), the names a file
may use (spaces, pieces, rule flags, adjacencies) read from the raw data, and the overlay.

The annotated reference of every key, its range and the rule it changes is
``data/variants/base.toml`` (the implicit base, no overlay); ``VariantFile`` checks it. The flow::

    raw = load_raw()                                   # simulate.vijayanagara.rules.datafiles
    variant = load_variant("fort-penalty-2")           # or a path, or None for the base
    raw = apply_variant(raw, variant)                  # a new dict; the input is untouched
    rules = compile(raw)                               # validated and built by the compiler

Every key is optional except ``name`` and ``description``; values are absolute, not deltas; a
``{...}`` table is merged into the base key by key. Sections map onto the raw data: ``[rules]``
-> ``raw["rules"]["flags"]``, ``[setup]`` -> ``raw["setup"]``, ``[map]`` -> ``raw["map"]``,
``[deck]`` -> ``raw["setup"]["deck"]`` (an ``events_file`` must lie inside the variant's
folder), ``[combat]``, ``[sequence]``, ``[decrees]``, ``[mongols]`` and ``[readings]`` -> the
tables of ``raw["rules"]`` of the same name. Variant-made map edits (Prosperity, added
adjacencies) are marked ``confidence: variant`` so that reports can say where a number came
from. Cross-checks of the merged data (piece totals, Prosperity total, deck size) belong to the
compiler.

>>> load_variant("timurs-shadow").content["rules"]
{'timurs_shadow': True}
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainValidator,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)

from simulate.variant_format import (
    Context,
    DataError,
    Line,
    Section,
    Variant,
    VariantFormat,
    first_of,
    int_list,
    problem,
)
from simulate.vijayanagara.rules.datafiles import DATA_DIR

__all__ = [
    "BASE",
    "BASE_DESCRIPTION",
    "FORMAT",
    "VARIANTS_DIR",
    "VariantFile",
    "apply_variant",
    "list_variants",
    "load_variant",
    "variant_from_content",
]

BASE_DESCRIPTION = "The rules as printed (with the provisional map and deck)"
OUTSIDE = "data files cannot read outside their own folder"

FACTIONS = ("DS", "BK", "VE")
DECCAN = ("BK", "VE")  # the Factions on the Deccan Influence track (1.9)
HOLDERS = ("DS", "BK", "VE", "MI")  # Available boxes, Mongol Invaders included (1.4)


@dataclass(frozen=True)
class Names:
    """The names a variant may use, read from the raw data it overlays (``names``)."""

    spaces: dict[str, str]  # name -> kind
    pieces: dict[str, str]  # name -> owning faction
    flags: frozenset[str]
    adjacent: frozenset[frozenset[str]]
    not_adjacent: dict[frozenset[str], str]  # pair -> rule
    readings: frozenset[str] = frozenset()


def names(raw: dict[str, Any]) -> Names:
    """The names in ``raw`` (as from ``load_raw``); DataError if it is malformed."""
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
    return Names(spaces, pieces, flags, adjacent, not_adjacent, readings)


def _names(info: ValidationInfo) -> Names | None:
    return Context.of(info).names


# ---------------------------------------------------------------------------------------------
# Keys and values that name something: Factions, spaces, pieces, flags, pairs of spaces.


def _faction_of(choices: tuple[str, ...]) -> BeforeValidator:
    def check(key: Any) -> Any:
        if key not in choices:
            problem(f"unknown faction (expected: {', '.join(choices)})")
        return key

    return BeforeValidator(check)


Faction = Annotated[str, _faction_of(FACTIONS)]
DeccanFaction = Annotated[str, _faction_of(DECCAN)]


def _space(name: Any, info: ValidationInfo) -> Any:
    if not isinstance(name, str):
        problem("must be a space name (a string)")
    known = _names(info)
    if known is not None and name not in known.spaces:
        problem("unknown space")
    return name


def _province(name: str, info: ValidationInfo) -> str:
    known = _names(info)
    if known is not None and known.spaces[name] != "province":
        problem("not a Province (only Provinces have Prosperity, 1.3.1)")
    return name


Space = Annotated[str, BeforeValidator(_space)]
Province = Annotated[Space, AfterValidator(_province)]


def _piece_of(owner: str | None) -> PlainValidator:
    """A piece's name (any key until the names are known); with ``owner``, one of that
    Faction's Available box (1.4)."""

    def check(name: Any, info: ValidationInfo) -> Any:
        known = _names(info)
        if known is None:
            return name
        if name not in known.pieces:
            problem(f"unknown piece (expected: {', '.join(known.pieces)})")
        if owner is not None and known.pieces[name] != owner:
            problem(f"a {known.pieces[name]} piece, not {owner}'s")
        return name

    return PlainValidator(check)


Count = Annotated[int, Field(ge=0, le=32)]
Pieces = dict[Annotated[str, _piece_of(None)], Count]


def _flag_of(group: str, label: str) -> PlainValidator:
    """A key of rules.yaml's ``group`` (``flags``: the optional rules, ``readings``: the
    readings of disputed rules), any key until the names are known."""

    def check(key: Any, info: ValidationInfo) -> Any:
        known = _names(info)
        if known is not None and key not in getattr(known, group):
            problem(f"unknown key ({label}: {', '.join(sorted(getattr(known, group)))})")
        return key

    return PlainValidator(check)


Flags = dict[Annotated[str, _flag_of("flags", "rule flags")], bool]
Readings = dict[Annotated[str, _flag_of("readings", "readings")], bool]


def _pair_shape(pair: Any) -> Any:
    if not isinstance(pair, list) or len(pair) != 2:
        problem("must be a pair [space, space]")
    return pair


def _pair_rule(adjacent: bool) -> AfterValidator:
    """A pair of distinct spaces; ``adjacent``: the base map has it (else it may be added)."""

    def check(pair: list[str], info: ValidationInfo) -> list[str]:
        if len(set(pair)) != 2:
            problem("a space is not adjacent to itself")
        known, (a, b), key = _names(info), pair, frozenset(pair)
        if known is None:
            return pair
        if adjacent and key not in known.adjacent:
            problem(f"{a} and {b} are not adjacent in the base map")
        if not adjacent and key in known.adjacent:
            problem(f"{a} and {b} are already adjacent")
        if not adjacent and key in known.not_adjacent:
            problem(f"{a} and {b} are confirmed not adjacent ({known.not_adjacent[key]})")
        return pair

    return AfterValidator(check)


def _each_pair_once(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    if not isinstance(value, list):
        problem("must be a list of [space, space] pairs")
    seen: set[frozenset[str]] = set()
    for i, pair in enumerate(value):
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) for s in pair):
            if frozenset(pair) in seen:
                return first_of(value, handler, ((i,), "listed twice"))
            seen.add(frozenset(pair))
    return handler(value)


def _pairs(adjacent: bool) -> Any:
    pair = Annotated[list[Space], BeforeValidator(_pair_shape), _pair_rule(adjacent)]
    return Annotated[list[pair], WrapValidator(_each_pair_once)]  # type: ignore[valid-type]


NewPairs = _pairs(adjacent=False)
BasePairs = _pairs(adjacent=True)


def events_target(rel: str, folder: Path) -> Path | None:
    """The events file named by a variant in ``folder``, None if it lies outside the folder."""
    if Path(rel).is_absolute() or Path(rel).drive or rel.startswith(("/", "\\")):
        return None
    base = folder.resolve()
    target = (base / rel).resolve()
    return target if target.is_relative_to(base) else None


def _events_file(rel: str, info: ValidationInfo) -> str:
    folder = Context.of(info).folder
    if folder is None:
        problem("only a variant file can name an events file")
    target = events_target(rel, folder)
    if target is None:
        problem(OUTSIDE)
    if not target.is_file():
        problem(f"no such file in {folder}")
    return rel


EventsFile = Annotated[Line, AfterValidator(_events_file)]


# ---------------------------------------------------------------------------------------------
# The sections of a file (every key optional; ``Section`` refuses unknown keys and loose types).

Resources = Annotated[int, Field(ge=0, le=24)]  # 1.8
Cavalry = Annotated[int, Field(ge=0, le=10)]  # 1.10


class Available(Section):
    """The Available boxes (1.4), merged piece by piece; each holds its own Faction's pieces."""

    unknown_key: ClassVar[str] = "faction"
    DS: dict[Annotated[str, _piece_of("DS")], Count] = None
    BK: dict[Annotated[str, _piece_of("BK")], Count] = None
    VE: dict[Annotated[str, _piece_of("VE")], Count] = None
    MI: dict[Annotated[str, _piece_of("MI")], Count] = None


class Setup(Section):
    """The starting position (2.1); a space of ``map`` is replaced entirely."""

    resources: dict[Faction, Resources] = None
    cavalry: dict[Faction, Cavalry] = None
    influence: dict[DeccanFaction, Annotated[int, Field(ge=0, le=4)]] = None  # 1.9
    map: dict[Space, Pieces] = None
    available: Available = None


class MapEdits(Section):
    """The map (1.3): Prosperity of Provinces (1.3.1), its total (5.1), adjacencies."""

    prosperity: dict[Province, Annotated[int, Field(ge=1, le=2)]] = None
    prosperity_total: int = Field(None, ge=0, le=48)
    add_adjacent: NewPairs = None
    remove_adjacent: BasePairs = None


class Deck(Section):
    """Deck construction (2.1)."""

    remove: Annotated[list[Annotated[int, Field(ge=1, le=36)]], int_list(unique=True)] = None
    events_file: EventsFile = None
    events_per_stack: int = Field(None, ge=1, le=9)
    mongol_per_stack: Annotated[list[Annotated[int, Field(ge=0, le=6)]], int_list(length=3)] = None


class Combat(Section):
    """3.2.4, 3.3.4, 3.4.4, 3.5.3."""

    attack_dice: int = Field(None, ge=1, le=6)
    defend_dice: int = Field(None, ge=1, le=6)
    fort_penalty: int = Field(None, ge=0, le=3)
    mongol_dice_in_delhi: int = Field(None, ge=1, le=6)
    max_hits: int = Field(None, ge=1, le=12)
    always_miss: int = Field(None, ge=1, le=7)


class SequenceEdits(Section):
    """2.3.6."""

    pass_income: dict[Faction, Resources] = None


class Decrees(Section):
    """4.2-4.4."""

    collect_tribute_cavalry: Cavalry = None  # 4.2.1
    trade_cavalry: Annotated[list[Cavalry], int_list(length=5)] = None  # by Influence 0..4, 4.3.1
    campaign_range: int = Field(None, ge=1, le=6)  # 4.2.2
    conspire_influential: int = Field(None, ge=0, le=4)  # 4.3.3
    compel_influential: int = Field(None, ge=0, le=4)  # 4.4.3


class Mongols(Section):
    """3.5."""

    amass: int = Field(None, ge=0, le=12)
    region_cap: int = Field(None, ge=1, le=12)
    plunder_floor: int = Field(None, ge=0, le=24)
    keep_after_plunder: int = Field(None, ge=0, le=12)


class VariantFile(Section):
    """A whole variant file; only ``name`` (the file's) and ``description`` are required."""

    name: Line
    description: Line
    rules: Flags = None
    readings: Readings = None
    setup: Setup = None
    map: MapEdits = None
    deck: Deck = None
    combat: Combat = None
    sequence: SequenceEdits = None
    decrees: Decrees = None
    mongols: Mongols = None


FORMAT = VariantFormat(DATA_DIR / "variants", BASE_DESCRIPTION, VariantFile, names)
VARIANTS_DIR = FORMAT.folder
BASE = FORMAT.base
load_variant: Callable[[str | Path | None], Variant] = FORMAT.load
list_variants: Callable[[], list[Variant]] = FORMAT.builtins
variant_from_content: Callable[[dict[str, Any], Path], Variant] = FORMAT.from_content


# ---------------------------------------------------------------------------------------------
# Applying


def apply_variant(raw: dict[str, Any], variant: Variant) -> dict[str, Any]:
    """A new raw dict (as from ``load_raw``) with the variant's overlay applied.

    The input is never modified. The content is checked again against the names in ``raw``
    (spaces, pieces, rule flags, adjacencies), so a hand-made ``Variant`` is checked too.
    """
    label = variant.label
    folder = variant.path.parent if variant.path is not None else None
    FORMAT.check(variant.content, label, folder, raw)
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
        out["events_path"] = events_target(deck_edits["events_file"], folder)

    for section in ("combat", "decrees", "mongols", "readings"):
        if section in c:
            out["rules"].setdefault(section, {}).update(copy.deepcopy(c[section]))
    if "pass_income" in c.get("sequence", {}):
        income = out["rules"].setdefault("sequence", {}).setdefault("pass_income", {})
        income.update(c["sequence"]["pass_income"])
    return out
