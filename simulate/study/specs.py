"""What a study plays: the strategy of each Faction, the variants, the games and the seed.

A *study* decides the data of a run: the number of games, the master seed, the strategy
spec of each Faction, the variants and whether decisions are traced. Game ``k`` plays with
``seeds.game_seed(master, k)`` under every variant (common random numbers). ``config()`` is
recorded in the manifest and compared on resume.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulate.errors import DataError
from simulate.games import DEFAULT as DEFAULT_GAME
from simulate.games import Game
from simulate.games import get as get_game
from simulate.study import manifest as manifest_mod
from simulate.study.batch import compiled_rules, safe_name
from simulate.study.dataset import cell_key
from simulate.study.errors import RunError
from simulate.study.errors import one_line as _one_line

DEFAULT_GAMES = 200
MAX_GAMES = 100_000_000  # game_index is an int32 column


# The study


def default_strategy(game: Game) -> str:
    """The strategy a seat gets when ``--strategy`` names none: the game's default lineup."""
    return game.lineups()["default"]


def parse_strategies(
    values: Iterable[str] | None,
    seats: Sequence[str] | None = None,
    default: str | None = None,
    word: str | None = None,
) -> dict[str, str]:
    """``--strategy`` values (``all=NAME``, ``SEAT=NAME``, ... or a bare ``NAME``) per seat
    (the default game's seats when none are given).

    ``all=`` applies first, then each seat's own, the last one given winning. Seats not
    named get ``default`` (the game's default lineup).

    >>> parse_strategies(["all=heuristic", "P2=random"], ("P1", "P2"), "random", "seat")
    {'P1': 'heuristic', 'P2': 'random'}
    """
    if seats is None or default is None or word is None:
        game = get_game()
        seats = seats or game.seats()
        default = default or default_strategy(game)
        word = word or game.seat_word
    order = tuple(seats)
    chosen = dict.fromkeys(order, default)
    general: list[str] = []
    specific: list[tuple[str, str]] = []
    for value in values or ():
        value = value.strip()
        target, spec = "all", value
        head, eq, rest = value.partition("=")
        if eq and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", head.strip()):
            target, spec = head.strip(), rest.strip()
        if not spec:
            raise RunError(f"--strategy {value!r}: no strategy name after '='")
        if target.lower() == "all":
            general.append(spec)
        elif target.upper() in order:
            specific.append((target.upper(), spec))
        else:
            raise RunError(
                f"--strategy {value!r}: unknown {word} {target!r} (expected all, {_either(order)})"
            )
    for spec in general:
        chosen = dict.fromkeys(order, spec)
    for faction, spec in specific:
        chosen[faction] = spec
    return chosen


def _either(seats: Sequence[str]) -> str:
    """``P1, P2 or P3``."""
    return ", ".join(seats[:-1]) + f" or {seats[-1]}" if len(seats) > 1 else seats[0]


def parse_lineups(
    values: Iterable[str] | None, base: dict[str, str], game: str | None = None
) -> tuple[tuple[str, dict[str, str]], ...]:
    """``--lineup NAME=[all|SEAT=]SPEC`` values as (name, strategies) in first-seen order;
    each lineup starts from ``base`` (whose keys are the seats). RunError for a bad name or
    two identical lineups."""
    order = tuple(base)  # the seats, in turn order
    specs: dict[str, list[str]] = {}
    for value in values or ():
        name, eq, rest = str(value).partition("=")
        name = name.strip()
        if not eq or not rest.strip():
            raise RunError(f"--lineup {value!r}: expected NAME=SPEC or NAME=SEAT=SPEC")
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or name.upper() in (*order, "ALL"):
            raise RunError(f"--lineup {value!r}: the name must be letters, digits, '_.-'")
        specs.setdefault(name, []).append(rest.strip())
    out = []
    seen: dict[tuple[str, ...], str] = {}
    for name, values_ in specs.items():
        chosen = dict(base)
        parsed = parse_strategies(values_, order, "random", "seat")
        given = {f for v in values_ for f in _factions_named(v, order)}
        chosen.update({f: parsed[f] for f in given})
        check_strategies(chosen, game=game)
        key = tuple(chosen[f] for f in order)
        if key in seen:
            raise RunError(f"--lineup {name!r} plays the same bots as {seen[key]!r}")
        seen[key] = name
        out.append((name, chosen))
    return tuple(out)


def _factions_named(value: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    head, eq, _ = value.partition("=")
    if eq and head.strip().upper() in seats:
        return (head.strip().upper(),)
    return seats


def check_strategies(
    strategies: dict[str, str], word: str = "seat", game: str | None = None
) -> None:
    """Instantiate each strategy once (for a seat of ``game``; None: the default), so that a
    bad name or parameter fails before play."""
    from strategies import registry

    for faction in strategies:
        spec = strategies[faction]
        try:
            registry.make(spec, game)
        except Exception as exc:  # UnknownStrategy, ValueError, or the class's own error
            # room for a refused parameter's list of what the strategy takes (issue 64)
            raise RunError(f"strategy for {faction}: {_one_line(exc, 600)}") from None


def seats_of(game: Game, variants: Sequence[Any]) -> tuple[str, ...]:
    """The seats every variant plays (RunError, one line, when two variants seat differently:
    their games cannot be paired)."""
    found = {v.name: game.seats(compiled_rules(v, game)) for v in variants}
    first = next(iter(found.values()))
    for name, seats in found.items():
        if seats != first:
            raise RunError(
                f"variant {name!r} seats {len(seats)} ({', '.join(seats)}) and "
                f"{variants[0].name!r} {len(first)}: a study pairs games of the same seats; "
                "run them as separate studies"
            )
    return first


def load_variants(
    refs: Sequence[str] | None,
    settings: Sequence[str] = (),
    sweep: str | None = None,
    game: Game | None = None,
) -> tuple[Any, ...]:
    """The variants named by ``--variant`` (names or paths; the base when none is given),
    each with the ``--set KEY=VALUE`` settings; with ``--sweep KEY=V1,V2,...``, one variant
    per value on top of the first (``simulate.overrides``)."""
    from simulate import overrides

    game = game or get_game()
    try:
        chosen = [game.load_variant(ref) for ref in refs or (None,)]
        pairs = [overrides.parse_setting(x) for x in settings]
        if pairs:
            chosen = [overrides.with_settings(v, pairs) for v in chosen]
        if sweep is not None:
            key, values = overrides.parse_sweep(sweep)
            chosen = overrides.sweep(chosen[0], key, values)
    except DataError as exc:
        raise RunError(_one_line(exc)) from None
    out = []
    for variant in chosen:
        try:
            compiled_rules(variant, game)  # checked against the data now, not in every game
        except DataError as exc:
            raise RunError(_one_line(exc)) from None
        except Exception as exc:
            raise RunError(
                f"variant {variant.name!r} cannot be compiled: {type(exc).__name__}: "
                f"{_one_line(exc)}"
            ) from None
        out.append(variant)
    names: dict[str, str] = {}
    for v in out:
        key = safe_name(v.name)
        if key in names:
            raise RunError(
                f"variant {v.name!r} is given twice (or clashes with {names[key]!r}); "
                "variant names must differ"
            )
        names[key] = v.name
    return tuple(out)


@dataclass(frozen=True)
class Study:
    """What decides the data of a run; its ``config()`` is recorded and compared on resume."""

    games: int
    seed: int
    strategies: dict[str, str]
    variants: tuple[Any, ...]  # simulate.variant_format.Variant
    trace: bool = False
    data_files: dict[str, dict[str, Any]] = field(default_factory=dict, compare=False)
    # sha256 of each file a variant reads besides itself (its deck.events_file), by name
    variant_files: dict[str, str] = field(default_factory=dict, compare=False)
    # several lineups (name, strategies) on the same seeds; empty: one, ``strategies``
    lineups: tuple[tuple[str, dict[str, str]], ...] = ()
    sweep: str | None = None  # the key of a --sweep (one variant per value)
    game: str = DEFAULT_GAME  # the game's reference (simulate.games)
    seats: tuple[str, ...] = ()  # in turn order

    @classmethod
    def create(
        cls,
        games: int = DEFAULT_GAMES,
        seed: int = 0,
        strategies: Iterable[str] | dict[str, str] | None = None,
        variants: Sequence[str] | None = None,
        trace: bool = False,
        lineups: Sequence[str] | None = None,
        settings: Sequence[str] = (),
        sweep: str | None = None,
        game: str | None = None,
    ) -> Study:
        """A checked study, or RunError (one line) on any bad input.

        ``lineups``: ``--lineup NAME=[all|SEAT=]SPEC`` values; the values of one NAME
        build its lineup as ``--strategy`` values do (on top of ``strategies``); ``game``:
        a game's reference (``simulate.games``; None: the default)."""
        if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
            raise RunError(f"--games must be a positive integer, got {games!r}")
        if games > MAX_GAMES:
            raise RunError(f"--games must be at most {MAX_GAMES:,}, got {games:,}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise RunError(f"--seed must be a non-negative integer, got {seed!r}")
        try:
            the_game = get_game(game)
        except ValueError as exc:
            raise RunError(_one_line(exc)) from None
        loaded = load_variants(variants, settings, sweep, the_game)
        seats = seats_of(the_game, loaded)
        word, default = the_game.seat_word, default_strategy(the_game)
        if isinstance(strategies, dict):
            unknown = sorted(set(strategies) - set(seats))
            if unknown:
                raise RunError(f"unknown {word} {unknown[0]!r} (expected {_either(seats)})")
            chosen = parse_strategies(None, seats, default, word)
            chosen.update({f: str(s) for f, s in strategies.items()})
        else:
            chosen = parse_strategies(strategies, seats, default, word)
        check_strategies(chosen, game=the_game.ref)
        named = parse_lineups(lineups, chosen, the_game.ref)
        files = manifest_mod.data_files(the_game.data_dir())
        extra = {}
        for v in loaded:
            events = (v.content.get("deck") or {}).get("events_file")
            if events and v.path is not None:
                try:
                    extra[v.name] = manifest_mod.sha256_file(Path(v.path).parent / events)
                except OSError as exc:
                    raise RunError(f"{v.path}: deck.events_file: {exc.strerror}") from None
        key = sweep.partition("=")[0].strip() if sweep else None
        ref = the_game.ref or the_game.name
        return cls(games, seed, chosen, loaded, bool(trace), files, extra, named, key, ref, seats)

    def config(self) -> dict[str, Any]:
        """The JSON config of the study (recorded in the manifest, compared on resume)."""
        return (
            {
                "games": self.games,
                "seed": self.seed,
                "strategies": {f: self.strategies[f] for f in self.seats or self.strategies},
                "variants": [
                    {"name": v.name, "digest": v.digest}
                    | (
                        {"events_sha256": self.variant_files[v.name]}
                        if v.name in self.variant_files
                        else {}
                    )
                    for v in self.variants
                ],
                "trace": self.trace,
                "data_digest": manifest_mod.data_digest(self.data_files),
            }
            | ({"game": self.game} if self.game != DEFAULT_GAME else {})
            | (
                {"lineups": [{"name": n, "strategies": s} for n, s in self.lineups]}
                if self.lineups
                else {}
            )
        )

    def cells(self) -> list[tuple[str, Any, str, dict[str, str]]]:
        """(shard key, variant, lineup name, strategies) of every variant x lineup; with one
        lineup the key is the variant's name and the lineup's name is empty."""
        if not self.lineups:
            return [(v.name, v, "", self.strategies) for v in self.variants]
        return [
            (cell_key(v.name, name), v, name, strategies)
            for v in self.variants
            for name, strategies in self.lineups
        ]

    @property
    def run_id(self) -> str:
        """A stable id of the study (a digest of its config, never a timestamp). The number
        of games is left out: a study extended to more games on the same seeds (issue 19)
        keeps its id, and its rows are those a larger study would have written at once."""
        config = self.config()
        config.pop("games")
        return manifest_mod.canonical_digest(config)[:16]

    def variant(self, name: str) -> Any:
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)


def games_per_name(
    values: Sequence[str],
    default: int,
    label: str,
    known: Callable[[str], bool],
    unknown: Callable[[str], str],
) -> tuple[int, dict[str, int]]:
    """``--games N`` (for all) and ``--games LABEL=N`` (for one): (the default count, the
    counts given by name). RunError (one line) for a bad count or a name ``known`` refuses,
    said by ``unknown``."""
    own: dict[str, int] = {}
    for value in values:
        name, eq, count = str(value).rpartition("=")
        try:
            n = int(count)
        except ValueError:
            raise RunError(f"--games {value!r}: expected N or {label}=N") from None
        if not 0 < n <= MAX_GAMES:
            raise RunError(f"--games {value!r}: the number of games must be 1..{MAX_GAMES:,}")
        if not eq:
            default = n
        elif known(name.strip()):
            own[name.strip()] = n
        else:
            raise RunError(f"--games {value!r}: {unknown(name.strip())}")
    return default, own
