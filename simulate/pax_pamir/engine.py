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
from .card_actions import card_action, settle
from .cards import NONE, PaxData
from .state import EMPTY, State
from .view import HIDDEN, Decision, Observation, determinise, mask

# ``Context.cards`` rows: (turn, player, card, what, value): a purchase and its price, a play
# and the court's end (``play.LEFT``/``RIGHT``), an event resolved (1 bought, 0 discarded).
BOUGHT, PLAYED, RESOLVED = "bought", "played", "resolved"

__all__ = ["HIDDEN", "Context", "Decision", "Observation", "Rules", "determinise", "mask"]


@dataclass(frozen=True, slots=True)
class Rules:
    """A compiled Pax Pamir variant: the data, the player count and the seats in turn order."""

    data: PaxData
    players: int
    seats: tuple[str, ...]
    max_turns: int  # a safety stop for a market nobody buys from (not a rule: ``stalled``)
    loyalty: tuple[int, ...] | None = None  # fixed starting loyalties, else each seat chooses
    wakhan: int = -1  # the seat Wakhan plays by the variant (``setup.wakhan``), else -1
    removed: frozenset[int] = frozenset()  # card ids never dealt (``deck.remove``)
    included: tuple[int, ...] = ()  # court card ids always dealt (``deck.include``)


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
        self.cards: list[tuple[int, int, int, str, int]] = []  # see BOUGHT, PLAYED, RESOLVED
        self.court_turns: dict[int, int] = {}  # court card -> turns ended in a court
        self.acquired: dict[int, tuple[int, int]] = {}  # card -> (player, turn) first held
        self.turn: A.Turn | None = None
        self.counts = [0, 0, 0]  # this turn's purchases, plays, card-based actions
        self.wakhan = NONE  # the seat Wakhan plays (RB p16), if any
        self.ws: Any = None  # her AI deck (``wakhan.WakhanState``)
        self.wakhan_rng: random.Random | None = None

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
            from .replay_text import describe

            said = describe(self.data, self.state, self.rules.seats, kind, choice)
            self.log.append((self.turns + 1, name, kind, said))
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
    state = new_state(
        data, n, rngs["deck"], loyalty=rules.loyalty or [0] * n,
        removed=rules.removed, included=rules.included,
    )  # fmt: skip
    ctx = Context(rules, state, agents, **kw)
    ctx.dealt = frozenset([*state.deck, *(c for c in state.market if c != EMPTY)])
    if rules.wakhan >= 0 and not getattr(agents[rules.wakhan], "is_wakhan", False):
        from .wakhan_seat import WakhanSeat

        agents = list(agents)
        agents[rules.wakhan] = WakhanSeat()
        agents[rules.wakhan].new_game(rules.seats[rules.wakhan], rngs["wakhan"], rules)
        ctx.agents = tuple(agents)
    seats = [i for i, a in enumerate(agents) if getattr(a, "is_wakhan", False)]
    if len(seats) > 1:
        raise ValueError("one seat at most plays Wakhan (RB p16)")
    ctx.wakhan = w = seats[0] if seats else NONE
    # RB p16: "Place Wakhan's pieces to the right of the player who chooses their loyalty
    # last": with Wakhan in P1's seat, P2 chooses last; she never chooses (no loyalty dial).
    order = [p for p in loyalty_order(n, (2 if w == 0 else 1) % n) if p != w]
    if rules.loyalty is None:
        coalitions = tuple(range(len(data.coalitions)))
        state.loyalty = [NONE] * n  # not chosen yet
        for p in order:
            state.loyalty[p] = ctx.ask(p, "loyalty", coalitions)
    if w != NONE:
        from . import wakhan

        ctx.ws = wakhan.new_wakhan(data, rngs["wakhan"])
        ctx.wakhan_rng = rngs["wakhan"]
        agents[w].bind(ctx.ws)
        wakhan.setup_changes(data, state, ctx.ws, w)  # her pragmatic loyalty (RB p16)
        state.turn = 0  # P1 takes the first turn: Wakhan when she sits there (RB p16)
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
    ctx.turn = A.new_turn(data)
    ctx.counts = [0, 0, 0]
    if p == ctx.wakhan:
        wakhan_turn(ctx, p)
    else:
        blackmail(ctx, p)
        actions(ctx, p, set())
    finish_turn(ctx, p)


def actions(ctx: Context, p: int, refused: set[int]) -> None:
    """The turn's actions from where it stands (``ctx.turn``): the player's main choice until
    they pass or have nothing left (RB p9). The "action" decision's context is the turn so far,
    ``(actions left, cards used, options refused)``: a search bot resumes here from it."""
    data, state, turn = ctx.data, ctx.state, ctx.turn
    while not ctx.over:
        opts = O.main_options(data, state, turn, p, refused)
        if len(opts) == 1:
            return
        context = (turn.actions_left, tuple(turn.used), tuple(sorted(refused)))
        choice = ctx.ask(p, "action", opts, context)
        if choice == O.PASS:
            return
        if not do(ctx, p, choice):
            refused.add(choice)
        sync_wakhan(ctx)
        ctx.acted()


def finish_turn(ctx: Context, p: int) -> None:
    """Cleanup (RB p9), the end of the turn's purchase ban (RB p10) and the turn's records."""
    data, state = ctx.data, ctx.state
    if not ctx.over:
        clean_up(ctx, p)
    market.end_turn(state)
    turns, acquired = ctx.court_turns, ctx.acquired
    for player in range(state.players):
        for card in state.court[player]:
            turns[card] = turns.get(card, 0) + 1
            if card not in acquired:
                acquired[card] = (player, ctx.turns + 1)
        for card in state.hand[player]:
            if card not in acquired:
                acquired[card] = (player, ctx.turns + 1)
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
    held = [c for c in data.ability_cards[data.ability_ids["blackmail"]] if c in state.court[p]]
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
    price = market.cost(data, state, column, row, p)
    card = market.buy(data, state, p, row, column)
    ctx.turn.actions_left -= 1
    ctx.counts[0] += 1
    ctx.cards.append((ctx.turns + 1, p, card, BOUGHT, price))
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
    ctx.cards.append((ctx.turns + 1, p, card, RESOLVED, int(purchased)))
    picks: list[int] = []
    for who, kind, opts in events.choices(ctx.data, ctx.state, p, card, purchased, (), ctx.repay):
        picks.append(ctx.ask(who, kind, opts, card))
    events.resolve(ctx.data, ctx.state, p, card, purchased, picks, ctx.repay)


def play_card(ctx: Context, p: int, card: int) -> bool:
    """RB p11 Play: the bribe, the court's end, the icons' choices, then ``play.play``."""
    data, state = ctx.data, ctx.state
    ruler, owed = ruling.bribe(data, state, p, card)
    asked = settle(ctx, p, ruler, owed, "bribe")
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
    ctx.cards.append((ctx.turns + 1, p, card, PLAYED, side))
    return True


def clean_up(ctx: Context, p: int) -> None:
    """RB p9 Cleanup's four steps, the discards chosen one at a time by the player (Wakhan's
    by RB p18's order, ``wakhan.cleanup_discards``)."""
    data, state = ctx.data, ctx.state
    if p == ctx.wakhan:
        from . import wakhan

        court, hand = wakhan.cleanup_discards(data, state, p)
        lent = wakhan.leverage_grace(data, state, p, court)
        state.rupees[p] += lent  # RB p16: no cards discarded for her leverage
        wakhan.forgive(state, p, lent)
        C.discard_court_to_limit(data, state, p, court)
        C.discard_hand_to_limit(data, state, p, hand)
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


def wakhan_turn(ctx: Context, p: int) -> None:
    """Wakhan's turn by RB p16-p18 (``wakhan.take_turn``); the other players answer what she
    asks of them (bribes, their picks in her events) as decisions, and the events she buys
    are resolved here as anyone's."""
    from . import wakhan

    asks: dict[tuple[str, int, int], int] = {}

    def demand(kind: str, player: int, asked: int) -> int:
        """A player's ask of her, once per bribe a turn: her rules look at a bribe before
        they act on it, and the answer stands (reading)."""
        key = (kind, player, asked)
        if key not in asks:
            word = "bribe" if kind == "play" else kind
            asks[key] = ctx.ask(player, f"{word}_ask", tuple(range(asked + 1)))
        return asks[key]

    def bought(card: int) -> bool:
        if market.is_dominance_check(ctx.data, card):
            dominance_check(ctx, final=_last_check(ctx.data, ctx.state))
            ctx.state.discard.append(card)
        else:
            resolve_event(ctx, p, card, purchased=True)
        return ctx.over

    humans = wakhan.Humans(demand=demand, resolve_event=bought, choose=ctx.ask)
    records = wakhan.take_turn(ctx.data, ctx.state, ctx.ws, p, ctx.wakhan_rng, humans)
    for action, detail in records:
        ctx.counts[0] += action == "radicalize"  # her purchase (RB p17 Radicalize)
        ctx.counts[1] += action == "play"
        ctx.counts[2] += action in ("tax", "gift", "build", "move", "betray", "battle")
        if ctx.log is not None:
            ctx.log.append((ctx.turns + 1, ctx.rules.seats[p], f"wakhan {action}", detail))


def sync_wakhan(ctx: Context) -> None:
    """Her pragmatic loyalty after another's loyalty may have changed: "always the leftmost
    loyalty on the AI card that is not shared by any other player" (RB p16)."""
    if ctx.wakhan != NONE:
        from . import wakhan

        wakhan.sync_loyalty(ctx.data, ctx.state, ctx.ws, ctx.wakhan)


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
