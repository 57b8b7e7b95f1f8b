# C types for the compiled copy of rally.py (setup.py): its spaces on C integers (3.3.1, 3.4.1).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long NK
cdef tuple PIECES_OF, UNIT_TYPE, STRUCTURE_OF

@cython.locals(st=GameState, out=list, p=bytearray, home=Py_ssize_t, a=Py_ssize_t, b=Py_ssize_t, c=Py_ssize_t, s=Py_ssize_t, i=Py_ssize_t)
cpdef list spaces(Context ctx, int f, run)
