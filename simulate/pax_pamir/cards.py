"""Pax Pamir's data compiled once into immutable tables of small integers (``load``).

Card ids: court cards 0..99 (printed number - 1), then the Dominance Checks, then the events.
Regions, suits, coalitions, impact icons and card actions are indexes into the name tables of
``PaxData``, in the order the data files list them. Every cross-file check fails as one line:
``cards.yaml: court_cards.cards[2].region: unknown region 'kabol' (expected: persia, ...)``.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from simulate.errors import DataError

from . import datafiles as F

NONE = -1  # no patriot, prize or ability


@dataclass(frozen=True, slots=True)
class CourtCard:
    """A court card (RB p3): every field an index into a ``PaxData`` name table."""

    id: int
    number: int
    name: str
    region: int
    suit: int
    rank: int
    icons: tuple[int, ...]  # impact icons in printed order (RB p11)
    actions: tuple[int, ...]  # card-based actions, canonical order (RB p12)
    patriot: int = NONE  # coalition
    prize: int = NONE  # coalition
    ability: int = NONE


@dataclass(frozen=True, slots=True)
class EventEffect:
    """One side of an event card (RB p3): ``key`` names the effect for the engine."""

    key: str
    name: str
    scope: str  # buyer | all | other_player | buyer_and_other
    until_dc: bool  # lasts until the next Dominance Check resolves (RB p10)
    effect: str
    amount: int | None = None  # the effect's number, where its text has one


@dataclass(frozen=True, slots=True)
class EventCard:
    """An event card: its effect when purchased (bottom) and when discarded (top), RB p3."""

    id: int
    number: int
    purchased: EventEffect
    discarded: EventEffect


@dataclass(frozen=True, slots=True)
class DeckPlan:
    """The six piles for a player count, left to right (pile 1 ends on top), RB p4."""

    players: int
    court_by_pile: tuple[int, ...]
    events_by_pile: tuple[int, ...]
    dominance_checks_by_pile: tuple[int, ...]
    size: int


@dataclass(frozen=True, slots=True)
class WakhanCard:
    """A Wakhan AI card (RB p16-17); ``actions`` index ``PaxData.wakhan_actions``."""

    number: int
    actions: tuple[int, ...]
    loyalty: tuple[int, ...]  # coalitions, leftmost first
    regions: tuple[int, ...]  # region priority, leftmost first
    red_arrow: int  # index into the next card's back_rows
    black_arrow: int  # index into the next card's back_columns
    back_rows: tuple[int, ...]  # market rows (0 = top)
    back_columns: tuple[int, ...]  # market columns (0 = leftmost)


@dataclass(frozen=True, slots=True)
class Numbers:
    """The rule constants the engine reads (map.yaml ``constants``, cards.yaml sections)."""

    actions_per_turn: int  # RB p9
    court_limit_base: int  # RB p6
    hand_limit_base: int  # RB p6
    influence_base: int  # RB p7
    gift_costs: tuple[int, ...]  # RB p13 Gift
    build_cost_per_block: int  # RB p13 Build
    build_max_blocks: int
    betray_cost: int  # RB p14 Betray
    leverage_rupees: int  # RB p8
    starting_rupees: int  # RB p4
    favored_suit: int  # RB p4
    usable_cylinders: int  # RB p2
    blocks_per_coalition: int  # RB p2
    military_cost_multiplier: int  # RB p10
    dominance_lead: int  # RB p15
    success_points: tuple[int, ...]  # RB p15
    failure_points: tuple[int, ...]
    final_multiplier: int
    early_end_lead: int  # RB p9


@dataclass(frozen=True)
class PaxData:
    """Every fact of the game the engine needs, validated and compiled once."""

    regions: tuple[str, ...]
    suits: tuple[str, ...]
    coalitions: tuple[str, ...]
    icons: tuple[str, ...]
    actions: tuple[str, ...]
    abilities: tuple[str, ...]
    icon_suit: tuple[int, ...]  # by icon: the suit a suit_X icon makes favored, else NONE
    borders: tuple[tuple[int, int], ...]  # border id -> its two regions
    adjacency: tuple[tuple[int, ...], ...]  # region -> neighbouring regions
    region_borders: tuple[tuple[int, ...], ...]  # region -> its border ids
    court: tuple[CourtCard, ...]  # indexed by card id
    dominance_checks: tuple[int, ...]  # card ids
    events: tuple[EventCard, ...]  # the other events
    ability_cards: tuple[tuple[int, ...], ...]  # ability -> court card ids
    deck_plans: tuple[DeckPlan, ...]  # min_players, ..., max_players
    market_rows: int
    market_columns: int
    numbers: Numbers
    wakhan: tuple[WakhanCard, ...]
    wakhan_actions: tuple[str, ...]
    open_points: tuple[tuple[str, str, str], ...]  # (file, field, point)
    confidence: tuple[tuple[str, str], ...]  # ("file: section", mark)
    digests: tuple[tuple[str, str], ...]  # (file, sha256)
    files: tuple[Any, ...] = field(compare=False, repr=False)  # the validated models
    # Derived lookups for the engine's inner loops, computed from the fields above.
    event_slots: dict[str, int] = field(init=False, compare=False, repr=False)
    free_by: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    withdrawal: int = field(init=False, compare=False, repr=False)
    check_ids: frozenset[int] = field(init=False, compare=False, repr=False)
    military: int = field(init=False, compare=False, repr=False)
    ability_ids: dict[str, int] = field(init=False, compare=False, repr=False)
    ability_sets: dict[str, frozenset[int]] = field(init=False, compare=False, repr=False)
    border_of: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    always_favored: frozenset[int] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        """The derived lookups: ``State.lasting``'s slot of each event side's key; for each
        court card the ability cards whose holder buys it free (Herat, Persian and Russian
        Influence, cards.yaml); the Public Withdrawal card; the Dominance Checks' ids; each
        ability's index; the border between two regions (``NONE`` if none); the cards that
        "always count as the favored suit" (Savvy Operator, Irregulars)."""
        slots: dict[str, int] = {}
        for i, event in enumerate(self.events):
            slots.setdefault(event.purchased.key, 2 * i)
            slots.setdefault(event.discarded.key, 2 * i + 1)
        holders = {
            ability: self.ability_cards[self.abilities.index(ability)]
            for ability in ("herat_influence", "persian_influence", "russian_influence")
            if ability in self.abilities
        }

        def frees(card: CourtCard) -> tuple[int, ...]:
            out: list[int] = []
            if "herat" in self.regions and card.region == self.regions.index("herat"):
                out += holders.get("herat_influence", ())
            if "persia" in self.regions and card.region == self.regions.index("persia"):
                out += holders.get("persian_influence", ())
            if "russian" in self.coalitions and card.patriot == self.coalitions.index("russian"):
                out += holders.get("russian_influence", ())
            return tuple(out)

        withdrawal = next(
            (e.id for e in self.events if e.purchased.key == "public_withdrawal"), NONE
        )
        military = self.suits.index("military") if "military" in self.suits else NONE
        borders = [[NONE] * len(self.regions) for _ in self.regions]
        for b, (x, y) in enumerate(self.borders):
            borders[x][y] = borders[y][x] = b
        ids = {name: i for i, name in enumerate(self.abilities)}
        always = frozenset(
            c
            for a in ("savvy_operator", "irregulars")
            if a in ids
            for c in self.ability_cards[ids[a]]
        )
        for name, value in (
            ("ability_ids", ids),
            ("ability_sets", {a: frozenset(self.ability_cards[i]) for a, i in ids.items()}),
            ("border_of", tuple(tuple(row) for row in borders)),
            ("always_favored", always),
            ("event_slots", slots),
            ("free_by", tuple(frees(c) for c in self.court)),
            ("withdrawal", withdrawal),
            ("check_ids", frozenset(self.dominance_checks)),
            ("military", military),
        ):
            object.__setattr__(self, name, value)

    @property
    def card_count(self) -> int:
        """Court cards, Dominance Checks and events: the ids 0..card_count-1."""
        return len(self.court) + len(self.dominance_checks) + len(self.events)

    def deck_plan(self, players: int) -> DeckPlan:
        """The piles for ``players`` (Wakhan counts as one, RB p16)."""
        first = self.deck_plans[0].players
        if not first <= players < first + len(self.deck_plans):
            raise ValueError(f"players must be {first}..{first + len(self.deck_plans) - 1}")
        return self.deck_plans[players - first]


def _fail(file: str, where: str, message: str) -> DataError:
    return DataError(f"{file}: {where}: {message}")


def _index(names: Sequence[str], value: str, file: str, where: str, what: str) -> int:
    """The id of ``value`` in ``names``, or a one-line error naming the field."""
    if value not in names:
        raise _fail(file, where, f"unknown {what} {value!r} (expected: {', '.join(names)})")
    return names.index(value)


def _unique(names: Iterable[str], file: str, where: str) -> tuple[str, ...]:
    out: list[str] = []
    for i, name in enumerate(names):
        if name in out:
            raise _fail(file, f"{where}[{i}]", f"{name!r} is listed twice")
        out.append(name)
    return tuple(out)


def _permutation(values: list[Any], of: Sequence[Any], file: str, where: str) -> None:
    if sorted(map(str, values)) != sorted(map(str, of)):
        raise _fail(file, where, f"must list each of {', '.join(map(str, of))} once")


def _same_counts(declared: dict, actual: Counter, names: Sequence, where: str, what: str) -> None:
    """Declared counts equal the cards' (cards.yaml ``counts``)."""
    for key in declared:
        if key not in names:
            known = ", ".join(map(str, names))
            raise _fail("cards.yaml", f"{where}.{key}", f"unknown {what} (expected: {known})")
    for key in names:
        if declared.get(key, 0) != actual[key]:
            msg = f"declared {declared.get(key, 0)}, the cards have {actual[key]}"
            raise _fail("cards.yaml", f"{where}.{key}", msg)


def _compile_map(m: F.MapFile) -> tuple[tuple[str, ...], tuple, tuple, tuple]:
    """Region names, borders, adjacency and each region's borders, cross-checked (RB p2)."""
    regions = _unique((r.name for r in m.regions.table), "map.yaml", "regions.table.name")
    if m.borders.count != len(m.borders.pairs):
        msg = f"declared {m.borders.count}, pairs lists {len(m.borders.pairs)}"
        raise _fail("map.yaml", "borders.count", msg)
    borders: list[tuple[int, int]] = []
    for i, pair in enumerate(m.borders.pairs):
        where = f"borders.pairs[{i}]"
        if len(pair) != 2 or pair[0] == pair[1]:
            raise _fail("map.yaml", where, "a border joins exactly two different regions")
        a, b = sorted(_index(regions, r, "map.yaml", where, "region") for r in pair)
        if (a, b) in borders:
            raise _fail("map.yaml", where, "this border is listed twice")
        borders.append((a, b))
    adjacency = tuple(
        tuple(sorted({b if a == r else a for a, b in borders if r in (a, b)}))
        for r in range(len(regions))
    )
    for i, region in enumerate(m.regions.table):
        where = f"regions.table[{i}]"
        listed = sorted(
            _index(regions, n, "map.yaml", f"{where}.neighbours", "region")
            for n in region.neighbours
        )
        if listed != list(adjacency[i]):
            raise _fail("map.yaml", f"{where}.neighbours", "differ from borders.pairs")
        if region.borders != len(adjacency[i]):
            msg = f"declared {region.borders}, borders.pairs has {len(adjacency[i])}"
            raise _fail("map.yaml", f"{where}.borders", msg)
    for i, pair in enumerate(m.borders.non_adjacent_pairs_of_note):
        where = f"borders.non_adjacent_pairs_of_note[{i}]"
        ids = [_index(regions, r, "map.yaml", where, "region") for r in pair]
        if len(ids) != 2 or tuple(sorted(ids)) in borders:
            raise _fail("map.yaml", where, "must be two regions with no border between them")
    region_borders = tuple(
        tuple(k for k, pair in enumerate(borders) if r in pair) for r in range(len(regions))
    )
    return regions, tuple(borders), adjacency, region_borders


def _check_components(m: F.MapFile, regions: tuple[str, ...], players_max: int) -> None:
    """Component totals agree with each other and with the map (RB p2)."""
    c = m.components
    checks = (
        (
            "coalition_blocks.total",
            c.coalition_blocks.per_coalition * len(c.coalitions),
            c.coalition_blocks.total,
        ),
        (
            "cylinders.usable",
            c.cylinders.per_player - c.cylinders.of_which_vp_marker,
            c.cylinders.usable,
        ),
        ("cylinders.total", c.cylinders.per_player * c.max_players, c.cylinders.total),
        ("ruler_tokens", len(regions), c.ruler_tokens),
    )
    for where, expected, declared in checks:
        if expected != declared:
            raise _fail(
                "map.yaml", f"components.{where}", f"declared {declared}, expected {expected}"
            )
    if m.setup.per_player.cylinders != c.cylinders.per_player:
        raise _fail("map.yaml", "setup.per_player.cylinders", "differs from components.cylinders")
    if players_max > c.max_players:
        msg = f"{players_max} players exceed components.max_players ({c.max_players})"
        raise _fail("cards.yaml", "deck_construction.players.max", msg)


def _compile_court(
    c: F.CardsFile, regions: tuple[str, ...], coalitions: tuple[str, ...]
) -> tuple[tuple[CourtCard, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple]:
    """Court cards with their names as ids, cross-checked against the declared counts."""
    suits, icons = tuple(c.suits), tuple(c.impact_icons)
    actions, abilities = tuple(c.card_actions), tuple(c.special_abilities)
    court: list[CourtCard] = []
    for i, card in enumerate(c.court_cards.cards):
        where = f"court_cards.cards[{i}]"
        if card.n != i + 1:
            raise _fail("cards.yaml", f"{where}.n", f"must be {i + 1} (cards in printed order)")
        acts = [
            _index(actions, a, "cards.yaml", f"{where}.actions[{k}]", "action")
            for k, a in enumerate(card.actions)
        ]
        if acts != sorted(set(acts)):
            msg = f"must be distinct, in the order {', '.join(actions)}"
            raise _fail("cards.yaml", f"{where}.actions", msg)

        def opt(value: str | None, names: Sequence[str], key: str, what: str) -> int:
            return NONE if value is None else _index(names, value, "cards.yaml", key, what)

        court.append(
            CourtCard(
                id=i,
                number=card.n,
                name=card.name,
                region=_index(regions, card.region, "cards.yaml", f"{where}.region", "region"),
                suit=_index(suits, card.suit, "cards.yaml", f"{where}.suit", "suit"),
                rank=card.rank,
                icons=tuple(
                    _index(icons, s, "cards.yaml", f"{where}.icons[{k}]", "impact icon")
                    for k, s in enumerate(card.icons)
                ),
                actions=tuple(acts),
                patriot=opt(card.patriot, coalitions, f"{where}.patriot", "coalition"),
                prize=opt(card.prize, coalitions, f"{where}.prize", "coalition"),
                ability=opt(card.ability, abilities, f"{where}.ability", "special ability"),
            )
        )
    ability_cards = []
    for a, (name, ability) in enumerate(c.special_abilities.items()):
        holders = sorted(card.number for card in court if card.ability == a)
        if sorted(ability.cards) != holders:
            msg = f"lists {ability.cards}, the cards carrying it are {holders}"
            raise _fail("cards.yaml", f"special_abilities.{name}.cards", msg)
        ability_cards.append(tuple(n - 1 for n in holders))
    return tuple(court), suits, icons, actions, (abilities, tuple(ability_cards))


def _check_counts(c: F.CardsFile, data: dict[str, Any], wakhan_cards: int) -> None:
    """cards.yaml ``counts``: the totals and the breakdowns by region, suit, rank, ... (RB p3)."""
    n, court = c.counts, data["court"]
    totals = (
        ("court_cards", len(court)),
        ("dominance_checks", len(c.dominance_checks.cards)),
        ("other_events", len(c.event_cards.cards)),
        ("event_cards", n.dominance_checks + n.other_events),
        ("wakhan_ai_cards", wakhan_cards),
        ("cards_total", n.court_cards + n.event_cards + n.wakhan_ai_cards + n.wakhan_aid_cards),
        ("cards_with_special_ability", sum(card.ability != NONE for card in court)),
    )
    for key, actual in totals:
        if getattr(n, key) != actual:
            raise _fail(
                "cards.yaml", f"counts.{key}", f"declared {getattr(n, key)}, found {actual}"
            )
    regions, suits, coalitions = data["regions"], data["suits"], data["coalitions"]
    icons, actions = data["icons"], data["actions"]
    breakdowns = (
        ("court_by_region", regions, "region", Counter(regions[k.region] for k in court)),
        ("court_by_suit", suits, "suit", Counter(suits[k.suit] for k in court)),
        ("court_by_rank", (1, 2, 3), "rank", Counter(k.rank for k in court)),
        (
            "patriots",
            coalitions,
            "coalition",
            Counter(coalitions[k.patriot] for k in court if k.patriot != NONE),
        ),
        (
            "prizes",
            coalitions,
            "coalition",
            Counter(coalitions[k.prize] for k in court if k.prize != NONE),
        ),
        ("impact_icons", icons, "impact icon", Counter(icons[i] for k in court for i in k.icons)),
        ("card_actions", actions, "action", Counter(actions[a] for k in court for a in k.actions)),
    )
    for key, names, what, actual in breakdowns:
        _same_counts(getattr(n, key), actual, names, f"counts.{key}", what)


def _compile_events(c: F.CardsFile, first_id: int) -> tuple[tuple[int, ...], tuple[EventCard, ...]]:
    """Dominance Check ids and the events, numbered on from the court cards (RB p3, p15)."""
    checks = c.dominance_checks.cards
    for i, number in enumerate(checks):
        if number != first_id + i + 1:
            msg = f"must be {first_id + i + 1} (numbered on from the court cards)"
            raise _fail("cards.yaml", f"dominance_checks.cards[{i}]", msg)
    events: list[EventCard] = []
    keys: list[str] = []
    first_event = first_id + len(checks)
    for i, card in enumerate(c.event_cards.cards):
        where = f"event_cards.cards[{i}]"
        if card.n != first_event + i + 1:
            raise _fail("cards.yaml", f"{where}.n", f"must be {first_event + i + 1}")
        sides = []
        for side in ("purchased", "discarded"):
            e: F.EventEffect = getattr(card, side)
            if e.key in keys:
                raise _fail("cards.yaml", f"{where}.{side}.key", f"{e.key!r} is used twice")
            keys.append(e.key)
            sides.append(
                EventEffect(e.key, e.name, e.scope, e.lasts == "until_dc", e.effect, e.amount)
            )
        events.append(EventCard(first_event + i, card.n, sides[0], sides[1]))
    return tuple(first_id + i for i in range(len(checks))), tuple(events)


def _compile_deck(c: F.CardsFile, court: int, events: int, checks: int) -> tuple[DeckPlan, ...]:
    """The piles for each player count (RB p4 Build the Draw Deck), checked against the cards."""
    d = c.deck_construction
    piles = len(d.events_by_pile)
    if len(d.dominance_checks_by_pile) != piles:
        msg = f"must have {piles} values, one per pile (as events_by_pile)"
        raise _fail("cards.yaml", "deck_construction.dominance_checks_by_pile", msg)
    if sum(d.dominance_checks_by_pile) != checks:
        msg = f"places {sum(d.dominance_checks_by_pile)} checks, the deck has {checks}"
        raise _fail("cards.yaml", "deck_construction.dominance_checks_by_pile", msg)
    if sum(d.events_by_pile) > events:
        msg = f"places {sum(d.events_by_pile)} events, there are {events}"
        raise _fail("cards.yaml", "deck_construction.events_by_pile", msg)
    counts = range(d.players.min, d.players.max + 1)
    if list(d.deck_size_by_players) != list(counts):
        msg = f"must give the sizes for {d.players.min}..{d.players.max} players, in order"
        raise _fail("cards.yaml", "deck_construction.deck_size_by_players", msg)
    plans = []
    for n in counts:
        per_pile = d.court_cards_per_pile.base + d.court_cards_per_pile.per_player * n
        if per_pile * piles > court:
            msg = f"{n} players need {per_pile * piles} court cards, there are {court}"
            raise _fail("cards.yaml", "deck_construction.court_cards_per_pile", msg)
        size = per_pile * piles + sum(d.events_by_pile) + sum(d.dominance_checks_by_pile)
        if d.deck_size_by_players[n] != size:
            msg = f"declared {d.deck_size_by_players[n]}, the piles make {size}"
            raise _fail("cards.yaml", f"deck_construction.deck_size_by_players.{n}", msg)
        plans.append(
            DeckPlan(
                n,
                (per_pile,) * piles,
                tuple(d.events_by_pile),
                tuple(d.dominance_checks_by_pile),
                size,
            )
        )
    return tuple(plans)


def _compile_wakhan(
    w: F.WakhanFile, regions: tuple[str, ...], coalitions: tuple[str, ...], market: F.Market
) -> tuple[WakhanCard, ...]:
    """The Wakhan AI cards, every name known and every order a permutation (RB p16-17)."""
    actions = tuple(w.action_keys)
    rows = _unique(w.meta.rows, "wakhan.yaml", "meta.rows")
    if len(rows) != market.rows:
        raise _fail("wakhan.yaml", "meta.rows", f"must name the {market.rows} market rows")
    if len(w.cards) != w.meta.cards:
        raise _fail(
            "wakhan.yaml", "cards", f"lists {len(w.cards)} cards, meta.cards says {w.meta.cards}"
        )
    cards = []
    for i, card in enumerate(w.cards):
        where = f"cards[{i}]"
        if card.n != i + 1:
            raise _fail("wakhan.yaml", f"{where}.n", f"must be {i + 1}")
        if len(card.actions) != w.meta.actions_per_card:
            msg = f"must have {w.meta.actions_per_card} actions (meta.actions_per_card)"
            raise _fail("wakhan.yaml", f"{where}.actions", msg)
        _permutation(card.loyalty, coalitions, "wakhan.yaml", f"{where}.loyalty")
        _permutation(card.regions, regions, "wakhan.yaml", f"{where}.regions")
        _permutation(card.back_rows, rows, "wakhan.yaml", f"{where}.back_rows")
        _permutation(
            card.back_columns, range(market.columns), "wakhan.yaml", f"{where}.back_columns"
        )
        if card.red_arrow >= len(rows):
            raise _fail("wakhan.yaml", f"{where}.red_arrow", f"must be 0..{len(rows) - 1}")
        if card.black_arrow >= market.columns:
            raise _fail("wakhan.yaml", f"{where}.black_arrow", f"must be 0..{market.columns - 1}")
        cards.append(
            WakhanCard(
                number=card.n,
                actions=tuple(
                    _index(actions, a, "wakhan.yaml", f"{where}.actions[{k}]", "action key")
                    for k, a in enumerate(card.actions)
                ),
                loyalty=tuple(coalitions.index(x) for x in card.loyalty),
                regions=tuple(regions.index(x) for x in card.regions),
                red_arrow=card.red_arrow,
                black_arrow=card.black_arrow,
                back_rows=tuple(rows.index(x) for x in card.back_rows),
                back_columns=tuple(card.back_columns),
            )
        )
    return tuple(cards)


def _numbers(c: F.CardsFile, m: F.MapFile, suits: tuple[str, ...]) -> Numbers:
    k, d = m.constants, c.dominance_checks
    return Numbers(
        actions_per_turn=k.actions_per_turn,
        court_limit_base=k.court_limit_base,
        hand_limit_base=k.hand_limit_base,
        influence_base=k.influence_base,
        gift_costs=tuple(k.action_costs.gift),
        build_cost_per_block=k.action_costs.build_per_block,
        build_max_blocks=k.action_costs.build_max_blocks,
        betray_cost=k.action_costs.betray,
        leverage_rupees=k.leverage_rupees,
        starting_rupees=m.setup.per_player.rupees,
        favored_suit=_index(suits, m.setup.favored_suit, "map.yaml", "setup.favored_suit", "suit"),
        usable_cylinders=m.components.cylinders.usable,
        blocks_per_coalition=m.components.coalition_blocks.per_coalition,
        military_cost_multiplier=c.market.military_cost_multiplier,
        dominance_lead=d.success_lead,
        success_points=tuple(d.success_points),
        failure_points=tuple(d.failure_points),
        final_multiplier=d.final_multiplier,
        early_end_lead=d.early_end_lead,
    )


def _open_points(files: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    """Every file's open points; each names a field of its own file."""
    out = []
    for stem, model in files.items():
        for i, p in enumerate(model.open_points):
            if p.field.split(".")[0] not in type(model).model_fields:
                msg = f"{p.field!r} is not a field of {stem}.yaml"
                raise _fail(f"{stem}.yaml", f"open_points[{i}].field", msg)
            out.append((f"{stem}.yaml", p.field, p.point))
    return tuple(out)


def _confidence(files: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The confidence mark of every section that carries one."""
    out = []
    for stem, model in files.items():
        for name in type(model).model_fields:
            section = getattr(model, name)
            mark = getattr(section, "confidence", None)
            if mark is not None:
                out.append((f"{stem}.yaml: {name}", mark))
    return tuple(out)


def compile_data(files: dict[str, Any], digests: tuple[tuple[str, str], ...] = ()) -> PaxData:
    """The validated models of cards, map and wakhan, cross-checked and compiled."""
    c, m, w = files["cards"], files["map"], files["wakhan"]
    regions, borders, adjacency, region_borders = _compile_map(m)
    coalitions = _unique(m.components.coalitions, "map.yaml", "components.coalitions")
    _check_components(m, regions, c.deck_construction.players.max)
    court, suits, icons, actions, (abilities, ability_cards) = _compile_court(
        c, regions, coalitions
    )
    icon_suit = tuple(
        _index(suits, name[5:], "cards.yaml", f"impact_icons.{name}", "suit")
        if name.startswith("suit_")
        else NONE
        for name in icons
    )
    names = {
        "court": court,
        "regions": regions,
        "suits": suits,
        "coalitions": coalitions,
        "icons": icons,
        "actions": actions,
    }
    _check_counts(c, names, len(w.cards))
    checks, events = _compile_events(c, len(court))
    return PaxData(
        regions=regions,
        suits=suits,
        coalitions=coalitions,
        icons=icons,
        actions=actions,
        abilities=abilities,
        icon_suit=icon_suit,
        borders=borders,
        adjacency=adjacency,
        region_borders=region_borders,
        court=court,
        dominance_checks=checks,
        events=events,
        ability_cards=ability_cards,
        deck_plans=_compile_deck(c, len(court), len(events), len(checks)),
        market_rows=c.market.rows,
        market_columns=c.market.columns,
        numbers=_numbers(c, m, suits),
        wakhan=_compile_wakhan(w, regions, coalitions, c.market),
        wakhan_actions=tuple(w.action_keys),
        open_points=_open_points(files),
        confidence=_confidence(files),
        digests=digests,
        files=(c, m, w),
    )


def load_dir(data_dir: Path) -> PaxData:
    """The data files of ``data_dir`` read, validated and compiled (no cache)."""
    files = {stem: F.load_file(stem, data_dir) for stem in F.FILES}
    digests = tuple(
        (f"{stem}.yaml", hashlib.sha256((data_dir / f"{stem}.yaml").read_bytes()).hexdigest())
        for stem in F.FILES
    )
    return compile_data(files, digests)


@cache
def load(data_dir: Path = F.DATA_DIR) -> PaxData:
    """The game's data, loaded once per process (``simulate/pax_pamir/data/``)."""
    return load_dir(data_dir)
