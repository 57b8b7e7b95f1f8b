"""Dominance Checks, their scoring and the end of the game (RB p15 Dominance Checks, RB p9).

``check`` computes what a check does without touching the state; ``resolve`` applies it
(points, the board's blocks back to the supply, ``checks_done``) and ends the events that last
"until the next Dominance Check is resolved" (RB p10, ``State.lasting``); ``insurrection`` is
the ability the engine applies after a check when the game goes on. With Wakhan at seat
``State.wakhan`` (-1 when none), RB p18: "Wakhan is loyal to all coalitions so she will be in
the running no matter which coalition is dominant" (``check``, ``influence``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import lasting
from .cards import PaxData
from .cleanup import stars
from .play import ARMY_UNIT, TakeFrom, _restore, place_unit
from .state import State


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What one Dominance Check did (RB p15)."""

    dominant: int | None  # the dominant coalition, None for an unsuccessful check
    awarded: tuple[int, ...]  # victory points by player
    final: bool  # the final check: points doubled (RB p15 Final Dominance Check)
    game_over: bool  # early end (RB p15 Early End) or the final check (RB p9)
    winner: int | None  # the winning player, None while the game goes on or on a kebab tie
    tied: tuple[int, ...] = ()  # players still tied after every tiebreak (RB p9)


def blocks_in_play(state: State) -> list[int]:
    """Coalition blocks on the board, by coalition: armies plus roads (RB p2 Blocks, p15)."""
    width = len(state.blocks)
    count = [0] * width
    for table in (state.armies, state.roads):
        for i, n in enumerate(table):
            count[i % width] += n
    return count


def dominant_coalition(data: PaxData, state: State) -> int | None:
    """RB p15: "If a single coalition has the most blocks in play and at least four more than
    all other coalitions (uncombined), the Dominance Check is successful."  The lead is
    ``numbers.dominance_lead``, or under Conflict Fatigue "a lead of 2 blocks, not 4"
    (cards.yaml event_cards); None when no coalition dominates."""
    count = blocks_in_play(state)
    best = max(range(len(count)), key=count.__getitem__)
    lead = data.numbers.dominance_lead
    if lasting.active(data, state, "conflict_fatigue"):
        lead = lasting.amount(data, "conflict_fatigue")  # cards.yaml: a lead of 2
    if all(count[best] - n >= lead for c, n in enumerate(count) if c != best):
        return best
    return None


def influence(data: PaxData, state: State, player: int, coalition: int | None = None) -> int:
    """RB p15 (p7): "one influence point plus the sum of their gifts, prizes, and the number of
    patriots in their court" (patriots of the player's loyalty: a foreign one changes it).
    Until the next check (cards.yaml event_cards): Koh-i-noor Recovered, "each of your gifts is
    worth 2 influence instead of 1"; Embarrassment of Riches, "gifts are worth no influence";
    Rumor, "that player's patriots give no influence".

    ``coalition``: the coalition scored, for Wakhan's seat (``State.wakhan``) only, by default
    her pragmatic loyalty; a player has influence in their loyalty's. Hers, RB p16: she "can
    hold loyalty prizes and patriots belonging to different coalitions", so her prizes and
    patriots of ``coalition`` count, and her gifts, RB p18: "this Gift will count as influence
    in all three coalitions"."""
    if player == state.wakhan:
        if coalition is None:
            coalition = state.loyalty[player]
        prizes = sum(1 for c in state.prizes[player] if data.court[c].prize == coalition)
        patriots = sum(1 for c in state.court[player] if data.court[c].patriot == coalition)
    else:
        prizes = len(state.prizes[player])
        patriots = sum(
            1 for card in state.court[player] if data.court[card].patriot == state.loyalty[player]
        )
    if lasting.applies(data, state, "rumor", player):
        patriots = 0
    gifts = state.gifts[player]
    if lasting.active(data, state, "embarrassment_of_riches"):
        gifts = 0
    elif lasting.applies(data, state, "koh_i_noor_recovered", player):
        gifts *= 2
    return data.numbers.influence_base + gifts + prizes + patriots


def cylinders_in_play(data: PaxData, state: State, player: int) -> int:
    """RB p15: "A cylinder is considered to be in play if it is not on a player board."  The
    player board holds ``State.cylinders``; the rest of ``usable_cylinders`` (tribes, spies,
    gifts on the loyalty dial) are in play. The score-track cylinder is not usable (RB p4)."""
    return data.numbers.usable_cylinders - state.cylinders[player]


def place_points(
    scores: Sequence[tuple[int, int]], points: Sequence[int], multiplier: int = 1
) -> dict[int, int]:
    """Points by player for ``(player, score)`` ranked highest first (RB p15): "If there is a
    tie, add up the victory points for the tied places and then divide that number by the
    number of tied players (rounding down)".  ``multiplier`` doubles each place first: "This
    doubling occurs before any victory points are split" (RB p15 Final Dominance Check)."""
    ranked = sorted(scores, key=lambda ps: -ps[1])
    out: dict[int, int] = {}
    place = 0
    while place < len(ranked):
        score = ranked[place][1]
        group = [p for p, s in ranked if s == score]
        total = sum(
            points[i] * multiplier for i in range(place, place + len(group)) if i < len(points)
        )
        for player in group:
            out[player] = total // len(group)
        place += len(group)
    return out


def red_stars(data: PaxData, state: State, player: int) -> int:
    """The stars of the military (red) suit in ``player``'s court (RB p9 tiebreak, RB p6)."""
    return stars(data, state, player, "military")


def final_standing(
    data: PaxData, state: State, points: Sequence[int]
) -> tuple[int | None, tuple[int, ...]]:
    """RB p9: "the player with the most victory points wins. If one or more players have the
    same number of victory points when the game ends, the player with the most red stars in
    their court among the tied players wins. If there is still a tie, the player with the most
    rupees among the tied players wins."  The chopan kebab is left to the caller: a tie returns
    ``(None, tied players)``."""
    tied = list(range(len(points)))
    for key in (
        lambda p: points[p],
        lambda p: red_stars(data, state, p),
        lambda p: state.rupees[p],
    ):
        best = max(key(p) for p in tied)
        tied = [p for p in tied if key(p) == best]
        if len(tied) == 1:
            return tied[0], ()
    return None, tuple(tied)


def early_winner(data: PaxData, points: Sequence[int]) -> int | None:
    """RB p15 Early End: "If, after scoring a Dominance Check, the leading player has at least
    four more victory points than the next highest scoring player, the game is over and that
    player wins!"  (``numbers.early_end_lead``.)"""
    if len(points) < 2:
        return None
    order = sorted(range(len(points)), key=lambda p: -points[p])
    first, second = order[0], order[1]
    if points[first] - points[second] >= data.numbers.early_end_lead:
        return first
    return None


def check(data: PaxData, state: State, final: bool | None = None) -> CheckResult:
    """What the Dominance Check now resolving does (RB p15), the state untouched. ``final``:
    by default the deck's last check (``checks_done`` + 1 == the checks in the deck); the
    caller sets it for "If the final Dominance Check card was discarded in this way, the
    Dominance Check will count as the final check" (RB p9 Instability). With Wakhan
    (``State.wakhan``), RB p18: "Wakhan is loyal to all coalitions so she will be in the
    running no matter which coalition is dominant": a successful check ranks her by her
    ``influence`` in the dominant coalition; an unsuccessful one counts her cylinders in play
    like anyone's."""
    n = data.numbers
    if final is None:
        final = state.checks_done + 1 >= len(data.dominance_checks)
    multiplier = n.final_multiplier if final else 1
    coalition = dominant_coalition(data, state)
    players = range(state.players)
    if coalition is not None:
        # RB p15 Successful Check: "Players loyal to the Dominant Coalition score"; RB p18
        # Wakhan "will be in the running no matter which coalition is dominant".
        scores = [
            (p, influence(data, state, p, coalition))
            for p in players
            if p == state.wakhan or state.loyalty[p] == coalition
        ]
        won = place_points(scores, n.success_points, multiplier)
    else:
        # RB p15 Unsuccessful Check: "based on the number of cylinders they have in play (even
        # zero)": every player ranks.
        scores = [(p, cylinders_in_play(data, state, p)) for p in players]
        won = place_points(scores, n.failure_points, multiplier)
    awarded = tuple(won.get(p, 0) for p in players)
    after = [state.points[p] + awarded[p] for p in players]
    winner = early_winner(data, after)
    tied: tuple[int, ...] = ()
    if winner is None and final:
        winner, tied = final_standing(data, state, after)
    game_over = winner is not None or final
    return CheckResult(coalition, awarded, final, game_over, winner, tied)


def resolve(data: PaxData, state: State, final: bool | None = None) -> CheckResult:
    """Resolve a Dominance Check on ``state`` (RB p15): points awarded, ``checks_done`` + 1,
    and after a successful check "Remove all coalition blocks from the board" (to the supply,
    RB p2). Then the lasting events end: they last "until the next Dominance Check is
    resolved" (RB p10, ``lasting.end_all``: the cards held for them to the discard pile)."""
    result = check(data, state, final)
    for p, v in enumerate(result.awarded):
        state.points[p] += v
    if result.dominant is not None:
        for c, count in enumerate(blocks_in_play(state)):
            state.blocks[c] += count
        state.armies = [0] * len(state.armies)
        state.roads = [0] * len(state.roads)
    state.checks_done += 1
    lasting.end_all(data, state)
    return result


def insurrection_holder(data: PaxData, state: State) -> int:
    """The player whose court holds a card with Insurrection (cards.yaml special_abilities),
    else -1."""
    cards = data.ability_cards[data.ability_ids["insurrection"]]
    return next((p for p in range(state.players) if any(c in state.court[p] for c in cards)), -1)


def insurrection(data: PaxData, state: State, take_from: TakeFrom | None = None) -> int:
    """Insurrection: "after each Dominance Check (if the game goes on), place 2 Afghan armies in
    Kabul" (cards.yaml; RB p8 Card Precedence), while a court holds its card; the engine calls
    this after ``resolve`` when the game goes on. Blocks the supply lacks are taken from play
    (RB p8 Component Limits, the holder's ``take_from``: the data's open point 3). Returns the
    armies placed."""
    if insurrection_holder(data, state) < 0:
        return 0
    afghan, kabul = data.coalitions.index("afghan"), data.regions.index("kabul")
    backup = state.copy()
    placed = 0
    try:
        for _ in range(2):  # "2 Afghan armies"
            at = state.army_at(kabul, afghan)
            placed += place_unit(data, state, ARMY_UNIT, afghan, at, take_from)
    except Exception:
        _restore(state, backup)
        raise
    return placed
