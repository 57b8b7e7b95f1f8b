"""Her Tax, Gift and Build actions (RB p18 Wakhan's Actions), each by the rules' own
function (``actions.py``) once her choices are made; each returns whether it was valid."""

from __future__ import annotations

from collections.abc import Sequence

from .. import actions as A
from .. import ruling
from ..cards import NONE
from ..state import EMPTY
from .deck import red_row, red_targets, region_priority
from .frame import WakhanTurn
from .records import card_name


def tax(t: WakhanTurn, cards: Sequence[int]) -> bool:
    """RB p18 Tax: "Wakhan will always tax players instead of market cards if able. She will
    always tax from players with the most rupees first. If both players are tied, use the red
    arrow to determine which player is targeted. If no players can be taxed, she will tax from
    the market, taking rupees from the leftmost market cards and using the red arrow to
    determine ties." Reading: rupees the players cannot give (shelter, rank left) are taken
    from the market; a tax taking nothing is not valid."""
    data, state, w = t.data, t.state, t.player
    if not cards:
        return False
    card = cards[0]
    waived = t.waived(card, "tax", 0)
    assert waived is not None
    left = data.court[card].rank
    ruled = ruling.ruled_by(state, w)
    subjects = A.taxable(data, state, w, ruled)
    order = [p for p in red_targets(data, state, t.wakhan, w) if p in subjects]
    order.sort(key=lambda p: -state.rupees[p])  # stable: the red arrow breaks ties
    from_players: dict[int, int] = {}
    for p in order:
        n = min(left, A.vulnerable(data, state, p))
        if n:
            from_players[p] = n
            left -= n
    from_market: dict[int, int] = {}
    rows = [red_row(data, t.wakhan), 1 - red_row(data, t.wakhan)]
    for column in range(state.columns):
        for row in rows:
            space = state.space(row, column)
            n = min(left, state.market_rupees[space]) if state.market[space] != EMPTY else 0
            if n:
                from_market[space] = n
                left -= n
    if not from_players and not from_market:
        return False
    A.tax(data, state, t.turn, w, card, ruled, from_market, from_players, waived)
    got = sum(from_players.values()) + sum(from_market.values())
    detail = f"{card_name(data, card)}: {got} rupees, players {from_players}, market {from_market}"
    t.record("tax", detail + t.bonus(card))
    return True


def gift(t: WakhanTurn, cards: Sequence[int]) -> bool:
    """RB p18 Gift: "Wakhan will buy the cheapest gift she can afford to buy, placing it on her
    aid card" (gifts fill the cheapest space, ``actions.gift_cost``)."""
    data, state, w = t.data, t.state, t.player
    cost = A.gift_cost(data, state, w)
    if cost < 0 or state.cylinders[w] == 0:
        return False
    cards = [c for c in cards if t.waived(c, "gift", cost) is not None]
    if not cards:
        return False
    card = cards[0]
    A.gift(data, state, t.turn, w, card, t.waived(card, "gift", cost) or 0)
    t.record("gift", f"{card_name(data, card)}: a gift for {cost}" + t.bonus(card))
    return True


def build(t: WakhanTurn, cards: Sequence[int]) -> bool:
    """RB p18 Build: "Wakhan will build armies in the leftmost region as listed on the AI card
    that she rules. She will spend as much of her money as possible" (up to three armies, RB
    p13, as many as the supply holds)."""
    data, state, w = t.data, t.state, t.player
    ruled = ruling.ruled_by(state, w)
    region = next((r for r in region_priority(data, t.wakhan) if r in ruled), NONE)
    if region == NONE or not cards:
        return False
    card = cards[0]
    waived = t.waived(card, "build", data.numbers.build_cost_per_block)
    assert waived is not None
    bribe = A.hostage_bribe(data, state, w, card) - waived
    top = min(A.build_limit(data, state, w), state.blocks[state.loyalty[w]])
    affordable = [
        k for k in range(1, top + 1) if A.build_cost(data, state, w, k) + bribe <= state.rupees[w]
    ]
    n = max(affordable, default=0)
    if n < 1:
        return False
    A.build(data, state, t.turn, w, card, ruled, armies=[region] * n, waived=waived)
    t.record(
        "build", f"{card_name(data, card)}: {n} armies in {data.regions[region]}" + t.bonus(card)
    )
    return True
