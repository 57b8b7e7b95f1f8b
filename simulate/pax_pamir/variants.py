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


class Limits(Section):
    """Not rules: the safety stop of a game whose market nobody buys from."""

    max_turns: Annotated[int, Field(ge=1, le=100_000)] = None


class VariantFile(Section):
    """A whole Pax Pamir variant file; only ``name`` and ``description`` are required."""

    name: Line
    description: Line
    setup: Setup = None
    numbers: Numbers = None
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
    return Rules(
        data, players, seats, max_turns, wakhan=-1 if wakhan is None else seats.index(wakhan)
    )
