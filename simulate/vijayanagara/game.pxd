# C types for the compiled copy of game.py (setup.py): the per-card records on C integers.

cimport cython
from simulate.vijayanagara.rules.state cimport GameState
from simulate.vijayanagara.rules.victory cimport vp

cdef long BK, DS, MONGOL, NK, QASBAH, VE

@cython.locals(
    p=bytearray, controlled=list, trib=long, s=Py_ssize_t, vps=list, mp=long, pj=long, dl=long,
    qasbahs=long, out=list, f=int, over=bint, trib_flags=list, control=list, b=Py_ssize_t, n=Py_ssize_t,
    units=long, u1=Py_ssize_t, u2=Py_ssize_t,
)
cpdef list _snapshot(rules, GameState st, int turn, str card_id, str kind, list log)
