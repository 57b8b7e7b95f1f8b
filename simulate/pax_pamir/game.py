"""Pax Pamir (Second Edition) as a game of the toolkit's protocol (``simulate.games``): seats
P1..Pn in turn order (``setup.players``), the columns of its records, its variants and data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulate.games.protocol import Column, Game, Outcome, Section
from simulate.seeds import streams

from . import dominance, ledger
from . import engine as E

_I, _S = "int32", "string"
CHECKS = 4  # the Dominance Checks of the deck (cards.yaml, RB p15)

GAME_COLUMNS = (
    Column("ending", _S, True, "early | final | stalled (RB p15 Early End, p9)", True),
    Column("early_check", _I, doc="the check after which the game ended early (RB p15)"),
    Column("checks", _I, True, "Dominance Checks resolved"),
    *(
        Column(f"check_{k}", _S, doc="the dominant coalition, or none (RB p15)", categorical=True)
        for k in range(1, CHECKS + 1)
    ),
    Column("winner_loyalty", _S, doc="the winner's coalition at the end", categorical=True),
    Column("start_loyalty", _S, True, "each seat's starting coalition, in seat order, '/'"),
    Column("end_loyalty", _S, True, "each seat's coalition at the end, in seat order, '/'"),
    Column("loyalty_changes", _I, True, "changes of loyalty over the game (RB p7)"),
    Column("decisions", _I, True, "choices asked of the seats (single options aside)"),
)
STEP_COLUMNS = (
    Column("turn", _I, False, "1-based turn number"),
    Column("seat", _S, False, "the active seat"),
    Column("purchases", _I, False, "cards purchased this turn (RB p10)"),
    Column("plays", _I, False, "cards played this turn (RB p11)"),
    Column("card_actions", _I, False, "card-based actions taken, bonus ones included (RB p12)"),
    Column("rupees", _I, False, "the seat's rupees after cleanup"),
    Column("points", _I, False, "the seat's victory points"),
    Column("loyalty", _S, False, "the seat's coalition after the turn", True),
    Column("favored", _S, False, "the favored suit after the turn", True),
)

COURT, EVENT, CHECK = "court", "event", "dominance_check"
CARD_COLUMNS = (  # one row per card dealt into the game's deck (RB p4 Build the Draw Deck)
    Column("card", _I, False, "the card's printed number"),
    Column("name", _S, False, "the card's name (an event's purchased side)"),
    Column("kind", _S, False, "court | event | dominance_check (RB p3, p10, p15)"),
    Column("region", _S, doc="a court card's region (RB p3)"),
    Column("suit", _S, doc="a court card's suit (RB p3)"),
    Column("rank", _I, doc="a court card's rank (RB p3); null for events"),
    Column("bought_by", _S, doc="the seat that bought it (RB p10); null: never, or by Wakhan"),
    Column("price", _I, doc="the rupees paid for it (RB p10); null if not bought so"),
    Column("turn_bought", _I, doc="the turn it was bought"),
    Column("acquired_by", _S, doc="the seat first holding it in hand or court, Wakhan too"),
    Column("played_by", _S, doc="the seat that played it to its court (RB p11)"),
    Column("turn_played", _I, doc="the turn it was played"),
    Column("turns_in_court", _I, doc="turns ended with it in a court; null for events"),
    Column("resolved", _S, doc="purchased | discarded (an event or check, RB p10); else null"),
    Column("resolved_by", _S, doc="the seat that bought it, or whose cleanup discarded it"),
    Column("held_at_end", _S, doc="the seat whose court holds it at the end"),
)
RUPEE_COLUMNS = (  # one row per seat and source (``ledger.SOURCES``), every source listed
    Column("seat", _S, False, "the seat whose rupees moved"),
    Column("source", _S, False, "purchase (RB p10) | market: taken from the card bought (RB p10)"
           " | tax (RB p13) | bribe (RB p11-p12) | gift, build (RB p13) | betray (RB p14) |"
           " leverage (RB p8, p11) | event (cards.yaml) | other (``ledger.SOURCES``)"),
    Column("gained", _I, False, "rupees the seat took from this source over the game"),
    Column("paid", _I, False, "rupees the seat paid to it; starting rupees (RB p4) + gained -"
           " paid over the sources = the rupees held at the end"),
)  # fmt: skip
TABLES = {"cards": CARD_COLUMNS, "rupees": RUPEE_COLUMNS}


@lru_cache(maxsize=1)
def _data() -> Any:
    from .cards import load

    return load()


class PaxPamir(Game):
    name = "pax-pamir"
    title = "Pax Pamir (Second Edition), 2-5 players (Wehrlegig Games, 2019)"
    seat_word = "seat"
    score = "points"
    score_label = "victory points"
    length = "turns"
    length_label = "turns"
    step_label = "turn"
    game_columns = GAME_COLUMNS
    step_columns = STEP_COLUMNS
    step_key = ("turn",)
    step_score = "points"
    tables = TABLES
    table_keys = {"cards": ("card",), "rupees": ("seat", "source")}
    rule_refs = {"score": "RB p15", "tiebreak": "RB p9 Game End and Victory"}
    ladder_held = (("rupees", "rupees"),)
    streams = ("deck", "P1", "P2", "P3", "P4", "P5", "wakhan")
    search_budgets = {"mcts": "playouts", "greedy": "samples"}

    def seats(self, rules: Any = None) -> tuple[str, ...]:
        return (rules or self.compile(self.base_variant())).seats

    def load_variant(self, ref: str | Path | None) -> Any:
        from .variants import FORMAT

        return FORMAT.load(ref)

    def variant_from_content(self, content: dict[str, Any], path: Path) -> Any:
        from .variants import FORMAT

        return FORMAT.from_content(content, path)

    def variant_names(self) -> list[str]:
        from .variants import FORMAT

        return [v.name for v in FORMAT.builtins()]

    def variants_dir(self) -> Path:
        from .variants import FORMAT

        return FORMAT.folder

    def data_dir(self) -> Path:
        return Path(__file__).with_name("data")

    def lineup_files(self) -> dict[str, Path]:
        """The default lineup's measured ladder at 4 players, and the shipped strength curve of
        the base game (4 players; the other counts beside it, ``strength-players-N.json``)."""
        import strategies.pax_pamir as bots

        folder = Path(bots.__file__).parent
        return {
            "exploitability": folder / "exploitability.json",
            "strength": folder / "strength.json",
        }

    def tunable(self) -> Any:
        from . import bot_space

        return bot_space

    def encoder(self, rules: E.Rules) -> Any:
        from .encoding import PaxEncoder

        return PaxEncoder(self, rules)

    def compile(self, variant: Any) -> E.Rules:
        from .variants import compile_rules

        return compile_rules(variant, _data())

    def play(
        self,
        seed: int,
        strategies: Sequence[Any],
        rules: E.Rules,
        *,
        trace: bool = False,
        on_action: Callable[[Any], None] | None = None,
        decision_timeout: float | None = None,
    ) -> Outcome:
        ctx = run(seed, strategies, rules, trace=trace, on_action=on_action)
        return outcome(seed, ctx)

    def strategy_names(self) -> dict[str, str]:
        return {
            "heuristic": "strategies.pax_pamir.heuristic:Heuristic (weights.toml)",
            "wakhan": "the rulebook's automated opponent, RB pp. 16-18 (simulate.pax_pamir.wakhan)",
            "greedy": "strategies.pax_pamir.search:Greedy (samples=4): the turn's best end",
            "mcts": "strategies.pax_pamir.search:MCTS (playouts=64, turns=0, c=0.7)",
        }

    def named_strategy(self, name: str) -> Any:
        if name == "heuristic":
            from strategies.pax_pamir.heuristic import Heuristic

            return Heuristic
        if name == "wakhan":
            from .wakhan_seat import WakhanSeat

            return WakhanSeat
        if name in ("greedy", "mcts"):
            from strategies.pax_pamir import search

            return search.Greedy if name == "greedy" else search.MCTS
        return None

    def strategy_words(self) -> dict[str, str]:
        return {
            "heuristic": "the heuristic bots",
            "random": "random play",
            "wakhan": "Wakhan",
            "greedy": "the greedy search bots",
            "mcts": "the MCTS bots",
        }

    def strategy_phrase(self, spec: str) -> str | None:
        """``mcts:playouts=N`` as a multiple of its default budget (64 playouts)."""
        name, _, rest = spec.partition(":")
        if name != "mcts":
            return None
        params = dict(p.split("=", 1) for p in rest.split(",") if "=" in p)
        ratio = float(params.get("playouts", 64)) / 64
        if ratio == 1:
            return "searching at the search bot's default budget"
        return f"searching with {ratio:g} times the search bot's default budget"

    def lineups(self) -> dict[str, str]:
        return {"default": "heuristic", "fast": "heuristic", "strong": "heuristic"}

    def strength_rungs(self) -> list[tuple[str, str]]:
        """The fast tier, then search over it at growing budgets (issue 67)."""
        return [
            ("random", "random"),
            ("heuristic", "heuristic"),
            ("greedy", "greedy"),
            ("mcts-1x", "mcts"),
            ("mcts-2x", "mcts:playouts=128"),
        ]

    def check_invariants(self, ctx: Any) -> None:
        from .invariants import check

        check(ctx)

    def report_sections(self, run: Any, figures_dir: Path | None) -> list[Section]:
        """Coalitions, Dominance Checks, loyalty, the favored suit, rupees, per-card power
        and events (``simulate.pax_pamir.report``)."""
        from .report import sections

        return sections(run, figures_dir)


def run(
    seed: int,
    strategies: Sequence[Any],
    rules: E.Rules,
    trace: bool = False,
    on_action: Callable[[Any], None] | None = None,
) -> E.Context:
    """One game from ``seed``: the deck from the ``deck`` stream, each seat's strategy given
    its own stream (DESIGN: Randomness)."""
    rngs = streams(seed, PaxPamir.streams)
    if len(strategies) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} strategies")
    for name, agent in zip(rules.seats, strategies, strict=True):
        agent.new_game(name, rngs[name], rules)
    ctx = E.new_game(rules, rngs, strategies, trace=trace, on_action=on_action)
    return E.play_game(ctx)


def tiebreak(ctx: E.Context) -> str:
    """How the winner was decided: ``none`` (early end or most points alone), ``red_stars``,
    ``rupees`` (RB p9), ``unresolved`` (the chopan kebab)."""
    if ctx.winner is None:
        return "unresolved"
    st = ctx.state
    best = max(st.points)
    tied = [p for p in range(st.players) if st.points[p] == best]
    if ctx.ending == "early" or len(tied) == 1:
        return "none"
    stars = [dominance.red_stars(ctx.data, st, p) for p in tied]
    return "red_stars" if stars.count(max(stars)) == 1 else "rupees"


def outcome(seed: int, ctx: E.Context) -> Outcome:
    data, st, seats = ctx.data, ctx.state, ctx.rules.seats
    names = data.coalitions
    checks = {
        f"check_{k + 1}": (ctx.checks[k] if k < len(ctx.checks) else None) for k in range(CHECKS)
    }
    return Outcome(
        seed=seed,
        winner=None if ctx.winner is None else seats[ctx.winner],
        scores=dict(zip(seats, st.points, strict=True)),
        length=ctx.turns,
        tiebreak=tiebreak(ctx),
        state_digest=st.digest()[:16],
        extra={
            "ending": ctx.ending,
            "early_check": ctx.early_check or None,
            "checks": len(ctx.checks),
            **checks,
            "winner_loyalty": None if ctx.winner is None else names[st.loyalty[ctx.winner]],
            "start_loyalty": "/".join(names[c] for c in ctx.start_loyalty),
            "end_loyalty": "/".join(names[c] for c in st.loyalty),
            "loyalty_changes": ctx.loyalty_changes,
            "decisions": ctx.decisions,
        },
        steps=tuple(ctx.steps),
        actions=None if ctx.log is None else tuple(ctx.log),
        tables={"cards": card_rows(ctx), "rupees": rupee_rows(ctx)},
    )


def card_rows(ctx: E.Context) -> tuple[tuple, ...]:
    """The ``cards`` table of a game (``CARD_COLUMNS``), one row per dealt card in printed
    order, from the engine's records (``Context.cards``, ``court_turns``, ``acquired``)."""
    data, st, seats = ctx.data, ctx.state, ctx.rules.seats
    first: dict[tuple[int, str], tuple[int, int, int]] = {}  # (card, what) -> turn, seat, value
    for turn, player, card, what, value in ctx.cards:
        first.setdefault((card, what), (turn, player, value))
    held = {card: seats[p] for p in range(st.players) for card in st.court[p]}
    discarded = set(st.discard)
    courts, checks = len(data.court), len(data.dominance_checks)
    rows = []
    for card in sorted(ctx.dealt):
        bought = first.get((card, E.BOUGHT))
        played = first.get((card, E.PLAYED))
        resolved = first.get((card, E.RESOLVED))
        acquired = ctx.acquired.get(card)
        if card < courts:
            c = data.court[card]
            kind, number, name = COURT, c.number, c.name
            place: tuple = (data.regions[c.region], data.suits[c.suit], c.rank)
        elif card < courts + checks:  # printed on from the court cards (RB p15)
            kind, number, name, place = CHECK, card + 1, "Dominance Check", (None, None, None)
            if bought is not None:
                resolved = (bought[0], bought[1], 1)
            elif card in discarded:
                resolved = (0, -1, 0)  # discarded at a cleanup or by instability (RB p9)
        else:
            event = data.events[card - courts - checks]
            kind, number, name = EVENT, event.number, event.purchased.name
            place = (None, None, None)
        rows.append(
            (
                number,
                name,
                kind,
                *place,
                None if bought is None else seats[bought[1]],
                None if bought is None else bought[2],
                None if bought is None else bought[0],
                None if acquired is None else seats[acquired[0]],
                None if played is None else seats[played[1]],
                None if played is None else played[0],
                ctx.court_turns.get(card, 0) if kind == COURT else None,
                None if resolved is None else ("purchased" if resolved[2] else "discarded"),
                None if resolved is None or resolved[1] < 0 else seats[resolved[1]],
                held.get(card),
            )
        )
    return tuple(rows)


def rupee_rows(ctx: E.Context) -> tuple[tuple, ...]:
    """The ``rupees`` table of a game (``RUPEE_COLUMNS``): each seat's rupees gained and paid
    by source over the game, from the final state's ledger (``State.flow``), in seat order,
    then ``ledger.SOURCES`` order."""
    seats = ctx.rules.seats
    return tuple((seats[p], source, g, paid) for p, source, g, paid in ledger.rows(ctx.state))


GAME = PaxPamir()
