# C types for the compiled copy of rebel.py (setup.py): its spaces on C integers (3.3.3).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long NK
cdef tuple PIECES_OF

@cython.locals(st=GameState, p=bytearray, trib=list, a=Py_ssize_t, b=Py_ssize_t, c=Py_ssize_t, out=list, s=Py_ssize_t, i=Py_ssize_t, mine=long, total=long, k=Py_ssize_t)
cpdef list spaces(Context ctx, int f, run)
