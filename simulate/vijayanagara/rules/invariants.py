"""Invariants that hold after every action: a rules bug shows up here (1.4-1.10)."""

from __future__ import annotations

from .control import controller
from .pieces import (
    AMIR_OB,
    BK,
    COUNTER_OWNER,
    COUNTER_TYPE,
    MI,
    NK,
    PIECE_TYPES,
    RAJA_OB,
    STRUCTURES,
    UNIT_TYPE,
    VE,
)
from .ruleset import Rules
from .state import GameState


class InvariantError(AssertionError):
    """A state no legal play can reach."""


def check(state: GameState, rules: Rules) -> None:
    """Raise InvariantError naming the first broken invariant."""
    board = rules.board
    p = state.pieces
    is_province, counter_type, counter_owner = board.is_province, COUNTER_TYPE, COUNTER_OWNER
    on_map = [0] * len(PIECE_TYPES)
    for s in range(board.n):
        province = is_province[s]
        b = s * NK
        for c in range(NK):
            v = p[b + c]
            if v < 0:
                raise InvariantError(f"negative count of {c} in {board.names[s]}")
            if not v:
                continue
            t = counter_type[c]
            on_map[t] += v
            owner = counter_owner[c]
            if owner in (BK, VE) and not province:
                raise InvariantError(f"BK/VE piece in {board.names[s]} (1.3.2, 1.3.3)")
            if owner == MI and province:
                raise InvariantError(f"Mongol Invader in Province {board.names[s]} (1.3.1)")
            if v > 1 and c in STRUCTURES:  # Key Terms, Stacking: one of each Faction's
                raise InvariantError(f"stacking broken in {board.names[s]} (1.4.4)")
            # (a Qasbah may stand in any space, 3.2.3; Forts and Temples, owned by BK and VE,
            # only in Provinces: the check above)
        if not province:
            if state.tributary[s] or state.control[s] != -1:
                raise InvariantError(
                    f"{board.names[s]} is not a Province but is Tributary/Controlled (1.7)"
                )
            continue
        expected = -1 if state.tributary[s] else controller(state, s)
        if state.control[s] != expected:
            raise InvariantError(
                f"Control of {board.names[s]} is {state.control[s]}, pieces say {expected} (1.7)"
            )
        if state.control[s] == BK and p[s * NK + AMIR_OB]:
            raise InvariantError(f"Obedient Amir in Bahmani-Controlled {board.names[s]} (1.4.5)")
        if state.control[s] == VE and p[s * NK + RAJA_OB]:
            raise InvariantError(
                f"Obedient Raja in Vijayanagara-Controlled {board.names[s]} (1.4.5)"
            )
    on_track = [0] * len(PIECE_TYPES)
    for f in (BK, VE):
        on_track[UNIT_TYPE[f]] += sum(state.slots[f])
    for pt, name in enumerate(PIECE_TYPES):
        if state.avail[pt] < 0:
            raise InvariantError(f"negative Available {name}")
        total = on_map[pt] + state.avail[pt] + on_track[pt]
        if total != rules.totals[pt]:
            raise InvariantError(
                f"{name}: map {on_map[pt]} + Available {state.avail[pt]} + track {on_track[pt]} != {rules.totals[pt]} (1.4)"
            )
    for f in range(3):
        if not 0 <= state.resources[f] <= rules.resources_max:
            raise InvariantError(
                f"Resources of faction {f} = {state.resources[f]} outside 0..{rules.resources_max} (1.8)"
            )
        if state.cavalry[f] < 0:
            raise InvariantError(f"negative Cavalry for faction {f} (1.10)")
        if not 0 <= state.influence[f] <= rules.influence_max:
            raise InvariantError(f"Influence of faction {f} outside 0..{rules.influence_max} (1.9)")
    if state.pool < 0 or state.pool + sum(state.cavalry) != rules.cavalry_pool:
        raise InvariantError(
            f"Cavalry tokens: pool {state.pool} + held {sum(state.cavalry)} != {rules.cavalry_pool} (1.10)"
        )
    for f in (BK, VE):
        for level in range(1, rules.influence_max + 1):
            if state.slots[f][level] and state.influence[f] >= level:
                raise InvariantError(f"Units still on a reached Influence slot {level} (1.9)")
