"""Numbers as the report prints them (Jinja2 filters): percentages, intervals, p-values."""

from __future__ import annotations

import math
from typing import Any


def paragraphs(*parts: str) -> str:
    """A section's body: its non-empty parts, a blank line between them."""
    return "\n\n".join(p for p in parts if p)


def pct(x: float, digits: int = 1) -> str:
    return "–" if x is None or x != x else f"{100 * x:.{digits}f}%"


def pct_ci(lo: float, hi: float, digits: int = 1) -> str:
    if lo != lo or hi != hi:
        return "–"
    return f"{100 * lo:.{digits}f}–{100 * hi:.{digits}f}%"


def num(x: float | None, digits: int = 2) -> str:
    if x is None or x != x:
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:.{digits}f}"


def mean_ci(m: tuple[float, float, float], digits: int = 2) -> str:
    mean, lo, hi = m
    if mean != mean:
        return "–"
    if math.isinf(lo) or math.isinf(hi):
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def more_of(more: int, what: str) -> str:
    """Games still needed, in words: "a few more paired games" under 10 (never "about 1
    more"), else "about 1,234 more paired games"."""
    return f"a few more {what}" if more < 10 else f"about {more:,} more {what}"


NBSP = "\u00a0"  # a number and its unit on one line: "-90.0 pp" never wraps in a table


def pp(x: float) -> str:
    """A difference of rates in percentage points, kept on one line."""
    return "–" if x != x else f"{100 * x:+.1f}{NBSP}pp"


def pp_ci(lo: float, hi: float) -> str:
    return "–" if lo != lo else f"[{100 * lo:+.1f}, {100 * hi:+.1f}]"


def p_value(p: float | None) -> str:
    if p is None or p != p:
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def reduction(r: float, eff: float) -> str:
    """A variance reduction with its equivalent multiplier on the number of games."""
    if r != r:
        return "n/a (no variation)"
    mult = "∞" if math.isinf(eff) else f"{eff:.1f}"
    return f"{100 * r:.0f}% (×{mult})"


def level(confidence: float) -> str:
    """A confidence level as the report names it, e.g. ``95%``."""
    return f"{100 * confidence:g}%"


def finite(x: Any) -> Any:
    """``x`` with NaN and infinities replaced by None, recursively (strict JSON has neither)."""
    if isinstance(x, float):
        return None if x != x or math.isinf(x) else x
    if isinstance(x, dict):
        return {k: finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    return x


__all__ = ["level", "mean_ci", "num", "p_value", "pct", "pct_ci", "pp", "pp_ci", "reduction"]
