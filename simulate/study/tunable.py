"""The tunable-policy interface of ``vsim tune-bots`` (``Game.tunable()``): what a game's
policy offers to be tuned by self-play, and the searched ranges, which are generic.

A game's tunable is an object (a module will do) with: ``BASE_BOT`` (the bot seat values are
laid over by default) and ``BASES`` (those it may be laid over); ``SPACE_FILE`` and
``SPACE_REF`` (the default search space, and how manifests name it); ``load_space(path) ->
Space``; ``start_values(space, path, base)`` (each seat's starting values);
``spec_of(values, base)`` (the strategy spec of a seat playing them); ``base_value(key)``;
and ``write_weights(path, field, tuning, games)`` (the tuned lineup as a file its base
plays)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulate.study import manifest as manifest_mod
from simulate.study.errors import RunError

STEP = 0.15  # CMA-ES's first step, as a share of each searched range (``Param.around``)


@dataclass(frozen=True)
class Param:
    """One searched weight: its dotted name and range (integers search integers)."""

    key: str
    low: float
    high: float
    integer: bool

    def around(self, center: float) -> Any:
        """The range CMA-ES searches from ``center`` (a seat's incumbent value), centred on
        it: ``CmaEsSampler`` starts at the middle of each range with a step of a sixth of
        it, so the search starts at ``center`` with a step of ``STEP`` of the searched range.
        A value proposed outside the searched range is played clipped into it (``clip``)."""
        import optuna

        half = 3 * STEP * (self.high - self.low)
        if self.integer:
            whole = max(1, round(half))
            return optuna.distributions.IntDistribution(int(center) - whole, int(center) + whole)
        return optuna.distributions.FloatDistribution(center - half, center + half)

    def clip(self, value: float) -> float:
        value = min(max(value, self.low), self.high)
        return int(round(value)) if self.integer else float(value)


@dataclass(frozen=True)
class Space:
    """The searched values of each seat."""

    params: dict[str, tuple[Param, ...]]

    def digest(self) -> str:
        return manifest_mod.canonical_digest(
            {f: [[p.key, p.low, p.high, p.integer] for p in ps] for f, ps in self.params.items()}
        )


def read_space_file(path: Any) -> dict[str, Any]:
    """A space file's TOML, or RunError naming ``--space`` (one line): what every game's
    ``load_space`` reads first."""
    import tomllib
    from pathlib import Path

    where = f"--space {path}"
    try:
        return tomllib.loads(Path(path).read_text())
    except OSError as exc:
        raise RunError(f"{where}: cannot read it ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RunError(f"{where}: {' '.join(str(exc).split())}") from None


def range_param(key: str, bounds: Any, where: str) -> Param:
    """A space file's ``key = [low, high]`` as a ``Param`` (integer bounds search integers),
    or RunError naming it (one line)."""
    if (
        not isinstance(bounds, list)
        or len(bounds) != 2
        or not all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds)
    ):
        raise RunError(f"{where}: {key!r} must be [low, high], got {bounds!r}")
    low, high = bounds
    if not low < high:
        raise RunError(f"{where}: {key!r} has an empty range [{low}, {high}]")
    return Param(key, low, high, isinstance(low, int) and isinstance(high, int))


def tunable_of(game: Any) -> Any:
    """The game's tunable policy, or RunError (one line) when it offers none."""
    found = game.tunable()
    if found is None:
        raise RunError(
            f"game {game.name!r} offers no tunable policy: tune-bots has nothing to tune"
        )
    return found


def fmt_value(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    text = f"{value:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text
