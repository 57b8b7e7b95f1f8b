"""The one error every game's data and variant files raise (``simulate.variant_format``)."""

from __future__ import annotations

__all__ = ["DataError"]


class DataError(ValueError):
    """A data or variant file that cannot be used; the message is one line naming file and field."""
