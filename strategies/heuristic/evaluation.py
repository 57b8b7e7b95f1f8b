"""Position evaluation for the heuristic, greedy and mcts bots, from weights in data.

The weights live in ``weights.toml`` next to this module; a strategy spec may point at another
file (``heuristic:weights=path.toml``, merged over the defaults) and override single values
with dotted keys (``heuristic:eval.DS.resources=0.1``). See the file for the meaning of each.

``score(f)`` is in victory-point equivalents: VP now (5.1-5.3), projected VP (the Sultanate's
end bonus for Delhi against the Invaders, Tributaries the Deccan factions could Rebel in),
and assets (Resources, Cavalry, Units, Influence) that fade out as the deck runs down. A
finished game scores its final VP exactly, plus 0.01 per Resource for the tiebreak (5.0).
``margin(f)`` is the faction's score minus the best opponent's: what the bots maximise.
"""

from __future__ import annotations

import math
import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulate.rules.pieces import BK, DS, GOVERNOR, MONGOL, NK, PT_MONGOL, TROOP, VE
from simulate.rules.state import TUGHLAQ

WEIGHTS_FILE = Path(__file__).with_name("weights.toml")
TUNED_FILE = Path(__file__).with_name("tuned.toml")  # the default lineup's seat values
CHOICE_FILE = Path(__file__).with_name("choice.toml")  # its learned choice, over those
STRONG_FILE = Path(__file__).with_name("strong.toml")  # the strong tier's, over those
FAST_FILE = Path(__file__).with_name("fast.toml")  # the fast tier's, over those
PRIOR_FILE = Path(__file__).with_name("prior.toml")  # the default's end-game search prior


def _read(path: str) -> dict:
    """The parsed file, cached while it is unchanged (its size and modification time)."""
    st = Path(path).stat()
    return _read_cached(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=16)
def _read_cached(path: str, mtime_ns: int, size: int) -> dict:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def default_weights() -> dict:
    """A fresh copy of the shipped weights."""
    return _copy(_read(str(WEIGHTS_FILE)))


def _copy(tree):
    """A copy of parsed TOML (tables and arrays copied, values shared: all immutable); several
    times faster than ``copy.deepcopy``, and done for every bot of every game."""
    if isinstance(tree, dict):
        return {key: _copy(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [_copy(value) for value in tree]
    return tree


def _merge(base: dict, extra: dict, where: str, free: bool = False) -> None:
    """``extra`` over ``base``; a key ``base`` lacks is an error, except in a table that
    is empty in weights.toml (``free``: fitted terms by name, checked where they are read)."""
    for key, value in extra.items():
        if free:
            base[key] = value
            continue
        if key not in base:
            known = ", ".join(sorted(base))
            raise ValueError(f"unknown weight {where}{key!r} (known here: {known})")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise ValueError(f"weight {where}{key!r} is a table, not a value")
            _merge(base[key], value, f"{where}{key}.", free or not base[key])
        else:
            base[key] = value


def set_dotted(weights: dict, key: str, value: Any) -> None:
    """Set ``play.aggression`` or ``eval.DS.resources`` style keys; unknown keys are errors.
    A bare key is looked up in ``[play]``."""
    parts = key.split(".")
    if len(parts) == 1:
        parts = ["play", key]
    node = weights
    for i, part in enumerate(parts):
        if part not in node:
            where = ".".join(parts[:i]) or "top level"
            known = ", ".join(sorted(node))
            raise ValueError(f"unknown weight {key!r}: no {part!r} in {where} (known: {known})")
        if i == len(parts) - 1:
            if isinstance(node[part], dict):
                raise ValueError(f"weight {key!r} is a table, not a value")
            node[part] = value
        else:
            node = node[part]


SEATS = ("DS", "BK", "VE")


def read_weights_file(path: str | Path) -> dict:
    """A weights TOML file as parsed (cached); ValueError (one line) if missing or malformed."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"weights file {str(path)!r} not found")
    try:
        return _read(str(p.resolve()))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"weights file {str(path)!r}: {' '.join(str(exc).split())}") from None


def merge_weights(weights: dict, extra: dict, label: str = "") -> None:
    """Merge a weights file's content into ``weights``: its top-level tables over the values,
    its ``[seat.F]`` tables (values for one Faction's bot only, e.g. a tuned lineup's) kept
    under ``weights["seat"]`` after checking each against the known weights."""
    extra = dict(extra)
    seats = extra.pop("seat", None)
    try:
        _merge(weights, extra, "")
        if seats is None:
            return
        if not isinstance(seats, dict):
            raise ValueError("'seat' must be a table of [seat.DS], [seat.BK], [seat.VE]")
        for faction, table in seats.items():
            if faction not in SEATS:
                raise ValueError(f"unknown seat {faction!r} (expected DS, BK or VE)")
            if not isinstance(table, dict):
                raise ValueError(f"seat.{faction} must be a table")
            check = _copy(weights)
            check.pop("seat", None)
            _merge(check, table, f"seat.{faction}.")
            _update(weights.setdefault("seat", {}).setdefault(faction, {}), table)
    except ValueError as exc:
        raise ValueError(f"weights file {label!r}: {exc}" if label else str(exc)) from None


def _update(dest: dict, extra: dict) -> None:
    for key, value in extra.items():
        if isinstance(value, dict):
            _update(dest.setdefault(key, {}), value)
        else:
            dest[key] = _copy(value)


def load_weights(
    path: str | None = None,
    overrides: dict | None = None,
    layers: tuple[Path, ...] = (),
) -> dict:
    """The shipped weights, each of ``layers`` (the bot version's own files, e.g. a tuned
    lineup) and the file ``path`` merged over them, then dotted overrides (top level)."""
    weights = default_weights()
    for layer in layers:
        merge_weights(weights, read_weights_file(layer), layer.name)
    if path:
        merge_weights(weights, read_weights_file(path), str(path))
    for key, value in (overrides or {}).items():
        set_dotted(weights, key, value)
    return weights


class SharedWeights:
    """A merged weights tree that every bot made from the same files shares, read-only, with
    each seat's weights (``seat_weights``) merged once per overrides: a game makes 3 to 12
    bots, and merging their weights anew took about 15% of the fast tier's time."""

    __slots__ = ("tree", "_seats", "_derived")

    def __init__(self, tree: dict) -> None:
        self.tree = tree
        self._seats: dict = {}
        self._derived: dict = {}

    def seat(self, faction: str | None, overrides: dict | None = None) -> dict:
        """``seat_weights(self.tree, faction, overrides)``, made once (do not modify it)."""
        key = self._key(faction, overrides)
        if key is None:  # an unhashable override value: merged anew, not kept
            return seat_weights(self.tree, faction, overrides)
        out = self._seats.get(key)
        if out is None:
            out = self._seats[key] = seat_weights(self.tree, faction, overrides)
        return out

    def derived(self, faction: str | None, overrides: dict | None, make: Any) -> Any:
        """``make(self.seat(faction, overrides))`` (a bot's checked, compiled parameters),
        made once per seat and overrides, as the seat's weights are."""
        key = self._key(faction, overrides)
        out = None if key is None else self._derived.get(key)
        if out is None:
            out = make(self.seat(faction, overrides))
            if key is not None:
                self._derived[key] = out
        return out

    @staticmethod
    def _key(faction: str | None, overrides: dict | None) -> tuple | None:
        try:
            key = (faction, tuple(sorted((overrides or {}).items())))
            hash(key)
        except TypeError:
            return None
        return key


def shared_weights(path: str | None, layers: tuple[Path, ...] = ()) -> SharedWeights:
    """``load_weights(path, None, layers)`` as one ``SharedWeights`` per process while its
    files are unchanged (their size and modification time, as ``_read``)."""
    stamps = []
    for f in (*layers, *([path] if path else [])):
        try:
            st = os.stat(f)
        except OSError:  # a missing file: load_weights says so in one line
            return SharedWeights(load_weights(path, None, layers))
        name = os.fspath(f)  # the package's layers are absolute paths already
        stamps.append(
            (name if os.path.isabs(name) else os.path.abspath(name), st.st_mtime_ns, st.st_size)
        )
    return _shared(tuple(stamps), tuple(layers), path)


@lru_cache(maxsize=32)
def _shared(stamps: tuple, layers: tuple[Path, ...], path: str | None) -> SharedWeights:
    return SharedWeights(load_weights(path, None, layers))


def seat_weights(weights: dict, faction: str | None, overrides: dict | None = None) -> dict:
    """The weights one Faction's bot plays with: the top level, its ``[seat.F]`` values over
    them, then the spec's dotted ``overrides`` (the most specific). Without seat values and
    overrides, ``weights`` itself."""
    seat = (weights.get("seat") or {}).get(faction) if faction else None
    if not seat and not overrides and "seat" not in weights:
        return weights
    out = _copy(weights)
    out.pop("seat", None)
    if seat:
        _merge(out, seat, f"seat.{faction}.")
    for key, value in (overrides or {}).items():
        set_dotted(out, key, value)
    return out


def deck_size(rules) -> int:
    """Cards in the whole deck (2.1): each stack, and the Succession card after it."""
    n = 0
    for spec in rules.stacks:
        n += rules.events_per_stack + spec.get("mongol_invasions", 0) + spec.get("timurid", 0)
        n += 1 if spec.get("then") else 0
    return n


def delhi_projection(invaders: float, defenders: float) -> float:
    """The expected 5.1 bonus when ``invaders`` Mongols meet ``defenders`` Sultanate Units in
    Timur's assault (2.6): a smooth step from +3 to -3 centred where the Invaders exceed
    half the defenders by three (fitted to simulated battles)."""
    x = (invaders - defenders / 2 - 3) / 1.2
    if x > 30:
        return -3.0
    return 3.0 - 6.0 / (1.0 + math.exp(-x))


def _curve(values: list) -> tuple[float, ...]:
    if len(values) != 8:
        raise ValueError("eval.curves entries need 8 values, for margins -3..4")
    return tuple(float(v) for v in values)


class Evaluator:
    """Scores positions for the three factions; built once per game from rules and weights.

    ``local(f, s, ds, bk, ve, tributary, governor)`` is the worth to ``f`` of Province ``s``
    holding those piece counts: the heuristic bots value a change in a Province as the
    difference of two local values, so they and the evaluation agree.
    """

    __slots__ = (
        "rules",
        "w",
        "provinces",
        "prosperity",
        "delhi",
        "mp",
        "pj",
        "total",
        "opp",
        "khalji",
        "risk",
        "hold",
        "ds_threat",
        "ds_retake",
        "ds_nogov",
        "chance",
    )

    def __init__(self, rules, weights: dict) -> None:
        self.rules = rules
        self.w = w = weights["eval"]
        self.opp = float(w["opponent"])
        self.khalji = float(weights["play"]["rebel_khalji"])
        self.risk = _curve(w["curves"]["risk"])
        self.hold = _curve(w["curves"]["hold"])
        self.ds_threat = float(w["DS"]["rebel_threat"])
        self.ds_retake = float(w["DS"]["retake"])
        self.ds_nogov = float(w["DS"]["governorless"])
        self.chance = (0.0, float(w["BK"]["rebel_chance"]), float(w["VE"]["rebel_chance"]))
        board = rules.board
        self.provinces = board.province_ids
        self.prosperity = board.prosperity
        self.delhi, self.mp, self.pj = rules.delhi, rules.mountain_passes, rules.punjab
        self.total = deck_size(rules)

    # -- public entry points ------------------------------------------------------------

    def scores(self, st) -> list[float]:
        """Scores of DS, BK and VE in a GameState."""
        if st.over:
            return self.final(st)
        progress = st.pos / self.total
        return self._scores(
            st.pieces,
            st.tributary,
            st.resources,
            st.cavalry,
            st.influence,
            st.avail[PT_MONGOL],
            st.dynasty,
            st.timurid,
            progress,
        )

    def scores_obs(self, obs) -> list[float]:
        """Scores of DS, BK and VE seen through an Observation."""
        return self._scores(
            obs.pieces,
            obs.tributary,
            obs.resources,
            obs.cavalry,
            obs.influence,
            obs.available[PT_MONGOL],
            obs.dynasty,
            obs.timurid_drawn,
            self.progress(obs),
        )

    def progress(self, obs) -> float:
        """How far through the deck the game is, 0..1 (public: cards left, 2.3)."""
        return (self.total - obs.cards_remaining) / self.total

    def final(self, st) -> list[float]:
        from simulate.rules.victory import vp

        return [vp(self.rules, st, f, final=True) + 0.01 * st.resources[f] for f in (DS, BK, VE)]

    def margin(self, st, f: int) -> float:
        return self.margin_of(self.scores(st), f)

    def margin_of(self, s: list[float], f: int) -> float:
        best = max(s[g] for g in (DS, BK, VE) if g != f)
        return s[f] - self.opp * best

    # -- local values -----------------------------------------------------------------------

    def local(
        self,
        f: int,
        s: int,
        ds: int,
        bk: int,
        ve: int,
        tributary: bool,
        governor: int,
        tughlaq: bool,
    ) -> float:
        """Worth to ``f`` of Province ``s`` with these piece counts (see weights.toml)."""
        return self.locals(s, ds, bk, ve, tributary, governor, tughlaq)[f]

    def locals(
        self, s: int, ds: int, bk: int, ve: int, tributary: bool, governor: int, tughlaq: bool
    ) -> tuple[float, float, float]:
        """Worth of Province ``s`` with these piece counts to DS, BK and VE."""
        pr = self.prosperity[s]
        total = ds + bk + ve
        mb = 2 * bk - total
        mv = 2 * ve - total
        # the curves' and weights' values by name (so a compiled copy computes on C doubles)
        if tributary:
            kh = 1.0 if tughlaq else self.khalji
            risk = self.risk
            m = mb if mb > mv else mv
            c_ds = risk[0 if m < -3 else 7 if m > 4 else m + 3]
            c_bk = risk[0 if mb < -3 else 7 if mb > 4 else mb + 3]
            c_ve = risk[0 if mv < -3 else 7 if mv > 4 else mv + 3]
            w_bk, w_ve = self.chance[1], self.chance[2]
            return (
                pr * (1.0 - self.ds_threat * kh * c_ds),
                pr * w_bk * kh * c_bk,
                pr * w_ve * kh * c_ve,
            )
        hold = self.hold
        md = 2 * ds - total
        c_ds = hold[0 if md < -3 else 7 if md > 4 else md + 3]
        c_bk = hold[0 if mb < -3 else 7 if mb > 4 else mb + 3]
        c_ve = hold[0 if mv < -3 else 7 if mv > 4 else mv + 3]
        v = pr * self.ds_retake * c_ds
        return (
            v if governor else v * self.ds_nogov,
            pr * c_bk,
            pr * c_ve,
        )

    # -- the features -------------------------------------------------------------------

    def _scores(
        self, p, tributary, resources, cavalry, influence, avail_mongols, dynasty, timurid, progress
    ) -> list[float]:
        w = self.w
        pr = self.prosperity
        kh = 1.0 if dynasty == TUGHLAQ else self.khalji
        risk, hold = self.risk, self.hold
        threat, retake, nogov = self.ds_threat, self.ds_retake, self.ds_nogov
        chance_bk, chance_ve = self.chance[BK], self.chance[VE]
        fade = max(0.0, 1.0 - progress)
        loc_ds = loc_bk = loc_ve = 0.0
        u_ds = u_bk = u_ve = 0
        st_bk = st_ve = 0
        governors = 0
        for s in self.provinces:
            b = s * NK
            t, gov, q = p[b], p[b + 1], p[b + 2]
            ao, ar, fort = p[b + 3], p[b + 4], p[b + 5]
            ro, rr, temple = p[b + 6], p[b + 7], p[b + 8]
            ds = t + gov + q
            bk = ao + ar + fort
            ve = ro + rr + temple
            u_ds += t + gov
            u_bk += ao + ar
            u_ve += ro + rr
            st_bk += fort
            st_ve += temple
            governors += gov
            total = ds + bk + ve
            ps = pr[s]
            mb = 2 * bk - total
            mv = 2 * ve - total
            ib = 0 if mb < -3 else 7 if mb > 4 else mb + 3
            iv = 0 if mv < -3 else 7 if mv > 4 else mv + 3
            # the curves' values by name (so a compiled copy computes on C doubles)
            if tributary[s]:
                im = ib if ib > iv else iv
                c_ds, c_bk, c_ve = risk[im], risk[ib], risk[iv]
                loc_ds += ps * (1.0 - threat * kh * c_ds)
                loc_bk += ps * chance_bk * kh * c_bk
                loc_ve += ps * chance_ve * kh * c_ve
            else:
                md = 2 * ds - total
                c_ds, c_bk, c_ve = (
                    hold[0 if md < -3 else 7 if md > 4 else md + 3],
                    hold[ib],
                    hold[iv],
                )
                v = ps * retake * c_ds
                loc_ds += v if gov else v * nogov
                loc_bk += ps * c_bk
                loc_ve += ps * c_ve
        loc = [loc_ds, loc_bk, loc_ve]
        units = [u_ds, u_bk, u_ve]
        structs = [0, st_bk, st_ve]
        # Delhi zone (2.6): Sultanate Units in Delhi, Punjab and the Mountain Passes
        m = 0
        t = 0
        for z in (self.delhi, self.pj, self.mp):
            b = z * NK
            m += p[b + MONGOL]
            t += p[b + TROOP] + p[b + GOVERNOR]
            units[DS] += p[b + TROOP] + p[b + GOVERNOR]
            governors += p[b + GOVERNOR]
        if timurid == 0:
            m += avail_mongols // 2
        proj = delhi_projection(m, t + 0.5 * cavalry[DS])

        wd = w["DS"]
        ds_score = (
            wd["vp"] * loc[DS]
            + wd["delhi_bonus"] * proj * (0.4 + 0.6 * progress)
            + fade
            * (
                wd["resources"] * min(resources[DS], wd["resources_cap"])
                + wd["cavalry"] * cavalry[DS]
                + wd["units"] * units[DS]
                + wd["governors"] * governors
            )
        )
        out = [ds_score, 0.0, 0.0]
        for f in (BK, VE):
            wf = w["BK" if f == BK else "VE"]
            out[f] = (
                loc[f]
                + wf["vp"] * (structs[f] + influence[f])
                + fade
                * (
                    wf["resources"] * min(resources[f], wf["resources_cap"])
                    + wf["cavalry"] * cavalry[f]
                    + wf["units"] * units[f]
                    + wf["influence"] * influence[f]
                )
            )
        return out


def _clamp(m: int) -> int:
    """Index into the curves: margin -3..4 -> 0..7."""
    return 0 if m < -3 else 7 if m > 4 else m + 3
