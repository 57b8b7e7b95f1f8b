"""Lineups as data: a tier is a TOML file, ``strategies/vijayanagara/lineups/NAME.toml`` (its registry name
is the file's), that composes a policy, the weight layers it plays, and which turns search in
each seat (``composition.py``). A new tier is a file, not code::

    description = "what it is, in a line (vsim strategies shows it)"
    version = "v21"                 # recorded in every run's manifest
    policy = "heuristic"            # strategies/vijayanagara/heuristic
    layers = ["tuned.toml", "choice.toml"]   # the policy's files over its weights.toml

    [seat.DS]
    layers = ["fast.toml"]          # more layers for this seat's policy only

    [seat.DS.search]                # composition.py: lookahead, mcts_cards, mcts_prior...
    mcts_cards = 20

    [seat.VE]
    as = "heuristic"                # the very seat of another lineup: its layers and search
    [seat.VE.search]                # (optional) settings over that seat's search
    mcts_rollouts = 8

A bare layer name is one of the policy's own files; a path (with a folder) and a seat's
``mcts_prior`` and ``mcts_value`` are found from the lineup file's folder, as is a lineup
``as`` names when it is not a shipped one.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..params import no_such_parameter, unknown_bare_weight
from .composition import DEFAULTS, Composition, SeatSearch, prior_path, search_key, seat_search

LINEUPS = Path(__file__).with_name("lineups")
DEFAULT = "heuristic"  # the lineup a first-time user gets for every Faction
SEATS = ("DS", "BK", "VE")
KEYS = ("description", "version", "policy", "layers", "seat")
SEAT_KEYS = ("as", "layers", "search")
FILES = ("mcts_prior", "mcts_value")  # search settings naming a file


def _heuristic() -> Any:
    from .heuristic import HeuristicStrategy

    return HeuristicStrategy


POLICIES = {"heuristic": _heuristic}  # the policies a lineup may compose, by name


@dataclass(frozen=True)
class Lineup:
    """A tier: its policy's layers per seat and each seat's search settings."""

    name: str
    description: str
    version: str
    policy: str
    layers: dict[str, tuple[Path, ...]]  # by Faction: the policy's layers for that seat
    search: dict[str, dict[str, Any]]  # by Faction: the search settings the file gives
    path: Path
    _checked: dict = field(default_factory=dict, compare=False, repr=False)
    _searched: dict = field(default_factory=dict, compare=False, repr=False)

    def __call__(self, weights: str | None = None, **params: Any) -> Composition:
        """A strategy playing this lineup; ``params`` as a spec gives them: the policy's
        (``aggression``...) and search settings for every seat (``play.mcts_cards``...)."""
        try:
            key = (weights, _stamp(weights), tuple(sorted(params.items())))
            made = self._checked.get(key)
        except TypeError:  # a value that is no spec's (a table): checked anew, not kept
            key, made = None, None
        if made is None:
            made = self._check(weights, params)
            if key is not None:
                self._checked[key] = made
        policy_params, searches, record = made
        return Composition(self, weights, policy_params, searches, dict(record))

    def _check(self, weights: str | None, params: dict[str, Any]) -> tuple:
        """What every strategy made with ``weights`` and ``params`` shares, checked: each
        seat's policy is made once (a bad value is refused here, before any game), then the
        search settings."""
        policy_params = {k: v for k, v in params.items() if not search_key(k)}
        made = {}
        for seat in SEATS:
            layers = self.layers[seat]
            if layers not in made:
                try:
                    made[layers] = self.policy_for(weights, policy_params, seat)
                except ValueError as exc:
                    key = unknown_bare_weight(exc, policy_params)
                    if key is None:
                        raise
                    raise ValueError(self.no_parameter(key)) from None
        searches = self.searches({k: v for k, v in params.items() if search_key(k)})
        record = dict(sorted(params.items()))
        record["version"] = self.version
        if weights:
            record["weights"] = weights
            record["weights_sha256"] = made[self.layers["DS"]].params["weights_sha256"]
        for key, value in params.items():  # a prior or value model given by the spec: its file
            if search_key(key) in FILES and value:
                record[f"{key}_sha256"] = hashlib.sha256(Path(value).read_bytes()).hexdigest()
        # a lineup file of one's own, by what it plays; a shipped tier's changes move its version
        if self.path.parent != LINEUPS.resolve():
            record["lineup_sha256"] = self.fingerprint()
        return policy_params, searches, record

    def fingerprint(self) -> str:
        """sha256 of what this lineup plays: its policy and, per seat, the values of its
        layers and its search settings with the prior and value model they read (comments
        aside), so an edit that changes play, not the version, is another bot."""
        seats = {
            seat: {
                "layers": [_values(path) for path in self.layers[seat]],
                "search": {
                    key: _values(Path(value)) if key in FILES and value else value
                    for key, value in sorted(self.search[seat].items())
                },
            }
            for seat in SEATS
        }
        text = json.dumps({"policy": self.policy, "seats": seats}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def no_parameter(self, key: str) -> str:
        """The one-line refusal of a spec's parameter ``key`` this lineup does not take,
        naming what it takes: its policy's parameters and its search settings (issue 64: a
        misspelled ``mcts_rolouts`` listed only the policy's weights)."""
        groups = {
            "its parameters": ["weights", *self.policy_parameters()],
            "its search settings (NAME or play.NAME)": list(DEFAULTS),
        }
        text = no_such_parameter(
            self.name, key, groups, f"nor a weight of its {self.policy} policy"
        )
        return f"{text}; or any weight of the policy by its dotted name (see docs/bots.md)"

    def policy_parameters(self) -> tuple[str, ...]:
        """The parameters of this lineup's policy a spec sets by a bare name (``aggression``:
        the values of its shipped ``weights.toml``'s ``[play]``; a dotted name sets any other
        weight), in the file's order."""
        return policy_parameters(self.policy)

    def policy_class(self) -> type:
        return POLICIES[self.policy]()

    def policy_for(self, weights: str | None, params: dict[str, Any], seat: str = "DS") -> Any:
        """The policy ``seat`` plays in this lineup, with ``weights`` and ``params``."""
        return self.policy_class()(weights, self.layers[seat], **params)

    def searches(self, params: dict[str, Any]) -> dict[str, SeatSearch]:
        """Each seat's checked search settings, ``params`` (``play.NAME``) over the file's;
        once per process for the same ``params``."""
        key = tuple(sorted((search_key(k), v) for k, v in params.items()))
        got = self._searched.get(key)
        if got is None:
            given = {search_key(k): v for k, v in params.items()}
            seat_search(DEFAULTS | given)  # a bad parameter, before any seat's
            got = {}
            for seat in SEATS:
                try:
                    got[seat] = seat_search(DEFAULTS | self.search[seat] | given)
                except ValueError as exc:
                    raise ValueError(f"in the {seat} seat: {exc}") from None
            self._searched[key] = got
        return got

    def without(self, *names: str) -> Lineup:
        """This lineup without the layers and search settings ``names`` (``choice.toml``,
        ``mcts_prior``...): what a fit starts from, so that it does not read its own output."""
        layers = {s: tuple(p for p in ls if p.name not in names) for s, ls in self.layers.items()}
        search = {s: {k: v for k, v in t.items() if k not in names} for s, t in self.search.items()}
        return Lineup(
            self.name, self.description, self.version, self.policy, layers, search, self.path
        )


@lru_cache(maxsize=4)
def policy_parameters(policy: str) -> tuple[str, ...]:
    """``Lineup.policy_parameters`` of the policy ``policy`` (none without a weights file)."""
    path = Path(POLICIES[policy]().folder) / "weights.toml"
    try:
        play = tomllib.loads(path.read_text()).get("play", {})
    except (OSError, tomllib.TOMLDecodeError):
        return ()
    return tuple(key for key, value in play.items() if not isinstance(value, dict))


def _values(path: Path) -> str:
    """sha256 of a TOML file's values (its comments and layout aside)."""
    data = tomllib.loads(path.read_text())
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _stamp(path: str | None) -> tuple | None:
    """A file's size and modification time (None: no file): a changed file is checked anew."""
    try:
        st = os.stat(path) if path else None
    except OSError:
        return None
    return None if st is None else (st.st_mtime_ns, st.st_size)


def names() -> list[str]:
    """The shipped lineups' names (their files in ``strategies/vijayanagara/lineups/``), sorted."""
    return sorted(p.stem for p in LINEUPS.glob("*.toml"))


def load(path: str | Path) -> Lineup:
    """The lineup file ``path``, checked; ValueError (one line) if missing or malformed. Read
    again when the file changes, as its layers, prior and value model are (a notebook's edit
    plays, in its worker processes too)."""
    p = Path(path).resolve()
    return _read(p, _stamp(str(p)))


@lru_cache(maxsize=32)
def _read(path: Path, stamp: tuple | None) -> Lineup:
    return _load(path, frozenset())


def _load(p: Path, seen: frozenset[Path]) -> Lineup:
    """``load``, ``seen`` the files whose seats lead here through ``as`` (a loop is an error)."""
    where = f"lineup {p.name!r}"
    try:
        data = tomllib.loads(p.read_text())
    except OSError as exc:
        raise ValueError(f"{where}: cannot read it ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{where}: {' '.join(str(exc).split())}") from None
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(KEYS)})")
    for key in ("description", "version", "policy"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ValueError(f"{where}: {key} must be a non-empty string")
    if data["policy"] not in POLICIES:
        raise ValueError(f"{where}: unknown policy {data['policy']!r} ({', '.join(POLICIES)})")
    policy_folder = Path(POLICIES[data["policy"]]().folder)
    base = _layers(data.get("layers", []), where, policy_folder, p.parent)
    seats = data.get("seat", {})
    if not isinstance(seats, dict) or sorted(set(seats) - set(SEATS)):
        raise ValueError(f"{where}: [seat] tables must be DS, BK or VE")
    layers, search = {}, {}
    for seat in SEATS:
        table = seats.get(seat, {})
        bad = sorted(set(table) - set(SEAT_KEYS)) if isinstance(table, dict) else ["?"]
        if bad:
            known = ", ".join(SEAT_KEYS)
            raise ValueError(f"{where}: seat.{seat}: unknown key {bad[0]!r} ({known})")
        settings = _search(table.get("search", {}), f"{where}: seat.{seat}.search", p.parent)
        if "as" in table:  # another lineup's very seat: its layers and search, ours over it
            if set(table) - {"as", "search"}:
                raise ValueError(
                    f"{where}: seat.{seat}: 'as' takes no other key beside it (but search)"
                )
            other = _seat_of(table["as"], p, seen, f"{where}: seat.{seat}")
            if other.policy != data["policy"]:
                raise ValueError(f"{where}: seat.{seat}: {other.name!r} plays another policy")
            layers[seat], search[seat] = other.layers[seat], other.search[seat] | settings
            continue
        own = _layers(table.get("layers", []), f"{where}: seat.{seat}", policy_folder, p.parent)
        layers[seat] = base + own
        search[seat] = settings
    return Lineup(p.stem, data["description"], data["version"], data["policy"], layers, search, p)


def _search(settings: Any, where: str, folder: Path) -> dict[str, Any]:
    """A seat's ``search`` table checked, its prior and value model found from ``folder``."""
    if not isinstance(settings, dict):
        raise ValueError(f"{where} must be a table")
    unknown = sorted(set(settings) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"{where}: unknown {unknown[0]!r} ({', '.join(DEFAULTS)})")
    for key in FILES:
        if key in settings:
            settings = settings | {key: prior_path(settings[key], folder)}
    return settings


def _seat_of(ref: Any, here: Path, seen: frozenset[Path], where: str) -> Lineup:
    """The lineup a seat's ``as`` names: a shipped one by its name, else a file from
    ``here``'s folder."""
    if not isinstance(ref, str) or not ref:
        raise ValueError(f"{where}: 'as' must name a lineup")
    path = LINEUPS / f"{ref}.toml" if ref in names() else (here.parent / ref).resolve()
    if path == here or path in seen:
        raise ValueError(f"{where}: 'as' leads back to {path.name!r}")
    return _load(path, seen | {here})


def _layers(value: Any, where: str, policy_folder: Path, folder: Path) -> tuple[Path, ...]:
    """A ``layers`` list as paths: a bare name in the policy's folder, a path from the
    lineup file's; each must exist."""
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{where}: layers must be a list of file names")
    out = []
    for name in value:
        path = policy_folder / name if Path(name).name == name else folder / name
        if not path.is_file():
            raise ValueError(f"{where}: layer {name!r} not found ({path})")
        out.append(path)
    return tuple(out)


def shipped(name: str) -> Lineup:
    """The shipped lineup ``name`` (``strategies/vijayanagara/lineups/NAME.toml``)."""
    return load(LINEUPS / f"{name}.toml")


def default_lineup() -> Lineup:
    """The default lineup (``heuristic``): what ``greedy`` and ``mcts`` search over."""
    return shipped(DEFAULT)
