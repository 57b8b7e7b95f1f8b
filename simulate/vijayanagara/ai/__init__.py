"""Vijayanagara for the AI adapters (``simulate.ai``, extra ``ai``): its encoder and action
order (``encoding``), its stepper with chance nodes (``stepper``, ``chance``), the adapters'
hooks (``adapter``) and where OpenSpiel's search starts (``search``). docs/ai.md."""

from __future__ import annotations

from typing import Any


def encoder(rules: Any, game: Any) -> Any:
    """The game's encoder over ``rules`` (``simulate.ai.encoding``'s protocol)."""
    from .adapter import Adapter

    return Adapter(rules, game)
