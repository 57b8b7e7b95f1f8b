"""Ruling and scoring with Wakhan (RB p16 General Rules, RB p18 Dominance Checks and Victory)
by their former names here: thin aliases of ``ruling`` and ``dominance``, which apply her rules
themselves when ``State.wakhan`` is her seat. A state whose ``wakhan`` is not the seat given (a
hand-made one) is read through a copy seating her there, so each alias answers as before."""

from __future__ import annotations

from .. import dominance as D
from .. import ruling
from ..cards import PaxData
from ..state import State


def _seated(state: State, wakhan: int) -> State:
    """``state`` with Wakhan at seat ``wakhan``: itself, or a copy seating her."""
    if state.wakhan == wakhan:
        return state
    seated = state.copy()
    seated.wakhan = wakhan
    return seated


def wakhan_ruling_pieces(state: State, region: int, wakhan: int) -> int:
    """``ruling.wakhan_ruling_pieces`` (RB p16: "count her tribes and only the most numerous
    Armies of a single coalition in that region towards the number of her ruling pieces")."""
    return ruling.wakhan_ruling_pieces(_seated(state, wakhan), region)


def ruling_pieces_with(state: State, region: int, player: int, wakhan: int) -> int:
    """``ruling.ruling_pieces`` in a game with Wakhan at seat ``wakhan`` (RB p7, p16)."""
    return ruling.ruling_pieces(_seated(state, wakhan), region, player)


def ruler_with_wakhan(state: State, region: int, wakhan: int) -> int:
    """``ruling.ruler`` in a game with Wakhan at seat ``wakhan`` (RB p7, p16)."""
    return ruling.ruler(_seated(state, wakhan), region)


def rulers_with_wakhan(state: State, wakhan: int) -> list[int]:
    """``ruling.rulers`` in a game with Wakhan at seat ``wakhan``."""
    return ruling.rulers(_seated(state, wakhan))


def ruled_by(state: State, player: int, wakhan: int) -> list[int]:
    """``ruling.ruled_by`` in a game with Wakhan at seat ``wakhan``."""
    return ruling.ruled_by(_seated(state, wakhan), player)


def bribe_with_wakhan(
    data: PaxData, state: State, player: int, card: int, wakhan: int, no_bribes: bool = False
) -> tuple[int, int]:
    """``ruling.bribe`` in a game with Wakhan at seat ``wakhan`` (RB p11, p16)."""
    return ruling.bribe(data, _seated(state, wakhan), player, card, no_bribes)


def wakhan_demand(asked: int) -> int:
    """What Wakhan asks of a player who owes her a bribe (to play a card in a region she rules,
    RB p11, or to use a card she holds hostage, RB p12). Reading: the rules give her no waiver
    ("Wakhan must pay all costs, including bribes, just like a regular player", RB p16), so she
    asks the full bribe: the player passes ``waived=0`` to the action."""
    return asked


def wakhan_influence(data: PaxData, state: State, wakhan: int, coalition: int) -> int:
    """``dominance.influence`` of her seat in ``coalition`` (RB p16, p18)."""
    return D.influence(data, _seated(state, wakhan), wakhan, coalition)


def dominance_check(
    data: PaxData, state: State, wakhan: int, final: bool | None = None
) -> D.CheckResult:
    """``dominance.check`` in a game with Wakhan at seat ``wakhan`` (RB p15, p18)."""
    return D.check(data, _seated(state, wakhan), final)


def resolve_dominance(
    data: PaxData, state: State, wakhan: int, final: bool | None = None
) -> D.CheckResult:
    """``dominance.resolve`` in a game with Wakhan at seat ``wakhan`` (RB p15, p18): on
    ``state`` itself, its ``wakhan`` seat put back afterwards."""
    before = state.wakhan
    state.wakhan = wakhan
    try:
        return D.resolve(data, state, final)
    finally:
        state.wakhan = before
