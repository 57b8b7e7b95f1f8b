# C types for the compiled copy of invariants.py (setup.py; the .py stays the source of truth):
# the check after every action (``vsim soak``) reads the board's counters as C integers.

cimport cython
from simulate.vijayanagara.rules.state cimport GameState

# the integer constants it imports (pieces.py), as C integers
cdef long AMIR_OB, BK, MI, NK, RAJA_OB, VE

@cython.locals(
    p=bytearray, is_province=tuple, counter_type=tuple, counter_owner=tuple, on_map=list,
    s=Py_ssize_t, b=Py_ssize_t, c=Py_ssize_t, v=long, t=Py_ssize_t, owner=long, province=bint,
    on_track=list, pt=Py_ssize_t, total=long, f=Py_ssize_t, level=long,
)
cpdef check(GameState state, rules)
