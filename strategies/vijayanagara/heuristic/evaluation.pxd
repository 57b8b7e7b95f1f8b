# C types for the compiled copy of evaluation.py (see valuation.pxd): the Evaluator's weights
# as C fields, and the local values and whole-board scores computed on C numbers.

cimport cython
from simulate.vijayanagara.rules.observation cimport position

# the integer constants it imports (pieces.py, state.py), as C integers
cdef long BK, DS, GOVERNOR, MONGOL, NK, PT_MONGOL, TROOP, VE, TUGHLAQ

cdef class Evaluator:
    cdef public object rules, w, provinces, total
    cdef public tuple prosperity, risk, hold, chance, assets
    cdef public int delhi, mp, pj
    cdef public double opp, khalji, ds_threat, ds_retake, ds_nogov

    @cython.locals(
        pr=double, total=long, mb=long, mv=long, md=long, m=long, kh=double, v=double,
        risk=tuple, hold=tuple, c_ds=double, c_bk=double, c_ve=double, w_bk=double, w_ve=double,
    )
    cpdef tuple locals(
        self, Py_ssize_t s, long ds, long bk, long ve, bint tributary, long governor, bint tughlaq
    )
    cpdef double progress_at(self, left)
    @cython.locals(
        pr=tuple, risk=tuple, hold=tuple, s=Py_ssize_t, b=Py_ssize_t,
        t=long, gov=long, q=long, ao=long, ar=long, fort=long, ro=long, rr=long, temple=long,
        ds=long, bk=long, ve=long, u_ds=long, u_bk=long, u_ve=long, st_bk=long, st_ve=long,
        governors=long, total=long, mb=long, mv=long, md=long, ib=long, iv=long, im=long,
        m=long, z=Py_ssize_t,
        ps=double, kh=double, threat=double, retake=double, nogov=double, chance_bk=double,
        chance_ve=double, fade=double, loc_ds=double, loc_bk=double, loc_ve=double, v=double,
        c_ds=double, c_bk=double, c_ve=double, mz=long, tz=long, gz=long, cav_ds=long,
        cav_bk=long, cav_ve=long, r=long, vp=double, bonus=double, w_res=double,
        cap=double, w_cav=double, w_units=double, w_gov=double, proj=double,
        ds_score=double, bk_score=double, ve_score=double,
    )
    cpdef list _scores(
        self, bytearray p, tributary, resources, cavalry, influence, avail_mongols, dynasty, timurid,
        double progress,
    )

@cython.locals(vp=double, w_res=double, cap=double, w_cav=double, w_units=double, w_inf=double)
cpdef double deccan_score(
    double loc, long structs, long inf, long r, long cav, long units, tuple w, double fade
)
