# C types for the compiled copy of placement.py (setup.py): pieces on, off and across the
# map on C integers, Control settled after each change (1.4.3, 1.4.6, 1.7).

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState
from simulate.vijayanagara.rules.control cimport settle

cdef long NK
cdef tuple COUNTER_TYPE, STRUCTURES

@cython.locals(st=GameState, pt=Py_ssize_t)
cpdef long place(Context ctx, Py_ssize_t s, Py_ssize_t counter, long n)
@cython.locals(st=GameState, i=Py_ssize_t)
cpdef long remove(Context ctx, Py_ssize_t s, Py_ssize_t counter, long n)
@cython.locals(st=GameState, i=Py_ssize_t, is_province=tuple)
cpdef long move(Context ctx, Py_ssize_t src, Py_ssize_t dst, Py_ssize_t counter, long n, to_counter=*)
@cython.locals(st=GameState, p=bytearray, i=Py_ssize_t, j=Py_ssize_t, k=long)
cpdef flip(Context ctx, Py_ssize_t s, Py_ssize_t from_counter, Py_ssize_t to_counter, n=*)
