"""One-off variant settings from the command line: ``--set KEY=VALUE`` and ``--sweep``.

``--set combat.fort_penalty=2`` changes one key of a variant without writing a TOML file;
``--sweep combat.fort_penalty=0,1,2,3`` makes one variant per value, all played on the same
seeds. KEY is a dotted path in the game's variant format (Vijayanagara's:
``simulate/vijayanagara/data/variants/base.toml``) and VALUE is read as TOML (``2``, ``true``, ``[1, 2]``, ``"text"``). The result is checked like
any variant file when the study is created (unknown key, value out of range: one line).

>>> from simulate.games import get
>>> BASE = get().base_variant()
>>> with_settings(BASE, [("combat.fort_penalty", 2)]).content["combat"]
{'fort_penalty': 2}
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from collections.abc import Sequence
from typing import Any

from simulate.errors import DataError
from simulate.variant_format import Variant


def parse_setting(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` as (dotted key, TOML value); DataError (one line) if malformed."""
    key, eq, value = str(text).partition("=")
    key = key.strip()
    if not eq or not key or not value.strip():
        raise DataError(f"--set {text!r}: expected KEY=VALUE, e.g. combat.fort_penalty=2")
    if any(not part for part in key.split(".")) or key.split(".")[0] in ("name", "description"):
        raise DataError(f"--set {text!r}: bad key {key!r}")
    return key, _value(value.strip(), f"--set {text!r}")


def parse_sweep(text: str) -> tuple[str, list[Any]]:
    """``KEY=V1,V2,...`` as (dotted key, values); DataError if malformed or fewer than two."""
    key, eq, values = str(text).partition("=")
    if not eq or not key.strip():
        raise DataError(f"--sweep {text!r}: expected KEY=V1,V2,..., e.g. combat.fort_penalty=1,2")
    parsed = [_value(v.strip(), f"--sweep {text!r}") for v in values.split(",") if v.strip()]
    if len(parsed) < 2 or len({json.dumps(v) for v in parsed}) != len(parsed):
        raise DataError(f"--sweep {text!r}: give at least two different values")
    return parse_setting(f"{key.strip()}=0")[0], parsed


def _value(text: str, where: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if text.replace("-", "").replace("_", "").isalnum():  # a bare word: a string
            return text
        raise DataError(f"{where}: {text!r} is not a TOML value") from None


def with_settings(variant: Variant, settings: Sequence[tuple[str, Any]], name: str = "") -> Variant:
    """``variant`` with each (dotted key, value) set; named ``name`` or after the settings."""
    content = copy.deepcopy(variant.content)
    for key, value in settings:
        node = content
        *parents, leaf = key.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise DataError(f"--set {key}: {part!r} is not a table")
            node = child
        node[leaf] = value
    label = name or "+".join(
        [variant.name, *(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in settings)]
    )
    content["name"] = label
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return Variant(
        name=label,
        description=f"{variant.description} (with " + ", ".join(
            f"{k} = {json.dumps(v)}" for k, v in settings
        ) + ")",
        path=variant.path,  # its folder still anchors a relative events_file
        content=content,
        digest=hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )  # fmt: skip


def sweep(variant: Variant, key: str, values: Sequence[Any]) -> list[Variant]:
    """One variant per value of ``key`` (named ``KEY=VALUE``), on top of ``variant``."""
    return [
        with_settings(variant, [(key, v)], name=f"{key}={json.dumps(v, separators=(',', ':'))}")
        for v in values
    ]
