"""A search bot's budget, in one place: which parameter of each search bot is "the budget",
and a strategy spec with that budget multiplied.

The budget is counted in work, not time (a game stays reproducible from its seed): ``mcts``
in playouts per candidate (``rollouts``), ``greedy`` in determinised copies per choice
(``samples``). ``vsim ladder --budgets 1,2,4`` and the search rungs of ``vsim strength``
scale it; a parameter the spec does not give starts from the bot's own default.

>>> scaled("mcts", 2)
'mcts:rollouts=16'
>>> scaled("mcts:rollouts=32,horizon=8,top=6", 0.5)
'mcts:rollouts=16,horizon=8,top=6'
>>> budget_of("mcts:horizon=8")
('mcts', 8)
"""

from __future__ import annotations

import inspect
import math
import re

from simulate.study.errors import RunError

# The budget parameter of each search bot (its registered name), unless a game declares its
# own (``Game.search_budgets``).
BUDGETS: dict[str, str] = {"mcts": "rollouts", "greedy": "samples"}


def budgets_of(game: str | None = None) -> dict[str, str]:
    """Each search bot's budget parameter for ``game``'s bots."""
    from simulate.games import get as get_game

    return get_game(game).search_budgets or BUDGETS


def _bot(spec: str, game: str | None = None) -> tuple[str, str] | None:
    """(registered name, budget parameter) of the search bot ``spec`` plays, else None;
    RunError for a strategy nobody registered."""
    from strategies import registry

    name, _ = registry.parse_spec(spec)
    try:
        cls = registry.resolve(name, game)
    except registry.UnknownStrategy as exc:
        raise RunError(str(exc)) from None
    for bot, parameter in budgets_of(game).items():
        try:
            if registry.resolve(bot, game) is cls:
                return bot, parameter
        except registry.UnknownStrategy:  # a game without that search bot
            continue
    return None


def _default(bot: str, parameter: str, game: str | None = None) -> int:
    from strategies import registry

    return int(inspect.signature(registry.resolve(bot, game)).parameters[parameter].default)


def budget_of(spec: str, game: str | None = None) -> tuple[str, int] | None:
    """(search bot, its budget) of a strategy spec; None for a bot without a search budget."""
    from strategies import registry

    found = _bot(spec, game)
    if found is None:
        return None
    bot, parameter = found
    _, params = registry.parse_spec(spec)
    value = params.get(parameter, _default(bot, parameter, game))
    if isinstance(value, bool) or not isinstance(value, int):
        raise RunError(f"{spec!r}: {parameter} must be a whole number, got {value!r}")
    return bot, value


def scaled(spec: str, factor: float, game: str | None = None) -> str:
    """``spec`` with its search budget multiplied by ``factor`` (the other parameters as
    written); ``spec`` itself at factor 1. RunError for a bot without a budget, or a budget
    that would round below 1."""
    found = budget_of(spec, game)
    if found is None:
        names = ", ".join(f"{bot} ({p})" for bot, p in budgets_of(game).items())
        raise RunError(f"{spec!r} has no search budget to scale (bots with one: {names})")
    if factor == 1:
        return spec
    bot, value = found
    parameter = budgets_of(game)[bot]
    budget = round(value * factor)
    if budget < 1:
        raise RunError(f"{spec!r} x{factor:g}: {parameter} {value} would round to {budget}")
    name, sep, rest = spec.partition(":")
    if sep and "=" not in rest:
        raise RunError(f"{spec!r}: give the bot by its registered name ({bot}) to scale it")
    items = [x for x in rest.split(",") if x.strip()]
    mine = re.compile(rf"^\s*{re.escape(parameter)}\s*=")
    items = [x for x in items if not mine.match(x)]
    return f"{name}:{','.join([f'{parameter}={budget}', *items])}"


def parse_factors(text: str, option: str = "--budgets") -> tuple[float, ...]:
    """``1,2,4`` as positive factors in the order given (repeats dropped); RunError (one line)
    otherwise."""
    out: list[float] = []
    for item in str(text).split(","):
        try:
            factor = float(item)
        except ValueError:
            raise RunError(f"{option} {text!r}: expected factors like 1,2,4") from None
        if not math.isfinite(factor) or factor <= 0:
            raise RunError(f"{option} {text!r}: every factor must be a positive number")
        if factor not in out:
            out.append(factor)
    return tuple(out)


def label(factor: float) -> str:
    """A factor as tables and rung names print it: ``2x``, ``0.5x``."""
    return f"{factor:g}x"
