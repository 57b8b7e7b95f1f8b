"""Shared fixtures: compiled rules, empty or set-up boards, scripted strategies, loaded dice."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.context import Context
from simulate.vijayanagara.rules.observation import Observation
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.rules.setup import new_state


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", help="run the long soak/fuzz checks in full")
    parser.addoption(
        "--update-baseline",
        action="store_true",
        help="rewrite tests/baselines/drift.json from the current engine (tests/test_drift.py)",
    )


@pytest.fixture(scope="session")
def rules():
    return load_rules()


class Scripted:
    """A strategy that answers with a callable ``pick(decision)`` or from a list of answers
    (each answer must be an offered option); records every decision it was asked."""

    name = "scripted"

    def __init__(self, pick: Callable | Iterable | None = None) -> None:
        self.asked: list = []
        if pick is None:
            self._pick = lambda d: d.options[0]
        elif callable(pick):
            self._pick = pick
        else:
            queue = list(pick)
            self._pick = lambda d: queue.pop(0)

    def new_game(self, faction, rng, rules) -> None:
        pass

    def choose(self, observation, decision):
        self.asked.append(decision)
        choice = self._pick(decision)
        assert choice in decision.options, (
            f"{choice!r} not in {decision.options!r} ({decision.kind})"
        )
        return choice


class LoadedDice(random.Random):
    """Dice that roll the given faces in order (then fall back to a fixed seed)."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) - 1) / 6 + 1e-9
        return super().random()


def empty_state(rules):
    """The set-up state with the map cleared: every piece Available, all Provinces Tributary."""
    st = new_state(rules, random.Random(0))
    for i in range(len(st.pieces)):
        st.pieces[i] = 0
    st.avail = list(rules.totals)
    st.slots = [[0] * (rules.influence_max + 1) for _ in range(3)]
    st.pool = rules.cavalry_pool
    st.cavalry = [0, 0, 0]
    return st


def make_ctx(rules, state=None, dice=(), **agents) -> Context:
    """A Context over ``state`` (default: the 2.1 setup), agents by faction name (DS=..., BK=...)."""
    st = state if state is not None else new_state(rules, random.Random(0))
    team = tuple(agents.get(n) or Scripted() for n in ("DS", "BK", "VE"))
    return Context(rules, st, LoadedDice(dice), team, Observation(rules, st))


def put(ctx: Context, space: str, **counts: int) -> None:
    """Put pieces from Available into a space by counter name (troop=2, amir_rebelling=1 ...),
    then settle Control (1.7)."""
    from simulate.vijayanagara.rules.control import settle

    st = ctx.state
    s = ctx.rules.board.id(space)
    for name, n in counts.items():
        c = P.COUNTER_NAMES.index(name)
        st.pieces[s * P.NK + c] += n
        st.avail[P.COUNTER_TYPE[c]] -= n
    settle(st, s, ctx.rules.board.is_province[s])


def sid(ctx_or_rules, name: str) -> int:
    r = getattr(ctx_or_rules, "rules", ctx_or_rules)
    return r.board.id(name)
