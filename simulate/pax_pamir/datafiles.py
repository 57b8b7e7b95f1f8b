"""The formats of Pax Pamir's data files (``simulate/pax_pamir/data/``), read and type-checked.

Each file is read by YAML's safe loader and validated by a pydantic model: unknown keys are
refused, types are exact, and the first problem is one line naming file and dotted field
(``cards.yaml: court_cards.cards[3].rank: must be 1..3``). Names across files are checked when
the data is compiled (``simulate.pax_pamir.cards``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import yaml
from annotated_types import Ge, Le
from pydantic import BaseModel, ConfigDict, ValidationError

from simulate.errors import DataError
from simulate.variant_format import one_line

SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DATA_DIR = Path(__file__).resolve().parent / "data"

Count = Annotated[int, Ge(0)]
Positive = Annotated[int, Ge(1)]
Confidence = Literal["C2", "C3", "S"]  # see the header of cards.yaml


class Table(BaseModel):
    """A table of a data file: known keys only, YAML's types exactly, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    unknown_key: ClassVar[str] = "field"


class OpenPoint(Table):
    """A point the sources leave open, and the dotted field it concerns."""

    field: str
    point: str


# --- cards.yaml -------------------------------------------------------------------------------


class Meta(Table):
    game: str
    rules_version: str
    license_of_game: str


class Counts(Table):
    """Declared totals, each recomputed from the cards on load."""

    confidence: Confidence
    cards_total: Count
    court_cards: Count
    event_cards: Count
    dominance_checks: Count
    other_events: Count
    wakhan_ai_cards: Count
    wakhan_aid_cards: Count
    court_by_region: dict[str, Count]
    court_by_suit: dict[str, Count]
    court_by_rank: dict[int, Count]
    patriots: dict[str, Count]
    prizes: dict[str, Count]
    impact_icons: dict[str, Count]
    card_actions: dict[str, Count]
    cards_with_special_ability: Count


class Suit(Table):
    star_effect: str


class Players(Table):
    min: Positive
    max: Positive


class PileCourt(Table):
    base: Count
    per_player: Count


class DeckConstruction(Table):
    confidence: Confidence
    players: Players
    court_cards_per_pile: PileCourt
    events_by_pile: list[Count]
    dominance_checks_by_pile: list[Count]
    order: str
    deck_size_by_players: dict[int, Count]


class Market(Table):
    confidence: Confidence
    rows: Positive
    columns: Positive
    fill: str
    purchase_cost: str
    military_cost_multiplier: Positive


class SpecialAbility(Table):
    cards: list[Positive]
    effect: str


class CourtCard(Table):
    n: Positive
    name: str
    region: str
    suit: str
    rank: Annotated[int, Ge(1), Le(3)]
    icons: list[str]
    actions: list[str]
    patriot: str | None = None
    prize: str | None = None
    ability: str | None = None


class CourtCards(Table):
    confidence: Confidence
    cards: list[CourtCard]


class DominanceChecks(Table):
    confidence: Confidence
    cards: list[Positive]
    both_sides: str
    success_lead: Positive
    success_points: list[Count]
    failure_points: list[Count]
    final_multiplier: Positive
    early_end_lead: Positive
    success_test: str
    on_success: str
    on_failure: str
    final_check: str
    ties: str
    early_end: str
    instability: str
    persistent_events_end: str


class EventEffect(Table):
    """One side of an event card: ``purchased`` (bottom) or ``discarded`` (top), RB p3."""

    key: str
    name: str
    scope: Literal["buyer", "all", "other_player", "buyer_and_other"]
    lasts: Literal["until_dc"] | None = None
    effect: str
    amount: Count | None = None  # the effect's number, where its text has one


class EventCard(Table):
    n: Positive
    purchased: EventEffect
    discarded: EventEffect


class EventCards(Table):
    confidence: Confidence
    cards: list[EventCard]


class CardsFile(Table):
    """``cards.yaml``: court cards, events, Dominance Checks, deck building, market."""

    meta: Meta
    counts: Counts
    suits: dict[str, Suit]
    impact_icons: dict[str, str]
    card_actions: dict[str, str]
    deck_construction: DeckConstruction
    market: Market
    special_abilities: dict[str, SpecialAbility]
    court_cards: CourtCards
    dominance_checks: DominanceChecks
    event_cards: EventCards
    open_points: list[OpenPoint]


# --- map.yaml ---------------------------------------------------------------------------------


class Region(Table):
    name: str
    neighbours: list[str]
    borders: Count
    label_pt: list[int]


class Regions(Table):
    confidence: Confidence
    table: list[Region]


class Borders(Table):
    confidence: Confidence
    count: Count
    pairs: list[list[str]]
    non_adjacent_pairs_of_note: list[list[str]]


class WhatSitsWhere(Table):
    confidence: Confidence
    region: str
    border: str
    court_card: str
    loyalty_dial: str
    board_edge: str
    road_use: list[str]


class Blocks(Table):
    per_coalition: Positive
    total: Positive


class Cylinders(Table):
    per_player: Positive
    of_which_vp_marker: Count
    usable: Positive
    total: Positive


class Rupees(Table):
    total: Positive
    hard_limit: bool


class Components(Table):
    confidence: Confidence
    coalitions: list[str]
    coalition_blocks: Blocks
    cylinders: Cylinders
    rupees: Rupees
    ruler_tokens: Positive
    loyalty_dials_per_player: Positive
    player_boards_per_player: Positive
    favored_suit_markers: Positive
    max_players: Positive


class PerPlayer(Table):
    rupees: Count
    cylinders: Positive
    loyalty_dials: Count
    player_boards: Count
    hand: Count
    court: Count


class Setup(Table):
    confidence: Confidence
    favored_suit: str
    deck: str
    market: str
    per_player: PerPlayer
    starting_loyalty: str
    wakhan: str


class ActionCosts(Table):
    play: Count
    tax: Count
    gift: list[Count]
    build_per_block: Count
    build_max_blocks: Positive
    move: Count
    betray: Count
    battle: Count


class Constants(Table):
    confidence: Confidence
    actions_per_turn: Positive
    bonus_action: str
    one_action_per_card_per_turn: bool
    court_limit_base: Count
    hand_limit_base: Count
    tax_shelter: str
    play_bribe: str
    hostage: str
    ruling: str
    influence: str
    influence_base: Count
    action_costs: ActionCosts
    leverage_rupees: Count
    leverage: str
    overthrow: str
    dominance: str
    game_end_tiebreak: list[Literal["vp", "military_stars", "rupees"]]


class MapFile(Table):
    """``map.yaml``: regions, borders, components, setup, rule constants."""

    regions: Regions
    borders: Borders
    what_sits_where: WhatSitsWhere
    components: Components
    setup: Setup
    constants: Constants
    open_points: list[OpenPoint]


# --- wakhan.yaml ------------------------------------------------------------------------------


class WakhanMeta(Table):
    confidence: Confidence
    cards: Positive
    actions_per_card: Positive
    rows: list[str]


class WakhanCard(Table):
    n: Positive
    actions: list[str]
    loyalty: list[str]
    regions: list[str]
    red_arrow: Count
    black_arrow: Count
    back_rows: list[str]
    back_columns: list[Count]


class WakhanFile(Table):
    """``wakhan.yaml``: the 24 Wakhan AI cards (RB p16-18)."""

    meta: WakhanMeta
    action_keys: dict[str, str]
    cards: list[WakhanCard]
    open_points: list[OpenPoint]


FILES: dict[str, type[Table]] = {"cards": CardsFile, "map": MapFile, "wakhan": WakhanFile}


def read_yaml(path: Path) -> Any:
    """One YAML file's content, or a one-line DataError naming it."""
    try:
        with open(path, encoding="utf-8") as fh:
            return yaml.load(fh, Loader=SAFE_LOADER)
    except OSError as exc:
        raise DataError(f"{path.name}: cannot read ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise DataError(
            f"{path.name}:{where} invalid YAML ({getattr(exc, 'problem', exc)})"
        ) from None


def parse(name: str, content: Any, model: type[Table]) -> Any:
    """``content`` of file ``name`` validated by ``model``, or a one-line DataError."""
    if not isinstance(content, dict):
        raise DataError(f"{name}: expected a mapping at the top level")
    try:
        return model.model_validate(content)
    except ValidationError as exc:
        raise DataError(f"{name}: {one_line(exc, content, model)}") from None


def load_file(stem: str, data_dir: Path = DATA_DIR) -> Any:
    """The data file ``<stem>.yaml`` of ``data_dir``, read and type-checked."""
    path = data_dir / f"{stem}.yaml"
    return parse(path.name, read_yaml(path), FILES[stem])
