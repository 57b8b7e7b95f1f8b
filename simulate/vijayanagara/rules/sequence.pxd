# C types for the compiled copy of sequence.py (setup.py; the .py stays the source of truth):
# the Sequence of Play's loop (2.2, 2.3) on a typed Context and GameState.

cimport cython
from simulate.vijayanagara.rules.context cimport Context
from simulate.vijayanagara.rules.state cimport GameState

@cython.locals(st=GameState, idx=Py_ssize_t)
cpdef next_card(Context ctx)
@cython.locals(st=GameState, f=int)
cpdef resume_card(Context ctx)
@cython.locals(st=GameState, out=list)
cpdef tuple action_options(Context ctx, int f, cmds=*)
cpdef bint event_playable(Context ctx, int f)
@cython.locals(st=GameState, log=list)
cpdef faction_turn(Context ctx, int f, forced=*)
cpdef _command(Context ctx, int f, bint limited=*, bint optional=*)
cpdef _decree(Context ctx, int f)
@cython.locals(st=GameState, f=int)
cpdef adjust_eligibility(Context ctx)
