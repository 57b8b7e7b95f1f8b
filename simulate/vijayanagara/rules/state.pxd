# C types for the compiled copy of state.py (setup.py; the .py stays the source of truth):
# the GameState as an extension type, so the engine reads its fields as C struct members
# (tracks and flags as C integers, the board's counters as one bytearray, the rest as lists).

cdef class GameState:
    cdef public bytearray pieces
    cdef public list avail, tributary, control, resources, cavalry, influence, slots
    cdef public list eligible, elig_next
    cdef public tuple deck, lasting
    cdef public int pool, dynasty, pos, card, acted, fork_cd, fork_ec, stay, timurid
    cdef public int mongol_kills, qasbah_kills
    cdef public bint over

    cpdef GameState copy(self)
    cpdef int count(self, Py_ssize_t space, Py_ssize_t counter)
    cpdef Py_ssize_t cards_left(self)
