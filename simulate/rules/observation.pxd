cdef class Observation:
    cdef public object rules
    cdef public object _st
