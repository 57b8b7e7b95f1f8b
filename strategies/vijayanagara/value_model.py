"""A value model learned from game outcomes (``value.toml``), for mcts's playout leaves.

A playout that stops ``horizon`` cards short of the end is scored by a guess at how the game
ends. The hand-set evaluation (``evaluation.py``) is one guess; this model is another, fitted
to the outcomes of many games of the default lineup (``strategies/vijayanagara/fitting/value_fit.py``):
from public features of a position (Victory Points now, 5.1-5.3; Resources, Cavalry, Units,
Influence, Structures; the Delhi zone, 2.6; the hand-set scores; how far through the deck, 2.1)
it predicts each Faction's final Victory Points (ridge regressions) and its chance to win
(a multinomial logistic regression, 5.0). mcts with ``value`` scores a leaf as it scores the
end of a game: its seat's margin over the predicted final Victory Points, plus ``win_bonus``
times the predicted chance to win.

Every feature is public (2.3: never the order of the undrawn deck), so the model reads a
determinised copy as it reads the game.
"""

from __future__ import annotations

import hashlib
import math
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from simulate.vijayanagara.rules import victory
from simulate.vijayanagara.rules.pieces import (
    BK,
    DS,
    FORT,
    GOVERNOR,
    MONGOL,
    NK,
    PT_MONGOL,
    TEMPLE,
    TROOP,
    VE,
)
from simulate.vijayanagara.rules.state import TUGHLAQ
from simulate.vijayanagara.rules.summation import ordered_sum

VALUE_FILE = Path(__file__).resolve().parent / "lineups" / "values" / "value.toml"

# the features of a position, in order (each also crossed with the deck's progress, "*late")
BASE = (
    "vp_DS",
    "vp_BK",
    "vp_VE",
    "score_DS",
    "score_BK",
    "score_VE",
    "res_DS",
    "res_BK",
    "res_VE",
    "cav_DS",
    "cav_BK",
    "cav_VE",
    "units_DS",
    "units_BK",
    "units_VE",
    "influence_BK",
    "influence_VE",
    "structures_BK",
    "structures_VE",
    "governors",
    "delhi_invaders",
    "delhi_defenders",
    "tughlaq",
    "timurid",
)
NAMES = BASE + tuple(f"{name}*late" for name in BASE) + ("late",)


class BadValueModel(ValueError):
    """A value model file that cannot be used."""


def _evaluator(rules: Any) -> Any:
    """The hand-set evaluation over the shipped base weights (never a seat's tuned ones: the
    features must not depend on who reads them)."""
    from strategies.vijayanagara.heuristic.evaluation import Evaluator
    from strategies.vijayanagara.heuristic.weights import default_weights

    return Evaluator(rules, default_weights())


class Features:
    """The public features of a position for one rule set (``NAMES``, in order)."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.ev = _evaluator(rules)
        board = rules.board
        self.provinces = tuple(board.provinces)
        self.zone = (rules.delhi, rules.punjab, rules.mountain_passes)
        self.delhi = rules.delhi
        self.total = self.ev.total

    def __call__(self, st: Any) -> list[float]:
        """The features of GameState ``st`` (public parts only)."""
        p = st.pieces
        vp = [victory.vp(self.rules, st, f) for f in (DS, BK, VE)]  # 5.1-5.3, during play
        units = [0, 0, 0]
        forts = temples = governors = 0
        for s in self.provinces:
            b = s * NK
            forts += p[b + FORT]
            temples += p[b + TEMPLE]
            governors += p[b + GOVERNOR]
            units[DS] += p[b] + p[b + 1]
            units[BK] += p[b + 3] + p[b + 4]
            units[VE] += p[b + 6] + p[b + 7]
        defenders = 0
        for z in self.zone:
            b = z * NK
            defenders += p[b + TROOP] + p[b + GOVERNOR]
            units[DS] += p[b + TROOP] + p[b + GOVERNOR]
        invaders = p[self.delhi * NK + MONGOL]
        if st.timurid == 0:
            invaders += st.avail[PT_MONGOL] / 2
        score = self.ev.scores(st)
        res, cav = st.resources, st.cavalry
        base = [
            vp[DS],
            vp[BK],
            vp[VE],
            score[DS],
            score[BK],
            score[VE],
            res[DS],
            res[BK],
            res[VE],
            cav[DS],
            cav[BK],
            cav[VE],
            units[DS],
            units[BK],
            units[VE],
            st.influence[BK],
            st.influence[VE],
            forts,
            temples,
            governors,
            invaders,
            defenders,
            1.0 if st.dynasty == TUGHLAQ else 0.0,
            st.timurid,
        ]
        late = st.pos / self.total
        return [float(x) for x in base] + [x * late for x in base] + [late]


class ValueModel:
    """Predicted final Victory Points and chances to win of DS, BK and VE (module docs)."""

    def __init__(self, table: dict, source: str) -> None:
        names = tuple(table.get("features", ()))
        if names != NAMES:
            raise BadValueModel(
                f"{source}: its features are not this build's (refit it: python -m "
                "strategies.vijayanagara.fitting.value_fit)"
            )
        k = len(names)
        try:
            self.mean = [float(x) for x in table["mean"]]
            self.scale = [float(x) for x in table["scale"]]
            self.vp = [[float(x) for x in table["final_vp"][f]] for f in ("DS", "BK", "VE")]
            self.win = [[float(x) for x in table["win"][f]] for f in ("DS", "BK", "VE")]
        except (KeyError, TypeError, ValueError) as exc:
            raise BadValueModel(f"{source}: missing or bad table ({exc})") from None
        if len(self.mean) != k or len(self.scale) != k:
            raise BadValueModel(f"{source}: mean and scale need {k} values, one per feature")
        if any(len(w) != k + 1 for w in (*self.vp, *self.win)):
            raise BadValueModel(
                f"{source}: each Faction's weights need {k} values and an intercept"
            )
        if any(x <= 0 for x in self.scale):
            raise BadValueModel(f"{source}: every scale must be positive")
        self.info = {key: table[key] for key in ("command", "data_sha256", "games") if key in table}
        self._features: dict[int, Features] = {}

    def features(self, rules: Any) -> Features:
        f = self._features.get(id(rules))
        if f is None or f.rules is not rules:
            f = self._features[id(rules)] = Features(rules)
        return f

    def predict(self, rules: Any, st: Any) -> tuple[list[float], list[float]]:
        """Predicted final Victory Points and chances to win, by Faction (DS, BK, VE)."""
        x = self.features(rules)(st)
        z = [(v - m) / s for v, m, s in zip(x, self.mean, self.scale, strict=True)]
        vps = [w[-1] + ordered_sum(a * b for a, b in zip(w, z, strict=False)) for w in self.vp]
        logits = [w[-1] + ordered_sum(a * b for a, b in zip(w, z, strict=False)) for w in self.win]
        top = max(logits)
        e = [math.exp(v - top) for v in logits]
        total = ordered_sum(e)
        return vps, [v / total for v in e]


def load_value(path: str | Path | None = None) -> ValueModel:
    """The value model in ``path`` (default: the shipped ``value.toml``), read once."""
    p = Path(path) if path else VALUE_FILE
    try:
        stat = p.stat()
    except OSError:
        raise BadValueModel(f"value model {p}: no such file") from None
    return _load(str(p), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> ValueModel:
    raw = Path(path).read_bytes()
    try:
        table = tomllib.loads(raw.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadValueModel(f"value model {path}: not TOML ({exc})") from None
    model = ValueModel(table, f"value model {path}")
    model.info["sha256"] = hashlib.sha256(raw).hexdigest()
    return model
