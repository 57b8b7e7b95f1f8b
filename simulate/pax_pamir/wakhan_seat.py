"""``wakhan``: a seat played by the rulebook's automated opponent (RB pp. 16-18), named like a
strategy (``--strategy P1=wakhan``). The engine runs her turns (``wakhan.take_turn``); this
object answers what other players' turns ask of her seat, by her rules."""

from __future__ import annotations

import random
from typing import Any

from . import options as O


class WakhanSeat:
    """Her answers outside her turn: she asks every bribe in full ("Wakhan must pay all costs,
    including bribes, just like a regular player", RB p16: no waiver), uses every "may"
    ability ("Wakhan always will", RB p16), picks in events by ``wakhan.wakhan_pick`` and
    discards by RB p18's cleanup order (``wakhan.discard_key``)."""

    name = "wakhan"
    is_wakhan = True  # the engine plays this seat's turns by the Wakhan rules

    def __init__(self, **params: Any) -> None:
        if params:
            raise ValueError(f"strategy 'wakhan' takes no parameters, got {sorted(params)}")
        self.ws: Any = None

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.me = rules.seats.index(faction)
        self.data = rules.data

    def bind(self, ws: Any) -> None:
        """Her AI deck, which her choices read (the engine binds it at setup)."""
        self.ws = ws

    def choose(self, observation: Any, decision: Any) -> Any:
        from . import wakhan

        data, me, kind, opts = self.data, self.me, decision.kind, decision.options
        st = observation.state
        if kind.endswith("_ask"):
            return wakhan.wakhan_demand(max(opts))
        if kind.endswith("_pay"):
            return 1
        if kind in ("repay", "discard", "hand_discard", "court_discard"):
            court = [c for c in opts if c < len(data.court)]
            if court:
                return min(court, key=lambda c: wakhan.discard_key(data, st, me, c))
            return opts[0]
        if kind == "take_from":
            return wakhan.take_from(data, st, self.ws, me)(tuple(opts))
        if kind in ("rumor_target", "swap_with", "favored_suit", "region"):
            return wakhan.wakhan_pick(data, st, self.ws, me, kind, opts)
        cards = [o for o in opts if o != O.STOP]
        if kind in ("safe_house", "blackmail", "spy") and cards:
            return wakhan.choose_card(data, st, me, cards)
        return cards[0] if cards else opts[0]
