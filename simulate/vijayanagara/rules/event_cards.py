"""The Event deck (``events.yaml``): typed, validated, frozen card models.

The data format is ``shared/data/EVENTS_SCHEMA.md`` ("schema" below); rule numbers such as
(1.4.4) are the Rules of Play. Loading happens in three stages:

1. shape: pydantic models (``extra="forbid"``, frozen) check fields, types and ranges, and
   fill defaults (``up_to=False``, ``state="obedient"``, ``limited=False``,
   ``chooser="executor"``, ``kind="province"``); space names are checked against the map;
2. meaning: cross-field checks with exact paths (piece words of the faction, where pieces
   can be, one-space ``move`` destinations, Commands and Decrees the Faction has, ``choose``
   and ``lasting`` nesting, ``lasting`` factions);
3. deck: card counts, unique ids and titles, at most 4 cards with ``lasting`` (schema 7).

Every rejection is a one-line ``DataError``: ``FILE: card ID: FIELD.PATH: problem``.

Escape hatch (not in the schema's section 6): ``{op: python, effect: NAME, params: {...}}``
runs a Python effect registered under NAME by an entry point in the group
``vijayanagara_sim.events``. NAME is ``[A-Za-z0-9_.-]+``; ``params`` (optional) maps
strings to scalars (string, number, bool) and is passed to the effect. Only the shape is
checked here: the event interpreter checks at deck load that NAME is registered.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    Tag,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError

EVENT_COUNT = 36  # schema 2, rule 2.1
MONGOL_COUNT = 8  # schema 3, rule 2.1
MAX_LASTING_CARDS = 4  # schema 6.16
PYTHON_EFFECT_GROUP = "vijayanagara_sim.events"

# Pieces (schema 5.2, rule 1.4).
PIECE_OWNER = {
    "troop": "DS",
    "governor": "DS",
    "qasbah": "DS",
    "amir": "BK",
    "fort": "BK",
    "raja": "VE",
    "temple": "VE",
    "mongol": "MI",
}
STRUCTURES = frozenset({"qasbah", "fort", "temple"})
UNITS = frozenset(PIECE_OWNER) - STRUCTURES
GENERIC_PIECES = ("unit", "structure", "any")
STATEFUL_UNITS = ("amir", "raja")  # the only pieces with Obedient/Rebelling sides (1.4.5)

# Commands and Decrees each Faction has (schema 6.11, 6.12; rules 3.x, 4.x).
COMMANDS = {
    "DS": ("conscript", "march", "govern", "attack"),
    "BK": ("rally", "migrate", "rebel", "attack"),
    "VE": ("rally", "migrate", "rebel", "attack"),
}
DECREES = {
    "DS": ("collect_tribute", "campaign", "demand_obedience"),
    "BK": ("trade", "build", "conspire"),
    "VE": ("tax", "build", "compel"),
}
# Allowed `faction` per lasting modifier (schema 6.16); None means omitted.
LASTING_FACTIONS: dict[str, tuple[str | None, ...]] = {
    "attack_extra_die": ("DS", "BK", "VE"),
    "no_rebel": (None, "BK", "VE"),
    "conscript_plus_one": (None, "DS"),
    "migrate_free_shift": (None, "BK", "VE"),
}
# The factions an omitted lasting `faction` stands for (schema 6.16).
LASTING_DEFAULT_FACTIONS = {
    "no_rebel": ("BK", "VE"),
    "conscript_plus_one": ("DS",),
    "migrate_free_shift": ("BK", "VE"),
}

Player = Literal["DS", "BK", "VE"]
PlayerOrExecutor = Literal["DS", "BK", "VE", "executor"]
Deccan = Literal["BK", "VE"]
PieceFaction = Literal["DS", "BK", "VE", "MI", "executor"]
PieceWord = Literal[
    "troop",
    "governor",
    "qasbah",
    "amir",
    "fort",
    "raja",
    "temple",
    "mongol",
    "unit",
    "structure",
    "any",
]
UnitState = Literal["obedient", "rebelling"]
Provenance = Literal["title-known", "provisional"]
CommandName = Literal["conscript", "march", "govern", "attack", "rally", "migrate", "rebel"]
DecreeName = Literal[
    "collect_tribute", "campaign", "demand_obedience", "trade", "build", "conspire", "tax", "compel"
]
MongolId = Literal["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"]


# --- field validators --------------------------------------------------------------------


def _known_space(name: str, info: ValidationInfo) -> str:
    """A space name of the map given as validation context (schema 5, 7)."""
    spaces = (info.context or {}).get("spaces")
    if spaces is not None and name not in spaces:
        raise PydanticCustomError("unknown_space", "unknown space '{name}'", {"name": name})
    return name


def _non_zero(value: int) -> int:
    """Amounts and shifts are non-zero (schema 6.1-6.3)."""
    if value == 0:
        raise PydanticCustomError("zero", "must not be 0")
    return value


def _no_repeats(names: tuple[str, ...]) -> tuple[str, ...]:
    """A `spaces` list names each space once (schema 5)."""
    for i, name in enumerate(names):
        if name in names[:i]:
            raise PydanticCustomError("repeat", "repeats '{name}'", {"name": name})
    return names


def _permutation(order: tuple[str, ...]) -> tuple[str, ...]:
    """Faction order is DS, BK, VE in some order (schema 2, rule 2.3.2)."""
    if sorted(order) != ["BK", "DS", "VE"]:
        raise PydanticCustomError("order", "must be a permutation of DS, BK, VE")
    return order


def _scalar(value: Any) -> Any:
    """Python-effect params are strings, numbers or bools (module docstring)."""
    if not isinstance(value, str | int | float | bool):
        raise PydanticCustomError("scalar", "must be a string, number or boolean")
    return value


SpaceName = Annotated[str, AfterValidator(_known_space)]
Count = Annotated[StrictInt, Field(ge=1, le=5)]
NonZero = Annotated[StrictInt, AfterValidator(_non_zero)]
Text = Annotated[str, Field(min_length=1)]
EffectName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$")]
ParamName = Annotated[str, Field(min_length=1)]
ParamValue = Annotated[Any, AfterValidator(_scalar)]


class _Frozen(BaseModel):
    """Base of every model: unknown fields rejected, immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- selectors (schema 5) ----------------------------------------------------------------


class PieceRef(_Frozen):
    """A faction and a piece word (schema 5.2)."""

    faction: PieceFaction
    piece: PieceWord


class Filter(_Frozen):
    """Candidate filter of a `choose` selector; every given key must hold (schema 5.1)."""

    names: Annotated[tuple[SpaceName, ...], Field(min_length=1)] | None = None
    adjacent_to: SpaceName | None = None
    has: PieceRef | None = None
    lacks: PieceRef | None = None
    controlled_by: Literal["DS", "BK", "VE", "executor", "none"] | None = None
    tributary: StrictBool | None = None
    prosperity: Annotated[StrictInt, Field(ge=1, le=2)] | None = None


class SpaceSelector(_Frozen):
    """`{space: NAME}`: that one space (schema 5)."""

    space: SpaceName

    @property
    def fixed(self) -> tuple[str, ...]:
        """The spaces this selector always yields."""
        return (self.space,)


class SpacesSelector(_Frozen):
    """`{spaces: [NAME, ...]}`: each listed space, no repeats (schema 5)."""

    spaces: Annotated[tuple[SpaceName, ...], Field(min_length=1), AfterValidator(_no_repeats)]

    @property
    def fixed(self) -> tuple[str, ...]:
        """The spaces this selector always yields."""
        return self.spaces


class ChooseSelector(_Frozen):
    """`{choose: N, ...}`: N distinct spaces picked by `chooser` (schema 5)."""

    choose: Annotated[StrictInt, Field(ge=1)]
    up_to: StrictBool = False
    kind: Literal["province", "space"] = "province"
    filter: Filter | None = None
    chooser: PlayerOrExecutor = "executor"

    @property
    def fixed(self) -> None:
        """None: the spaces are picked in play."""
        return None


def selector_form(value: Any) -> str | None:
    """The tag of a selector: the first of its keys space / spaces / choose."""
    if isinstance(value, dict):
        return next(
            (f"selector:{key}" for key in ("space", "spaces", "choose") if key in value), None
        )
    return _SELECTORTAGS.get(type(value))


_SELECTORTAGS = {
    SpaceSelector: "selector:space",
    SpacesSelector: "selector:spaces",
    ChooseSelector: "selector:choose",
}
Selector = Annotated[
    Union[  # noqa: UP007 - tagged members need the Union form
        Annotated[SpaceSelector, Tag("selector:space")],
        Annotated[SpacesSelector, Tag("selector:spaces")],
        Annotated[ChooseSelector, Tag("selector:choose")],
    ],
    Discriminator(selector_form),
]


# --- ops (schema 6) ----------------------------------------------------------------------


class ResourcesOp(_Frozen):
    """Resources change by `amount`, within 0..24 (schema 6.1, rule 1.8)."""

    op: Literal["resources"]
    faction: PlayerOrExecutor
    amount: NonZero


class CavalryOp(_Frozen):
    """Gain or return Cavalry tokens (schema 6.2, rule 1.10)."""

    op: Literal["cavalry"]
    faction: PlayerOrExecutor
    amount: NonZero


class InfluenceOp(_Frozen):
    """Shift a Deccan Influence marker (schema 6.3, rule 1.9)."""

    op: Literal["influence"]
    faction: Deccan
    shift: NonZero


class PlaceOp(_Frozen):
    """Place `count` pieces from Available in each space (schema 6.4, rule 1.4.6)."""

    op: Literal["place"]
    faction: PieceFaction
    piece: PieceWord
    count: Count
    up_to: StrictBool = False
    where: Selector
    state: UnitState = "obedient"


class RemoveOp(_Frozen):
    """Remove up to `count` pieces from each space to Available (schema 6.5, rule 1.4.3)."""

    op: Literal["remove"]
    faction: PieceFaction
    piece: PieceWord
    count: Count
    up_to: StrictBool = False
    where: Selector


class ReplacementPiece(_Frozen):
    """The piece put in by `replace` (schema 6.6)."""

    faction: PieceFaction
    piece: PieceWord
    state: UnitState = "obedient"


class ReplaceOp(_Frozen):
    """Remove up to `count` pieces per space, each replaceable by one other (schema 6.6)."""

    op: Literal["replace"]
    count: Count
    where: Selector
    remove: PieceRef
    place: ReplacementPiece


class MoveOp(_Frozen):
    """Move `count` Units from `from` into the one space `to` (schema 6.7)."""

    op: Literal["move"]
    faction: PieceFaction
    piece: PieceWord
    count: Count
    up_to: StrictBool = False
    from_: Selector = Field(alias="from")
    to: Selector


class FlipOp(_Frozen):
    """Flip every Amir or Raja in the selected Provinces (schema 6.8, rule 1.4.5)."""

    op: Literal["flip"]
    faction: Deccan
    to: UnitState
    where: Selector


class SetTributaryOp(_Frozen):
    """Make the selected Independent Provinces Tributary (schema 6.9, rule 1.6)."""

    op: Literal["set_tributary"]
    where: Selector


class SetIndependentOp(_Frozen):
    """Make the selected Tributary Provinces Independent (schema 6.10, rule 1.7)."""

    op: Literal["set_independent"]
    where: Selector


class FreeCommandOp(_Frozen):
    """The named Faction executes one free Command (schema 6.11, rules 3.1.3, 2.3.5)."""

    op: Literal["free_command"]
    faction: Player
    command: CommandName
    limited: StrictBool = False
    where: Selector | None = None


class FreeDecreeOp(_Frozen):
    """The named Faction executes one Decree (schema 6.12, rule 4.x)."""

    op: Literal["free_decree"]
    faction: Player
    decree: DecreeName


class EligibilityOp(_Frozen):
    """Force a Faction's box at this card's Adjust Eligibility (schema 6.13, rule 2.3.7)."""

    op: Literal["eligibility"]
    faction: PlayerOrExecutor
    set: Literal["ineligible", "eligible"]


class MongolOp(_Frozen):
    """One Mongol Command decided by `chooser` (schema 6.14, rule 3.5)."""

    op: Literal["mongol"]
    command: Literal["amass", "advance", "attack_plunder"]
    chooser: Literal["BK", "VE", "executor"]


class LastingOp(_Frozen):
    """A rule change that outlasts the card (schema 6.16)."""

    op: Literal["lasting"]
    modifier: Literal["attack_extra_die", "no_rebel", "conscript_plus_one", "migrate_free_shift"]
    until: Literal["next_succession", "game_end"]
    faction: Player | None = None

    @property
    def factions(self) -> tuple[str, ...]:
        """The Factions the modifier applies to, an omitted faction resolved (schema 6.16)."""
        if self.faction is not None:
            return (self.faction,)
        return LASTING_DEFAULT_FACTIONS.get(self.modifier, ())


class PythonOp(_Frozen):
    """Escape hatch: a Python effect registered in `vijayanagara_sim.events` (module doc)."""

    op: Literal["python"]
    effect: EffectName
    params: dict[ParamName, ParamValue] = Field(default_factory=dict)


class ChooseOp(_Frozen):
    """The chooser picks one option and its ops run in order (schema 6.15)."""

    op: Literal["choose"]
    chooser: PlayerOrExecutor
    options: Annotated[tuple[EffectList, ...], Field(min_length=2)]


OP_MODELS: dict[str, type[_Frozen]] = {
    "resources": ResourcesOp,
    "cavalry": CavalryOp,
    "influence": InfluenceOp,
    "place": PlaceOp,
    "remove": RemoveOp,
    "replace": ReplaceOp,
    "move": MoveOp,
    "flip": FlipOp,
    "set_tributary": SetTributaryOp,
    "set_independent": SetIndependentOp,
    "free_command": FreeCommandOp,
    "free_decree": FreeDecreeOp,
    "eligibility": EligibilityOp,
    "mongol": MongolOp,
    "choose": ChooseOp,
    "lasting": LastingOp,
    "python": PythonOp,
}


def _op_tag(value: Any) -> str | None:
    """The tag of an op: `op:` and the value of its `op` key."""
    op = value.get("op") if isinstance(value, dict) else getattr(value, "op", None)
    return f"op:{op}" if isinstance(op, str) else None


Op = Annotated[
    Union[tuple(Annotated[model, Tag(f"op:{name}")] for name, model in OP_MODELS.items())],  # noqa: UP007
    Discriminator(_op_tag),
]
EffectList = Annotated[tuple[Op, ...], Field(min_length=1, max_length=4)]
ChooseOp.model_rebuild()

TAGS = frozenset(_SELECTORTAGS.values()) | {f"op:{name}" for name in OP_MODELS}


# --- cards and file (schema 1-3) ---------------------------------------------------------


class EventSide(_Frozen):
    """One Event text: display text and the authoritative effects (schema 2)."""

    text: Text
    effects: EffectList


class EventCard(_Frozen):
    """An Event card (schema 2, rule 2.3)."""

    id: Annotated[StrictInt, Field(ge=1, le=EVENT_COUNT)]
    title: Text
    provenance: Provenance
    order: Annotated[tuple[Player, ...], AfterValidator(_permutation)]
    stay_eligible: StrictBool
    flavor: Text
    unshaded: EventSide
    shaded: EventSide

    @property
    def has_lasting(self) -> bool:
        """True if either side contains a `lasting` op (schema 6.16)."""
        return any(isinstance(op, LastingOp) for op in self.unshaded.effects + self.shaded.effects)


class MongolInvasionCard(_Frozen):
    """A Mongol Invasion card; its effect is always rule 2.4 (schema 3)."""

    id: MongolId
    title: Text
    faction: Deccan
    provenance: Provenance | None = None


class EventFile(_Frozen):
    """The whole `events.yaml` mapping (schema 1)."""

    meta: dict[str, Any]
    events: tuple[EventCard, ...]
    mongol_invasions: tuple[MongolInvasionCard, ...]


@dataclass(frozen=True)
class EventDeck:
    """A validated deck. `digest` is the sha256 of the file bytes (or of the dict's JSON)."""

    meta: dict[str, Any]
    events: tuple[EventCard, ...]
    mongol_invasions: tuple[MongolInvasionCard, ...]
    path: Path | None
    digest: str
    source: str

    @property
    def provisional(self) -> bool:
        """True for the labelled stand-in deck (meta.status, schema 1)."""
        return self.meta.get("status") == "provisional"

    def event(self, card_id: int) -> EventCard:
        """The Event card with that id (KeyError if none)."""
        for card in self.events:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def mongol_invasion(self, card_id: str) -> MongolInvasionCard:
        """The Mongol Invasion card with that id (KeyError if none)."""
        for card in self.mongol_invasions:
            if card.id == card_id:
                return card
        raise KeyError(card_id)
