"""Pax Pamir's variant files (``simulate.variant_format``): TOML overlays a designer edits,
checked with exact dotted paths, compiled with the data to ``engine.Rules``.

``[setup] players`` is the player count (2-5, RB p4), ``[numbers]`` overrides the rule
numbers of ``cards.yaml`` (``PaxData.numbers``: costs, limits, the Dominance Check lead and
points, the early-end lead), ``[limits] max_turns`` the safety stop of a stalled market.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

from pydantic import Field

from simulate.errors import DataError
from simulate.variant_format import Line, Section, Variant, VariantFormat, int_list

from .cards import PaxData, load
from .engine import Rules

DATA_DIR = Path(__file__).with_name("data")
BASE_DESCRIPTION = "Pax Pamir (Second Edition) as printed, 4 players"
DEFAULT_PLAYERS = 4
DEFAULT_MAX_TURNS = 1000

Small = Annotated[int, Field(ge=0, le=50)]
Points = Annotated[list[Annotated[int, Field(ge=0, le=50)]], int_list()]


class Setup(Section):
    """RB p4 Setup: the player count (the deck is 6 x (5 + players) + 10 cards)."""

    players: Annotated[int, Field(ge=2, le=5)] = None
    # the seat played by Wakhan, the automated opponent (RB p16: "faced by one or two human
    # players"; in larger games a variant), whatever strategy that seat is given
    wakhan: Annotated[str, Field(pattern=r"^P[1-5]$")] = None


class Numbers(Section):
    """The rule numbers (cards.yaml ``numbers``), each absolute, not a delta."""

    actions_per_turn: Annotated[int, Field(ge=0, le=10)] = None  # RB p9
    court_limit_base: Small = None  # RB p9 Cleanup
    hand_limit_base: Small = None  # RB p9 Cleanup
    influence_base: Small = None  # RB p15
    gift_costs: Annotated[list[Small], int_list(length=3)] = None  # RB p13 Gift
    build_cost_per_block: Small = None  # RB p13 Build
    build_max_blocks: Annotated[int, Field(ge=1, le=12)] = None  # RB p13 Build
    betray_cost: Small = None  # RB p14 Betray
    leverage_rupees: Small = None  # RB p11
    starting_rupees: Small = None  # RB p4
    military_cost_multiplier: Annotated[int, Field(ge=1, le=5)] = None  # RB p10
    dominance_lead: Annotated[int, Field(ge=1, le=24)] = None  # RB p15
    success_points: Points = None  # RB p15 Successful Check
    failure_points: Points = None  # RB p15 Unsuccessful Check
    final_multiplier: Annotated[int, Field(ge=1, le=5)] = None  # RB p15 Final Dominance Check
    early_end_lead: Annotated[int, Field(ge=1, le=100)] = None  # RB p15 Early End


Number = Annotated[int, Field(ge=1, le=116)]
Piles = Annotated[list[Annotated[int, Field(ge=0, le=12)]], int_list(length=6)]


class Deck(Section):
    """RB p4 Build the Draw Deck: cards left out or always dealt (printed numbers), and the
    piles: court cards per pile (``court_base`` + ``court_per_player`` x players), events and
    Dominance Checks per pile, left to right (pile 1 ends on top)."""

    remove: Annotated[list[Number], int_list(unique=True)] = None
    include: Annotated[list[Number], int_list(unique=True)] = None
    court_base: Annotated[int, Field(ge=0, le=20)] = None
    court_per_player: Annotated[int, Field(ge=0, le=5)] = None
    events_by_pile: Piles = None
    checks_by_pile: Piles = None


class Limits(Section):
    """Not rules: the safety stop of a game whose market nobody buys from."""

    max_turns: Annotated[int, Field(ge=1, le=100_000)] = None


class VariantFile(Section):
    """A whole Pax Pamir variant file; only ``name`` and ``description`` are required."""

    name: Line
    description: Line
    setup: Setup = None
    numbers: Numbers = None
    deck: Deck = None
    limits: Limits = None


FORMAT = VariantFormat(DATA_DIR / "variants", BASE_DESCRIPTION, VariantFile)


def compile_rules(variant: Variant, data: PaxData | None = None) -> Rules:
    """The rules of ``variant``: the data with its numbers overridden, the seats P1..Pn."""
    FORMAT.check(
        variant.content, variant.label, None if variant.path is None else variant.path.parent
    )
    content = variant.content
    data = data or load()
    numbers = {k: v for k, v in (content.get("numbers") or {}).items() if v is not None}
    if numbers:
        lists = {k: tuple(v) for k, v in numbers.items() if isinstance(v, list)}
        data = dataclasses.replace(
            data, numbers=dataclasses.replace(data.numbers, **{**numbers, **lists})
        )
    players = (content.get("setup") or {}).get("players") or DEFAULT_PLAYERS
    max_turns = (content.get("limits") or {}).get("max_turns") or DEFAULT_MAX_TURNS
    seats = tuple(f"P{i + 1}" for i in range(players))
    wakhan = (content.get("setup") or {}).get("wakhan")
    if wakhan is not None and wakhan not in seats:
        raise DataError(f"{variant.label}: setup.wakhan: must be one of {', '.join(seats)}")
    data, removed, included = _deck(variant, data, players)
    return Rules(
        data,
        players,
        seats,
        max_turns,
        wakhan=-1 if wakhan is None else seats.index(wakhan),
        removed=removed,
        included=included,
    )


def _deck(variant: Variant, data: PaxData, players: int) -> tuple[PaxData, frozenset[int], tuple]:
    """``[deck]``: the cards by printed number, and new pile plans, checked against the cards
    (one line naming the key)."""
    deck = {k: v for k, v in (variant.content.get("deck") or {}).items() if v is not None}
    if not deck:
        return data, frozenset(), ()
    ids = {c.number: c.id for c in data.court} | {e.number: e.id for e in data.events}
    first_check = data.court[-1].number + 1
    checks = set(range(first_check, first_check + len(data.dominance_checks)))

    def fail(key: str, message: str) -> DataError:
        return DataError(f"{variant.label}: deck.{key}: {message}")

    for key in ("remove", "include"):
        for n in deck.get(key, []):
            if n in checks:
                raise fail(key, f"card {n} is a Dominance Check: the deck always has them (RB p4)")
            if n not in ids:
                raise fail(key, f"no card numbered {n}")
    removed = frozenset(ids[n] for n in deck.get("remove", []))
    included = tuple(ids[n] for n in deck.get("include", []))
    if any(c >= len(data.court) for c in included):
        raise fail("include", "only court cards can be always dealt")
    if removed & set(included):
        raise fail("include", "a card cannot be both removed and included")
    base, per = deck.get("court_base"), deck.get("court_per_player")
    first, second = data.deck_plans[0], data.deck_plans[1]
    step = second.court_by_pile[0] - first.court_by_pile[0]  # the data's own, by default
    start = first.court_by_pile[0] - step * first.players
    pool = len(data.court) - sum(c < len(data.court) for c in removed)
    plans = []
    for old in data.deck_plans:
        each = old.court_by_pile[0]
        if base is not None or per is not None:
            each = (start if base is None else base) + (step if per is None else per) * old.players
        court = (each,) * len(old.court_by_pile)
        events = tuple(deck.get("events_by_pile", old.events_by_pile))
        checks_by = tuple(deck.get("checks_by_pile", old.dominance_checks_by_pile))
        if old.players == players:
            if sum(court) > pool:
                raise fail(
                    "court_base", f"{players} players need {sum(court)} court cards, {pool} left"
                )
            if len(included) > sum(court):
                raise fail("include", f"more cards than the {sum(court)} the piles deal")
            if sum(checks_by) != len(data.dominance_checks):
                raise fail("checks_by_pile", f"must place the {len(data.dominance_checks)} checks")
            left = len(data.events) - sum(c >= len(data.court) for c in removed)
            if sum(events) > left:
                raise fail("events_by_pile", f"places {sum(events)} events, {left} left")
        size = sum(court) + sum(events) + sum(checks_by)
        plans.append(
            dataclasses.replace(
                old,
                court_by_pile=court,
                events_by_pile=events,
                dominance_checks_by_pile=checks_by,
                size=size,
            )
        )
    return dataclasses.replace(data, deck_plans=tuple(plans)), removed, included
