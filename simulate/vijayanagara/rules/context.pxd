# C types for the compiled copy of context.py (setup.py; the .py stays the source of truth):
# the Context as an extension type, so rule functions reach its state and ask Decisions
# without attribute lookups.

from simulate.vijayanagara.rules.state cimport GameState

cdef class Context:
    cdef public object rules, dice, agents, obs, trace, on_action, granted, timeout
    cdef public GameState state
    cdef public list log

    cpdef ask(self, int faction, str kind, options, context=*)
    cpdef list roll(self, Py_ssize_t n, dice=*)
    cpdef action_done(self)
