"""Rule variants: the generic format (``simulate.variant_format``: ``Variant``, ``VariantFormat``
and the vocabulary of a game's model) and, for the callers that predate games, Vijayanagara's
names (``load_variant``, ``list_variants``, ``BASE``, ``VARIANTS_DIR``, ``BASE_DESCRIPTION``,
``apply_variant``, ``variant_from_content``: ``simulate.vijayanagara.variant_schema``), loaded
lazily so that importing this module imports no game.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from simulate.variant_format import (
    BASE_NAME,
    Context,
    DataError,
    Line,
    Section,
    Variant,
    VariantFormat,
    canonical_digest,
    first_of,
    int_list,
    one_line,
    problem,
)

__all__ = [
    "BASE_NAME",
    "Context",
    "DataError",
    "Line",
    "Section",
    "Variant",
    "VariantFormat",
    "canonical_digest",
    "first_of",
    "int_list",
    "list_variants",
    "load_variant",
    "one_line",
    "problem",
]

_VIJAYANAGARA = (
    "BASE",
    "BASE_DESCRIPTION",
    "VARIANTS_DIR",
    "apply_variant",
    "variant_from_content",
)


def _default_format() -> VariantFormat:
    """Vijayanagara's format, its folder this module's ``VARIANTS_DIR`` if one was set here (as
    a test does to try a folder of built-ins)."""
    from simulate.vijayanagara.variant_schema import FORMAT

    folder = globals().get("VARIANTS_DIR", FORMAT.folder)
    return FORMAT if folder == FORMAT.folder else dataclasses.replace(FORMAT, folder=folder)


def load_variant(ref: str | Path | None) -> Variant:
    """A Vijayanagara variant by reference (``VariantFormat.load``).

    >>> load_variant(None).name
    'base'
    """
    return _default_format().load(ref)


def list_variants() -> list[Variant]:
    """Vijayanagara's built-in variants, sorted by name (``VariantFormat.builtins``)."""
    return _default_format().builtins()


def __getattr__(name: str) -> Any:
    if name in _VIJAYANAGARA:
        from simulate.vijayanagara import variant_schema

        return getattr(variant_schema, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
