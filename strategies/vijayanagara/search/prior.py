"""A fitted prior over an end-game mcts's candidates (a lineup seat's ``mcts_prior`` file:
its ``mcts_rank`` and ``mcts_pick`` tables).

The small end-game search keeps few candidates and plays each out once, so its two scores
(the margin after the card, then one playout) are short-sighted and noisy. A prior, fitted
to the values mcts's own budget gives the same candidates
(``strategies/vijayanagara/fitting/prior_fit.py``), corrects both by the kind of move (2.3.3: the
action, Command, Decree, Event side) and how late in the search's window it is:

- ``rank`` terms are added to each candidate's margin after the card when the screen keeps
  the ``top`` best (an empty table: the margin alone, as without a prior);
- ``pick`` terms choose among the survivors: ``card`` and ``playouts`` weigh the margin
  after the card and the playouts' mean, the rest are biases (empty: the playouts' mean).

A term is ``a:ACTION``, ``c:COMMAND``, ``d:DECREE``, ``s:SIDE`` or ``own`` (the policy's
own pick), each alone or crossed with the window's progress (``...*late``: 0 when the window
opens, near 1 at the last card).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from simulate.vijayanagara.rules.events import SIDES  # an Event's two texts (2.3.4)
from simulate.vijayanagara.rules.sequence import NO_COMMAND
from simulate.vijayanagara.rules.summation import ordered_sum

from .searcher import ACTIONS

KINDS = {"a": "action", "c": "command", "d": "decree", "s": "side"}
LATE = "*late"


class Prior(NamedTuple):
    """Compiled ``mcts_rank`` and ``mcts_pick`` tables: each a pair (plain, late) of
    {feature: weight}, and the pick's weights on the card's margin and the playouts."""

    rank: tuple[dict, dict]
    pick: tuple[dict, dict]
    card: float
    playouts: float
    picks: bool  # whether the pick has terms (else the playouts' mean alone)

    def bias(self, table: tuple[dict, dict], features: tuple, late: float) -> float:
        plain, crossed = table
        return ordered_sum(plain.get(f, 0.0) + late * crossed.get(f, 0.0) for f in features)


def features(action: str, plan: dict, own: bool) -> tuple:
    """The prior's features of one candidate (its action, Command, Decree, Event side)."""
    out = [f"a:{action}"]
    for short in ("c", "d", "s"):
        value = plan.get(KINDS[short])
        if value:
            out.append(f"{short}:{value}")
    if own:
        out.append("own")
    return tuple(out)


def _known(rules: Any) -> set[str]:
    # NO_COMMAND: a Decree without a Command (a policy's plan when no Command pays, 3.0)
    names = {f"a:{a}" for a in ACTIONS} | {f"s:{s}" for s in SIDES} | {"own", f"c:{NO_COMMAND}"}
    for faction in rules.factions.values():
        names |= {f"c:{c}" for c in faction["commands"]}
        names |= {f"d:{d}" for d in faction.get("decrees", ())}
    return names


def compile_prior(rank: dict, pick: dict) -> Prior | None:
    """The prior of ``mcts_rank`` and ``mcts_pick`` tables (None when both are empty),
    checked: an unknown term or a value that is not a number is refused in one line."""
    if not rank and not pick:
        return None
    from simulate.vijayanagara.rules.ruleset import load_rules

    known = _known(load_rules())
    tables = []
    weights = {"card": 0.0, "playouts": 1.0}
    for key, terms in (("mcts_rank", rank), ("mcts_pick", pick)):
        if not isinstance(terms, dict):
            raise ValueError(f"{key} must be a table of terms, got {terms!r}")
        plain: dict[str, float] = {}
        crossed: dict[str, float] = {}
        for name, w in terms.items():
            if not isinstance(w, (int, float)) or isinstance(w, bool):
                raise ValueError(f"{key}.{name} must be a number, got {w!r}")
            if key == "mcts_pick" and name in weights:
                weights[name] = float(w)
                continue
            base = name.removesuffix(LATE)
            if base not in known:
                extra = ", card, playouts" if key == "mcts_pick" else ""
                raise ValueError(
                    f"{key}: unknown term {name!r} (a:ACTION, c:COMMAND, d:DECREE, "
                    f"s:SIDE or own, optionally with *late{extra})"
                )
            (crossed if name.endswith(LATE) else plain)[base] = float(w)
        tables.append((plain, crossed))
    return Prior(tables[0], tables[1], weights["card"], weights["playouts"], bool(pick))


def load_prior(path: str | Path) -> Prior | None:
    """The prior a file holds (its ``[mcts_rank]`` and ``[mcts_pick]`` tables), checked, and
    read again only when it changes; ValueError in one line for a missing or bad file."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"prior file {str(path)!r} not found")
    st = p.stat()
    return _load_prior(str(p.resolve()), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=16)
def _load_prior(path: str, mtime_ns: int, size: int) -> Prior | None:
    try:
        with open(path, "rb") as fh:
            tables = tomllib.load(fh)
        unknown = sorted(set(tables) - {"mcts_rank", "mcts_pick"})
        if unknown:
            raise ValueError(f"unknown table {unknown[0]!r} (mcts_rank or mcts_pick)")
        return compile_prior(tables.get("mcts_rank", {}), tables.get("mcts_pick", {}))
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise ValueError(f"prior file {Path(path).name!r}: {' '.join(str(exc).split())}") from None
