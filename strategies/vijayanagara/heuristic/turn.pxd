# C types for the compiled copy of turn.py (see valuation.pxd): TurnPlanner as an extension
# type over Valuation, its hot methods typed. Declares no attribute of its own: it sets none.

cimport cython
from strategies.vijayanagara.heuristic.valuation cimport Valuation

cdef class TurnPlanner(Valuation):
    cpdef tuple command_values(self, obs, str name, bint free=*)
    @cython.locals(
        values=list, ranked=dict, total=double, first_net=double, i=Py_ssize_t, v=double, net=double
    )
    cpdef tuple _command_values(self, obs, str name, bint free, long r)
    @cython.locals(best_v=double, v=double, x=double, scale=double, ab=dict, cb=dict, db=dict)
    cpdef fitted_choice(self, obs, d)
    @cython.locals(total=double, acc=double, w=double, k=long, pairs=tuple)
    cpdef double terms_value(self, tuple coef, double x, tuple ctx)
