"""Wakhan, the automated opponent (RB p16-18 Playing with Wakhan), as pure functions over
``State``.

Wakhan's rupees, hand, court, gifts ("on her aid card"), prizes, tribes and spies live in the
shared ``State`` as any player's; ``WakhanState`` keeps only her AI deck and its discard pile
(the face-up card on top). ``take_turn`` performs her whole turn (RB p17 Wakhan's Turn) with
the existing rule functions; the engine still does the turn's general cleanup and the turn
passing, calling ``wakhan_cleanup`` (RB p18 Cleanup: her discard order) instead of
``cleanup.cleanup`` for her seat.

Her "pragmatic loyalty" (RB p16) is kept in ``state.loyalty[wakhan]`` so that ``play``,
``actions.build`` and ``military`` place, move and battle with it; the rules where she is
"loyal to all coalitions" (ruling, scoring, patriots and prizes) are the functions here
(``ruler_with_wakhan``, ``dominance_check``, ``wakhan_play``, ``wakhan_betray``). The
choices the other players make while she acts (waiving bribes, naming cards to repay a
leveraged card, resolving an event she buys) come from a ``Humans`` the caller may pass.
Readings of open text: ``docs/pax-pamir-wakhan.md``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import actions as A
from . import dominance as D
from . import events as E
from . import lasting
from . import market as M
from . import military as X
from . import play as P
from .cards import NONE, PaxData, WakhanCard
from .cleanup import Cleanup, cleanup, court_limit, hand_limit
from .ruling import never_pays_bribes, pay_bribe
from .setup import new_state
from .state import EMPTY, State

WAKHAN = 0  # her seat in the games ``new_game`` deals: she "will take the first turn" (RB p16)
TOP, BOTTOM = 0, 1  # market rows, as the red arrow names them (RB p17)

Record = tuple[str, str]  # (action word, detail) for traces


# --- Her deck (RB p16 Setting Up, Wakhan's Turn) ----------------------------------------------


class WakhanState:
    """Wakhan's AI cards (RB p16): ``deck`` (indexes into ``PaxData.wakhan``, top at the END of
    the list) and ``discard`` (face up "to the immediate right of the AI card draw deck", the
    card drawn this turn last)."""

    __slots__ = ("deck", "discard")

    def __init__(self, deck: list[int], discard: list[int] | None = None) -> None:
        self.deck = deck
        self.discard = [] if discard is None else discard

    def copy(self) -> WakhanState:
        """An independent copy (list copies only)."""
        return WakhanState(self.deck[:], self.discard[:])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WakhanState) and (self.deck, self.discard) == (
            other.deck,
            other.discard,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable


def new_wakhan(data: PaxData, rng: random.Random) -> WakhanState:
    """RB p16 Setting Up: "Shuffle the deck of 24 AI cards and place them in a stack face
    down", shuffled by ``rng`` only."""
    deck = list(range(len(data.wakhan)))
    rng.shuffle(deck)
    return WakhanState(deck)


def draw(wakhan: WakhanState, rng: random.Random) -> int:
    """Reveal her AI card for the turn and return it (RB p16 Wakhan's Turn): "draw an AI card
    and place it face up ... in a discard pile. You will use this face-up card and the back of
    the card now on top of the draw deck ... If the draw deck is empty, reshuffle the entire
    discard pile (including the card just drawn) to create a new draw deck and draw again."
    Reading: the deck counts as empty when no card is left to show its back."""
    if not wakhan.deck:  # only for a hand-made state: the reshuffle below keeps one
        wakhan.deck, wakhan.discard = wakhan.discard, []
        rng.shuffle(wakhan.deck)
    wakhan.discard.append(wakhan.deck.pop())
    if not wakhan.deck:
        wakhan.deck, wakhan.discard = wakhan.discard, []
        rng.shuffle(wakhan.deck)
        wakhan.discard.append(wakhan.deck.pop())
    return wakhan.discard[-1]


def revealed(data: PaxData, wakhan: WakhanState) -> WakhanCard | None:
    """The face-up AI card (None before her first turn)."""
    return data.wakhan[wakhan.discard[-1]] if wakhan.discard else None


def upcoming(data: PaxData, wakhan: WakhanState) -> WakhanCard:
    """The card on top of her draw deck, whose back the arrows point at (RB p16)."""
    return data.wakhan[wakhan.deck[-1]]


def red_row(data: PaxData, wakhan: WakhanState) -> int:
    """RB p17: "The red arrow will point to either 'Top' or 'Bottom' on the back of the top
    card of the draw deck and determines which market row to purchase from"."""
    card = revealed(data, wakhan)
    assert card is not None, "no AI card is face up"
    return upcoming(data, wakhan).back_rows[card.red_arrow]


def black_column(data: PaxData, wakhan: WakhanState) -> int:
    """RB p17: "The black arrow will point to a number between 0 and 5 on the back of the top
    card of the draw deck. This tells you which column to purchase from"."""
    card = revealed(data, wakhan)
    assert card is not None, "no AI card is face up"
    return upcoming(data, wakhan).back_columns[card.black_arrow]


def region_priority(data: PaxData, wakhan: WakhanState) -> tuple[int, ...]:
    """The face-up card's regions, leftmost first (RB p17-18 "the region priority on the AI
    card"); the map's order before her first card."""
    card = revealed(data, wakhan)
    return tuple(range(len(data.regions))) if card is None else card.regions


def pragmatic_loyalty(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """RB p16: "Wakhan's Pragmatic Loyalty is always the leftmost loyalty on the AI card that
    is not shared by any other player." Before her first card: the coalitions' own order."""
    card = revealed(data, wakhan)
    order = tuple(range(len(data.coalitions))) if card is None else card.loyalty
    held = {state.loyalty[p] for p in range(state.players) if p != player}
    return next(c for c in order if c not in held)


def sync_loyalty(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """Set ``state.loyalty[player]`` to her pragmatic loyalty and return it. The engine calls
    this after her draw and after any other player's loyalty changes ("always ... not shared
    by any other player")."""
    state.loyalty[player] = pragmatic_loyalty(data, state, wakhan, player)
    return state.loyalty[player]


def red_targets(data: PaxData, state: State, wakhan: WakhanState, player: int) -> list[int]:
    """The other players, the one the red arrow targets first (RB p18 Battle: "If multiple
    players can be targeted ..., use the red arrow to determine which player is targeted";
    Tax: "If both players are tied, use the red arrow"). Reading: "Top" targets the player
    after her in turn order (at her left), "Bottom" the one before her."""
    others = [(player + k) % state.players for k in range(1, state.players)]
    if revealed(data, wakhan) is not None and red_row(data, wakhan) == BOTTOM:
        others.reverse()
    return others


# --- Ruling with Wakhan (RB p16 General Rules) ----------------------------------------------


def wakhan_ruling_pieces(state: State, region: int, wakhan: int) -> int:
    """RB p16: "when assessing whether Wakhan is competing for control of a region, count her
    tribes and only the most numerous Armies of a single coalition in that region towards the
    number of her ruling pieces"."""
    armies = max(state.armies[state.army_at(region, c)] for c in range(len(state.blocks)))
    return state.tribes[state.tribe_at(region, wakhan)] + armies


def ruling_pieces_with(state: State, region: int, player: int, wakhan: int) -> int:
    """A player's ruling pieces in a game with Wakhan: hers by ``wakhan_ruling_pieces``, the
    others' as RB p7 counts them (their tribes plus their coalition's armies)."""
    if player == wakhan:
        return wakhan_ruling_pieces(state, region, wakhan)
    coalition = state.loyalty[player]
    return (
        state.tribes[state.tribe_at(region, player)]
        + state.armies[state.army_at(region, coalition)]
    )


def ruler_with_wakhan(state: State, region: int, wakhan: int) -> int:
    """``ruling.ruler`` in a game with Wakhan (RB p7, p16): at least one tribe and more ruling
    pieces than each other player. Reading: no coalition is "unclaimed" (she is "effectively
    loyal to all coalitions"), and no single coalition's armies outnumber hers anyway."""
    counts = [ruling_pieces_with(state, region, p, wakhan) for p in range(state.players)]
    for player, mine in enumerate(counts):
        if state.tribes[state.tribe_at(region, player)] == 0:
            continue
        if all(mine > other for i, other in enumerate(counts) if i != player):
            return player
    return NONE


def rulers_with_wakhan(state: State, wakhan: int) -> list[int]:
    """The ruler of every region, by region id, in a game with Wakhan."""
    regions = len(state.tribes) // state.players
    return [ruler_with_wakhan(state, r, wakhan) for r in range(regions)]


def ruled_by(state: State, player: int, wakhan: int) -> list[int]:
    """The regions ``player`` rules in a game with Wakhan (``ruled`` for tax and build)."""
    return [r for r, who in enumerate(rulers_with_wakhan(state, wakhan)) if who == player]


def bribe_with_wakhan(
    data: PaxData, state: State, player: int, card: int, wakhan: int, no_bribes: bool = False
) -> tuple[int, int]:
    """``ruling.bribe`` with ``ruler_with_wakhan``: (ruler, rupees) owed to play ``card`` (RB
    p11), for Wakhan and for the players who play a card in a region she rules."""
    region = data.court[card].region
    who = ruler_with_wakhan(state, region, wakhan)
    if who in (NONE, player):
        return NONE, 0
    if no_bribes or never_pays_bribes(data, state, player) or A.refuses_bribes(data, state, player):
        return who, 0
    return who, state.tribes[state.tribe_at(region, who)]


def wakhan_demand(asked: int) -> int:
    """What Wakhan asks of a player who owes her a bribe (to play a card in a region she rules,
    RB p11, or to use a card she holds hostage, RB p12). Reading: the rules give her no waiver
    ("Wakhan must pay all costs, including bribes, just like a regular player", RB p16), so she
    asks the full bribe: the player passes ``waived=0`` to the action."""
    return asked


# --- Scoring with Wakhan (RB p18 Dominance Checks and Victory) ------------------------------


def wakhan_influence(data: PaxData, state: State, wakhan: int, coalition: int) -> int:
    """Her influence in ``coalition`` (RB p7, p16, p18): one, plus her gifts ("this Gift will
    count as influence in all three coalitions"), plus her prizes and patriots of that
    coalition (she "can hold loyalty prizes and patriots belonging to different coalitions")."""
    prizes = sum(1 for c in state.prizes[wakhan] if data.court[c].prize == coalition)
    patriots = sum(1 for c in state.court[wakhan] if data.court[c].patriot == coalition)
    if lasting.applies(data, state, "rumor", wakhan):  # as ``dominance.influence``
        patriots = 0
    gifts = state.gifts[wakhan]
    if lasting.active(data, state, "embarrassment_of_riches"):
        gifts = 0
    elif lasting.applies(data, state, "koh_i_noor_recovered", wakhan):
        gifts *= 2
    return data.numbers.influence_base + gifts + prizes + patriots


def dominance_check(
    data: PaxData, state: State, wakhan: int, final: bool | None = None
) -> D.CheckResult:
    """``dominance.check`` with Wakhan (RB p15, p18): "Wakhan is loyal to all coalitions so
    she will be in the running no matter which coalition is dominant": a successful check
    ranks her by ``wakhan_influence`` in the dominant coalition with the players loyal to it;
    an unsuccessful one counts her cylinders in play like anyone's."""
    n = data.numbers
    if final is None:
        final = state.checks_done + 1 >= len(data.dominance_checks)
    multiplier = n.final_multiplier if final else 1
    coalition = D.dominant_coalition(data, state)
    players = range(state.players)
    if coalition is not None:
        scores = [
            (p, wakhan_influence(data, state, p, coalition))
            if p == wakhan
            else (p, D.influence(data, state, p))
            for p in players
            if p == wakhan or state.loyalty[p] == coalition
        ]
        won = D.place_points(scores, n.success_points, multiplier)
    else:
        scores = [(p, D.cylinders_in_play(data, state, p)) for p in players]
        won = D.place_points(scores, n.failure_points, multiplier)
    awarded = tuple(won.get(p, 0) for p in players)
    after = [state.points[p] + awarded[p] for p in players]
    winner = D.early_winner(data, after)
    tied: tuple[int, ...] = ()
    if winner is None and final:
        winner, tied = D.final_standing(data, state, after)
    return D.CheckResult(coalition, awarded, final, winner is not None or final, winner, tied)


def resolve_dominance(
    data: PaxData, state: State, wakhan: int, final: bool | None = None
) -> D.CheckResult:
    """``dominance.resolve`` with ``dominance_check``: points, the board's blocks back to the
    supply after a successful check, ``checks_done`` + 1, the lasting events ended (RB p15,
    RB p10)."""
    result = dominance_check(data, state, wakhan, final)
    for p, v in enumerate(result.awarded):
        state.points[p] += v
    if result.dominant is not None:
        for c, count in enumerate(D.blocks_in_play(state)):
            state.blocks[c] += count
        state.armies = [0] * len(state.armies)
        state.roads = [0] * len(state.roads)
    state.checks_done += 1
    lasting.end_all(data, state)
    return result


# --- Card priority (RB p16) and her choices ----------------------------------------------------


def card_priority(
    data: PaxData, state: State, wakhan: int, card: int, dominant: int | None = None
) -> tuple[int, ...]:
    """A sort key, higher first, for RB p16 Card Priority: "High: Opponent's card / Matches
    favored suit / Patriot of the dominant coalition / Has a prize that matches the dominant
    coalition / Other Patriot / Leveraged / Highest Ranking / Low: Highest numbered card".
    ``dominant``: ``dominance.dominant_coalition`` (None: no coalition is dominant). A card
    in no court (the one she is playing) counts as hers."""
    info = data.court[card]
    owner = X.owner_of(state, card)
    return (
        int(owner not in (wakhan, -1)),
        int(info.suit == state.favored),
        int(dominant is not None and info.patriot == dominant),
        int(dominant is not None and info.prize == dominant),
        int(info.patriot != NONE and info.patriot != dominant),
        int(data.icons.index("leverage") in info.icons),
        info.rank,
        info.number,
    )


def by_priority(data: PaxData, state: State, wakhan: int, cards: Sequence[int]) -> list[int]:
    """``cards`` highest priority first (RB p16: "Wakhan will always pick the card with the
    highest card priority")."""
    dominant = D.dominant_coalition(data, state)
    return sorted(
        cards, key=lambda c: card_priority(data, state, wakhan, c, dominant), reverse=True
    )


def choose_card(data: PaxData, state: State, wakhan: int, cards: Sequence[int]) -> int:
    """The card she picks among ``cards`` (RB p16), ``NONE`` if there is none: for any choice
    of a court card the rules leave her (e.g. a Blackmail spy, which "may" be placed: "Wakhan
    always will", RB p16)."""
    ranked = by_priority(data, state, wakhan, cards)
    return ranked[0] if ranked else NONE


def always_uses_may_abilities() -> bool:
    """RB p16: "If Wakhan's court cards have a Special Ability that says she 'may' do
    something, Wakhan always will." (for the engine's ability code)."""
    return True


def choose_suit(state: State) -> int:
    """RB p16: "If Wakhan needs to choose a suit, Wakhan will always select the current
    favored suit" (e.g. Pashtunwali Values)."""
    return state.favored


def choose_player(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """Another player she must name (an event's "one other player"). Reading: the red arrow
    decides, as for her battles (RB p18)."""
    return red_targets(data, state, wakhan, player)[0]


def choose_region(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """A region she must name to clear of tribes and armies (the event Rebuke). Reading: the
    leftmost region on her card where the other players lose more pieces than she does (else
    the leftmost where anything stands)."""
    own = state.loyalty[player]
    order = region_priority(data, wakhan)

    def loss(region: int) -> tuple[int, int]:
        armies = [state.armies[state.army_at(region, c)] for c in range(len(state.blocks))]
        tribes = [state.tribes[state.tribe_at(region, p)] for p in range(state.players)]
        mine = tribes[player] + armies[own]
        return sum(armies) + sum(tribes) - mine, mine

    for region in order:
        theirs, mine = loss(region)
        if theirs > mine:
            return region
    return next((r for r in order if sum(loss(r)) > 0), order[0])


# --- Leveraged cards (RB p16 General Rules) --------------------------------------------------


def leverage_grace(data: PaxData, state: State, wakhan: int, cards: Sequence[int]) -> int:
    """Rupees to lend her before ``cards`` leave her court, so that ``play.discard_from_court``
    takes only what she has: RB p16 "If Wakhan must discard a Leveraged card and has no coins,
    Wakhan does not need to discard cards". The rupees repaid go to the bank, so the loan is
    gone with them; the caller adds it to ``state.rupees[wakhan]`` (and takes it back if the
    discard raises)."""
    leveraged = sum(1 for c in cards if data.icons.index("leverage") in data.court[c].icons)
    return max(0, leveraged * data.numbers.leverage_rupees - state.rupees[wakhan])


def discard_wakhan_card(data: PaxData, state: State, wakhan: int, card: int) -> None:
    """Discard ``card`` from her court with RB p8's consequences (``play.discard_from_court``)
    and RB p16's grace for a leveraged card."""
    state.rupees[wakhan] += leverage_grace(data, state, wakhan, [card])
    P.discard_from_court(data, state, wakhan, card, [])


# --- What the other players decide while she acts ---------------------------------------------


@dataclass(frozen=True)
class Humans:
    """The other players' choices during her turn; every field optional.

    ``demand(kind, player, asked)``: the rupees ``player`` asks of her for a bribe of ``asked``
    (``kind`` "play", RB p11, or "hostage", RB p12: "Any portion ... can be waived"); default:
    all. ``pay_with(player, card)``: the cards ``player`` discards for a leveraged ``card`` she
    betrays (RB p8); default: their hand, then their court (political cards last, which an overthrow may take). ``resolve_event(card)``: resolves
    an event card she bought (RB p10) and returns whether the game is over; default: a
    Dominance Check is ``resolve_dominance``d, another event ``events.resolve``d with
    ``event_picks``. ``choose(player, kind, options)``: another player's pick in that event
    (``events.choices``); default: the first option.
    """

    demand: Callable[[str, int, int], int] | None = None
    pay_with: Callable[[int, int], Sequence[int]] | None = None
    resolve_event: Callable[[int], bool] | None = None
    choose: Callable[[int, str, Sequence[int]], int] | None = None


def _demand(humans: Humans, kind: str, player: int, asked: int) -> int:
    if asked <= 0 or humans.demand is None:
        return max(0, asked)
    return min(asked, max(0, humans.demand(kind, player, asked)))


def _pay_with(
    data: PaxData, state: State, humans: Humans, player: int, card: int, region: int = NONE
) -> list[int]:
    """``player``'s cards for a leveraged card's repayment (RB p8); ``card`` the one
    discarded, or ``region`` the one whose political cards an overthrow discards."""
    if humans.pay_with is not None:
        return list(humans.pay_with(player, card))
    political = data.suits.index("political")
    court = [c for c in state.court[player] if c != card]
    late = [c for c in court if data.court[c].suit == political]
    late = [c for c in late if data.court[c].region != region]
    return state.hand[player] + [c for c in court if data.court[c].suit != political] + late


def card_name(data: PaxData, card: int) -> str:
    """A card's printed name (events by their purchased effect)."""
    if card < len(data.court):
        return data.court[card].name
    if M.is_dominance_check(data, card):
        return "Dominance Check"
    return next(e.purchased.name for e in data.events if e.id == card)


# --- Playing a card (RB p17 Wakhan's Core Action) --------------------------------------------


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
        return
    P._check_choices(data, state, player, card, side, roads, spies)
    backup = state.copy()
    try:
        P._play(data, state, player, card, side, False, list(roads), list(spies), [], taking)
    except Exception:
        P._restore(state, backup)
        raise


# --- Radicalize: which card (RB p17) ---------------------------------------------------------


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
    result = dominance_check(data, trial, player)
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
    before = set(ruled_by(state, player, player))
    trial, trial_w = state.copy(), wakhan.copy()
    try:
        played = _buy_and_play(data, trial, trial_w, player, space, Humans(), [])
    except (ValueError, NotImplementedError):
        return False
    return played and bool(set(ruled_by(trial, player, player)) - before)


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


def _buy_and_play(
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
    who, asked = bribe_with_wakhan(data, state, player, card, player)
    rupees = _demand(humans, "play", who, asked) if who != NONE else 0
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


# --- Her turn (RB p17) -----------------------------------------------------------------------


class _Turn:
    """One turn of Wakhan's: the arguments and the bookkeeping her steps share."""

    def __init__(
        self,
        data: PaxData,
        state: State,
        wakhan: WakhanState,
        player: int,
        humans: Humans,
    ) -> None:
        self.data, self.state, self.wakhan, self.player = data, state, wakhan, player
        self.humans = humans
        self.turn = A.new_turn(data)
        self.records: list[Record] = []
        self.over = False

    def record(self, action: str, detail: str) -> None:
        self.records.append((action, detail))

    # The frame of a card-based action (RB p12), checked the way actions._check_frame does.
    def waived(self, card: int, action: str, cost: int) -> int | None:
        """The hostage bribe waived if ``card`` may take ``action`` at ``cost``, else None."""
        data, state, turn, w = self.data, self.state, self.turn, self.player
        if data.actions.index(action) not in data.court[card].actions or card in turn.used:
            return None
        if not A.is_bonus(data, state, card) and turn.actions_left <= 0:
            return None
        asked = A.hostage_bribe(data, state, w, card)
        holder = A.hostage_holder(state, card, w)
        demanded = _demand(self.humans, "hostage", holder, asked) if asked else 0
        if state.rupees[w] < demanded + cost:
            return None
        return asked - demanded

    def cards_for(self, action: str, cost: int) -> list[int]:
        """RB p18: "Wakhan will always used the highest priority card among those that could
        legally take the action" (its rank, its cost and the hostage bribe allowing)."""
        legal = [
            c for c in self.state.court[self.player] if self.waived(c, action, cost) is not None
        ]
        return by_priority(self.data, self.state, self.player, legal)

    def bonus(self, card: int) -> str:
        return " (bonus)" if A.is_bonus(self.data, self.state, card) else ""


def _event(t: _Turn, card: int) -> None:
    """An event she bought "is resolved the moment" it is bought (RB p10)."""
    data, state = t.data, t.state
    if t.humans.resolve_event is not None:
        t.over = bool(t.humans.resolve_event(card))
        t.record("event", f"{card_name(data, card)} resolved by the engine")
        return
    state.discard.append(card)
    if M.is_dominance_check(data, card):
        result = resolve_dominance(data, state, t.player)
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


def _radicalize(t: _Turn, space: int | None) -> bool:
    """One radicalize action on ``space`` (RB p17): "This counts as a single action"."""
    if space is None or t.turn.actions_left <= 0:
        return False
    t.turn.actions_left -= 1
    card = t.state.market[space]
    played = _buy_and_play(t.data, t.state, t.wakhan, t.player, space, t.humans, t.records)
    if not played and M.is_event(t.data, card):
        _event(t, card)
    return True


def _tax(t: _Turn, cards: Sequence[int]) -> bool:
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
    ruled = ruled_by(state, w, w)
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


def _gift(t: _Turn, cards: Sequence[int]) -> bool:
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


def _build(t: _Turn, cards: Sequence[int]) -> bool:
    """RB p18 Build: "Wakhan will build armies in the leftmost region as listed on the AI card
    that she rules. She will spend as much of her money as possible" (up to three armies, RB
    p13, as many as the supply holds)."""
    data, state, w = t.data, t.state, t.player
    ruled = ruled_by(state, w, w)
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


def betray_choice(data: PaxData, state: State, player: int) -> int:
    """RB p18 Betray: "Wakhan will betray the highest priority card with a loyalty prize where
    she also has a spy, including those in her court"; ``NONE`` if there is none."""
    targets = [c for c in X.betray_targets(data, state, player) if data.court[c].prize != NONE]
    return choose_card(data, state, player, targets)


def wakhan_betray(
    data: PaxData,
    state: State,
    turn: A.Turn,
    player: int,
    card: int,
    target: int,
    owner_pay_with: Sequence[int] = (),
    waived: int = 0,
) -> None:
    """``military.betray`` for her: "She will always take the loyalty prize" (RB p18), with no
    loyalty change (she "can hold loyalty prizes ... belonging to different coalitions", RB
    p16); her own leveraged card is repaid with RB p16's grace."""
    owner = X.owner_of(state, target)
    lent = 0
    if owner == player:  # the grace counts the rupees left once the bribe and cost are paid
        bribe = max(0, A.hostage_bribe(data, state, player, card) - max(0, waived))
        spent = bribe + data.numbers.betray_cost
        state.rupees[player] -= spent
        lent = leverage_grace(data, state, player, [target])
        state.rupees[player] += spent
    state.rupees[player] += lent
    try:
        X.betray(data, state, turn, player, card, target, False, owner_pay_with, (), waived)
    except Exception:
        state.rupees[player] -= lent
        raise
    state.discard.remove(target)
    state.prizes[player].append(target)


def _betray(t: _Turn, cards: Sequence[int]) -> bool:
    data, state, w = t.data, t.state, t.player
    target = betray_choice(data, state, w)
    if target == NONE or not cards:
        return False
    card = cards[0]
    waived = t.waived(card, "betray", data.numbers.betray_cost) or 0
    owner = X.owner_of(state, target)
    pay = _pay_with(data, state, t.humans, owner, target) if owner != w else []
    wakhan_betray(data, state, t.turn, w, card, target, pay, waived)
    t.record(
        "betray", f"{card_name(data, card)}: {card_name(data, target)}, prize taken" + t.bonus(card)
    )
    return True


def _removable_tribes(data: PaxData, state: State, player: int, region: int) -> int:
    """``player``'s tribes in ``region`` a battle may remove (Citadel protects, cards.yaml)."""
    citadel = data.ability_cards[data.abilities.index("citadel")]
    if any(data.court[c].region == region for c in citadel if c in state.court[player]):
        return 0
    return state.tribes[state.tribe_at(region, player)]


def battle_plan(
    data: PaxData, state: State, wakhan: WakhanState, player: int, rank: int
) -> tuple[int, dict[int, int], dict[tuple[int, int], int], dict[int, int]] | None:
    """RB p18 Battle: "Wakhan will battle in the region where another player has pieces
    (tribes, loyal armies or roads) and she has at least one army. If multiple regions fulfill
    this condition, use the leftmost region as listed on the AI card. Once the region is
    chosen she will try to destroy tribes, armies, and roads in that order." Returns (region,
    armies, roads, tribes) for ``military.battle_region``, or None. Readings: only pieces she
    may remove count (not her loyalty's, not a Citadel's tribes); roads on the region's
    borders; within each kind the red arrow's player first; roads by her region priority."""
    own = state.loyalty[player]
    targets = red_targets(data, state, wakhan, player)
    coalitions: list[int] = []
    for p in targets:
        if state.loyalty[p] != own and state.loyalty[p] not in coalitions:
            coalitions.append(state.loyalty[p])
    order = region_priority(data, wakhan)
    for region in order:
        mine = state.armies[state.army_at(region, own)]
        if mine == 0:
            continue
        left = min(rank, mine)
        tribes: dict[int, int] = {}
        for p in targets:
            n = min(left, _removable_tribes(data, state, p, region))
            if n:
                tribes[p], left = n, left - n
        armies: dict[int, int] = {}
        for c in coalitions:
            n = min(left, state.armies[state.army_at(region, c)])
            if n:
                armies[c], left = n, left - n
        roads: dict[tuple[int, int], int] = {}
        neighbours = [r for r in order if r in data.adjacency[region]]
        for c in coalitions:
            for r in neighbours:
                border = X.border_between(data, region, r)
                n = min(left, state.roads[state.road_at(border, c)])
                if n:
                    roads[(border, c)], left = n, left - n
        if tribes or armies or roads:
            return region, armies, roads, tribes
    return None


def card_battle_targets(data: PaxData, state: State, player: int) -> list[int]:
    """Court cards where she and another player have spies she may remove (Indispensable
    Advisors protects its holder's, cards.yaml), highest priority first (RB p18 Battle)."""
    advisors = data.ability_cards[data.abilities.index("indispensable_advisors")]
    out = []
    for court in state.court:
        for c in court:
            if state.spies[state.spy_at(c, player)] == 0:
                continue
            if any(
                state.spies[state.spy_at(c, p)] and not any(a in state.court[p] for a in advisors)
                for p in range(state.players)
                if p != player
            ):
                out.append(c)
    return by_priority(data, state, player, out)


def _battle_card(t: _Turn, card: int, target: int) -> bool:
    data, state, w = t.data, t.state, t.player
    advisors = data.ability_cards[data.abilities.index("indispensable_advisors")]
    left = min(data.court[card].rank, state.spies[state.spy_at(target, w)])
    spies: dict[int, int] = {}
    for p in red_targets(data, state, t.wakhan, w):
        if any(a in state.court[p] for a in advisors):
            continue
        n = min(left, state.spies[state.spy_at(target, p)])
        if n:
            spies[p], left = n, left - n
    if not spies:
        return False
    X.battle_card(data, state, t.turn, w, card, target, spies, t.waived(card, "battle", 0) or 0)
    t.record(
        "battle",
        f"{card_name(data, card)} on {card_name(data, target)}: spies {spies}" + t.bonus(card),
    )
    return True


def _battle(t: _Turn, cards: Sequence[int]) -> bool:
    """RB p18 Battle, by ``battle_plan``; "If no region is chosen, she will battle on the
    highest priority court card where she and another player have spies." "If multiple
    players can be targeted in a battle action, use the red arrow"."""
    data, state, w = t.data, t.state, t.player
    if not cards:
        return False
    card = cards[0]
    plan = battle_plan(data, state, t.wakhan, w, data.court[card].rank)
    if plan is not None:
        region, armies, roads, tribes = plan
        waived = t.waived(card, "battle", 0) or 0
        pays = {p: _pay_with(data, state, t.humans, p, NONE, region) for p in tribes}
        X.battle_region(
            data, state, t.turn, w, card, region, armies, roads, tribes, waived, pay_with=pays
        )
        detail = f"{card_name(data, card)} in {data.regions[region]}: tribes {tribes}, armies {armies}, roads {roads}"
        t.record("battle", detail + t.bonus(card))
        return True
    targets = card_battle_targets(data, state, w)
    return bool(targets) and _battle_card(t, card, targets[0])


def _battle_most_spies(t: _Turn, cards: Sequence[int]) -> bool:
    """The AI action ``battle_card_most_spies_with_own_spy``: "battle on the highest-priority
    court card with the most spies where Wakhan also has a spy" (wakhan.yaml). Reading: the
    most spies of all players on the card, then priority; another player's spy to remove."""
    data, state, w = t.data, t.state, t.player
    targets = card_battle_targets(data, state, w)
    if not targets or not cards:
        return False
    total = {c: sum(state.spies[state.spy_at(c, p)] for p in range(state.players)) for c in targets}
    top = max(total.values())
    target = next(c for c in targets if total[c] == top)  # ``targets`` is in priority order
    return _battle_card(t, cards[0], target)


def move_steps(
    data: PaxData, state: State, wakhan: WakhanState, player: int, rank: int
) -> list[tuple[int, int]]:
    """Her army moves, (from, to) per step, up to ``rank`` (RB p18 Move): "Wakhan only moves
    armies and does not require any roads ... will only move her armies to adjacent regions
    where other players have tribes, using the region priority on the AI card to determine the
    choice between equally viable origins and destinations. She will seek to have only as many
    armies as there are tribes in that region. Wakhan will not move Armies if doing so would
    cause her to lose a ruler token." Readings: "tribes" are the other players'; a destination
    has fewer of her armies than that, an origin more (or none of their tribes); destinations,
    then origins, by her region priority."""
    own = state.loyalty[player]
    trial = state.copy()
    order = region_priority(data, wakhan)

    def theirs(region: int) -> int:
        return sum(
            trial.tribes[trial.tribe_at(region, p)] for p in range(trial.players) if p != player
        )

    def armies(region: int) -> int:
        return trial.armies[trial.army_at(region, own)]

    steps: list[tuple[int, int]] = []
    for _ in range(rank):
        step = None
        for dst in order:
            if theirs(dst) == 0 or armies(dst) >= theirs(dst):
                continue
            for src in order:
                if src not in data.adjacency[dst] or armies(src) == 0:
                    continue
                if theirs(src) and armies(src) - 1 < theirs(src):
                    continue
                ruled = ruler_with_wakhan(trial, src, player) == player
                trial.armies[trial.army_at(src, own)] -= 1
                trial.armies[trial.army_at(dst, own)] += 1
                if ruled and ruler_with_wakhan(trial, src, player) != player:
                    trial.armies[trial.army_at(src, own)] += 1
                    trial.armies[trial.army_at(dst, own)] -= 1
                    continue
                step = (src, dst)
                break
            if step:
                break
        if step is None:
            break
        steps.append(step)
    return steps


def _move(t: _Turn, cards: Sequence[int]) -> bool:
    """RB p18 Move by ``move_steps``, in ``actions.py``'s frame (RB p12)."""
    data, state, w = t.data, t.state, t.player
    if not cards:
        return False
    card = cards[0]
    steps = move_steps(data, state, t.wakhan, w, data.court[card].rank)
    if not steps:
        return False
    waived = t.waived(card, "move", 0) or 0
    bribe = A._check_frame(data, state, t.turn, w, card, "move", 0, waived)
    A._open(data, state, t.turn, w, card, bribe)
    own = state.loyalty[w]
    for src, dst in steps:
        state.armies[state.army_at(src, own)] -= 1
        state.armies[state.army_at(dst, own)] += 1
    moves = ", ".join(f"{data.regions[a]}->{data.regions[b]}" for a, b in steps)
    t.record("move", f"{card_name(data, card)}: {moves}" + t.bonus(card))
    return True


_CARD_ACTIONS: dict[
    str, tuple[str, Callable[[_Turn, Sequence[int]], bool], Callable[[PaxData], int]]
] = {
    "tax": ("tax", _tax, lambda d: 0),
    "gift": ("gift", _gift, lambda d: 0),
    "build": ("build", _build, lambda d: d.numbers.build_cost_per_block),
    "move": ("move", _move, lambda d: 0),
    "betray": ("betray", _betray, lambda d: d.numbers.betray_cost),
    "battle": ("battle", _battle, lambda d: 0),
    "battle_card_most_spies_with_own_spy": ("battle", _battle_most_spies, lambda d: 0),
}


def _perform(t: _Turn, key: str) -> bool:
    """Perform AI action ``key`` if valid (RB p17-18); whether it was."""
    if key in _CARD_ACTIONS:
        action, run, cost = _CARD_ACTIONS[key]
        return run(t, t.cards_for(action, cost(t.data)))
    if t.turn.actions_left <= 0:
        return False
    return _radicalize(t, radicalize_choice(t.data, t.state, t.wakhan, t.player, key))


def _bonus_actions(t: _Turn) -> None:
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
    t = _Turn(data, state, wakhan, player, humans or Humans())
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


# --- Cleanup (RB p18) --------------------------------------------------------------------------


def discard_key(data: PaxData, state: State, player: int, card: int) -> tuple[int, ...]:
    """A sort key, lowest discarded first, for RB p18 Cleanup: "discard non-political cards
    first, then non-patriots, then non-leveraged cards, then cards with the most player spies
    more than Wakhan spies, fewest spies, lowest rank, not matching the favored suit, and then
    lowest card number". Reading: "most player spies more than Wakhan spies" = the other
    players' spies less hers, most first."""
    info = data.court[card]
    mine = state.spies[state.spy_at(card, player)]
    total = sum(state.spies[state.spy_at(card, p)] for p in range(state.players))
    return (
        int(info.suit == data.suits.index("political")),
        int(info.patriot != NONE),
        int(data.icons.index("leverage") in info.icons),
        -((total - mine) - mine),
        total,
        info.rank,
        int(info.suit == state.favored),
        info.number,
    )


def cleanup_discards(data: PaxData, state: State, player: int) -> tuple[list[int], list[int]]:
    """Her court and hand discards at cleanup (RB p9 steps one and two, RB p18 order), the
    limits counted again after each discard. Reading: her hand (she plays what she buys, so
    it holds cards only by an event) is discarded in the same order."""
    trial = state.copy()
    court: list[int] = []
    while len(trial.court[player]) > court_limit(data, trial, player):
        card = min(trial.court[player], key=lambda c: discard_key(data, trial, player, c))
        discard_wakhan_card(data, trial, player, card)
        court.append(card)
    hand = sorted(trial.hand[player], key=lambda c: discard_key(data, trial, player, c))
    excess = max(0, len(hand) - hand_limit(data, trial, player))
    return court, hand[:excess]


def wakhan_cleanup(data: PaxData, state: State, player: int) -> Cleanup:
    """``cleanup.cleanup`` for her seat with ``cleanup_discards`` and RB p16's grace for
    leveraged cards (``leverage_grace``); the rest as any player's (RB p9)."""
    court, hand = cleanup_discards(data, state, player)
    lent = leverage_grace(data, state, player, court)
    state.rupees[player] += lent
    try:
        return cleanup(data, state, player, court, hand)
    except Exception:
        state.rupees[player] -= lent
        raise


# --- Setting up (RB p16) ---------------------------------------------------------------------


def setup_changes(data: PaxData, state: State, wakhan: WakhanState, player: int) -> None:
    """RB p16 Setting Up, on a ``setup.new_state`` dealt for the humans plus one ("Include
    Wakhan as a player when determining the size of the deck"): she "does not take a loyalty
    dial" (her pragmatic loyalty fills ``state.loyalty``), uses "a spare set of player
    cylinders" and four rupees like anyone (RB p4), and "will take the first turn"."""
    sync_loyalty(data, state, wakhan, player)
    state.turn = player


def new_game(
    data: PaxData,
    humans: int,
    deck_rng: random.Random,
    wakhan_rng: random.Random,
    loyalty: Sequence[int] | None = None,
    order_rng: random.Random | None = None,
) -> tuple[State, WakhanState]:
    """A game of one or two players against Wakhan (RB p16: "Wakhan can be faced by one or two
    human players"), ready for her first turn.

    Seats in turn order: Wakhan ``WAKHAN`` (0), then the humans. RB p16: "Place Wakhan's
    pieces to the right of the player who chooses their loyalty last. Wakhan will take the
    first turn": the player after her (seat 1) chose last; with two humans seat 2 chose first
    (RB p4 "Starting with a random player and proceeding clockwise"). ``loyalty``: the humans'
    coalitions by seat 1.. ; without it each is drawn from ``order_rng`` in choosing order.
    """
    if humans not in (1, 2):
        raise ValueError("Wakhan can be faced by one or two human players (RB p16)")
    if loyalty is None:
        if order_rng is None:
            raise ValueError("pass loyalty (the humans' choices) or an order_rng to draw them")
        chosen = [0] * humans
        for seat in reversed(range(humans)):  # the first chooser is the last seat
            chosen[seat] = order_rng.randrange(len(data.coalitions))
        loyalty = chosen
    if len(loyalty) != humans:
        raise ValueError(f"loyalty must give a coalition for each of {humans} humans")
    ws = new_wakhan(data, wakhan_rng)
    free = next(c for c in range(len(data.coalitions)) if c not in loyalty)
    state = new_state(data, humans + 1, deck_rng, loyalty=[free, *loyalty])
    setup_changes(data, state, ws, WAKHAN)
    return state, ws
