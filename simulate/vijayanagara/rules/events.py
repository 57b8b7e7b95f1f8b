"""Executing an Event (2.3.4): the Event option of the Sequence of Play and the interpreter of
the event language (``shared/data/EVENTS_SCHEMA.md``; the ops themselves are in
``event_ops.py``).

The executing Faction picks a side (``event_side`` Decision: both sides are always offered,
2.3.4 "may select either the unshaded or shaded text"; a side with no effect does nothing),
the side's ops run in order "as much as possible",
and the card's Stay Eligible flag is recorded for Adjust Eligibility (2.3.7); ``eligibility``
ops set ``state.elig_next`` and override it.

The ``python`` op is the escape hatch: an effect registered by entry point in the group
``vijayanagara_sim.events`` (or by ``register_effect``), a callable
``(ctx, executor, params) -> None`` acting only through Decisions and the engine primitives.
Every ``python`` op of a deck is resolved the first time the deck is used (``enabled``), so a
missing effect is a one-line ``DataError`` naming the card. See ``docs/events.md``.
"""

from __future__ import annotations

from collections.abc import Iterator

from .context import Context
from .event_cards import ChooseOp, EventCard, EventDeck, PythonOp
from .event_ops import (
    effects_possible,
    op_possible,
    register_effect,
    resolve_effect,
    run_effects,
    run_op,
    unregister_effect,
)

__all__ = [
    "SIDES",
    "enabled",
    "event_card",
    "play_event",
    "register_effect",
    "resolve_effect",
    "run_effects",
    "run_op",
    "side_options",
    "op_possible",
    "effects_possible",
    "unregister_effect",
    "verify_deck",
]

SIDES = ("unshaded", "shaded")  # 2.3.4

# Decks already verified, by id, with their cards by the rules' card id (str of the number).
_DECKS: dict[int, tuple[EventDeck, dict[str, EventCard]]] = {}


def _python_ops(ops: tuple, path: str) -> Iterator[tuple[PythonOp, str]]:
    for i, op in enumerate(ops):
        if isinstance(op, PythonOp):
            yield op, f"{path}[{i}]"
        elif isinstance(op, ChooseOp):
            for j, option in enumerate(op.options):
                yield from _python_ops(option, f"{path}[{i}].options[{j}]")


def verify_deck(deck: EventDeck) -> dict[str, EventCard]:
    """Resolve every ``python`` effect of the deck (a one-line DataError names the first
    missing one and its card); returns the cards by id. Done once per deck."""
    entry = _DECKS.get(id(deck))
    if entry is not None and entry[0] is deck:
        return entry[1]
    for card in deck.events:
        for side in SIDES:
            for op, path in _python_ops(getattr(card, side).effects, f"{side}.effects"):
                resolve_effect(op.effect, f"{deck.source}: card {card.id}: {path}.effect")
    cards = {str(card.id): card for card in deck.events}
    _DECKS[id(deck)] = (deck, cards)
    return cards


def enabled(ctx: Context) -> bool:
    """The Event option exists when the rules carry an Event deck (2.3.3)."""
    deck = ctx.rules.deck
    if deck is None:
        return False
    verify_deck(deck)
    return True


def event_card(ctx: Context) -> EventCard:
    """The Event card in play."""
    return verify_deck(ctx.rules.deck)[ctx.rules.cards[ctx.state.card].id]


def side_options(ctx: Context, card: EventCard, executor: int) -> tuple[str, ...]:
    """Both sides, always (2.3.4: "The executing Faction may select either the unshaded or
    shaded text to carry out"): a side that can do nothing may still be taken, to close the
    fork to the Factions after it or, on a Stay Eligible card, to stay Eligible (2.3.3, 2.3.7)."""
    return SIDES


def play_event(ctx: Context, f: int) -> str:
    """Faction ``f`` executes the current card's Event (2.3.4): it picks a side, the side's
    effects run, and a Stay Eligible card keeps it Eligible (2.3.7). Returns the action
    recorded: ``"event_unshaded"`` or ``"event_shaded"``."""
    card = event_card(ctx)
    side = ctx.ask(f, "event_side", side_options(ctx, card, f), card.id)
    run_effects(ctx, getattr(card, side).effects, f)
    if card.stay_eligible:
        ctx.state.stay |= 1 << f
    return f"event_{side}"
