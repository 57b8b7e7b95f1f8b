# C types for the compiled copy of sultanate.py (see valuation.pxd). SultanateBot is used as
# is, with no __dict__: every attribute it sets is declared here.

from strategies.policies.heuristic.faction_bot cimport FactionBot

# the integer constants it imports (pieces.py, state.py), as C integers
cdef long AMIR_OB, AMIR_REB, BK, DS, FORT, GOVERNOR, MI, MONGOL, NK, PT_GOVERNOR
cdef long PT_MONGOL, PT_QASBAH, PT_TROOP, QASBAH, RAJA_OB, RAJA_REB, TEMPLE, TROOP, VE

cdef class SultanateBot(FactionBot):
    cdef public double w_delhi, late, kill_rebel, kill_mongol, attack_margin, w_bonus
    cdef public int tribute_below, conscript_cap
    cdef public object conscript, dist, zone_hood

    cpdef double _add_value(self, obs, Py_ssize_t s, long k)
    cpdef double space_value(self, obs, str name, Py_ssize_t s)
    cpdef space_key(self, obs, str name, Py_ssize_t s)
