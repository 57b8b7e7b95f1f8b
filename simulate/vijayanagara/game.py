"""Plays one game: builds the state from the seed, routes Decisions to the strategies, and
returns a GameResult with its per-card records (DESIGN: the flow of data)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from simulate.vijayanagara.seeds import streams

from .result import ActionRecord, GameResult, TurnRecord
from .rules import sequence, victory
from .rules.context import Context
from .rules.dice import BattleDice
from .rules.observation import Observation
from .rules.pieces import (
    BK,
    DS,
    FACTIONS,
    FORT,
    MONGOL,
    NAMES,
    NK,
    QASBAH,
    TEMPLE,
    UNITS_OF,
    VE,
)
from .rules.ruleset import Rules, load_rules
from .rules.setup import new_state
from .rules.state import GameState
from .rules.victory import vp

CARD_KINDS = {
    "event": "event",
    "mongol": "mongol",
    "succession": "succession",
    "timurid": "timurid",
}


def make_strategies(strategies: Any) -> tuple:
    """Three strategy instances (DS, BK, VE) from one spec, a dict of specs, or instances."""
    from strategies.registry import make

    if isinstance(strategies, str):
        return tuple([make(strategies) for _ in FACTIONS])
    if isinstance(strategies, Mapping):
        unknown = set(strategies) - {"DS", "BK", "VE"}
        if unknown:
            raise ValueError(f"unknown faction {sorted(unknown)[0]!r}; factions are DS, BK, VE")
        out = []
        for name in ("DS", "BK", "VE"):
            spec = strategies.get(name, "random")
            out.append(make(spec) if isinstance(spec, str) else spec)
        return tuple(out)
    if isinstance(strategies, (tuple, list)) and len(strategies) == 3:
        return tuple(strategies)
    raise ValueError("strategies must be a name, a dict by faction, or three strategy objects")


def _snapshot(
    rules: Rules, st: GameState, turn: int, card_id: str, kind: str, log: list
) -> list[TurnRecord]:
    """Each Faction's line after a card: its action and where it stands (records of issue 5)."""
    board = rules.board
    p = st.pieces
    controlled = [0, 0, 0, 0]
    trib = 0
    trib_flags = st.tributary
    control = st.control
    for s in board.province_ids:
        if trib_flags[s]:
            trib += 1
        else:
            controlled[control[s]] += 1
    over = st.over
    vps = [vp(rules, st, f, over) for f in FACTIONS]  # 5.1-5.3 (a C call compiled)
    mp, pj, dl = (
        p[rules.mountain_passes * NK + MONGOL],
        p[rules.punjab * NK + MONGOL],
        p[rules.delhi * NK + MONGOL],
    )
    n = len(p) // NK  # spaces (loops over spaces, not strides: C loops compiled)
    qasbahs = 0
    for s in range(n):
        qasbahs += p[s * NK + QASBAH]
    out = []
    for f in FACTIONS:
        u1, u2 = UNITS_OF[f]
        units = 0
        for s in range(n):
            b = s * NK
            units += p[b + u1] + p[b + u2]
        action, command, decree = log[f]
        out.append(
            tuple.__new__(  # a TurnRecord, built without its Python-level __new__
                TurnRecord,
                (
                    turn,
                    card_id,
                    kind,
                    NAMES[f],
                    action,
                    command,
                    decree,
                    vps[f],
                    st.resources[f],
                    st.cavalry[f],
                    None if f == DS else st.influence[f],
                    trib,
                    controlled[f],
                    units,
                    mp,
                    pj,
                    dl,
                    qasbahs,
                ),
            )
        )
    return out


def play_game(
    seed: int,
    strategies: Any = "random",
    variant: Any = None,
    trace: bool = False,
    on_action: Callable[[Context], None] | None = None,
    decision_timeout: float | None = None,
) -> GameResult:
    """Play one complete game from ``seed`` and return its result.

    >>> r = play_game(7)
    >>> r.winner in ("DS", "BK", "VE", None)
    True
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    rules = load_rules(variant)
    rngs = streams(seed)
    agents = make_strategies(strategies)
    state = new_state(rules, rngs["deck"])
    for f, agent in zip(FACTIONS, agents, strict=True):
        agent.new_game(NAMES[f], rngs[NAMES[f]], rules)
    log: list | None = [] if trace else None
    ctx = Context(
        rules, state, BattleDice(rngs["dice"]), agents, Observation(rules, state), log, on_action
    )
    ctx.timeout = decision_timeout
    turns: list[TurnRecord] = []
    while not state.over:
        sequence.next_card(ctx)
        card = rules.cards[state.card]
        turns.extend(_snapshot(rules, state, state.pos, card.id, CARD_KINDS[card.kind], ctx.log))
    return _result(rules, state, seed, turns, log)


def _result(rules: Rules, st: GameState, seed: int, turns: list, log: list | None) -> GameResult:
    win, tiebreak = victory.winner(rules, st)
    provinces = rules.board.provinces
    p = st.pieces
    return GameResult(
        seed=seed,
        winner=None if win is None else NAMES[win],
        vp={NAMES[f]: vp(rules, st, f, True) for f in FACTIONS},
        resources={NAMES[f]: st.resources[f] for f in FACTIONS},
        influence={"BK": st.influence[BK], "VE": st.influence[VE]},
        cavalry={NAMES[f]: st.cavalry[f] for f in FACTIONS},
        cards_played=st.pos,
        tiebreak=tiebreak,
        state_digest=st.digest(),
        mongols_in_delhi_end=p[rules.delhi * NK + MONGOL],
        delhi_timur_bonus=victory.delhi_bonus(rules, st),
        tributary_provinces_end=sum([1 for s in provinces if st.tributary[s]]),
        controlled_end={
            NAMES[f]: sum([1 for s in provinces if st.control[s] == f]) for f in FACTIONS
        },
        forts_end=sum([p[s * NK + FORT] for s in provinces]),
        temples_end=sum([p[s * NK + TEMPLE] for s in provinces]),
        troops_lost_to_mongols=st.mongol_kills,
        qasbahs_end=sum(p[QASBAH::NK]),
        qasbahs_lost_to_mongols=st.qasbah_kills,
        turns=tuple(turns),
        actions=None if log is None else tuple([ActionRecord(*row) for row in log]),
    )
