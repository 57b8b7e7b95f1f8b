"""Decision requests: what the engine asks a Faction, with engine-generated legal options.

Every choice in the game (2.3.3 options, spaces, pieces, Cavalry, casualties, Succession
choices, Mongol Commands) is a Decision asked of the Faction that makes it. A strategy
returns one element of ``options``; anything else is an error of the strategy. A choice with
a single legal option is taken without asking.

Kinds and their options (spaces and Factions are integer ids: ``rules.board.names[s]``,
0 DS, 1 BK, 2 VE, 3 Mongols; counters as in ``pieces.py``):

=====================  ==========================================================  =========
kind                   options                                                     rule
=====================  ==========================================================  =========
action                 "command_decree" "event" "command" "limited" "pass"         2.3.3
decree_timing          "decree_first" "command_first"                              4.1
command                Command names (+ "none" with a Decree)                      3.0
space                  space ids, + "done" after the first (context: Command)      3.1.1
conscript_count        n .. 1 Troops                                               3.2.1
march_from             (troops, governors) from the context's (source, dest)       3.2.2
govern                 "governor" or (amirs, rajas removed, qasbah 0/1)            3.2.3
attack_target          defending Faction                                           3.2.4
attack_support         "none" or (space, units of kind 1, units of kind 2)        3.2.4
cavalry                "done", ("charge", die), ("screen", opposing die);         1.10
                       context: (own dice, opposing dice, own Units, opposing Units)
casualty               counter (defender) or (space, counter) (attacker)           3.2.4
rally_count            n .. 1 Units                                                3.3.1
migrate_from           (obedient, rebelling) from the context's (source, dest)     3.3.2
migrate_shift          True / False                                                3.3.2
decree                 Decree names                                                4.0
demand_obedience       space, or "done" after the first                            4.2.3
campaign_origin        space                                                       4.2.2
campaign_pickup        (troops, governors)                                         4.2.2
campaign_step          next space, or "stop" after the first step                  4.2.2
campaign_drop          (troops, governors)                                         4.2.2
build                  space                                                       4.3.2
conspire_target        (space, counter), or "done" after the first                 4.3.3
conspire_amir          "obedient" "rebelling" "none"                               4.3.3
compel_space           space                                                       4.4.3
compel_place           2 .. 0 Rajas                                                4.4.3
compel_move            "none" or (source, obedient, rebelling)                     4.4.3
compel_remove          "none" or counter                                           4.4.3
cavalry_from           Faction to take a token from (pool empty), or "none"        1.10
influence_refill       "available" or (space, counter)                             1.9
mongol_command         "amass" "advance" "attack_plunder" (+ "none", a reading)    2.4.1
mongol_advance         (from, to, n)                                               3.5.2
mongol_attack_space    space                                                       3.5.3
plunder_troop          Province to lose a Troop                                    3.5.3
compromising_gifts     True / False                                                2.4.2
succession_campaign    True / False                                                2.5.1
succession_command     "decline" or Command name (free, Limited)                   2.5.2
succession_gain        Resources taken (the rest as Cavalry)                       2.5.2
lords_shift            "done" or (faction, +1 / -1)                                2.5.3
event_side             "unshaded" "shaded" (both, always)                         2.3.4
event_space            space id, or "done" under up_to (context: op name)          schema 5
event_count            n .. 0 pieces placed (up_to) or replacements put in         6.4 6.6
event_pieces           ((counter, n), ...) removed / moved (context: space, op)    6.5-6.7
event_choose           index of a choose op's option                               6.15
=====================  ==========================================================  =========
"""

from __future__ import annotations

from typing import Any

DONE = "done"  # the option that ends a repeated choice (no more spaces, no more Cavalry)


class Decision:
    """One request: ``kind`` names the choice, ``options`` are the legal answers.

    ``context`` carries what the choice is about (the space, the Command, the battle),
    as plain values; it never contains the undrawn deck.
    """

    __slots__ = ("kind", "faction", "options", "context")

    def __init__(self, kind: str, faction: str, options: tuple, context: Any = None) -> None:
        self.kind = kind
        self.faction = faction
        self.options = options
        self.context = context

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, {self.faction}, {len(self.options)} options, {self.context!r})"


class IllegalChoice(Exception):
    """A strategy returned something that is not one of the offered options."""


def render(option: object) -> str:
    """A stable text form of an option, for traces and logs."""
    if isinstance(option, tuple):
        return ",".join(render(o) for o in option)
    return str(option)
