"""The game's chance as a search sees it: which card can come next and with what probability,
given only what is public (2.1, 2.3), and dice asked one at a time (1.10).

The deck is dealt in four stacks (2.1): a stack's unseen Events, Invasion and Timurid cards
lie in a uniformly random order, and the unseen cards of a kind are exchangeable, so the next
card is of a kind in proportion to that kind's count left in the stack, and then any unseen
card of that kind alike. A Succession card is certain where it lies.
"""

from __future__ import annotations

from collections.abc import Callable

from simulate.vijayanagara.rules.context import Context
from simulate.vijayanagara.rules.ruleset import EVENT, MONGOL_CARD, TIMURID, Rules

FACES = 6  # a die's outcomes 0..5 stand for 1..6


def stacks(rules: Rules) -> list[tuple[int, int, str | None]]:
    """Each stack's deck positions [start, end) and the Succession card after it (2.1)."""
    out = []
    at = 0
    for spec in rules.stacks:
        size = rules.events_per_stack + spec.get("mongol_invasions", 0) + spec.get("timurid", 0)
        then = spec.get("then")
        out.append((at, at + size, then))
        at += size + (1 if then else 0)
    return out


def card_outcomes(rules: Rules, deck: tuple[int, ...], pos: int) -> tuple[tuple[int, float], ...]:
    """The cards that can be drawn at deck position ``pos`` with their probabilities, by card
    index, from the cards shown in ``deck[:pos]`` alone (never the rest of ``deck``)."""
    key = (id(rules), deck[:pos])
    hit = _OUTCOMES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    out = _card_outcomes(rules, deck, pos)
    if len(_OUTCOMES) >= 4096:
        _OUTCOMES.clear()
    _OUTCOMES[key] = (rules, out)
    return out


_OUTCOMES: dict[tuple, tuple] = {}  # searches draw from the same public deck again and again


def _card_outcomes(rules: Rules, deck: tuple[int, ...], pos: int) -> tuple:
    for (start, end, then), spec in zip(stacks(rules), rules.stacks, strict=True):
        if start <= pos < end:
            return _stack_outcomes(rules, deck, pos, start, spec)
        if pos == end and then:
            return ((rules.succession_cards[then], 1.0),)
    raise ValueError(f"no card to draw at deck position {pos} (the deck has {len(deck)})")


def _stack_outcomes(rules: Rules, deck: tuple, pos: int, start: int, spec: dict) -> tuple:
    cards = rules.cards
    seen = set(deck[:pos])
    shown = [cards[i].kind for i in deck[start:pos]]
    kinds = (
        (EVENT, rules.events_per_stack, rules.event_cards),
        (MONGOL_CARD, spec.get("mongol_invasions", 0), rules.mongol_cards),
        (TIMURID, spec.get("timurid", 0), rules.timurid_cards),
    )
    left = [
        (dealt - shown.count(kind), [i for i in pool if i not in seen])
        for kind, dealt, pool in kinds
    ]
    total = sum(n for n, _ in left)
    out = []
    for n, unseen in left:
        if n > 0:
            out += [(i, n / total / len(unseen)) for i in unseen]
    return tuple(sorted(out))


def with_drawn(deck: tuple[int, ...], pos: int, card: int) -> tuple[int, ...]:
    """``deck`` with ``card`` at ``pos``: swapped with its place further down, or put in the
    place of the card there when it was not dealt. Only ``deck[:pos + 1]`` means anything."""
    out = list(deck)
    if card in out[pos:]:
        j = out.index(card, pos)
        out[j] = out[pos]
    out[pos] = card
    return tuple(out)


class ChanceContext(Context):
    """A Context whose dice come one at a time from ``roll_die(battle)`` (a chance node: a
    face 1..6). ``battle`` names the battle as the game's own dice key it (``dice.BattleDice``):
    (card position, space, attacker, defender, battles those sides fought there on this
    card), so a caller can feed the faces a seeded game would roll."""

    __slots__ = ("roll_die", "fought")

    def battle_dice(self, space: int, attacker: int, defender: int) -> tuple:
        where = (self.state.pos, space, attacker, defender)
        k = self.fought.get(where, 0)
        self.fought[where] = k + 1
        return (*where, k)

    def roll(self, n: int, dice: object = None) -> list[int]:
        roll_die: Callable[[object], int] = self.roll_die
        return [roll_die(dice) for _ in range(n)]
