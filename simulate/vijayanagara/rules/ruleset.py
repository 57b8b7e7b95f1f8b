"""Compiled Rules: the data files (plus a variant overlay) validated once and turned into
fast, immutable structures the engine reads (DESIGN: data flow)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import pieces as P
from .board import DELHI, MONGOL_REGION, PROVINCE, Board
from .datafiles import DataError, load_raw, read_yaml

EVENT, MONGOL_CARD, SUCCESSION, TIMURID = "event", "mongol", "succession", "timurid"
SUCCESSION_IDS = ("zenith", "rise", "lords")  # 2.5.1-2.5.3, always in this order
MAX_SPACES = 62  # spaces a map may have: a set of spaces is one 64-bit C integer (compiled)


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the deck: an Event (2.3), Mongol Invasion (2.4), Succession (2.5) or Timurid (2.6)."""

    id: str
    kind: str
    title: str
    order: tuple[int, ...] = ()  # Faction order (2.3.2), Events only
    stay_eligible: bool = False  # 2.3.4
    faction: int = -1  # the Faction named on a Mongol Invasion card (2.4)


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to play, compiled from the data files and a variant."""

    variant: str
    board: Board
    totals: tuple[int, ...]  # by piece type (1.4)
    factions: dict[str, Any]
    setup_pieces: tuple[int, ...]  # flat space x counter
    setup_available: tuple[int, ...]
    setup_slots: tuple[tuple[int, ...], ...]  # units on each Influence level, by faction (1.9)
    setup_resources: tuple[int, int, int]
    setup_cavalry: tuple[int, int, int]
    setup_influence: tuple[int, int, int]
    setup_eligible: tuple[bool, bool, bool]
    setup_dynasty: int  # 0 Khalji, 1 Tughlaq (2.7)
    events_per_stack: int
    stacks: tuple[dict, ...]
    cards: tuple[Card, ...]
    event_cards: tuple[int, ...]  # indices into cards
    mongol_cards: tuple[int, ...]
    succession_cards: dict[str, int]
    timurid_cards: tuple[int, int]
    resources_max: int
    influence_max: int
    cavalry_pool: int
    pass_income: tuple[int, int, int]
    combat: dict[str, int]
    mongols: dict[str, Any]
    decrees: dict[str, Any]
    succession: dict[str, int]
    victory: dict[str, int]
    timurs_shadow: bool
    readings: dict[str, bool]  # rules.yaml `readings`: the other reading where true
    mountain_passes: int
    punjab: int
    delhi: int
    rally_home: tuple[int, int, int]  # by faction; -1 for DS
    provisional: dict[str, bool]
    data_digests: dict[str, str]
    deck: Any = None  # the validated Event deck (event_cards.EventDeck), when loaded
    content: dict = field(default_factory=dict)  # the merged raw data, for manifests


def _fail(file: str, where: str, message: str) -> DataError:
    return DataError(f"{file}: {where}: {message}")


def compile_board(raw_map: dict, source: str = "map.yaml") -> Board:
    """Validate map.yaml (Prosperity total, symmetry, confirmed non-adjacencies) and compile it;
    errors name ``source`` (the variant file whose ``[map]`` overlay made the map, if any)."""
    f = source
    spaces = raw_map.get("spaces")
    if not isinstance(spaces, list) or not spaces:
        raise _fail(f, "spaces", "expected a list of spaces")
    if len(spaces) > MAX_SPACES:
        # the compiled engine keeps a set of spaces as the bits of one C integer (ready_mask)
        raise _fail(f, "spaces", f"{len(spaces)} spaces: the engine takes at most {MAX_SPACES}")
    names, kinds, prosperity, confidence = [], [], [], []
    for i, sp in enumerate(spaces):
        if not isinstance(sp, dict) or "name" not in sp or "kind" not in sp:
            raise _fail(f, f"spaces[{i}]", "each space needs a name and a kind")
        extra = set(sp) - {"name", "kind", "prosperity", "confidence"}
        if extra:
            raise _fail(f, f"spaces[{i}].{sorted(extra)[0]}", "unknown key")
        name, kind = sp["name"], sp["kind"]
        if name in names:
            raise _fail(f, f"spaces[{i}].name", f"repeated space {name!r}")
        if kind not in (PROVINCE, DELHI, MONGOL_REGION):
            raise _fail(f, f"spaces.{name}.kind", f"unknown kind {kind!r}")
        pr = sp.get("prosperity", 0)
        if kind == PROVINCE and pr not in (1, 2):
            raise _fail(
                f, f"spaces.{name}.prosperity", "a Province's Prosperity must be 1 or 2 (1.3.1)"
            )
        if kind != PROVINCE and pr:
            raise _fail(f, f"spaces.{name}.prosperity", "only Provinces have Prosperity (1.3.1)")
        names.append(name)
        kinds.append(kind)
        prosperity.append(int(pr))
        confidence.append(sp.get("confidence", "confirmed"))
    if kinds.count(DELHI) != 1 or kinds.count(MONGOL_REGION) != 2:
        raise _fail(
            f, "spaces", "the map needs one Delhi and two Mongol Invasion Regions (1.3.2, 1.3.3)"
        )
    total = raw_map.get("prosperity_total")
    if sum(prosperity) != total:
        raise _fail(
            f, "prosperity_total", f"Prosperity sums to {sum(prosperity)}, expected {total}"
        )
    n = len(names)
    adj = [set() for _ in range(n)]
    edge_conf = {}
    for i, edge in enumerate(raw_map.get("adjacent") or []):
        pair = edge.get("pair") if isinstance(edge, dict) else None
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail(f, f"adjacent[{i}].pair", "expected two space names")
        for name in pair:
            if name not in names:
                raise _fail(f, f"adjacent[{i}].pair", f"unknown space {name!r}")
        a, b = names.index(pair[0]), names.index(pair[1])
        if a == b:
            raise _fail(f, f"adjacent[{i}].pair", "a space is not adjacent to itself")
        adj[a].add(b)
        adj[b].add(a)
        edge_conf[tuple(sorted(pair))] = edge.get("confidence", "provisional")
    for i, edge in enumerate(raw_map.get("not_adjacent") or []):
        pair = edge.get("pair") if isinstance(edge, dict) else None
        if not isinstance(pair, list) or len(pair) != 2 or any(x not in names for x in pair):
            raise _fail(f, f"not_adjacent[{i}].pair", "expected two known space names")
        a, b = names.index(pair[0]), names.index(pair[1])
        if b in adj[a]:
            raise _fail(
                f,
                "adjacent",
                f"{pair[0]} and {pair[1]} are joined, but are confirmed not adjacent ({edge.get('rule', '1.3')})",
            )
    # symmetry holds by construction; check it anyway as the compiled structure is what plays
    for a in range(n):
        for b in adj[a]:
            if a not in adj[b]:
                raise _fail(f, "adjacent", f"{names[a]}-{names[b]} is not symmetric")
    adjacent = tuple(tuple(sorted(s)) for s in adj)
    masks = tuple(sum(1 << b for b in s) for s in adjacent)
    return Board(
        tuple(names), tuple(kinds), tuple(prosperity), adjacent, masks, tuple(confidence), edge_conf
    )


def _faction_map(
    file: str, where: str, value: Any, keys: tuple[str, ...], lo: int, hi: int
) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise _fail(file, where, "expected a mapping by Faction")
    out = []
    for k in value:
        if k not in keys:
            raise _fail(
                file, f"{where}.{k}", f"unknown Faction (expected one of {', '.join(keys)})"
            )
    for k in keys:
        v = value.get(k, 0)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise _fail(file, f"{where}.{k}", f"must be an integer {lo}..{hi}")
        out.append(v)
    return tuple(out)


def _compile_setup(raw: dict, board: Board, totals: tuple[int, ...], rules_raw: dict):
    f = "setup.yaml"
    setup = raw["setup"]
    pieces = [0] * (board.n * P.NK)
    on_map = [0] * len(P.PIECE_TYPES)
    for space, content in (setup.get("map") or {}).items():
        if space not in board.names:
            raise _fail(f, f"map.{space}", "unknown space")
        s = board.id(space)
        for piece, count in (content or {}).items():
            if piece not in P.PT_INDEX:
                raise _fail(f, f"map.{space}.{piece}", "unknown piece")
            if not isinstance(count, int) or count < 0:
                raise _fail(f, f"map.{space}.{piece}", "must be a non-negative integer")
            pt = P.PT_INDEX[piece]
            owner = P.PT_OWNER[pt]
            kind = board.kinds[s]
            if owner in (P.BK, P.VE) and kind != PROVINCE:
                raise _fail(
                    f,
                    f"map.{space}.{piece}",
                    "BK and VE pieces go only into Provinces (1.3.2, 1.3.3)",
                )
            if owner == P.MI and kind == PROVINCE:
                raise _fail(
                    f, f"map.{space}.{piece}", "Mongol Invaders never enter Provinces (1.3.1)"
                )
            if pt in (P.PT_QASBAH, P.PT_FORT, P.PT_TEMPLE) and count > 1:
                raise _fail(
                    f,
                    f"map.{space}.{piece}",
                    "at most one of each Faction's Structures per space (Key Terms: Stacking)",
                )
            counter = {P.PT_AMIR: P.AMIR_OB, P.PT_RAJA: P.RAJA_OB}.get(pt, P.COUNTER_TYPE.index(pt))
            pieces[s * P.NK + counter] += count
            on_map[pt] += count
    slots_raw = setup.get("influence_slots") or {}
    imax = rules_raw["tracks"]["influence_max"]
    slots = [tuple([0] * (imax + 1))]
    on_track = [0] * len(P.PIECE_TYPES)
    for fi, fname in ((P.BK, "BK"), (P.VE, "VE")):
        levels = [0] * (imax + 1)
        for level, count in (slots_raw.get(fname) or {}).items():
            if not isinstance(level, int) or not 1 <= level <= imax:
                raise _fail(f, f"influence_slots.{fname}.{level}", f"level must be 1..{imax}")
            if not isinstance(count, int) or count < 0:
                raise _fail(f, f"influence_slots.{fname}.{level}", "must be a non-negative integer")
            levels[level] = count
            on_track[P.UNIT_TYPE[fi]] += count
        slots.append(tuple(levels))
    available = [0] * len(P.PIECE_TYPES)
    for fname, content in (setup.get("available") or {}).items():
        if fname not in P.INDEX:
            raise _fail(f, f"available.{fname}", "unknown Faction")
        for piece, count in (content or {}).items():
            if piece not in P.PT_INDEX or P.NAMES[P.PT_OWNER[P.PT_INDEX[piece]]] != fname:
                raise _fail(f, f"available.{fname}.{piece}", f"not a piece of {fname}")
            if not isinstance(count, int) or count < 0:
                raise _fail(f, f"available.{fname}.{piece}", "must be a non-negative integer")
            available[P.PT_INDEX[piece]] = count
    for pt, name in enumerate(P.PIECE_TYPES):
        placed = on_map[pt] + on_track[pt] + available[pt]
        if placed != totals[pt]:
            raise _fail(
                f,
                f"available.{P.NAMES[P.PT_OWNER[pt]]}.{name}",
                f"map {on_map[pt]} + Influence track {on_track[pt]} + available {available[pt]} = {placed}, "
                f"but pieces.yaml has {totals[pt]} (1.4)",
            )
    rmax = rules_raw["tracks"]["resources_max"]
    resources = _faction_map(f, "resources", setup.get("resources"), ("DS", "BK", "VE"), 0, rmax)
    pool = rules_raw["tracks"]["cavalry_pool"]
    cavalry = _faction_map(f, "cavalry", setup.get("cavalry"), ("DS", "BK", "VE"), 0, pool)
    if sum(cavalry) > pool:
        raise _fail(
            f,
            "cavalry",
            f"Factions hold {sum(cavalry)} Cavalry, more than the {pool} tokens (1.10)",
        )
    infl = _faction_map(f, "influence", setup.get("influence"), ("BK", "VE"), 0, imax)
    eligible = setup.get("eligible", ["DS", "BK", "VE"])
    if not isinstance(eligible, list) or any(x not in ("DS", "BK", "VE") for x in eligible):
        raise _fail(f, "eligible", "expected a list of DS, BK, VE")
    dynasty = setup.get("dynasty", "khalji")
    if dynasty not in ("khalji", "tughlaq"):
        raise _fail(f, "dynasty", "must be khalji or tughlaq (2.7)")
    return (
        tuple(pieces),
        tuple(available),
        tuple(slots),
        resources,
        cavalry,
        (0, infl[0], infl[1]),
        tuple(n in eligible for n in ("DS", "BK", "VE")),
        0 if dynasty == "khalji" else 1,
    )


def _compile_cards(raw: dict, board: Board):
    """The deck's cards: Events and Mongol Invasion cards from the events file, plus the fixed
    Succession (2.5) and Timurid (2.6) cards."""
    from .event_deck import load_deck

    spaces = dict(zip(board.names, board.kinds, strict=True))
    deck = load_deck(Path(raw["events_path"]), spaces)
    removed = {str(x) for x in ((raw["setup"].get("deck") or {}).get("remove") or ())}
    cards: list[Card] = []
    for ev in deck.events:
        if str(ev.id) in removed:
            continue
        order = tuple(P.INDEX[x] for x in ev.order)
        cards.append(Card(str(ev.id), EVENT, ev.title, order, ev.stay_eligible))
    for mc in deck.mongol_invasions:
        cards.append(Card(mc.id, MONGOL_CARD, mc.title, faction=P.INDEX[mc.faction]))
    titles = {
        "zenith": "Zenith of the Delhi Sultanate",
        "rise": "Rise of the Rebel Sultans",
        "lords": "Lords of the Deccan",
    }
    for sid in SUCCESSION_IDS:
        cards.append(Card(sid, SUCCESSION, titles[sid]))
    cards.append(Card("T1", TIMURID, "Timurid Empire"))
    cards.append(Card("T2", TIMURID, "Timurid Empire"))
    return deck, tuple(cards)


def _digest_files(paths: list[Path]) -> dict[str, str]:
    out = {}
    for p in paths:
        try:
            out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
        except OSError:
            out[p.name] = "unreadable"
    return out


def compile_rules(raw: dict, variant: str = "base", map_source: str = "map.yaml") -> Rules:
    """Validate the merged raw data and build the immutable Rules."""
    board = compile_board(raw["map"], map_source)
    totals_raw = (raw["pieces"] or {}).get("pieces") or {}
    totals = []
    for name in P.PIECE_TYPES:
        entry = totals_raw.get(name)
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("total"), int)
            or not 0 <= entry["total"] <= P.MAX_TOTAL
        ):
            raise _fail(
                "pieces.yaml",
                f"pieces.{name}.total",
                f"missing or not an integer from 0 to {P.MAX_TOTAL}",
            )
        totals.append(entry["total"])
    rules_raw = raw["rules"]
    setup = _compile_setup(raw, board, tuple(totals), rules_raw)
    deck_raw = raw["setup"].get("deck") or {}
    stacks = tuple(deck_raw.get("stacks") or ())
    if len(stacks) != 4:
        raise _fail("setup.yaml", "deck.stacks", "the deck is built from four stacks (2.1)")
    deck, cards = _compile_cards(raw, board)
    idx = {c.id: i for i, c in enumerate(cards)}
    eps = deck_raw.get("events_per_stack", 6)
    n_events = sum(1 for c in cards if c.kind == EVENT)
    if not isinstance(eps, int) or eps < 1 or eps * 4 > n_events:
        raise _fail(
            "setup.yaml", "deck.events_per_stack", f"needs 4 x {eps} Events, deck has {n_events}"
        )
    n_mongol = sum(1 for c in cards if c.kind == MONGOL_CARD)
    if sum(s.get("mongol_invasions", 0) for s in stacks) > n_mongol:
        raise _fail(
            "setup.yaml", "deck.stacks", "more Mongol Invasion cards dealt than exist (2.1)"
        )
    factions = raw["factions"]
    rally_home = [-1, -1, -1]
    for f in (P.BK, P.VE):
        home = factions[P.NAMES[f]]["rally"]["home"]
        if home not in board.names or board.kinds[board.id(home)] != PROVINCE:
            raise _fail("factions.yaml", f"{P.NAMES[f]}.rally.home", f"unknown Province {home!r}")
        rally_home[f] = board.id(home)
    seq = rules_raw["sequence"]
    pass_income = _faction_map(
        "rules.yaml", "sequence.pass_income", seq["pass_income"], ("DS", "BK", "VE"), 0, 24
    )
    combat = dict(rules_raw["combat"])
    flags = rules_raw.get("flags") or {}
    events_path = Path(raw["events_path"])
    digests = _digest_files(
        [
            *(
                Path(__file__).resolve().parent.parent / "data" / f"{s}.yaml"
                for s in ("map", "pieces", "setup", "rules", "factions")
            ),
            events_path,
        ]
    )
    provisional = {
        "map_prosperity": any(c == "provisional" for c in board.confidence),
        "map_adjacency": any(c == "provisional" for c in board.edge_confidence.values()),
        "event_deck": bool(deck.provisional),
    }
    content = {k: v for k, v in raw.items() if k != "events_path"}
    content["events_path"] = str(events_path)
    return Rules(
        variant=variant,
        board=board,
        totals=tuple(totals),
        factions=factions,
        setup_pieces=setup[0],
        setup_available=setup[1],
        setup_slots=setup[2],
        setup_resources=setup[3],
        setup_cavalry=setup[4],
        setup_influence=setup[5],
        setup_eligible=setup[6],
        setup_dynasty=setup[7],
        events_per_stack=eps,
        stacks=stacks,
        cards=cards,
        event_cards=tuple(i for i, c in enumerate(cards) if c.kind == EVENT),
        mongol_cards=tuple(i for i, c in enumerate(cards) if c.kind == MONGOL_CARD),
        succession_cards={sid: idx[sid] for sid in SUCCESSION_IDS},
        timurid_cards=(idx["T1"], idx["T2"]),
        resources_max=rules_raw["tracks"]["resources_max"],
        influence_max=rules_raw["tracks"]["influence_max"],
        cavalry_pool=rules_raw["tracks"]["cavalry_pool"],
        pass_income=pass_income,
        combat=combat,
        mongols=dict(rules_raw["mongols"]),
        decrees=dict(rules_raw["decrees"]),
        succession=dict(rules_raw["succession"]),
        victory=dict(rules_raw["victory"]),
        timurs_shadow=bool(flags.get("timurs_shadow", False)),
        readings={k: bool(v) for k, v in (rules_raw.get("readings") or {}).items()},
        mountain_passes=board.id("Mountain Passes"),
        punjab=board.id("Punjab"),
        delhi=board.delhi,
        rally_home=tuple(rally_home),
        provisional=provisional,
        data_digests=digests,
        deck=deck,
        content=content,
    )


@lru_cache(maxsize=16)
def _load_cached(key: str) -> Rules:
    from simulate.vijayanagara.variants import apply_variant, load_variant

    variant = load_variant(None if key == "base" else key)
    raw = apply_variant(load_raw(), variant)
    return compile_rules(raw, variant.name, _map_source(variant))


def _map_source(variant: Any) -> str:
    """Who to name in a map error: the variant's file when its ``[map]`` overlay is involved."""
    if not (variant.content or {}).get("map"):
        return "map.yaml"
    where = str(variant.path) if variant.path is not None else f"variant {variant.name!r}"
    return f"{where} ([map] over map.yaml)"


def load_rules(variant: Any = None) -> Rules:
    """The compiled Rules for a variant (None/"base", a built-in name, a path, or a Variant)."""
    if isinstance(variant, Rules):
        return variant
    if variant is None:
        return _load_cached("base")
    if isinstance(variant, (str, Path)):
        return _load_cached(str(variant))
    # a Variant object
    from simulate.vijayanagara.variants import apply_variant

    return compile_rules(apply_variant(load_raw(), variant), variant.name, _map_source(variant))


def rules_digest(rules: Rules) -> str:
    """A stable digest of the compiled content (data + variant), for manifests."""
    blob = json.dumps(rules.content, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()


__all__ = ["Card", "Rules", "compile_rules", "load_rules", "read_yaml", "rules_digest"]
