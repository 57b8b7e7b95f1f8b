"""The one error every study layer raises for bad input, and how its message is kept short."""

from __future__ import annotations


class RunError(Exception):
    """A bad input or an unusable directory, found before any game is played (one line)."""


class GamesFailed(Exception):
    """A game of a search raised (a strategy or the engine): the search stops in one line and
    keeps its finished evaluations. A broken candidate is not a weak or a distant one: scored,
    it would steer the search without a word."""


def one_line(exc: BaseException | str, limit: int = 300) -> str:
    """An exception's message on one line, at most ``limit`` characters."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
