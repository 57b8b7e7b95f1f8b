"""RB p16 Card Priority and the choices the rules leave her (a card, a suit, a player, a
region): "Wakhan will always pick the card with the highest card priority"."""

from __future__ import annotations

from collections.abc import Sequence

from .. import dominance as D
from .. import military as X
from ..cards import NONE, PaxData
from ..state import State
from .deck import WakhanState, red_targets, region_priority


def card_priority(
    data: PaxData, state: State, wakhan: int, card: int, dominant: int | None = None
) -> tuple[int, ...]:
    """A sort key, higher first, for RB p16 Card Priority: "High: Opponent's card / Matches
    favored suit / Patriot of the dominant coalition / Has a prize that matches the dominant
    coalition / Other Patriot / Leveraged / Highest Ranking / Low: Highest numbered card".
    ``dominant``: ``dominance.dominant_coalition`` (None: no coalition is dominant). A card
    in no court (the one she is playing) counts as hers."""
    info = data.court[card]
    owner = X.owner_of(state, card)
    return (
        int(owner not in (wakhan, -1)),
        int(info.suit == state.favored),
        int(dominant is not None and info.patriot == dominant),
        int(dominant is not None and info.prize == dominant),
        int(info.patriot != NONE and info.patriot != dominant),
        int(data.icons.index("leverage") in info.icons),
        info.rank,
        info.number,
    )


def by_priority(data: PaxData, state: State, wakhan: int, cards: Sequence[int]) -> list[int]:
    """``cards`` highest priority first (RB p16: "Wakhan will always pick the card with the
    highest card priority")."""
    dominant = D.dominant_coalition(data, state)
    return sorted(
        cards, key=lambda c: card_priority(data, state, wakhan, c, dominant), reverse=True
    )


def choose_card(data: PaxData, state: State, wakhan: int, cards: Sequence[int]) -> int:
    """The card she picks among ``cards`` (RB p16), ``NONE`` if there is none: for any choice
    of a court card the rules leave her (e.g. a Blackmail spy, which "may" be placed: "Wakhan
    always will", RB p16)."""
    ranked = by_priority(data, state, wakhan, cards)
    return ranked[0] if ranked else NONE


def always_uses_may_abilities() -> bool:
    """RB p16: "If Wakhan's court cards have a Special Ability that says she 'may' do
    something, Wakhan always will." (for the engine's ability code)."""
    return True


def choose_suit(state: State) -> int:
    """RB p16: "If Wakhan needs to choose a suit, Wakhan will always select the current
    favored suit" (e.g. Pashtunwali Values)."""
    return state.favored


def choose_player(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """Another player she must name (an event's "one other player"). Reading: the red arrow
    decides, as for her battles (RB p18)."""
    return red_targets(data, state, wakhan, player)[0]


def choose_region(data: PaxData, state: State, wakhan: WakhanState, player: int) -> int:
    """A region she must name to clear of tribes and armies (the event Rebuke). Reading: the
    leftmost region on her card where the other players lose more pieces than she does (else
    the leftmost where anything stands)."""
    own = state.loyalty[player]
    order = region_priority(data, wakhan)

    def loss(region: int) -> tuple[int, int]:
        armies = [state.armies[state.army_at(region, c)] for c in range(len(state.blocks))]
        tribes = [state.tribes[state.tribe_at(region, p)] for p in range(state.players)]
        mine = tribes[player] + armies[own]
        return sum(armies) + sum(tribes) - mine, mine

    for region in order:
        theirs, mine = loss(region)
        if theirs > mine:
            return region
    return next((r for r in order if sum(loss(r)) > 0), order[0])
