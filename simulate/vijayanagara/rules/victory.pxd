# C types for the compiled copy of victory.py (setup.py): victory points on C integers (5.1-5.3).

cimport cython
from simulate.vijayanagara.rules.state cimport GameState

cdef long BK, DS, MONGOL, NK, VE
cdef tuple STRUCTURE_OF

@cython.locals(pr=tuple, s=Py_ssize_t, total=long, trib=list)
cpdef long tributary_prosperity(rules, GameState st)
cpdef long delhi_bonus(rules, GameState st)
@cython.locals(pr=tuple, p=bytearray, struct=Py_ssize_t, total=long, s=Py_ssize_t, control=list)
cpdef long vp(rules, GameState st, int f, bint final=*)
