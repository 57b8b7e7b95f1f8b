# C types for the compiled copy of govern.py (setup.py): its options and spaces on C integers
# (3.2.3).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long AMIR_OB, DS, GOVERNOR, NK, PT_GOVERNOR, PT_QASBAH, QASBAH, RAJA_OB

@cython.locals(b=Py_ssize_t, out=list, cap=long, can_q=bint, a=long, r=long, q=long)
cpdef list options(rules, bytearray pieces, list avail, Py_ssize_t s)
cpdef list _options(Context ctx, Py_ssize_t s)
@cython.locals(st=GameState, p=bytearray, trib=list, control=list, is_province=tuple, spare=bint, out=list, s=Py_ssize_t)
cpdef list spaces(Context ctx, int f, run)
