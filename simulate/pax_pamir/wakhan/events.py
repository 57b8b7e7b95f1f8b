"""An event she buys (RB p10: resolved "the moment" it is bought) and her picks in it."""

from __future__ import annotations

from collections.abc import Sequence

from .. import dominance as D
from .. import events as E
from .. import market as M
from ..cards import PaxData
from ..state import State
from .cleanup import discard_key
from .deck import WakhanState
from .frame import WakhanTurn
from .humans import Humans
from .priorities import choose_player, choose_region, choose_suit
from .records import card_name


def resolve_bought(t: WakhanTurn, card: int) -> None:
    """An event she bought "is resolved the moment" it is bought (RB p10)."""
    data, state = t.data, t.state
    if t.humans.resolve_event is not None:
        t.over = bool(t.humans.resolve_event(card))
        t.record("event", f"{card_name(data, card)} resolved by the engine")
        return
    state.discard.append(card)
    if M.is_dominance_check(data, card):
        result = D.resolve(data, state)
        t.record("dominance", f"check: points {list(result.awarded)}, dominant {result.dominant}")
        if result.game_over:
            t.over = True
            t.record("game_over", f"winner {result.winner}")
    else:
        state.discard.pop()  # ``events.resolve`` files the card itself
        picks = event_picks(data, state, t.wakhan, t.player, card, t.humans)
        E.resolve(data, state, t.player, card, True, picks)
        t.record("event", f"{card_name(data, card)}: picks {picks}")


def wakhan_pick(
    data: PaxData, state: State, wakhan: WakhanState, player: int, kind: str, options: Sequence[int]
) -> int:
    """Her pick for an event's choice (``events.choices`` kinds): a suit is "the current
    favored suit" (RB p16); readings: a player by ``choose_player``, a region by
    ``choose_region``, a hand discard by her cleanup order (``discard_key``), else the first
    option."""
    if kind == "favored_suit" and choose_suit(state) in options:
        return choose_suit(state)
    if kind in ("rumor_target", "swap_with"):
        target = choose_player(data, state, wakhan, player)
        return target if target in options else options[0]
    if kind == "region":
        region = choose_region(data, state, wakhan, player)
        return region if region in options else options[0]
    if kind == "discard" and all(c < len(data.court) for c in options):
        return min(options, key=lambda c: discard_key(data, state, player, c))
    return options[0]


def event_picks(
    data: PaxData, state: State, wakhan: WakhanState, player: int, card: int, humans: Humans
) -> list[int]:
    """The picks ``events.resolve`` needs for an event she bought: hers by ``wakhan_pick``,
    the other players' by ``Humans.choose`` (default: the first option)."""
    picks: list[int] = []
    while True:
        needed = E.choices(data, state, player, card, True, picks)
        if len(needed) <= len(picks):
            return picks
        who, kind, options = needed[len(picks)]
        if who == player:
            picks.append(wakhan_pick(data, state, wakhan, player, kind, options))
        elif humans.choose is not None:
            picks.append(humans.choose(who, kind, options))
        else:
            picks.append(options[0])
