"""A study folder is resumed or extended only by the bots that began it: a spec such as
``heuristic`` names whatever version is installed, and ``heuristic:weights=FILE`` whatever the
file holds, so games played after an upgrade or an edit would sit beside the old games under
one name (DESIGN: determinism, one seed, one answer). A bot is its version and the digests of
the files it reads (``weights_sha256``, ``value_sha256``, a lineup file's ``lineup_sha256``),
as every manifest records them (``strategy_params``, a lineup's, a ladder's challengers')."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simulate.study.errors import RunError


def recorded(man: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(spec, seat, identity) of every bot a manifest records: its field or lineup, each of
    its lineups (a study of several, a strength curve's rungs), a ladder's challengers."""
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


def _version(spec: Any, seat: str, params: Any) -> Iterator[tuple[str, str, dict[str, str]]]:
    if isinstance(spec, str) and isinstance(params, dict):
        found = identity(params)
        if found:
            yield spec, seat, found


def identity(params: dict[str, Any]) -> dict[str, str]:
    """What makes a bot the same bot: its version and the digest of each file it reads."""
    return {k: str(v) for k, v in params.items() if k == "version" or k.endswith("_sha256")}


def resolved(spec: str, game: str | None = None) -> dict[str, Any]:
    """The parameters ``spec`` resolves to today for ``game``'s seats, as manifests record
    them (its version, its weights files' digests); the strategy's own error when it does not
    resolve."""
    from strategies import registry

    return registry.params_of(registry.make(spec, game))


def today(spec: str, game: str | None = None) -> dict[str, str]:
    """The identity ``spec`` resolves to today; empty for a spec that no longer resolves (the
    study's own checks say what is wrong with it)."""
    try:
        return identity(resolved(spec, game))
    except Exception:  # noqa: BLE001 - a spec that fails here fails the study's own check
        return {}


def installed(spec: str, game: str | None = None) -> str | None:
    """The version ``spec`` resolves to today; None for a spec that records none or no longer
    resolves."""
    return today(spec, game).get("version")


def moved(man: dict[str, Any]) -> str:
    """The first recorded bot whose spec resolves to another version, or reads a file with
    another digest, today, in words ("" when none)."""
    now_of: dict[str, dict[str, str]] = {}
    game = man.get("game")  # absent: the default game (manifests before games were named)
    for spec, seat, then in recorded(man):
        if spec not in now_of:
            now_of[spec] = today(spec, game)
        now = now_of[spec]
        for key, was in then.items():
            is_now = now.get(key)
            if is_now is None or is_now == was:
                continue
            if key == "version":
                return f"{spec} in the {seat} seat was {was} then and is {is_now} now"
            what = key.removesuffix("_sha256")
            return (
                f"{spec} in the {seat} seat read a {what} file of sha256 {was[:12]} then and "
                f"{is_now[:12]} now"
            )
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
