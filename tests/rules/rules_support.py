"""Helpers shared by the rule-by-rule tests in this directory (not a test module).

``plan(...)`` builds a Scripted strategy that answers each Decision kind from its own queue,
so a test states only the choices it cares about; ``at_influence`` puts a Faction's marker
on a level with the track's Unit slots consistent with it (1.9).
"""

from __future__ import annotations

from conftest import Scripted

from simulate.overrides import with_settings
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.variants import BASE


def default_answer(d):
    """Do-nothing defaults: stop ("done"), decline ("none", False), else the first option."""
    for stop in ("done", "none", "decline", "stop"):
        if stop in d.options:
            return stop
    if False in d.options:
        return False
    return d.options[0]


def plan(**by_kind) -> Scripted:
    """A Scripted strategy answering by Decision kind.

    Each keyword names a kind; its value is a list (answers in order; the default once
    exhausted), a callable ``(decision) -> option``, or a constant answer (a tuple is a
    constant). Kinds not named get ``default_answer``.
    """
    queues = {k: list(v) if isinstance(v, list) else v for k, v in by_kind.items()}

    def choose(d):
        v = queues.get(d.kind)
        if isinstance(v, list):
            return v.pop(0) if v else default_answer(d)
        if callable(v):
            return v(d)
        if d.kind in queues:
            return v
        return default_answer(d)

    return Scripted(choose)


def kinds(agent: Scripted) -> list[str]:
    """The kinds of Decision an agent was asked, in order."""
    return [d.kind for d in agent.asked]


def asked(agent: Scripted, kind: str) -> list:
    """The Decisions of one kind an agent was asked."""
    return [d for d in agent.asked if d.kind == kind]


def at_influence(ctx, f: int, level: int) -> None:
    """Put Faction ``f``'s Influence marker on ``level``: slots at or below it empty, slots
    above it full again from Available, as play would leave them (1.9)."""
    st = ctx.state
    pt = P.UNIT_TYPE[f]
    wanted = ctx.rules.setup_slots[f]
    for lv in range(1, ctx.rules.influence_max + 1):
        want = 0 if lv <= level else wanted[lv]
        st.avail[pt] += st.slots[f][lv] - want
        st.slots[f][lv] = want
    st.influence[f] = level


def readings_rules(**readings: bool):
    """The rules with the other reading of each named rule (rules.yaml ``readings``)."""
    return load_rules(with_settings(BASE, [(f"readings.{k}", v) for k, v in readings.items()]))
