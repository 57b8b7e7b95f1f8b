# C types for the compiled copy of counters.py (setup.py; the .py stays the source of truth):
# the counters read as C integers; valuation.pxd cimports both functions (C calls).

cimport cython

cdef long NK

@cython.locals(
    b=Py_ssize_t, t=long, gov=long, q=long, ao=long, ar=long, fort=long, ro=long, rr=long,
    temple=long,
)
cpdef tuple counts(bytearray p, Py_ssize_t s)
@cython.locals(out=list, s=Py_ssize_t, i=Py_ssize_t, hit=bint, a=long)
cpdef list sync_spaces(bytearray new, bytearray old)
