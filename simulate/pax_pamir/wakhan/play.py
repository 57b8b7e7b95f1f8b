"""Buying and playing a card (RB p17 Wakhan's Core Action): the bribe or the discard, the
side of her court, and her spies, roads, blocks and patriots; the units she takes from play
when the supply has none (RB p8 Component Limits)."""

from __future__ import annotations

from .. import dominance as D
from .. import market as M
from .. import military as X
from .. import play as P
from .. import ruling
from ..cards import NONE, PaxData
from ..ruling import pay_bribe
from ..state import State
from .deck import TOP, WakhanState, red_row, region_priority
from .humans import Humans, demand_of
from .priorities import card_priority
from .records import Record, card_name


def _has_most_spies(state: State, card: int, player: int, counts: list[int]) -> bool:
    mine = counts[state.spy_at(card, player)]
    others = (counts[state.spy_at(card, p)] for p in range(state.players) if p != player)
    return all(mine > n for n in others)


def spy_choices(data: PaxData, state: State, player: int, card: int) -> list[int]:
    """A court card for each spy icon of ``card`` (RB p17 Wakhan's Spies): "Place spies on the
    highest priority cards associated with the played card's region where Wakhan does not have
    the most spies", counted again after each spy. Reading: where she has the most on every
    card of the region, the highest priority card of the region."""
    region = data.court[card].region
    options = [*P.spy_options(data, state, region), card]
    counts = state.spies[:]
    dominant = D.dominant_coalition(data, state)
    out = []
    for _ in range(data.court[card].icons.count(data.icons.index("spy"))):
        open_ = [c for c in options if not _has_most_spies(state, c, player, counts)] or options
        best = max(open_, key=lambda c: card_priority(data, state, player, c, dominant))
        counts[state.spy_at(best, player)] += 1
        out.append(best)
    return out


def road_choices(data: PaxData, wakhan: WakhanState, card: int) -> list[int]:
    """A border for each road icon of ``card`` (RB p17 Wakhan's Roads): "Place roads on
    consecutive borders following the region priority on the AI card (leftmost first). If
    roads remain to be placed after going through the these regions, resolve the priority a
    second time." Reading: the borders between the card's region and each neighbour, in the
    neighbours' priority order, one road each per round."""
    region = data.court[card].region
    order = [r for r in region_priority(data, wakhan) if r in data.adjacency[region]]
    borders = [X.border_between(data, region, r) for r in order]
    wanted = data.court[card].icons.count(data.icons.index("road"))
    return [borders[k % len(borders)] for k in range(wanted)]


def take_from(data: PaxData, state: State, wakhan: WakhanState, player: int) -> P.TakeFrom:
    """Her pick of the unit a placement takes from play when the supply has none (RB p8
    Component Limits, ``play.place_unit``). Reading (the rules give her no order): blocks from
    the rightmost region of her card first, armies before roads; cylinders from her spies on
    the lowest priority cards, then her tribes in the rightmost regions, her gifts last."""
    pos = {r: i for i, r in enumerate(region_priority(data, wakhan))}
    width = len(state.blocks)
    dominant = D.dominant_coalition(data, state)

    def key(code: int) -> tuple:
        kind, index = P.unlocate(state, code)
        if kind == P.ARMY_UNIT:
            return (0, -pos[index // width])
        if kind == P.ROAD_UNIT:
            return (1, -max(pos[r] for r in data.borders[index // width]))
        if kind == P.SPY_UNIT:
            return (0, card_priority(data, state, player, index // state.players, dominant))
        if kind == P.TRIBE_UNIT:
            return (1, -pos[index // state.players])
        return (2,)

    return lambda sources: min(sources, key=key)


def wakhan_play(
    data: PaxData, state: State, wakhan: WakhanState, player: int, card: int, side: int
) -> None:
    """Play ``card`` from her hand (``play.play``) with her three modifications (RB p17):
    spies by ``spy_choices``, roads by ``road_choices``, and "Wakhan always places blocks based
    on pragmatic loyalty. Ignore the colour of the Patriot Impact Icons for armies and roads."
    A patriot never changes her loyalty (she "can hold ... patriots belonging to different
    coalitions", RB p16): a foreign one is played by ``play``'s own steps with no loyalty
    change. Units the supply lacks come from play by ``take_from``."""
    roads, spies = road_choices(data, wakhan, card), spy_choices(data, state, player, card)
    taking = take_from(data, state, wakhan, player)
    if data.court[card].patriot in (NONE, state.loyalty[player]):
        P.play(data, state, player, card, side, roads, spies, take_from=taking)
    else:
        P.play_keeping_loyalty(data, state, player, card, side, roads, spies, taking)


def buy_and_play(
    data: PaxData,
    state: State,
    wakhan: WakhanState,
    player: int,
    space: int,
    humans: Humans,
    records: list[Record],
) -> bool:
    """Buy the card on ``space`` and play it (RB p17): "Wakhan will play the card if she can
    afford to bribe the player ruling the region associated with that card. If she cannot pay
    the bribe, she will discard the card." "Wakhan should play the card to the left side of
    her court if the red arrow is pointing to top or the right side of her court if the red
    arrow is pointing to bottom." Returns whether a court card was played; an event is left to
    the caller."""
    row, column = divmod(space, state.columns)
    paid = M.cost(data, state, column, row, player)
    card = M.buy(data, state, player, row, column)
    records.append(
        ("radicalize", f"buys {card_name(data, card)} (row {row}, column {column}, {paid} rupees)")
    )
    if M.is_event(data, card):
        return False
    who, asked = ruling.bribe(data, state, player, card)
    rupees = demand_of(humans, "play", who, asked) if who != NONE else 0
    if rupees > state.rupees[player]:
        state.hand[player].remove(card)
        state.discard.append(card)
        records.append(("discard", f"{card_name(data, card)}: cannot pay a bribe of {rupees}"))
        return False
    if rupees:
        pay_bribe(state, player, who, rupees, asked)
        records.append(("bribe", f"{rupees} to player {who}"))
    side = P.LEFT if red_row(data, wakhan) == TOP else P.RIGHT
    wakhan_play(data, state, wakhan, player, card, side)
    records.append(
        ("play", f"{card_name(data, card)} to the {'left' if side == P.LEFT else 'right'}")
    )
    return True
