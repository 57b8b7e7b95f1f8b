"""Position evaluation for the heuristic and the searches over it, from its weights.

``score(f)`` is in victory-point equivalents: VP now (5.1-5.3), projected VP (the Sultanate's
end bonus for Delhi against the Invaders, Tributaries the Deccan factions could Rebel in),
and assets (Resources, Cavalry, Units, Influence) that fade out as the deck runs down. A
finished game scores its final VP exactly, plus 0.01 per Resource for the tiebreak (5.0).
``margin(f)`` is the faction's score minus the best opponent's: what the bots maximise. The
weights (``eval`` in ``weights.toml``) come from ``weights.py``.
"""

from __future__ import annotations

import math

from simulate.vijayanagara.rules.observation import position
from simulate.vijayanagara.rules.pieces import BK, DS, GOVERNOR, MONGOL, NK, PT_MONGOL, TROOP, VE
from simulate.vijayanagara.rules.state import TUGHLAQ

# each Faction's weights (``eval`` in weights.toml) of its score's terms, as ``_scores`` uses them
ASSETS = {
    "DS": ("vp", "delhi_bonus", "resources", "resources_cap", "cavalry", "units", "governors"),
    "BK": ("vp", "resources", "resources_cap", "cavalry", "units", "influence"),
    "VE": ("vp", "resources", "resources_cap", "cavalry", "units", "influence"),
}


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
    return tuple([float(v) for v in values])


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
        "assets",
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
        # each Faction's asset weights as floats, in the order ``_scores`` reads them
        self.assets = tuple(
            [tuple([float(w[name][k]) for k in ASSETS[name]]) for name in ("DS", "BK", "VE")]
        )
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
        """Scores of DS, BK and VE seen through an Observation (its position read in one
        call, as the bots read it)."""
        pieces, tributary, avail, _, resources, cavalry, influence, dynasty, left = position(obs)
        return self._scores(
            pieces,
            tributary,
            resources,
            cavalry,
            influence,
            avail[PT_MONGOL],
            dynasty,
            obs.timurid_drawn,
            self.progress_at(left),
        )

    def progress(self, obs) -> float:
        """How far through the deck the game is, 0..1 (public: cards left, 2.3)."""
        return self.progress_at(obs.cards_remaining)

    def progress_at(self, left: int) -> float:
        """``progress`` with ``left`` cards still to draw."""
        return (self.total - left) / self.total

    def final(self, st) -> list[float]:
        from simulate.vijayanagara.rules.victory import vp

        return [vp(self.rules, st, f, final=True) + 0.01 * st.resources[f] for f in (DS, BK, VE)]

    def margin(self, st, f: int) -> float:
        return self.margin_of(self.scores(st), f)

    def margin_of(self, s: list[float], f: int) -> float:
        best = max([s[g] for g in (DS, BK, VE) if g != f])
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
        # Delhi zone (2.6): Sultanate Units in Delhi, Punjab and the Mountain Passes
        m = 0
        t = 0
        for z in (self.delhi, self.pj, self.mp):
            b = z * NK
            mz, tz, gz = p[b + MONGOL], p[b + TROOP], p[b + GOVERNOR]
            m += mz
            t += tz + gz
            u_ds += tz + gz
            governors += gz
        if timurid == 0:
            m += avail_mongols // 2
        cav_ds, cav_bk, cav_ve = cavalry[DS], cavalry[BK], cavalry[VE]
        proj = delhi_projection(m, t + 0.5 * cav_ds)
        # (the terms in the order of the weights: the same sums as written out by name)
        vp, bonus, w_res, cap, w_cav, w_units, w_gov = self.assets[DS]
        r = resources[DS]
        ds_score = (
            vp * loc_ds
            + bonus * proj * (0.4 + 0.6 * progress)
            + fade
            * (
                w_res * (r if r < cap else cap)
                + w_cav * cav_ds
                + w_units * u_ds
                + w_gov * governors
            )
        )
        bk_score = deccan_score(
            loc_bk, st_bk, influence[BK], resources[BK], cav_bk, u_bk, self.assets[BK], fade
        )
        ve_score = deccan_score(
            loc_ve, st_ve, influence[VE], resources[VE], cav_ve, u_ve, self.assets[VE], fade
        )
        return [ds_score, bk_score, ve_score]


def deccan_score(
    loc: float, structs: int, inf: int, r: int, cav: int, units: int, w: tuple, fade: float
) -> float:
    """A Deccan Faction's score (BK and VE alike, 3.3-3.4): its local values, VP from its
    Structures and Influence (5.2, 5.3), and fading assets, weighted by ``w`` (``ASSETS``)."""
    vp, w_res, cap, w_cav, w_units, w_inf = w
    return (
        loc
        + vp * (structs + inf)
        + fade * (w_res * (r if r < cap else cap) + w_cav * cav + w_units * units + w_inf * inf)
    )


def _clamp(m: int) -> int:
    """Index into the curves: margin -3..4 -> 0..7."""
    return 0 if m < -3 else 7 if m > 4 else m + 3
