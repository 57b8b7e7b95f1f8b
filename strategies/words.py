"""Strategy specs said as a designer reads them (issue 64): the answer of a report says
"every seat searching with four times the default budget and scoring with a learned evaluation", not
``all=mcts:value=1,rollouts=32``; the spec itself stays in the details."""

from __future__ import annotations

from simulate.games import get as get_game

MCTS_ROLLOUTS = 8  # an mcts bot's default budget (Vijayanagara's: strategies/vijayanagara/search)
_NAMED = {  # the bots every game may play; a game names its own (Game.strategy_words)
    "random": "random play",
    "openspiel-mcts": "OpenSpiel's Monte Carlo tree search",
}


def _named(game: str | None) -> dict[str, str]:
    return _NAMED | get_game(game).strategy_words()


_TIMES = {2: "twice", 3: "three times", 4: "four times", 8: "eight times"}


def _times(ratio: float) -> str:
    if ratio in _TIMES:
        return _TIMES[int(ratio)]
    return f"{ratio:g} times"


def bot_words(spec: str, game: str | None = None) -> str:
    """One strategy spec (``name`` or ``name:key=value,...``) of ``game``'s bots in words."""
    said = get_game(game).strategy_phrase(spec)
    if said is not None:
        return said
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
    base = _named(game).get(name, f"the {name} bots")
    return base + (" with changed settings" if params else "")


def lineup_words(spec: str, game: str | None = None) -> str:
    """A rung or lineup spec (``all=SPEC`` or ``P1=SPEC,...``, or a bare spec) in words:
    "with every seat searching four times deeper ..."."""
    if spec.startswith("all="):
        inner = spec.removeprefix("all=")
        words = bot_words(inner, game)
        if inner.split(":")[0] in _named(game):
            return f"with {words} in every seat"
        return f"with every seat {words}"
    if "=" in spec.split(":")[0]:
        seats = [s.split("=", 1) for s in _seat_parts(spec)]
        return "with " + "; ".join(f"{seat} {bot_words(s, game)}" for seat, s in seats)
    return f"with {bot_words(spec, game)}"


def _seat_parts(spec: str) -> list[str]:
    """``P1=mcts:rollouts=16,top=6,P2=heuristic`` split at each seat (a part begins with
    ``SEAT=`` where SEAT has no ``:``)."""
    parts: list[str] = []
    for item in spec.split(","):
        head = item.split("=", 1)[0]
        if "=" in item and head.isupper() and ":" not in head:
            parts.append(item)
        elif parts:
            parts[-1] += "," + item
    return parts
