"""Event execution (2.3.4). The Event option is offered only once the event-language
interpreter exists; until then it is absent from the options, not faked."""

from __future__ import annotations

from .context import Context


def enabled(ctx: Context) -> bool:
    return False


def play_event(ctx: Context, f: int) -> str:
    raise RuntimeError("the Event option is not offered by this engine version")
