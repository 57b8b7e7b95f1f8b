# C types for the compiled copy of commands/__init__.py (setup.py; the .py stays the source
# of truth): the Command's bookkeeping (3.1.1, 3.1.2) as an extension type on C integers.

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

cdef long AMIR_OB, NK, RAJA_OB
cdef tuple _OB

cdef class CommandRun:
    cdef public str name
    cdef public bint free, limited, shifted
    cdef public list selected
    cdef public object used, where
    cdef public Py_ssize_t n
    cdef public dict masks

    @cython.locals(i=Py_ssize_t)
    cpdef use(self, Py_ssize_t s, Py_ssize_t counter, long n)
    @cython.locals(p=bytearray, mask=object, b=Py_ssize_t, s=Py_ssize_t)
    cpdef ready_mask(self, GameState st, spaces, Py_ssize_t c1, Py_ssize_t c2, Py_ssize_t struct=*)
    @cython.locals(i=Py_ssize_t, used=list, ob=Py_ssize_t, v=long)
    cpdef long movable(self, GameState st, Py_ssize_t s, Py_ssize_t counter)

@cython.locals(st=GameState)
cpdef bint rebel_allowed(Context ctx, int f, bint granted=*)
@cython.locals(run=CommandRun)
cpdef list available_commands(Context ctx, int f, bint free=*, bint granted_rebel=*, where=*, bint first=*)
@cython.locals(st=GameState, run=CommandRun, cap=long)
cpdef long execute(Context ctx, int f, str name, bint limited=*, bint free=*, where=*, bint optional=*, bint granted_rebel=*)
