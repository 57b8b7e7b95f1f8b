"""Reading an Event file: stages 2 and 3 of loading (meaning and deck checks), and the
one-line error messages (``FILE: card ID: FIELD.PATH: problem``).

The card models and stage 1 (shape) are in ``event_cards``; see its docstring for the stages.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from simulate.vijayanagara.rules.datafiles import DataError, read_yaml
from simulate.vijayanagara.rules.event_cards import (
    COMMANDS,
    DECREES,
    EVENT_COUNT,
    GENERIC_PIECES,
    LASTING_FACTIONS,
    MAX_LASTING_CARDS,
    MONGOL_COUNT,
    PIECE_OWNER,
    STATEFUL_UNITS,
    STRUCTURES,
    TAGS,
    UNITS,
    ChooseOp,
    ChooseSelector,
    EventCard,
    EventDeck,
    EventFile,
    FlipOp,
    FreeCommandOp,
    FreeDecreeOp,
    LastingOp,
    MoveOp,
    PlaceOp,
    RemoveOp,
    ReplacementPiece,
    ReplaceOp,
    SetIndependentOp,
    SetTributaryOp,
    SpaceSelector,
    SpacesSelector,
)

# --- loading -----------------------------------------------------------------------------


def load_deck(path: Path, spaces: Mapping[str, str]) -> EventDeck:
    """Read, validate and freeze `events.yaml`; `spaces` maps space name to kind (schema 7)."""
    path = Path(path)
    data = read_yaml(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return validate_deck_dict(data, str(path), spaces, path=path, digest=digest)


def validate_deck_dict(
    data: Any,
    source: str,
    spaces: Mapping[str, str],
    *,
    path: Path | None = None,
    digest: str | None = None,
) -> EventDeck:
    """Validate an in-memory deck mapping (e.g. a variant's); errors name `source`."""
    if not isinstance(data, dict):
        raise DataError(f"{source}: expected a mapping at the top level")
    try:
        parsed = EventFile.model_validate(data, context={"spaces": spaces})
    except ValidationError as exc:
        raise _data_error(exc, data, source) from None
    try:
        _check_deck(parsed, spaces)
    except _Reject as rej:
        raise DataError(_line(source, rej.card, rej.path, rej.message)) from None
    if digest is None:
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()
    return EventDeck(
        meta=copy.deepcopy(parsed.meta),
        events=parsed.events,
        mongol_invasions=parsed.mongol_invasions,
        path=path,
        digest=digest,
        source=source,
    )


# --- error messages ----------------------------------------------------------------------


class _Reject(Exception):
    """A meaning check failed at `path` of card `card` (stage 2 and 3)."""

    def __init__(self, path: str, message: str, card: str | None = None) -> None:
        super().__init__(message)
        self.path, self.message, self.card = path, message, card


def _line(source: str, card: str | None, path: str, message: str) -> str:
    """`SOURCE: card ID: PATH: message`, on one line."""
    parts = [source] + ([card] if card else []) + ([path] if path else []) + [message]
    return " ".join(": ".join(parts).split())


def _show(value: Any) -> str:
    """A short repr of an offending value."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _join_path(loc: list[str | int]) -> str:
    """`("shaded", "effects", 1, "where")` -> `shaded.effects[1].where`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _card_label(data: dict, section: str, index: int) -> str:
    """`card 12` / `card M3` from the raw card, else `events[11]`."""
    cards = data.get(section)
    raw = cards[index] if isinstance(cards, list) and index < len(cards) else None
    card_id = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(card_id, str | int) and not isinstance(card_id, bool):
        return f"card {card_id}"
    return f"{section}[{index}]"


_CUSTOM = frozenset({"unknown_space", "zero", "repeat", "order", "scalar"})
_MESSAGES = {
    "missing": "required field missing",
    "extra_forbidden": "unknown field",
    "model_type": "must be a mapping, got {input}",
    "model_attributes_type": "must be a mapping, got {input}",
    "dict_type": "must be a mapping, got {input}",
    "tuple_type": "must be a list, got {input}",
    "list_type": "must be a list, got {input}",
    "too_short": "must have at least {min_length} item(s), got {actual_length}",
    "too_long": "must have at most {max_length} item(s), got {actual_length}",
    "string_too_short": "must not be empty",
    "string_pattern_mismatch": "must match {pattern}, got {input}",
}


def _message(err: dict, loc: list[str | int]) -> str:
    """One pydantic error as a short message; may extend `loc` (unknown/missing op)."""
    kind, value = err["type"], err.get("input")
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return _tag_message(err["ctx"]["discriminator"], value, loc)
    if kind in _MESSAGES:
        return _MESSAGES[kind].format(**err.get("ctx", {}), input=_show(value))
    message = err["msg"].replace("Input should be", "must be")
    if kind in _CUSTOM or isinstance(value, dict | list | tuple):
        return message
    return f"{message}, got {_show(value)}"


def _tag_message(discriminator: str, value: Any, loc: list[str | int]) -> str:
    """A selector without its form key, or an op with a missing or unknown `op`."""
    if discriminator.startswith("selector_form"):
        return "must be a selector: {space: NAME}, {spaces: [...]} or {choose: N, ...}"
    if not isinstance(value, dict):
        return f"must be a mapping with an op key, got {_show(value)}"
    loc.append("op")
    return f"unknown op {_show(value['op'])}" if "op" in value else "required field missing"


def _data_error(exc: ValidationError, data: dict, source: str) -> DataError:
    """The first pydantic error as `SOURCE: card ID: PATH: message` (schema 7)."""
    err = exc.errors(include_url=False)[0]
    loc = [part for part in err["loc"] if part not in TAGS and part != "[key]"]
    message = _message(err, loc)
    card = None
    if len(loc) >= 2 and loc[0] in ("events", "mongol_invasions") and isinstance(loc[1], int):
        card, loc = _card_label(data, loc[0], loc[1]), loc[2:]
    return DataError(_line(source, card, _join_path(loc), message))


# --- stage 3: the deck (schema 2, 3, 6.16, 7) ---------------------------------------------


def _check_deck(deck: EventFile, spaces: Mapping[str, str]) -> None:
    """Counts, unique ids and titles, each card's meaning, the lasting limit."""
    _check_count("events", len(deck.events), EVENT_COUNT)
    _check_count("mongol_invasions", len(deck.mongol_invasions), MONGOL_COUNT)
    _check_unique(deck, "id")
    _check_unique(deck, "title")
    for card in deck.events:
        try:
            _check_card(card, spaces)
        except _Reject as rej:
            rej.card = f"card {card.id}"
            raise
    _check_lasting_limit(deck.events)


def _check_count(section: str, found: int, expected: int) -> None:
    """The deck has exactly 36 Events and 8 Mongol Invasion cards (rule 2.1)."""
    if found != expected:
        raise _Reject(section, f"expected {expected} cards, found {found}")


def _check_unique(deck: EventFile, field: str) -> None:
    """No two cards share `field` (schema 2, 3)."""
    seen: dict[Any, str] = {}
    for section in ("events", "mongol_invasions"):
        for index, card in enumerate(getattr(deck, section)):
            value = getattr(card, field)
            if value in seen:
                message = f"repeated {field} {_show(value)} (also {seen[value]})"
                raise _Reject(field, message, f"card {card.id}")
            seen[value] = f"card {card.id} at {section}[{index}]"


def _check_lasting_limit(events: tuple[EventCard, ...]) -> None:
    """At most 4 cards contain a `lasting` op (schema 6.16)."""
    with_lasting = [card for card in events if card.has_lasting]
    if len(with_lasting) > MAX_LASTING_CARDS:
        card = with_lasting[MAX_LASTING_CARDS]
        side, index = next(_lasting_ops(card))
        earlier = ", ".join(str(c.id) for c in with_lasting[:MAX_LASTING_CARDS])
        raise _Reject(
            f"{side}.effects[{index}]",
            f"more than {MAX_LASTING_CARDS} cards with a lasting op (also cards {earlier})",
            f"card {card.id}",
        )


def _lasting_ops(card: EventCard) -> Iterator[tuple[str, int]]:
    """(side, index) of each top-level `lasting` op of the card."""
    for side in ("unshaded", "shaded"):
        for index, op in enumerate(getattr(card, side).effects):
            if isinstance(op, LastingOp):
                yield side, index


# --- stage 2: one card's meaning (schema 4.5, 5, 6, 7) ------------------------------------


def _check_card(card: EventCard, spaces: Mapping[str, str]) -> None:
    """Every op of both sides."""
    for side in ("unshaded", "shaded"):
        _check_effects(getattr(card, side).effects, f"{side}.effects", spaces, in_choose=False)


def _check_effects(ops: tuple, path: str, spaces: Mapping[str, str], in_choose: bool) -> None:
    """Each op of an effects list, in order."""
    for index, op in enumerate(ops):
        _check_op(op, f"{path}[{index}]", spaces, in_choose)


def _check_op(op: Any, path: str, spaces: Mapping[str, str], in_choose: bool) -> None:
    """Dispatch one op to its checks."""
    if isinstance(op, ChooseOp | LastingOp) and in_choose:
        raise _Reject(f"{path}.op", f"{op.op} is not allowed inside a choose option (schema 6.15)")
    check = _OP_CHECKS.get(type(op))
    if check is not None:
        check(op, path, spaces)


def _check_place(op: PlaceOp, path: str, spaces: Mapping[str, str]) -> None:
    """Place: a specific piece of the faction, where it can be (schema 6.4, 4.5)."""
    _check_piece(op.faction, op.piece, path)
    _require_specific(op.piece, path)
    _check_state(op, path)
    _check_selector(op.where, f"{path}.where", spaces)
    _check_piece_location(op.faction, op.piece, op.where, f"{path}.where", spaces)


def _check_remove(op: RemoveOp, path: str, spaces: Mapping[str, str]) -> None:
    """Remove: a piece word of the faction, where it can be (schema 6.5, 4.5)."""
    _check_piece(op.faction, op.piece, path)
    _check_selector(op.where, f"{path}.where", spaces)
    _check_piece_location(op.faction, op.piece, op.where, f"{path}.where", spaces)


def _check_replace(op: ReplaceOp, path: str, spaces: Mapping[str, str]) -> None:
    """Replace: two different factions, both pieces possible there (schema 6.6)."""
    _check_piece(op.remove.faction, op.remove.piece, f"{path}.remove")
    _check_piece(op.place.faction, op.place.piece, f"{path}.place")
    _require_specific(op.place.piece, f"{path}.place")
    _check_state(op.place, f"{path}.place")
    if op.place.faction == op.remove.faction:
        raise _Reject(f"{path}.place.faction", "must differ from remove.faction (schema 6.6)")
    _check_selector(op.where, f"{path}.where", spaces)
    for ref in (op.remove, op.place):
        _check_piece_location(ref.faction, ref.piece, op.where, f"{path}.where", spaces)


def _check_move(op: MoveOp, path: str, spaces: Mapping[str, str]) -> None:
    """Move: Units only, into exactly one space (schema 6.7, rule 1.4.2)."""
    _check_piece(op.faction, op.piece, path)
    if op.piece not in UNITS and op.piece != "unit":
        raise _Reject(f"{path}.piece", f"only Units move, not {op.piece!r} (1.4.2)")
    _check_single_destination(op.to, f"{path}.to")
    for name, sel in (("from", op.from_), ("to", op.to)):
        _check_selector(sel, f"{path}.{name}", spaces)
        _check_piece_location(op.faction, op.piece, sel, f"{path}.{name}", spaces)


def _check_provinces_only(
    op: FlipOp | SetTributaryOp | SetIndependentOp, path: str, spaces: Mapping[str, str]
) -> None:
    """flip, set_tributary, set_independent act on Provinces only (schema 6.8-6.10)."""
    _check_selector(op.where, f"{path}.where", spaces)
    _check_kinds(op.where, f"{path}.where", spaces, {"province"}, f"{op.op} acts on Provinces only")


def _check_free_command(op: FreeCommandOp, path: str, spaces: Mapping[str, str]) -> None:
    """A Command the Faction has; BK/VE select Provinces only (schema 6.11, rule 3.1.1)."""
    if op.command not in COMMANDS[op.faction]:
        known = ", ".join(COMMANDS[op.faction])
        raise _Reject(f"{path}.command", f"{op.command!r} is not a {op.faction} Command ({known})")
    if op.where is None:
        return
    _check_selector(op.where, f"{path}.where", spaces)
    if op.faction in ("BK", "VE"):
        reason = f"{op.faction} Commands select Provinces only (3.1.1)"
        _check_kinds(op.where, f"{path}.where", spaces, {"province"}, reason)


def _check_free_decree(op: FreeDecreeOp, path: str, spaces: Mapping[str, str]) -> None:
    """A Decree the Faction has (schema 6.12, rule 4.x)."""
    if op.decree not in DECREES[op.faction]:
        known = ", ".join(DECREES[op.faction])
        raise _Reject(f"{path}.decree", f"{op.decree!r} is not a {op.faction} Decree ({known})")


def _check_lasting(op: LastingOp, path: str, spaces: Mapping[str, str]) -> None:
    """The `faction` the modifier's row allows (schema 6.16)."""
    allowed = LASTING_FACTIONS[op.modifier]
    if op.faction not in allowed:
        explicit = "/".join(f for f in allowed if f is not None)
        words = f"omitted or {explicit}" if None in allowed else explicit
        got = "omitted" if op.faction is None else repr(op.faction)
        raise _Reject(f"{path}.faction", f"{op.modifier} takes faction {words}, got {got}")


def _check_choose_op(op: ChooseOp, path: str, spaces: Mapping[str, str]) -> None:
    """Each option like an effects list, without choose or lasting (schema 6.15)."""
    for index, option in enumerate(op.options):
        _check_effects(option, f"{path}.options[{index}]", spaces, in_choose=True)


_OP_CHECKS: dict[type, Any] = {
    PlaceOp: _check_place,
    RemoveOp: _check_remove,
    ReplaceOp: _check_replace,
    MoveOp: _check_move,
    FlipOp: _check_provinces_only,
    SetTributaryOp: _check_provinces_only,
    SetIndependentOp: _check_provinces_only,
    FreeCommandOp: _check_free_command,
    FreeDecreeOp: _check_free_decree,
    LastingOp: _check_lasting,
    ChooseOp: _check_choose_op,
}


# --- pieces and selectors ----------------------------------------------------------------


def _check_piece(faction: str, piece: str, path: str) -> None:
    """The piece word belongs to the faction; `executor` takes generic words (schema 5.2)."""
    if faction == "executor":
        if piece not in GENERIC_PIECES:
            raise _Reject(
                f"{path}.piece",
                f"faction executor allows only unit, structure or any, not {piece!r}",
            )
    elif piece == "structure" and faction == "MI":
        raise _Reject(f"{path}.piece", "MI has no Structures")
    elif piece not in GENERIC_PIECES and PIECE_OWNER[piece] != faction:
        raise _Reject(f"{path}.piece", f"{piece!r} is not a {faction} piece")


def _require_specific(piece: str, path: str) -> None:
    """Placed pieces are named exactly (schema 6.4, 6.6)."""
    if piece in GENERIC_PIECES:
        raise _Reject(f"{path}.piece", f"must be a specific piece, not {piece!r}")


def _check_state(model: PlaceOp | ReplacementPiece, path: str) -> None:
    """`state` only on Amirs and Rajas (schema 6.4, 6.6, rule 1.4.5)."""
    if "state" in model.model_fields_set and model.piece not in STATEFUL_UNITS:
        raise _Reject(f"{path}.state", f"only amir and raja have a state, not {model.piece!r}")


def _check_single_destination(sel: Any, path: str) -> None:
    """A move's `to` yields exactly one space (schema 6.7)."""
    if isinstance(sel, SpacesSelector) and len(sel.spaces) != 1:
        raise _Reject(f"{path}.spaces", "a move goes to exactly one space")
    if isinstance(sel, ChooseSelector):
        if sel.choose != 1:
            raise _Reject(f"{path}.choose", "a move goes to exactly one space: choose must be 1")
        if sel.up_to:
            raise _Reject(f"{path}.up_to", "a move goes to exactly one space: up_to not allowed")


def _check_selector(sel: Any, path: str, spaces: Mapping[str, str]) -> None:
    """The piece words of a `choose` filter (schema 5.1, 5.2)."""
    if isinstance(sel, ChooseSelector) and sel.filter is not None:
        for key in ("has", "lacks"):
            ref = getattr(sel.filter, key)
            if ref is not None:
                _check_piece(ref.faction, ref.piece, f"{path}.filter.{key}")


def _allowed_kinds(faction: str, piece: str) -> tuple[frozenset[str] | None, str]:
    """Space kinds where the piece can ever be, and why; None: anywhere (schema 4.5)."""
    if piece in STRUCTURES or piece == "structure":
        return frozenset({"province"}), "Structures only in Provinces (1.4.2, schema 4.5)"
    owner = PIECE_OWNER.get(piece, faction)
    if owner in ("BK", "VE"):
        return frozenset({"province"}), f"{owner} pieces only in Provinces (1.3.1-1.3.3)"
    if owner == "MI":
        return frozenset(
            {"delhi", "mongol_region"}
        ), "Mongol Invaders only in Delhi, Mountain Passes, Punjab (1.3.2)"
    return None, ""


def _check_piece_location(
    faction: str, piece: str, sel: Any, path: str, spaces: Mapping[str, str]
) -> None:
    """A fixed selector names no space where the piece can never be (schema 4.5, 7)."""
    kinds, reason = _allowed_kinds(faction, piece)
    if kinds is not None:
        _check_kinds(sel, path, spaces, kinds, reason)


def _check_kinds(
    sel: Any, path: str, spaces: Mapping[str, str], kinds: set | frozenset, reason: str
) -> None:
    """Every space of a fixed selector has one of `kinds`."""
    for sub_path, name in _fixed_entries(sel, path):
        if spaces.get(name) not in kinds:
            raise _Reject(sub_path, f"{name!r} not allowed: {reason}")


def _fixed_entries(sel: Any, path: str) -> list[tuple[str, str]]:
    """(path, name) of each space a fixed selector names; none for `choose`."""
    if isinstance(sel, SpaceSelector):
        return [(f"{path}.space", sel.space)]
    if isinstance(sel, SpacesSelector):
        return [(f"{path}.spaces[{i}]", name) for i, name in enumerate(sel.spaces)]
    return []
