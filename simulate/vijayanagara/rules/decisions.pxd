# C types for the compiled copy of decisions.py (setup.py): a Decision as an extension type.

cdef class Decision:
    cdef public str kind, faction
    cdef public tuple options
    cdef public object context
