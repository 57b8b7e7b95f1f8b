"""Who rules a region (RB p7 Ruling a Region) and the bribe a ruler may ask (RB p11 Play).

Pure functions over ``State``: nothing here changes it except ``pay_bribe``. The ruler tokens
are not stored: "If a player does rule a region, they should immediately take the associated
ruler token" (RB p7), so the ruler is always the one ``ruler`` computes from the pieces.

With Wakhan at seat ``State.wakhan`` (RB p16 Playing with Wakhan, -1 when none) her ruling
pieces are counted as RB p16 says and no coalition is unclaimed: every caller gets it here.
"""

from __future__ import annotations

from . import lasting, ledger
from .cards import NONE, PaxData
from .state import State


def ruling_pieces(state: State, region: int, player: int) -> int:
    """``player``'s ruling pieces in ``region``: "Tribes and loyal armies are considered ruling
    pieces" (RB p7), i.e. their tribes there plus the armies of the coalition they are loyal to
    (the example: "one tribe and two Afghan armies loyal to you"). Two players loyal to the same
    coalition both count its armies. Wakhan's (``State.wakhan``): ``wakhan_ruling_pieces``."""
    if player == state.wakhan:
        return wakhan_ruling_pieces(state, region)
    coalition = state.loyalty[player]
    return (
        state.tribes[state.tribe_at(region, player)]
        + state.armies[state.army_at(region, coalition)]
    )


def wakhan_ruling_pieces(state: State, region: int) -> int:
    """Wakhan's ruling pieces in ``region`` (``State.wakhan``'s seat), RB p16: "Do not use
    Wakhan's pragmatic loyalty to determine who rules in a region; instead, when assessing
    whether Wakhan is competing for control of a region, count her tribes and only the most
    numerous Armies of a single coalition in that region towards the number of her ruling
    pieces" (a player's coalition included: its armies count for both)."""
    armies = max(state.armies[state.army_at(region, c)] for c in range(len(state.blocks)))
    return state.tribes[state.tribe_at(region, state.wakhan)] + armies


def ruler(state: State, region: int, unclaimed_armies: bool = True) -> int:
    """The player who rules ``region``, or ``NONE`` (RB p7 Ruling a Region): "you must have at
    least one tribe and a plurality of ruling pieces (more than all others individually) ...
    If there is a tie, no player rules the region."

    The others are every other player (their own ruling pieces, tribes or not) and, with
    ``unclaimed_armies`` (the reading taken), the armies of each coalition no player is loyal
    to: "Armies belonging to enemy coalitions can prevent you from taking a ruler token, even
    if there are no enemy tribes." ``unclaimed_armies=False`` counts players only.

    With Wakhan (``State.wakhan`` >= 0) the rivals are the players only, her ruling pieces by
    ``wakhan_ruling_pieces``. Reading: RB p16 "Wakhan is effectively loyal to all coalitions",
    so no coalition is unclaimed, and no single coalition's armies outnumber hers anyway.
    """
    n = state.players
    tribes = state.tribes[region * n : region * n + n]
    if not any(tribes):
        return NONE  # nobody has "at least one tribe"
    if state.wakhan < 0:  # ``ruling_pieces``, inlined: tribes plus loyal armies
        width = len(state.blocks)
        armies = state.armies[region * width : region * width + width]
        counts = [tribes[p] + armies[state.loyalty[p]] for p in range(n)]
    else:
        counts = [ruling_pieces(state, region, p) for p in range(n)]
    rivals = list(counts)
    if unclaimed_armies and state.wakhan < 0:
        for coalition in range(len(state.blocks)):
            if coalition not in state.loyalty:
                rivals.append(state.armies[state.army_at(region, coalition)])
    for player, mine in enumerate(counts):
        if tribes[player] == 0:
            continue  # "at least one tribe"
        if all(mine > other for i, other in enumerate(rivals) if i != player):
            return player
    return NONE


def rulers(state: State, unclaimed_armies: bool = True) -> list[int]:
    """The ruler of every region, by region id (``NONE`` where nobody rules), RB p7."""
    regions = len(state.tribes) // state.players
    return [ruler(state, r, unclaimed_armies) for r in range(regions)]


def ruled_by(state: State, player: int, unclaimed_armies: bool = True) -> list[int]:
    """The regions ``player`` rules (RB p7), by region id: the ``ruled`` of tax and build."""
    return [r for r, who in enumerate(rulers(state, unclaimed_armies)) if who == player]


def never_pays_bribes(data: PaxData, state: State, player: int) -> bool:
    """Whether ``player`` holds a court card with the ability the data names
    ``charismatic_courtiers`` ("you never pay bribes to play cards", cards.yaml); RB p8 Card
    Precedence: such a card "always take[s] precedence over the rules" while in your court."""
    if "charismatic_courtiers" not in data.abilities:
        return False
    cards = data.ability_cards[data.ability_ids["charismatic_courtiers"]]
    return any(c in state.court[player] for c in cards)


def bribe(
    data: PaxData,
    state: State,
    player: int,
    card: int,
    no_bribes: bool = False,
    unclaimed_armies: bool = True,
) -> tuple[int, int]:
    """``(ruler, rupees)``: the bribe ``player`` owes to play court card ``card`` (RB p11 Play).

    "If you are the ruler of that card's region or if no one rules the region, you can freely
    play the card. If someone else is that region's ruler, you must pay a bribe of rupees to
    them that is equal to the number of the ruler's tribes in that region." ``rupees`` is 0
    (and ``ruler`` may still be named) where the player holds Charismatic Courtiers (the data's
    ability), under the discarded event Disregard for Customs ("no bribes are paid by anyone"
    until the next Dominance Check, ``State.lasting``; or ``no_bribes`` set), and for the buyer
    of Courtly Manners, who "may refuse to pay any bribe ... and act anyway" (cards.yaml).
    With Wakhan, ``ruler`` with her rules (RB p16): "Wakhan must pay all costs, including
    bribes, just like a regular player", and a player pays her as any ruler.
    """
    region = data.court[card].region
    who = ruler(state, region, unclaimed_armies)
    if who in (NONE, player):
        return NONE, 0
    if no_bribes or never_pays_bribes(data, state, player):
        return who, 0
    if lasting.active(data, state, "disregard_for_customs") or lasting.applies(
        data, state, "courtly_manners", player
    ):
        return who, 0
    return who, state.tribes[state.tribe_at(region, who)]


def pay_bribe(state: State, player: int, to: int, rupees: int, asked: int) -> None:
    """Pay ``rupees`` of an ``asked`` bribe from ``player`` to ``to`` (RB p11): "Any portion of
    this cost can be waived with the permission of the ruler", so ``rupees`` may be anything
    from 0 to ``asked``; the ruler's choice is the caller's. "If the bribe is not paid (or
    waived), play continues as if the action had never been taken": the caller does not play.
    """
    if not 0 <= rupees <= asked:
        raise ValueError(f"a bribe of {rupees} is not within 0..{asked}")
    if rupees > state.rupees[player]:
        raise ValueError(f"player {player} has {state.rupees[player]} rupees, not {rupees}")
    state.rupees[player] -= rupees
    state.rupees[to] += rupees
    ledger.record(state, player, ledger.BRIBE, paid=rupees)
    ledger.record(state, to, ledger.BRIBE, gained=rupees)
