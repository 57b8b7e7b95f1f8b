# C types for the compiled copy of observation.py (setup.py): the Observation as an
# extension type over a typed GameState, so reading the board through it costs less (each
# property one C field read).

from simulate.rules.state cimport GameState

cdef class Observation:
    cdef readonly object rules
    cdef GameState _st
