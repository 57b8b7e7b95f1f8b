# C types for the compiled copy of observation.py (setup.py): the Observation as an
# extension type, so reading the board through it costs less.

cdef class Observation:
    cdef readonly object rules
    cdef object _st
