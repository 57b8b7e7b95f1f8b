# C types for the compiled copy of combat.py (setup.py): dice and hits on C integers (3.2.4).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long MI

@cython.locals(n=long, d=long)
cpdef long hits(list dice, long units, long max_hits, long always_miss)
@cython.locals(i=Py_ssize_t, d=long)
cpdef mongol_charge(list dice, long units, long always_miss)
@cython.locals(a=list, d=list, miss=long)
cpdef tuple battle(Context ctx, Py_ssize_t space, int attacker, int defender, long att_units, long def_units, long att_dice, long def_dice)
