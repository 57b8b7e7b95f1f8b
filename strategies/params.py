"""Checked strategy parameters: the counts and switches of a bot's spec or lineup file, each
refused in one line when it is not what it must be, and a parameter a strategy does not take
refused naming the strategy's own."""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Sequence
from typing import Any


def checked_count(key: str, value: Any, low: int = 0) -> int:
    """``value``, an integer of at least ``low`` (0 or 1), or ValueError in one line: the
    counts of a seat's search and of the search bots' budgets."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        kind = "positive" if low else "non-negative"
        raise ValueError(f"{key} must be a {kind} integer, got {value!r}")
    return value


def checked_flag(key: str, value: Any) -> bool:
    """``value``, true or false, or ValueError in one line."""
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, got {value!r}")
    return value


def no_such_parameter(
    strategy: str, key: str, groups: dict[str, Sequence[str]], otherwise: str = ""
) -> str:
    """The one-line refusal of a spec parameter ``strategy`` does not take (issue 64): the
    parameter, the closest of the names in ``groups`` if one is close ("did you mean
    rollouts?", else ``otherwise`` in its place), then each group's names, the strategy's
    own first: ``{"its parameters": [...], "its search settings": [...]}``."""
    names = [name for group in groups.values() for name in group]
    close = difflib.get_close_matches(key.removeprefix("play."), names, n=1, cutoff=0.75)
    hint = f" (did you mean {close[0]}?)" if close else f" ({otherwise})" if otherwise else ""
    listed = "".join(f"; {label}: {', '.join(group)}" for label, group in groups.items() if group)
    return f"{strategy} has no parameter {key!r}{hint}{listed}"


def own_parameters(made: Any) -> tuple[list[str], bool] | None:
    """The keyword parameters a strategy class (or any callable) names, in order, and
    whether it takes any other (``**params``); None when its signature cannot be read."""
    try:
        signature = inspect.signature(made)
    except (TypeError, ValueError):
        return None
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    kinds = [p.kind for p in signature.parameters.values()]
    names = [p.name for p in signature.parameters.values() if p.kind in named]
    return names, inspect.Parameter.VAR_KEYWORD in kinds


def unknown_bare_weight(exc: Exception, params: dict[str, Any]) -> str | None:
    """The parameter of ``params`` named bare (``rolouts``, or ``play.rolouts`` as a lineup's
    search settings are) that a policy's error ``exc`` refuses as an unknown weight, if one
    is: a misspelled parameter rather than a weight's path (``eval.P1.x``, whose own error
    lists the weights where it points)."""
    text = str(exc)
    return next(
        (
            k
            for k in params
            if "." not in k.removeprefix("play.") and f"unknown weight {k!r}" in text
        ),
        None,
    )
