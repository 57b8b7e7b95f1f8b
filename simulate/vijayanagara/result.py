"""What one game returns: the final outcome and its per-card records (5.0-5.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

FACTIONS = ("DS", "BK", "VE")


class TurnRecord(NamedTuple):
    """One faction's line for one card: what it did and where it stood after the card."""

    turn: int  # 1-based position of the card in the deck
    card_id: str  # "12" (Event), "M3" (Mongol Invasion), "zenith"/"rise"/"lords", "T1"/"T2"
    card_kind: str  # event | mongol | succession | timurid
    faction: str  # DS | BK | VE
    action: str  # event_unshaded | event_shaded | command_decree | command | limited | pass | none
    command: str | None  # command name, or the Mongol Commands "amass+advance" on an Invasion card
    decree: str | None
    vp: int
    resources: int
    cavalry: int
    influence: int | None  # None for DS
    tributary_provinces: int
    controlled_provinces: int
    units_on_map: int
    mongols_mountain_passes: int
    mongols_punjab: int
    mongols_delhi: int
    qasbahs: int  # Qasbahs on the map, Delhi and the Mongol Regions included (3.2.3)


class ActionRecord(NamedTuple):
    """One decision of a traced game: who decided what, and the option chosen."""

    turn: int
    faction: str  # DS | BK | VE
    kind: str  # the Decision kind
    option: str  # the chosen option, rendered as text


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one complete game (5.0): winner, scores, and its records."""

    seed: int
    winner: str | None  # None: a tie that survived the Resources tiebreak (5.0)
    vp: dict[str, int]
    resources: dict[str, int]
    influence: dict[str, int]  # BK and VE
    cavalry: dict[str, int]
    cards_played: int
    tiebreak: str  # "none" | "resources" | "unresolved"
    state_digest: str
    mongols_in_delhi_end: int
    delhi_timur_bonus: int  # 5.1: 3 minus the Invaders left in Delhi, at least -3
    tributary_provinces_end: int
    controlled_end: dict[str, int]  # Provinces Controlled by each Faction at the end
    forts_end: int
    temples_end: int
    troops_lost_to_mongols: int  # Sultanate Units removed by Mongol attacks and plunder
    qasbahs_end: int  # Qasbahs on the map at the end (every space)
    qasbahs_lost_to_mongols: int  # Qasbahs removed by Mongol attacks (3.5.3, 2.6)
    turns: tuple[TurnRecord, ...] = field(default=())
    actions: tuple[ActionRecord, ...] | None = None
