"""A study folder is resumed or extended only by the bot versions that began it: a spec such
as ``heuristic`` names whatever version is installed, so games played after an upgrade would
sit beside the old version's games under one name (DESIGN: determinism, one seed, one answer).
The versions are the ones every manifest records (``strategy_params``, a lineup's, a ladder's
challengers')."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simulate.study.errors import RunError


def recorded(man: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(spec, seat, version) of every bot version a manifest records: its field or lineup,
    each of its lineups (a study of several, a strength curve's rungs), a ladder's
    challengers."""
    entries = [man, *(e for e in man.get("lineups") or [] if isinstance(e, dict))]
    for entry in entries:
        specs, params = entry.get("strategies"), entry.get("strategy_params")
        if isinstance(specs, dict) and isinstance(params, dict):
            for seat, spec in specs.items():
                yield from _version(spec, seat, params.get(seat))
    for spec, seats in (man.get("challengers") or {}).items():
        if isinstance(seats, dict):
            for seat, params in seats.items():
                yield from _version(spec, seat, params)


def _version(spec: Any, seat: str, params: Any) -> Iterator[tuple[str, str, str]]:
    if isinstance(spec, str) and isinstance(params, dict) and "version" in params:
        yield spec, seat, str(params["version"])


def resolved(spec: str) -> dict[str, Any]:
    """The parameters ``spec`` resolves to today, as manifests record them (its version, its
    weights files' digests); the strategy's own error when it does not resolve."""
    from strategies import registry

    return registry.params_of(registry.make(spec))


def installed(spec: str) -> str | None:
    """The version ``spec`` resolves to today; None for a spec that records none or no longer
    resolves (the study's own checks say what is wrong with it)."""
    try:
        version = resolved(spec).get("version")
    except Exception:  # noqa: BLE001 - a spec that fails here fails the study's own check
        return None
    return None if version is None else str(version)


def moved(man: dict[str, Any]) -> str:
    """The first recorded bot whose spec resolves to another version today, in words ("" when
    none)."""
    today: dict[str, str | None] = {}
    for spec, seat, then in recorded(man):
        if spec not in today:
            today[spec] = installed(spec)
        now = today[spec]
        if now is not None and now != then:
            return f"{spec} in the {seat} seat was {then} then and is {now} now"
    return ""


def refuse_moved(out: Path, man: dict[str, Any] | None) -> None:
    """RunError (one line) when the study in ``out`` (manifest ``man``) was begun by other
    bot versions than its specs resolve to now."""
    change = moved(man or {})
    if change:
        raise RunError(
            f"{out}: the bots changed since its games were played ({change}); use --force to "
            "replace it or choose another --out"
        )


def resumable(out: Path, man: dict[str, Any] | None, force: bool) -> dict[str, Any] | None:
    """``man`` when the study in ``out`` may be resumed by the installed bots; None when
    ``force`` replaces a study other versions began; else ``refuse_moved``'s RunError."""
    if man is not None and force and moved(man):
        return None
    refuse_moved(out, man)
    return man
