"""Which market card her radicalize actions buy (RB p17 Wakhan's Core Action, Wakhan's
Ambition): specific instructions, the Dominance Check rule, the red and black arrows."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import dominance as D
from .. import market as M
from .. import ruling
from ..cards import PaxData
from ..cleanup import court_limit
from ..state import EMPTY, State
from .deck import WakhanState, black_column, red_row
from .humans import Humans
from .play import buy_and_play


def _number(card: int) -> int:
    return card + 1  # ids are printed numbers - 1 (cards.py)


def _icons(data: PaxData, card: int, *names: str) -> int:
    return sum(1 for i in data.court[card].icons if data.icons[i] in names)


def _cheapest(data: PaxData, state: State, player: int, spaces: Sequence[int]) -> int | None:
    """RB p17: "Ties are decided by the cheapest card in the market with the highest card
    number breaking any further ties"."""
    if not spaces:
        return None
    return min(
        spaces,
        key=lambda s: (
            M.cost(data, state, s % state.columns, s // state.columns, player),
            -_number(state.market[s]),
        ),
    )


def _best(
    data: PaxData, state: State, player: int, spaces: Sequence[int], key: Callable[[int], int]
) -> int | None:
    """The spaces whose card scores the most by ``key`` (at least 1), then ``_cheapest``."""
    scored = [(key(state.market[s]), s) for s in spaces]
    top = max((k for k, _ in scored), default=0)
    return _cheapest(data, state, player, [s for k, s in scored if k == top]) if top > 0 else None


def would_win_check(data: PaxData, state: State, player: int, space: int) -> bool:
    """Whether buying the Dominance Check on ``space`` lets her "score the most victory points
    and/or win the game" (RB p17 Wakhan's Ambition, Core Action). Reading: strictly more of the
    check's points than each other player, or the check ends the game with her the winner."""
    row, column = divmod(space, state.columns)
    if not M.is_dominance_check(data, state.market[space]):
        return False
    if not M.can_buy(data, state, player, row, column):
        return False
    trial = state.copy()
    M.buy(data, trial, player, row, column)
    result = D.check(data, trial)
    mine = result.awarded[player]
    most = all(mine > v for p, v in enumerate(result.awarded) if p != player)
    return most or result.winner == player


def ambition(data: PaxData, state: State, player: int) -> int | None:
    """The market space of a Dominance Check she buys by Wakhan's Ambition (RB p17): "If
    Wakhan is able to purchase the Dominance Check and score the most victory points and/or
    win the game, she will use her action to do that"; None if none qualifies."""
    spaces = [s for s in range(len(state.market)) if would_win_check(data, state, player, s)]
    return spaces[0] if spaces else None


def _buyable_court(data: PaxData, state: State, player: int) -> list[int]:
    return [s for s in M.purchasable(data, state, player) if not M.is_event(data, state.market[s])]


def _never_purchasable(data: PaxData, card: int) -> bool:
    return any(e.id == card and e.purchased.key == "public_withdrawal" for e in data.events)


def arrow_choice(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int | None:
    """RB p17 "Otherwise: Use the red and black arrows" ... "If that card is not a valid
    choice, pick the next valid card to its left; if Wakhan exhausts that row then switch to
    the original position in the other market row." Valid: purchasable by her (not a card she
    paid a rupee to this turn), a Dominance Check only by ``would_win_check``; an event the data
    marks unpurchasable (Public Withdrawal) never."""
    row, column = red_row(data, wakhan), black_column(data, wakhan)
    for r in (row, state.rows - 1 - row):
        for c in range(column, -1, -1):
            space = state.space(r, c)
            card = state.market[space]
            if not M.can_buy(data, state, player, r, c) or _never_purchasable(data, card):
                continue
            if M.is_dominance_check(data, card) and not would_win_check(data, state, player, space):
                continue
            return space
    return None


def dominance_market_choice(data: PaxData, state: State, player: int) -> int | None:
    """RB p17, with a Dominance Check in the market: "Wakhan will choose the cheapest Patriot
    loyal to the dominant coalition, then the cheapest card with the most Army and/or Road
    impact icons, or, if no coalition is dominant, she will chose the cheapest card with the
    most spy and/or tribe impact icons. If there is a tie, use the highest card number."
    Reading: the army/road card when no such patriot is buyable; "most" icons first, then the
    cheapest (a card with none of them ties at zero)."""
    spaces = _buyable_court(data, state, player)
    dominant = D.dominant_coalition(data, state)
    if dominant is not None:
        patriots = [s for s in spaces if data.court[state.market[s]].patriot == dominant]
        if patriots:
            return _cheapest(data, state, player, patriots)
        names: tuple[str, ...] = ("army", "road")
    else:
        names = ("spy", "tribe")
    scored = [(_icons(data, state.market[s], *names), s) for s in spaces]
    top = max((k for k, _ in scored), default=0)
    return _cheapest(data, state, player, [s for k, s in scored if k == top])


def _top_rank(
    data: PaxData, state: State, player: int, spaces: Sequence[int], suit: str
) -> int | None:
    of_suit = [s for s in spaces if data.court[state.market[s]].suit == data.suits.index(suit)]
    return _best(data, state, player, of_suit, lambda c: data.court[c].rank)


def _spies_in_play(data: PaxData, state: State, player: int) -> int:
    return sum(state.spies[state.spy_at(c, player)] for c in range(len(data.court)))


def _wins_region(data: PaxData, state: State, wakhan: WakhanState, player: int, space: int) -> bool:
    """Whether buying and playing the card on ``space`` makes her rule a region she does not."""
    before = set(ruling.ruled_by(state, player))
    trial, trial_w = state.copy(), wakhan.copy()
    try:
        played = buy_and_play(data, trial, trial_w, player, space, Humans(), [])
    except ValueError:  # she could not buy or play it (a rule refused)
        return False
    return played and bool(set(ruling.ruled_by(trial, player)) - before)


def radicalize_choice(
    data: PaxData, state: State, wakhan: WakhanState, player: int, key: str
) -> int | None:
    """The market space her radicalize action ``key`` (``PaxData.wakhan_actions``) buys from,
    or None when the action is not valid (RB p17 Wakhan's Core Action).

    "If there are specific instructions: Follow them. Ties are decided by the cheapest card in
    the market with the highest card number breaking any further ties." Reading: a condition
    not met, or no court card fitting, makes the action invalid (RB p18 "If these conditions
    cannot be met, the action is skipped"); specific instructions pick court cards only. The
    plain ``radicalize``: ``dominance_market_choice`` with a Dominance Check in the market,
    else ``arrow_choice``."""
    spaces = _buyable_court(data, state, player)
    market = [c for c in state.market if c != EMPTY]
    dominant = D.dominant_coalition(data, state)
    if key == "radicalize":
        if any(M.is_dominance_check(data, c) for c in market):
            return dominance_market_choice(data, state, player)
        return arrow_choice(data, state, wakhan, player)
    if key == "rad_if_military_favored_top_military":
        return (
            _top_rank(data, state, player, spaces, "military")
            if _favored(data, state, "military")
            else None
        )
    if key == "rad_if_political_favored_top_economic":
        return (
            _top_rank(data, state, player, spaces, "economic")
            if _favored(data, state, "political")
            else None
        )
    if key == "rad_top_political":
        return _top_rank(data, state, player, spaces, "political")
    if key == "rad_top_intelligence":
        return _top_rank(data, state, player, spaces, "intelligence")
    if key == "rad_any_intelligence":
        suit = data.suits.index("intelligence")
        return _cheapest(
            data, state, player, [s for s in spaces if data.court[state.market[s]].suit == suit]
        )
    if key == "rad_if_under_2_rupees_most_net_rupees":
        if state.rupees[player] >= 2:
            return None
        return _most_net(data, state, player, spaces)
    if key == "rad_card_that_wins_a_region":
        wins = [s for s in spaces if _wins_region(data, state, wakhan, player, s)]
        return _cheapest(data, state, player, wins)
    if key == "rad_most_armies_roads":
        return _best(data, state, player, spaces, lambda c: _icons(data, c, "army", "road"))
    if key == "rad_if_no_dominance_most_spies_tribes":
        if dominant is not None:
            return None
        return _best(data, state, player, spaces, lambda c: _icons(data, c, "spy", "tribe"))
    if key == "rad_if_no_move_card_a_move_card":
        move = data.actions.index("move")
        if any(move in data.court[c].actions for c in state.court[player]):
            return None
        return _cheapest(
            data, state, player, [s for s in spaces if move in data.court[state.market[s]].actions]
        )
    if key == "rad_if_dominance_matching_patriot":
        if dominant is None:
            return None
        return _cheapest(
            data,
            state,
            player,
            [s for s in spaces if data.court[state.market[s]].patriot == dominant],
        )
    if key == "rad_if_court_full_top_political":
        if len(state.court[player]) < court_limit(data, state, player):
            return None
        return _top_rank(data, state, player, spaces, "political")
    if key == "rad_if_fewer_spies_top_intelligence":
        mine = _spies_in_play(data, state, player)
        others = (_spies_in_play(data, state, p) for p in range(state.players) if p != player)
        if not any(n > mine for n in others):
            return None
        return _top_rank(data, state, player, spaces, "intelligence")
    raise ValueError(f"{key!r} is not a radicalize action")


def _favored(data: PaxData, state: State, suit: str) -> bool:
    return state.favored == data.suits.index(suit)


def _most_net(data: PaxData, state: State, player: int, spaces: Sequence[int]) -> int | None:
    """Reading of "the card netting most rupees": the rupees on it, less its cost, plus a
    leverage icon's rupees; the most, then ``_cheapest``."""
    if not spaces:
        return None

    def net(s: int) -> int:
        lev = _icons(data, state.market[s], "leverage") * data.numbers.leverage_rupees
        paid = M.cost(data, state, s % state.columns, s // state.columns, player)
        return state.market_rupees[s] - paid + lev

    top = max(net(s) for s in spaces)
    return _cheapest(data, state, player, [s for s in spaces if net(s) == top])
