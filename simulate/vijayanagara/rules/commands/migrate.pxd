# C types for the compiled copy of migrate.py (setup.py): its spaces on C integers (3.3.2).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef tuple OB, REB

@cython.locals(st=GameState, out=list, adjacent_mask=tuple, s=Py_ssize_t)
cpdef list spaces(Context ctx, int f, run)
