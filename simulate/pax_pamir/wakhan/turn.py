"""Her whole turn (RB p16-17 Wakhan's Turn): the AI card drawn, her actions from the top of
the card down, Wakhan's Ambition, her bonus actions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .. import actions as A
from .. import market as M
from ..cards import PaxData
from ..state import State
from .actions import build, gift, tax
from .deck import TOP, WakhanState, black_column, draw, red_row, sync_loyalty
from .events import resolve_bought
from .frame import WakhanTurn
from .humans import Humans
from .military import battle, battle_most_spies, betray, move
from .play import buy_and_play
from .radicalize import ambition, radicalize_choice
from .records import Record


def _radicalize(t: WakhanTurn, space: int | None) -> bool:
    """One radicalize action on ``space`` (RB p17): "This counts as a single action"."""
    if space is None or t.turn.actions_left <= 0:
        return False
    t.turn.actions_left -= 1
    card = t.state.market[space]
    played = buy_and_play(t.data, t.state, t.wakhan, t.player, space, t.humans, t.records)
    if not played and M.is_event(t.data, card):
        resolve_bought(t, card)
    return True


_CARD_ACTIONS: dict[
    str, tuple[str, Callable[[WakhanTurn, Sequence[int]], bool], Callable[[PaxData], int]]
] = {
    "tax": ("tax", tax, lambda d: 0),
    "gift": ("gift", gift, lambda d: 0),
    "build": ("build", build, lambda d: d.numbers.build_cost_per_block),
    "move": ("move", move, lambda d: 0),
    "betray": ("betray", betray, lambda d: d.numbers.betray_cost),
    "battle": ("battle", battle, lambda d: 0),
    "battle_card_most_spies_with_own_spy": ("battle", battle_most_spies, lambda d: 0),
}


def _perform(t: WakhanTurn, key: str) -> bool:
    """Perform AI action ``key`` if valid (RB p17-18); whether it was."""
    if key in _CARD_ACTIONS:
        action, run, cost = _CARD_ACTIONS[key]
        return run(t, t.cards_for(action, cost(t.data)))
    if t.turn.actions_left <= 0:
        return False
    return _radicalize(t, radicalize_choice(t.data, t.state, t.wakhan, t.player, key))


def _bonus_actions(t: WakhanTurn) -> None:
    """RB p17: "Wakhan will take any available bonus actions from the court cards in her
    tableau that have not yet been used for actions. When taking bonus actions, Wakhan will
    always start with the leftmost, unused card on her court and take the leftmost action on
    the card, skipping any actions that cannot be taken." Reading: the data lists a card's
    actions in canonical order (tax, gift, build, move, betray, battle), taken as left to right.
    """
    data, state = t.data, t.state
    done = True
    while done and not t.over:
        done = False
        for card in list(state.court[t.player]):
            if card in t.turn.used or not A.is_bonus(data, state, card):
                continue
            for a in data.court[card].actions:
                action, run, cost = _CARD_ACTIONS[data.actions[a]]
                if t.waived(card, action, cost(data)) is not None and run(t, [card]):
                    done = True
                    break
            if done:
                break


def take_turn(
    data: PaxData,
    state: State,
    wakhan: WakhanState,
    player: int,
    rng: random.Random,
    humans: Humans | None = None,
) -> list[Record]:
    """Wakhan's whole turn for seat ``player`` (RB p16-17 Wakhan's Turn); the record of it.

    Draws her AI card (``draw``; ``rng`` only for a reshuffle) and takes her pragmatic loyalty
    (``sync_loyalty``). Then RB p17: "start at top action and work down, performing each valid
    action in turn until Wakhan has performed the allotted two-action limit. If Wakhan still
    has an action left after performing the bottom action, start again at the top"; actions
    with cards of the favored suit are bonus actions (``actions.is_bonus``). Before each action
    Wakhan's Ambition may buy a Dominance Check (``ambition``). When the actions are used or
    none is valid, her bonus actions (``_bonus_actions``). A game ended by a check she bought
    ends the turn. Not here (the engine's): the cleanup (``wakhan_cleanup`` for her seat), the
    market's ``end_turn`` and the turn passing, which are those of any player (RB p9).
    """
    if state.wakhan != player:
        raise ValueError(f"state.wakhan is {state.wakhan}, not {player}: see setup_changes")
    t = WakhanTurn(data, state, wakhan, player, humans or Humans())
    card = data.wakhan[draw(wakhan, rng)]
    loyalty = sync_loyalty(data, state, wakhan, player)
    row, column = red_row(data, wakhan), black_column(data, wakhan)
    t.record(
        "ai_card",
        f"#{card.number}: {', '.join(data.wakhan_actions[a] for a in card.actions)}; "
        f"row {'top' if row == TOP else 'bottom'}, column {column}; "
        f"pragmatic loyalty {data.coalitions[loyalty]}",
    )
    keys = [data.wakhan_actions[a] for a in card.actions]
    i = idle = 0
    while t.turn.actions_left > 0 and not t.over and idle < len(keys):
        space = ambition(data, state, player)
        if space is not None:
            t.record("ambition", "buys the Dominance Check")
            _radicalize(t, space)
            idle = 0
            continue
        if _perform(t, keys[i % len(keys)]):
            idle = 0
        else:
            idle += 1
        i += 1
    if not t.over:
        _bonus_actions(t)
    if len(t.records) == 1:
        t.record("pass", "no valid action")
    return t.records
