# C types for the compiled copy of control.py (setup.py): Control and the Rebelling flip
# on C integers (1.7, 1.4.5).

cimport cython
from simulate.vijayanagara.rules.state cimport GameState

cdef long AMIR_OB, AMIR_REB, BK, DS, NK, RAJA_OB, RAJA_REB, VE

@cython.locals(p=bytearray, b=Py_ssize_t, ds=long, bk=long, ve=long, total=long)
cpdef int controller(GameState st, Py_ssize_t s)
@cython.locals(c=int, p=bytearray, ob=Py_ssize_t)
cpdef settle(GameState st, Py_ssize_t s, bint is_province)
@cython.locals(p=bytearray, b=Py_ssize_t)
cpdef set_tributary(GameState st, Py_ssize_t s)
cpdef set_independent(GameState st, Py_ssize_t s)
