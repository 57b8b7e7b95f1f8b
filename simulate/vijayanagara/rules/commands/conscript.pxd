# C types for the compiled copy of conscript.py (setup.py): its spaces on C integers (3.2.1).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long NK, PT_TROOP, QASBAH, TROOP

@cython.locals(st=GameState, out=list, p=bytearray, trib=list, delhi=Py_ssize_t, s=Py_ssize_t)
cpdef list spaces(Context ctx, int f, run)
