"""Wakhan, the automated opponent (RB p16-18 Playing with Wakhan), as pure functions over
``State``; this package re-exports the public API of its modules.

Wakhan's rupees, hand, court, gifts ("on her aid card"), prizes, tribes and spies live in the
shared ``State`` as any player's, and ``State.wakhan`` names her seat (``setup_changes`` and
``new_game`` set it): ``ruling`` and ``dominance`` then apply the rules where she is "loyal to
all coalitions" (RB p16 ruling, RB p18 scoring) for every caller. ``WakhanState`` keeps only her
AI deck and its discard pile (the face-up card on top). ``take_turn`` performs her whole turn
(RB p17 Wakhan's Turn) with the existing rule functions; the engine still does the turn's
general cleanup and the turn passing, calling ``wakhan_cleanup`` (RB p18 Cleanup: her discard
order) instead of ``cleanup.cleanup`` for her seat.

Her "pragmatic loyalty" (RB p16) is kept in ``state.loyalty[wakhan]`` so that ``play``,
``actions.build`` and ``military`` place, move and battle with it; her patriots and prizes
of any coalition are ``wakhan_play`` and ``wakhan_betray``. The choices the other players make
while she acts (waiving bribes, naming cards to repay a leveraged card, resolving an event she
buys) come from a ``Humans`` the caller may pass. Readings of open text:
``docs/pax-pamir-wakhan.md``.

Modules: ``deck`` (her AI deck, its arrows, region priority, pragmatic loyalty),
``priorities`` (card priority, her choices), ``humans`` (the other players' choices),
``records`` (her turn's record), ``play`` (buying and playing a card), ``radicalize`` (which
card she buys), ``frame`` (one turn's bookkeeping and the RB p12 frame), ``events`` (an event
she buys), ``actions`` (tax, gift, build), ``military`` (betray, battle, move), ``turn`` (her
turn), ``cleanup`` (leverage grace, her discards), ``setup`` (a game against her) and
``aliases`` (the former names of ruling and scoring with her).
"""

from __future__ import annotations

from .. import actions as A
from .. import dominance as D
from .. import events as E
from .. import market as M
from .. import military as X
from .. import play as P
from .aliases import (
    bribe_with_wakhan,
    dominance_check,
    resolve_dominance,
    ruled_by,
    ruler_with_wakhan,
    rulers_with_wakhan,
    ruling_pieces_with,
    wakhan_demand,
    wakhan_influence,
    wakhan_ruling_pieces,
)
from .cleanup import (
    cleanup_discards,
    discard_key,
    discard_wakhan_card,
    forgive,
    leverage_grace,
    wakhan_cleanup,
)
from .deck import (
    BOTTOM,
    TOP,
    WakhanState,
    black_column,
    draw,
    new_wakhan,
    pragmatic_loyalty,
    red_row,
    red_targets,
    region_priority,
    revealed,
    sync_loyalty,
    upcoming,
)
from .events import event_picks, wakhan_pick
from .humans import Humans
from .military import battle_plan, betray_choice, card_battle_targets, move_steps, wakhan_betray
from .play import road_choices, spy_choices, take_from, wakhan_play
from .priorities import (
    always_uses_may_abilities,
    by_priority,
    card_priority,
    choose_card,
    choose_player,
    choose_region,
    choose_suit,
)
from .radicalize import (
    ambition,
    arrow_choice,
    dominance_market_choice,
    radicalize_choice,
    would_win_check,
)
from .records import Record, card_name
from .setup import WAKHAN, new_game, setup_changes
from .turn import take_turn

__all__ = [
    "BOTTOM",
    "TOP",
    "WAKHAN",
    "A",
    "D",
    "E",
    "M",
    "P",
    "X",
    "Humans",
    "Record",
    "WakhanState",
    "always_uses_may_abilities",
    "ambition",
    "arrow_choice",
    "battle_plan",
    "betray_choice",
    "black_column",
    "bribe_with_wakhan",
    "by_priority",
    "card_battle_targets",
    "card_name",
    "card_priority",
    "choose_card",
    "choose_player",
    "choose_region",
    "choose_suit",
    "cleanup_discards",
    "discard_key",
    "discard_wakhan_card",
    "dominance_check",
    "dominance_market_choice",
    "draw",
    "event_picks",
    "forgive",
    "leverage_grace",
    "move_steps",
    "new_game",
    "new_wakhan",
    "pragmatic_loyalty",
    "radicalize_choice",
    "red_row",
    "red_targets",
    "region_priority",
    "resolve_dominance",
    "revealed",
    "road_choices",
    "ruled_by",
    "ruler_with_wakhan",
    "rulers_with_wakhan",
    "ruling_pieces_with",
    "setup_changes",
    "spy_choices",
    "sync_loyalty",
    "take_from",
    "take_turn",
    "upcoming",
    "wakhan_betray",
    "wakhan_cleanup",
    "wakhan_demand",
    "wakhan_influence",
    "wakhan_pick",
    "wakhan_play",
    "wakhan_ruling_pieces",
    "would_win_check",
]
