"""Pax Pamir's game loop: setup, turns of up to two actions and bonus actions, cleanup,
Dominance Checks and the game's end (RB p4, p9-p15), asking a strategy per seat whenever the
rules leave a choice (``Decision``, options from ``options.py``), over the flat ``State``.

Every choice is one ``Decision`` of small-integer options; a repeated choice (a tax's
sources, a build's blocks, a move's steps, a battle's units) is asked one pick at a time with
``STOP`` once one is made. A decision with a single option is taken without asking. Bribes are
settled as RB p11 prints them, never negotiated further: the ruler (or hostage holder, RB p12)
names what it asks, 0 to the bribe ("Any portion of this cost can be waived with the
permission of the ruler"), then the payer pays it or declines ("If the bribe is not paid (or
waived), play continues as if the action had never been taken"); a declined option is not
offered again this turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import actions as A
from . import cleanup as C
from . import dominance, events, market, military, play, ruling
from . import options as O
from .cards import NONE, PaxData
from .state import EMPTY, State

HIDDEN = -1  # a card the observer cannot see (another's hand, the deck)


@dataclass(frozen=True, slots=True)
class Rules:
    """A compiled Pax Pamir variant: the data, the player count and the seats in turn order."""

    data: PaxData
    players: int
    seats: tuple[str, ...]
    max_turns: int  # a safety stop for a market nobody buys from (not a rule: ``stalled``)
    loyalty: tuple[int, ...] | None = None  # fixed starting loyalties, else each seat chooses


@dataclass(frozen=True, slots=True)
class Decision:
    """What a seat is asked: ``kind``, its legal ``options`` (small ints), the deciding seat's
    name (``faction``, the field strategies read) and a ``context`` (the card concerned)."""

    kind: str
    faction: str
    options: tuple[int, ...]
    context: Any = None


class Observation:
    """What one seat sees (issue 66, hidden information): the board, the market, every court,
    every player's rupees and hand size, its own hand; never another's hand cards or the
    deck's order. ``state`` is a copy with those cards ``HIDDEN``, made when first read."""

    __slots__ = ("data", "rules", "player", "seats", "_state", "_masked")

    def __init__(self, rules: Rules, player: int, state: State) -> None:
        self.data = rules.data
        self.rules = rules
        self.player = player
        self.seats = rules.seats
        self._state = state
        self._masked: State | None = None

    @property
    def state(self) -> State:
        if self._masked is None:
            self._masked = mask(self._state, self.player)
        return self._masked

    def determinise(self, rng: random.Random) -> State:
        """A full state consistent with what this seat sees: the unseen cards dealt at random
        into the other hands and the deck (search bots, issue 66)."""
        return determinise(self.data, self._state, self.player, rng)


def mask(state: State, player: int) -> State:
    """A copy of ``state`` with other hands and the deck ``HIDDEN`` (their sizes kept)."""
    out = state.copy()
    for p in range(state.players):
        if p != player:
            out.hand[p] = [HIDDEN] * len(out.hand[p])
    out.deck = [HIDDEN] * len(out.deck)
    return out


def determinise(data: PaxData, state: State, player: int, rng: random.Random) -> State:
    """Deal the cards ``player`` cannot see (other hands and the deck) again at random: a
    Dominance Check never into a hand (they "never enter a player's hand", RB p10)."""
    out = state.copy()
    unseen = [c for p in range(state.players) if p != player for c in state.hand[p]]
    unseen += state.deck
    court = [c for c in unseen if not market.is_event(data, c)]
    rng.shuffle(court)
    for p in range(state.players):
        if p != player:
            k = len(state.hand[p])
            out.hand[p], court = court[:k], court[k:]
    rest = court + [c for c in unseen if market.is_event(data, c)]
    rng.shuffle(rest)
    out.deck = rest
    return out


class Context:
    """One game in play: rules, state, the seats' strategies, the records."""

    def __init__(
        self,
        rules: Rules,
        state: State,
        agents: Sequence[Any],
        trace: bool = False,
        on_action: Callable[[Context], None] | None = None,
    ) -> None:
        self.rules = rules
        self.data = rules.data
        self.state = state
        self.agents = tuple(agents)
        self.log: list[tuple] | None = [] if trace else None
        self.on_action = on_action
        self.start_loyalty: tuple[int, ...] = ()
        self.dealt: frozenset[int] = frozenset()  # the game's cards (RB p4 deck building)
        self.turns = 0  # turns played
        self.decisions = 0
        self.over = False
        self.ending = ""  # early | final | stalled
        self.winner: int | None = None
        self.tied: tuple[int, ...] = ()
        self.checks: list[str] = []  # each check's dominant coalition, or "none"
        self.early_check = 0  # the check after which the game ended early, else 0
        self.loyalty_changes = 0
        self.steps: list[tuple] = []
        self.turn: A.Turn | None = None
        self.counts = [0, 0, 0]  # this turn's purchases, plays, card-based actions

    # -- asking ----------------------------------------------------------------------------
    def ask(self, player: int, kind: str, options: Sequence[int], context: Any = None) -> int:
        """The seat's pick among ``options`` (taken without asking when there is one)."""
        if len(options) == 1:
            return options[0]
        if not options:
            raise ValueError(f"decision {kind!r} of player {player} has no option")
        name = self.rules.seats[player]
        decision = Decision(kind, name, tuple(options), context)
        choice = self.agents[player].choose(Observation(self.rules, player, self.state), decision)
        if choice not in decision.options:
            raise ValueError(f"{name} chose {choice!r} for {kind}, not one of its options")
        self.decisions += 1
        if self.log is not None:
            self.log.append((self.turns + 1, name, kind, choice))
        return choice

    def repay(self, player: int) -> Callable[[Sequence[int]], int]:
        """A chooser for the cards a leveraged card's unpaid rupees cost (RB p8)."""
        return lambda cards: self.ask(player, "repay", cards)

    def take_from(self, player: int) -> Callable[[Sequence[int]], int]:
        """A chooser of the unit taken from play when the supply has none (RB p8 Component
        Limits): the placing player picks among the legal locations."""
        return lambda sources: self.ask(player, "take_from", sources)

    def acted(self) -> None:
        if self.on_action is not None:
            self.on_action(self)


def new_game(rules: Rules, rngs: dict[str, random.Random], agents: Sequence[Any], **kw: Any):
    """Setup (RB p4) with each seat choosing its loyalty in the printed order: "Starting with
    a random player and proceeding clockwise ... After the last player has chosen ... that
    player will take the first turn" (seats are in turn order: P1 chooses last)."""
    from .setup import loyalty_order, new_state

    data, n = rules.data, rules.players
    state = new_state(data, n, rngs["deck"], loyalty=rules.loyalty or [0] * n)
    ctx = Context(rules, state, agents, **kw)
    ctx.dealt = frozenset([*state.deck, *(c for c in state.market if c != EMPTY)])
    if rules.loyalty is None:
        coalitions = tuple(range(len(data.coalitions)))
        state.loyalty = [NONE] * n  # not chosen yet
        for p in loyalty_order(n, 1 % n):
            state.loyalty[p] = ctx.ask(p, "loyalty", coalitions)
    ctx.start_loyalty = tuple(state.loyalty)
    return ctx


def play_game(ctx: Context) -> Context:
    """Turns until the game ends (RB p9 Game End) or the safety stop."""
    state = ctx.state
    while not ctx.over:
        take_turn(ctx)
        ctx.turns += 1
        if ctx.over:
            break
        if ctx.turns >= ctx.rules.max_turns:
            ctx.over, ctx.ending = True, "stalled"
            ctx.winner, ctx.tied = dominance.final_standing(ctx.data, state, state.points)
            break
        state.turn = (state.turn + 1) % state.players
    return ctx


# -- a turn ----------------------------------------------------------------------------------


def take_turn(ctx: Context) -> None:
    """RB p9 Sequence of Play: up to two actions, bonus actions besides, then cleanup."""
    data, state = ctx.data, ctx.state
    p = state.turn
    ctx.turn = turn = A.new_turn(data)
    ctx.counts = [0, 0, 0]
    refused: set[int] = set()
    blackmail(ctx, p)
    while not ctx.over:
        opts = O.main_options(data, state, turn, p, refused)
        choice = ctx.ask(p, "action", opts)
        if choice == O.PASS:
            break
        if not do(ctx, p, choice):
            refused.add(choice)
        ctx.acted()
    if not ctx.over:
        clean_up(ctx, p)
    market.end_turn(state)
    ctx.steps.append(
        (
            ctx.turns + 1,
            ctx.rules.seats[p],
            ctx.counts[0],
            ctx.counts[1],
            ctx.counts[2],
            state.rupees[p],
            state.points[p],
            data.coalitions[state.loyalty[p]],
            data.suits[state.favored],
        )
    )
    ctx.acted()


def blackmail(ctx: Context, p: int) -> None:
    """Blackmail, "at the start of your turn" (cards.yaml special_abilities; RB p8)."""
    data, state = ctx.data, ctx.state
    held = [c for c in data.ability_cards[data.abilities.index("blackmail")] if c in state.court[p]]
    for _ in held:  # reading: one spy per Blackmail card a turn
        targets = military.blackmail_targets(data, state, p)
        if not targets:
            return
        pick = ctx.ask(p, "blackmail", (O.STOP, *targets))
        if pick == O.STOP:
            return
        military.blackmail(data, state, p, pick, ctx.take_from(p), ctx.repay(p))


def do(ctx: Context, p: int, choice: int) -> bool:
    """Carry out a main choice; False when a bribe went unpaid (nothing happened)."""
    verb, arg = O.verb_of(choice), O.arg_of(choice)
    if verb == O.BUY:
        purchase(ctx, p, arg)
        return True
    if verb == O.PLAY:
        return play_card(ctx, p, arg)
    return card_action(ctx, p, arg, ctx.data.actions[verb - O.FIRST_ACTION])


def purchase(ctx: Context, p: int, space: int) -> None:
    """RB p10 Purchase; an event is "resolved the moment" it is bought."""
    data, state = ctx.data, ctx.state
    row, column = divmod(space, state.columns)
    card = market.buy(data, state, p, row, column)
    ctx.turn.actions_left -= 1
    ctx.counts[0] += 1
    if market.is_dominance_check(data, card):
        dominance_check(ctx, final=_last_check(data, state))
        state.discard.append(card)
    elif market.is_event(data, card):
        resolve_event(ctx, p, card, purchased=True)


def _last_check(data: PaxData, state: State) -> bool:
    """Whether the check now resolving is the final one: no Dominance Check is left in the
    deck or the market (RB p9 Instability: "If the final Dominance Check card was discarded in
    this way, the Dominance Check will count as the final check")."""
    return not any(market.is_dominance_check(data, c) for c in (*state.deck, *state.market))


def resolve_event(ctx: Context, p: int, card: int, purchased: bool) -> None:
    """An event's effect, its choices asked in order (RB p10 Event Cards)."""
    picks: list[int] = []
    for who, kind, opts in events.choices(ctx.data, ctx.state, p, card, purchased, (), ctx.repay):
        picks.append(ctx.ask(who, kind, opts, card))
    events.resolve(ctx.data, ctx.state, p, card, purchased, picks, ctx.repay)


def _settle(ctx: Context, payer: int, to: int, owed: int, kind: str, extra: int = 0) -> int:
    """A bribe as RB p11 prints it: the receiver asks 0..owed, the payer pays or declines.
    Returns the rupees asked, or -1 when declined (or not affordable with ``extra`` more)."""
    if owed <= 0:
        return 0
    asked = ctx.ask(to, f"{kind}_ask", tuple(range(owed + 1)))
    if asked == 0:
        return 0
    if ctx.state.rupees[payer] < asked + extra:
        return -1
    return asked if ctx.ask(payer, f"{kind}_pay", (1, 0)) else -1


def play_card(ctx: Context, p: int, card: int) -> bool:
    """RB p11 Play: the bribe, the court's end, the icons' choices, then ``play.play``."""
    data, state = ctx.data, ctx.state
    ruler, owed = ruling.bribe(data, state, p, card)
    asked = _settle(ctx, p, ruler, owed, "bribe")
    if asked < 0:
        return False
    if asked:
        ruling.pay_bribe(state, p, ruler, asked, owed)
    side = play.RIGHT
    if state.court[p]:
        side = ctx.ask(p, "side", (play.LEFT, play.RIGHT), card)
    n_roads, _ = O.play_needs(data, card)
    roads = [ctx.ask(p, "road", play.road_options(data, card), card) for _ in range(n_roads)]
    def spies(cards: tuple[int, ...]) -> int:  # asked as each spy icon resolves (RB p11)
        return ctx.ask(p, "spy", cards, card)

    before = state.loyalty[p]
    play.play(
        data, state, p, card, side, roads, spies, pay_with=ctx.repay(p), take_from=ctx.take_from(p)
    )
    ctx.loyalty_changes += state.loyalty[p] != before
    ctx.turn.actions_left -= 1
    ctx.counts[1] += 1
    return True


def card_action(ctx: Context, p: int, card: int, name: str) -> bool:
    """RB p12 Card-Based Actions: the hostage bribe first, then the action's own choices."""
    data, state, turn = ctx.data, ctx.state, ctx.turn
    owed = A.hostage_bribe(data, state, p, card)
    holder = A.hostage_holder(state, card, p)
    least = {"gift": A.gift_cost(data, state, p), "betray": data.numbers.betray_cost}
    least["build"] = data.numbers.build_cost_per_block
    asked = _settle(ctx, p, holder, owed, "hostage", least.get(name, 0))
    if asked < 0:
        return False
    waived = owed - asked
    budget = state.rupees[p] - asked
    if name == "tax":
        _tax(ctx, p, card, waived)
    elif name == "gift":
        A.gift(data, state, turn, p, card, waived, ctx.take_from(p), ctx.repay(p))
    elif name == "build":
        _build(ctx, p, card, waived, budget)
    elif name == "move":
        _move(ctx, p, card, waived)
    elif name == "betray":
        before = state.loyalty[p]
        target = ctx.ask(p, "betray", military.betray_targets(data, state, p), card)
        prize = data.court[target].prize != NONE and bool(ctx.ask(p, "prize", (1, 0), target))
        owner = military.owner_of(state, target)
        military.betray(
            data, state, turn, p, card, target, prize, ctx.repay(owner), ctx.repay(p), waived
        )
        ctx.loyalty_changes += state.loyalty[p] != before
    else:
        _battle(ctx, p, card, waived)
    ctx.counts[2] += 1
    return True


def _repeat(
    ctx: Context,
    p: int,
    kind: str,
    card: int,
    most: int,
    options: Callable[[], Sequence[int]],
    on_pick: Callable[[int], None] | None = None,
) -> list[int]:
    """Up to ``most`` picks of a repeated choice, ``STOP`` offered after the first;
    ``on_pick`` records each pick before the next options are computed."""
    picks: list[int] = []
    while len(picks) < most:
        opts = tuple(options())
        if not opts:
            break
        pick = ctx.ask(p, kind, (*opts, O.STOP) if picks else opts, card)
        if pick == O.STOP:
            break
        picks.append(pick)
        if on_pick is not None:
            on_pick(pick)
    return picks


def _tax(ctx: Context, p: int, card: int, waived: int) -> None:
    """RB p13 Tax: one rupee at a time, up to the card's rank."""
    data, state = ctx.data, ctx.state
    ruled = O.ruled_regions(data, state, p)
    from_market: dict[int, int] = {}
    from_players: dict[int, int] = {}

    def take(pick: int) -> None:
        if pick >= O.PLAYER_CODE:
            who = pick - O.PLAYER_CODE
            from_players[who] = from_players.get(who, 0) + 1
        else:
            from_market[pick] = from_market.get(pick, 0) + 1

    _repeat(
        ctx,
        p,
        "tax",
        card,
        data.court[card].rank,
        lambda: O.tax_sources(data, state, p, ruled, from_market, from_players),
        take,
    )
    A.tax(data, state, ctx.turn, p, card, ruled, from_market, from_players, waived)


def _build(ctx: Context, p: int, card: int, waived: int, budget: int) -> None:
    """RB p13 Build: up to three blocks, two rupees each, in ruled regions and their borders."""
    data, state = ctx.data, ctx.state
    ruled = O.ruled_regions(data, state, p)
    top = A.build_limit(data, state, p)
    most = max((k for k in range(top + 1) if A.build_cost(data, state, p, k) <= budget), default=0)
    spots = O.build_spots(data, ruled)
    picks = _repeat(ctx, p, "build", card, most, lambda: spots)
    armies = [s for s in picks if s < O.ROAD_CODE]
    roads = [s - O.ROAD_CODE for s in picks if s >= O.ROAD_CODE]
    extra_army = extra_road = -1
    if A._has_ability(data, state, p, "infrastructure"):  # "one extra block ..., free"
        extra = ctx.ask(p, "infrastructure", (*spots, O.STOP), card)
        if extra != O.STOP and extra >= O.ROAD_CODE:
            extra_road = extra - O.ROAD_CODE
        elif extra != O.STOP:
            extra_army = extra
    A.build(
        data, state, ctx.turn, p, card, ruled, armies, roads, waived, ctx.take_from(p),
        extra_army, extra_road,
    )  # fmt: skip


def _move(ctx: Context, p: int, card: int, waived: int) -> None:
    """RB p13 Move: one step per rank, each seen by the next on a scratch copy."""
    data, state = ctx.data, ctx.state
    scratch = state.copy()
    picks = _repeat(
        ctx,
        p,
        "move",
        card,
        data.court[card].rank,
        lambda: O.move_steps(data, scratch, p),
        lambda pick: O.apply_step(scratch, p, O.decode_step(pick)),
    )
    moves = [O.decode_step(s) for s in picks]
    military.move(data, state, ctx.turn, p, card, moves, waived, ctx.repay(p))


def _battle(ctx: Context, p: int, card: int, waived: int) -> None:
    """RB p14 Battle: the site, then one unit at a time up to the rank and one's own units."""
    data, state = ctx.data, ctx.state
    site = ctx.ask(p, "battle_site", O.battle_sites(data, state, p), card)
    removed: dict[int, int] = {}

    def take(pick: int) -> None:
        removed[pick] = removed.get(pick, 0) + 1

    room = O.battle_room(data, state, p, card, site)
    _repeat(
        ctx, p, "battle", card, room, lambda: O.battle_units(data, state, p, site, removed), take
    )
    if site >= O.CARD_SITE:
        target = site - O.CARD_SITE
        spies = {code - O.SPY_UNIT: n for code, n in removed.items()}
        saved = _safe_houses(ctx, p, target, spies)
        military.battle_card(data, state, ctx.turn, p, card, target, spies, waived, saved)
        return
    armies = {c: n for c, n in removed.items() if c < O.ROAD_UNIT}
    roads = {
        divmod(c - O.ROAD_UNIT, 4): n for c, n in removed.items() if O.ROAD_UNIT <= c < O.TRIBE_UNIT
    }
    tribes = {c - O.TRIBE_UNIT: n for c, n in removed.items() if c >= O.TRIBE_UNIT}
    repay = {who: ctx.repay(who) for who in range(state.players)}
    military.battle_region(
        data, state, ctx.turn, p, card, site, armies, roads, tribes, waived, repay
    )


def _safe_houses(ctx: Context, p: int, target: int, spies: dict[int, int]) -> list[int]:
    """Safe House: "when another player's battle removes your spy, you may put it on this
    card instead of your supply" (cards.yaml): each removed spy's owner holding one decides,
    spy by spy (never onto the battle's own card)."""
    data, state = ctx.data, ctx.state
    houses = data.ability_cards[data.abilities.index("safe_house")]
    saved: list[int] = []
    for owner, n in sorted(spies.items()):
        mine = tuple(h for h in houses if h in state.court[owner] and h != target)
        for _ in range(n if mine and owner != p else 0):
            pick = ctx.ask(owner, "safe_house", (*mine, O.STOP), target)
            if pick != O.STOP:
                saved.append(pick)
    return saved


# -- cleanup and Dominance Checks ------------------------------------------------------------


def clean_up(ctx: Context, p: int) -> None:
    """RB p9 Cleanup's four steps, the discards chosen one at a time by the player."""
    data, state = ctx.data, ctx.state
    while len(state.court[p]) > C.court_limit(data, state, p):
        pick = ctx.ask(p, "court_discard", tuple(state.court[p]))
        play.discard_from_court(data, state, p, pick, ctx.repay(p))
    excess = len(state.hand[p]) - C.hand_limit(data, state, p)
    picks: list[int] = []
    for _ in range(max(0, excess)):
        left = [c for c in state.hand[p] if c not in picks]
        picks.append(ctx.ask(p, "hand_discard", tuple(left)))
    if picks:
        C.discard_hand_to_limit(data, state, p, picks)
    for card in C.discard_events(data, state):
        if market.is_dominance_check(data, card):
            dominance_check(ctx, final=_last_check(data, state))
        else:
            resolve_event(ctx, p, card, purchased=False)
        if ctx.over:
            return
    while True:
        unstable = market.refill(data, state)
        if unstable == EMPTY:
            return
        # RB p9 Instability: "immediately perform a Dominance Check and then discard both
        # Dominance Check cards and fill the empty spaces in the market".
        for space, c in enumerate(state.market):
            if c != EMPTY and market.is_dominance_check(data, c):
                market.discard_space(state, space)
        dominance_check(ctx, final=_last_check(data, state))
        if ctx.over:
            return


def dominance_check(ctx: Context, final: bool) -> None:
    """RB p15 Dominance Checks, the game's end on the final one or an early lead."""
    data, state = ctx.data, ctx.state
    result = dominance.resolve(data, state, final)
    ctx.checks.append("none" if result.dominant is None else data.coalitions[result.dominant])
    if result.game_over:
        ctx.over = True
        ctx.winner, ctx.tied = result.winner, result.tied
        ctx.ending = "final" if result.final else "early"
        if not result.final:
            ctx.early_check = len(ctx.checks)
        return
    holder = dominance.insurrection_holder(data, state)
    if holder >= 0:  # Insurrection, "if the game goes on" (cards.yaml special_abilities)
        dominance.insurrection(data, state, ctx.take_from(holder))
