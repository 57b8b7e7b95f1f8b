# C types for the compiled copy of deccan.py (see valuation.pxd). BahmaniBot and
# VijayanagaraBot stay Python subclasses; their ``DATA`` is copied into C fields at start.

cimport cython
from strategies.vijayanagara.heuristic.counters cimport counts
from strategies.vijayanagara.heuristic.faction_bot cimport FactionBot

# the integer constants it imports (pieces.py, state.py), as C integers
cdef long AMIR_OB, AMIR_REB, BK, DS, FORT, GOVERNOR, MONGOL, NK, PT_MONGOL, RAJA_OB
cdef long RAJA_REB, TEMPLE, TROOP

cdef class DeccanBot(FactionBot):
    cdef public int rival, ob, reb, struct, unit_pt, struct_pt
    cdef public str econ, special, name_
    cdef public dict rally
    cdef public int migrate_max, support_units, home, rival_base, rally_cap
    cdef public object shift_cost
    cdef public double w_shift, w_struct, kill_troop, kill_rival, mongol_harm, attack_margin

    cpdef double _add_value(self, obs, Py_ssize_t s, long k)
    cpdef double space_value(self, obs, str name, Py_ssize_t s)
    cpdef space_key(self, obs, str name, Py_ssize_t s)
    cpdef double cached_space_value(self, obs, str name, Py_ssize_t s)
    cpdef list space_values(self, obs, str name)
    @cython.locals(b=Py_ssize_t, ob=long, reb=long)
    cpdef long own(self, bytearray p, Py_ssize_t s)
    @cython.locals(b=Py_ssize_t, p=bytearray, x=long, y=long, z=long)
    cpdef double shift_value(self, obs, Py_ssize_t s)
    @cython.locals(b=Py_ssize_t, t=long, gov=long, q=long, st=long, ob=long, rb=long)
    cpdef bint _lone(self, bytearray p, Py_ssize_t s)
    @cython.locals(p=bytearray, best=long, a=Py_ssize_t)
    cpdef long _support(self, obs, Py_ssize_t s)
    @cython.locals(p=bytearray, a=Py_ssize_t, k=long, sources=list)
    cpdef tuple migrate_plan(self, obs, Py_ssize_t s)
