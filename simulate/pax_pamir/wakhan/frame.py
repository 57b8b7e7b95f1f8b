"""One turn of Wakhan's: the arguments and bookkeeping her steps share, and the RB p12 frame
of a card-based action (the card, its cost, the hostage bribe)."""

from __future__ import annotations

from .. import actions as A
from ..cards import PaxData
from ..state import State
from .deck import WakhanState
from .humans import Humans, demand_of
from .priorities import by_priority
from .records import Record


class WakhanTurn:
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

    # The frame of a card-based action (RB p12), checked the way ``actions.check_frame`` does.
    def waived(self, card: int, action: str, cost: int) -> int | None:
        """The hostage bribe waived if ``card`` may take ``action`` at ``cost``, else None."""
        data, state, turn, w = self.data, self.state, self.turn, self.player
        if data.actions.index(action) not in data.court[card].actions or card in turn.used:
            return None
        if not A.is_bonus(data, state, card) and turn.actions_left <= 0:
            return None
        asked = A.hostage_bribe(data, state, w, card)
        holder = A.hostage_holder(state, card, w)
        demanded = demand_of(self.humans, "hostage", holder, asked) if asked else 0
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
