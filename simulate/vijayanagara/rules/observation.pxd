# C types for the compiled copy of observation.py (setup.py): the Observation as an
# extension type over a typed GameState, so reading the board through it costs less (each
# property one C field read).

cimport cython
from simulate.vijayanagara.rules.shuffle cimport shuffle
from simulate.vijayanagara.rules.state cimport GameState

cdef class Observation:
    cdef readonly object rules
    cdef GameState _st

@cython.locals(
    cards=tuple, seen=set, unseen_events=list, unseen_mongols=list, unseen_timurid=list,
    out=list, start=Py_ssize_t, end=Py_ssize_t, lo=Py_ssize_t, need_e=Py_ssize_t,
    need_m=Py_ssize_t, need_t=Py_ssize_t, part=list, shown=list,
)
cpdef tuple redeal(rules, tuple deck, Py_ssize_t pos, rng)

@cython.locals(o=Observation, st=GameState)
cpdef tuple position(obs)
