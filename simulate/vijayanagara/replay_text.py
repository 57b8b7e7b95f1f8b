"""How ``vsim replay`` prints a Vijayanagara game: each card (its title, who did what, VP and
Resources) or, traced, each decision with spaces by name."""

from __future__ import annotations

from typing import Any


class _Names:
    """Card titles and space names for a person reading a replay (decisions.py: options
    that are space ids are shown as names)."""

    SPACE_KINDS = frozenset(
        {"space", "demand_obedience", "campaign_origin", "campaign_step", "build"}
        | {"compel_space", "mongol_attack_space", "plunder_troop", "event_space"}
    )

    def __init__(self, rules) -> None:
        self.spaces = rules.board.names
        self.titles = {c.id: c.title for c in rules.cards}

    def card(self, card_id: str, kind: str) -> str:
        return self.titles.get(card_id) or kind

    def option(self, kind: str, option: str) -> str:
        if kind in self.SPACE_KINDS and option.isdigit() and int(option) < len(self.spaces):
            return self.spaces[int(option)]
        return option


def lines(outcome: Any, rules: Any, trace: bool) -> list[str]:
    """The replay's lines: per decision when traced, else per card and Faction."""
    names = _Names(rules)
    out = []
    if trace and outcome.actions is not None:
        out.append(f"{'card':>4} {'who':<3} {'decision':<24} choice")
        for a in outcome.actions:
            out.append(f"{a.turn:>4} {a.faction:<3} {a.kind:<24} {names.option(a.kind, a.option)}")
        return out
    out.append(
        f"{'card':>4} {'id':<4} {'title':<28} {'faction':<7} {'action':<40} {'VP':>3} {'Res':>4}"
    )
    for t in outcome.steps:
        what = t.action + (f" {t.command}" if t.command else "")
        what += f" + {t.decree}" if t.decree else ""
        out.append(
            f"{t.turn:>4} {t.card_id:<4} {names.card(t.card_id, t.card_kind):<28.28} "
            f"{t.faction:<7} {what:<40} {t.vp:>3} {t.resources:>4}"
        )
    return out
