# C types for the compiled copy of sultanate.py (see valuation.pxd). SultanateBot is used as
# is, with no __dict__: every attribute it sets is declared here.

cimport cython
from strategies.vijayanagara.heuristic.faction_bot cimport FactionBot

# the integer constants it imports (pieces.py, state.py), as C integers
cdef long AMIR_OB, AMIR_REB, BK, DS, FORT, GOVERNOR, MI, MONGOL, NK, PT_GOVERNOR
cdef long PT_MONGOL, PT_QASBAH, PT_TROOP, QASBAH, RAJA_OB, RAJA_REB, TEMPLE, TROOP, VE

cdef class SultanateBot(FactionBot):
    cdef public double w_delhi, late, kill_rebel, kill_mongol, attack_margin, w_bonus
    cdef public int tribute_below, conscript_cap
    cdef public object conscript, dist, zone_hood
    cdef public tuple within

    cpdef double _add_value(self, obs, Py_ssize_t s, long k)
    cpdef double space_value(self, obs, str name, Py_ssize_t s)
    cpdef space_key(self, obs, str name, Py_ssize_t s)
    @cython.locals(p=bytearray, b=Py_ssize_t, out=list)
    cpdef list _targets(self, obs, Py_ssize_t s)
    @cython.locals(p=bytearray, best=long, a=Py_ssize_t, b=Py_ssize_t, t=long, gov=long)
    cpdef long _support(self, obs, Py_ssize_t s)
    @cython.locals(
        p=bytearray, n=Py_ssize_t, reach=long, restricted=bint, o=Py_ssize_t, d=Py_ssize_t,
        k=Py_ssize_t, t=long, prev=double, cur=double, step=double, total=double, acc=double,
        best_v=double, min_loss=double, longest=Py_ssize_t, best_k=long, within=tuple,
        loss_tab=dict, gain_tab=dict, out=list, gains=list, losses=list,
    )
    cpdef tuple _campaign_plan(self, obs, origins)
    @cython.locals(
        p=bytearray, a=Py_ssize_t, t=long, g=long, b=Py_ssize_t, want=double, total=double,
        moved=long, sources=list, plan=dict, taken=dict,
    )
    cpdef tuple march_plan(self, obs, Py_ssize_t s)
