# C types for the compiled copy of march.py (setup.py): its spaces on C integers (3.2.2).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long GOVERNOR, TROOP

@cython.locals(st=GameState, out=list, adjacent_mask=tuple, s=Py_ssize_t)
cpdef list spaces(Context ctx, int f, run)
