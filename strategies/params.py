"""Checked strategy parameters: the counts and switches of a bot's spec or lineup file, each
refused in one line when it is not what it must be."""

from __future__ import annotations

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
