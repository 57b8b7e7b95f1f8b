# C types for the compiled copy of attack.py (setup.py): where an Attack may go, on C integers
# (3.2.4, 3.3.4, 3.4.4).

cimport cython
from simulate.vijayanagara.rules.commands cimport CommandRun
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long AMIR_OB, AMIR_REB, BK, DS, FORT, MI, MONGOL, NK, RAJA_OB, RAJA_REB, TEMPLE, VE

@cython.locals(st=GameState, p=bytearray, board=object, u1=Py_ssize_t, u2=Py_ssize_t, struct=Py_ssize_t, out=list, s=Py_ssize_t, adjacent_mask=tuple)
cpdef list spaces(Context ctx, int f, CommandRun run)
@cython.locals(own=Py_ssize_t, total=long, i=Py_ssize_t)
cpdef bint _has_defender(bytearray p, Py_ssize_t b, int f)
