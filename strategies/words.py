"""Strategy specs said as a designer reads them (issue 64): the answer of a report says
"every seat searching with four times the default budget and scoring with a learned evaluation", not
``all=mcts:value=1,rollouts=32``; the spec itself stays in the details."""

from __future__ import annotations

from strategies.vijayanagara.lineup import DEFAULT

MCTS_ROLLOUTS = 8  # mcts's default budget (strategies/vijayanagara/search/mcts.py)
_NAMED = {
    DEFAULT: "the default bots",
    "heuristic-fast": "the fast default bots",
    "heuristic-strong": "the default bots with a bigger end-game search",
    "heuristic-v1": "the first heuristic bots",
    "greedy": "a one-card greedy search",
    "random": "random play",
    "openspiel-mcts": "OpenSpiel's Monte Carlo tree search",
}
_TIMES = {2: "twice", 3: "three times", 4: "four times", 8: "eight times"}


def _times(ratio: float) -> str:
    if ratio in _TIMES:
        return _TIMES[int(ratio)]
    return f"{ratio:g} times"


def bot_words(spec: str) -> str:
    """One strategy spec (``name`` or ``name:key=value,...``) in words."""
    name, _, rest = spec.partition(":")
    params = dict(p.split("=", 1) for p in rest.split(",") if "=" in p)
    if name == "mcts":
        rollouts = float(params.get("rollouts", MCTS_ROLLOUTS))
        ratio = rollouts / MCTS_ROLLOUTS
        if ratio == 1:
            text = "searching at the search bot's default budget"
        else:
            text = f"searching with {_times(ratio)} the search bot's default budget"
        if str(params.get("value", "0")) not in ("0", "false", "False"):
            text += " and scoring with a learned evaluation"
        return text
    if name.endswith(".toml"):
        return f"the lineup file {name}"
    base = _NAMED.get(name, f"the {name} bots")
    return base + (" with changed settings" if params else "")


def lineup_words(spec: str) -> str:
    """A rung or lineup spec (``all=SPEC`` or ``DS=SPEC,...``, or a bare spec) in words:
    "with every seat searching four times deeper ..."."""
    if spec.startswith("all="):
        inner = spec.removeprefix("all=")
        words = bot_words(inner)
        if inner.split(":")[0] in _NAMED:
            return f"with {words} in every seat"
        return f"with every seat {words}"
    if "=" in spec.split(":")[0]:
        seats = [s.split("=", 1) for s in _seat_parts(spec)]
        return "with " + "; ".join(f"{seat} {bot_words(s)}" for seat, s in seats)
    return f"with {bot_words(spec)}"


def _seat_parts(spec: str) -> list[str]:
    """``DS=mcts:rollouts=16,top=6,BK=heuristic`` split at each seat (a part begins with
    ``SEAT=`` where SEAT has no ``:``)."""
    parts: list[str] = []
    for item in spec.split(","):
        head = item.split("=", 1)[0]
        if "=" in item and head.isupper() and ":" not in head:
            parts.append(item)
        elif parts:
            parts[-1] += "," + item
    return parts
