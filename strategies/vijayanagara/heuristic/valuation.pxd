# C types for the compiled copy of valuation.py (setup.py; the .py stays the source of truth):
# Valuation, the base of every faction bot, as an extension type with C attributes, its hot
# methods typed (cpdef). Plays are unchanged (tests/test_native.py); editing this file makes
# the build stale (native.py).

cimport cython
from strategies.vijayanagara.heuristic.counters cimport counts, sync_spaces
from strategies.vijayanagara.heuristic.evaluation cimport Evaluator
from simulate.vijayanagara.rules.observation cimport position

# the integer constants it imports (pieces.py, state.py), as C integers
cdef long BK, DS, NK, VE, TUGHLAQ, PACKED, DELTA_KEYS

cdef class Valuation:
    cdef public int faction
    cdef public tuple commands, decrees
    cdef public frozenset timing_first, local_commands
    cdef public bytearray pieces
    cdef public list tributary, available, control, resources, cavalry, influence
    cdef public object owner, rng, rules, board, P, adj, provinces, zone, W, play
    cdef public tuple is_prov
    cdef public Evaluator ev
    cdef public int n, delhi, mp, pj, reserve, lead, _dyn, _left, _stashed
    cdef public double aggr, rival_leader, rival_other, progress
    cdef public bint tughlaq
    cdef public list rw, _local, _sig, _hood, _stash
    cdef public object _pl, _tl, _al, _cl, _il
    cdef public dict plan, last, ranked, _values, _spaces, _ids
    cdef public object battle, choice, terms
    cdef public bint keep_caches
    cdef public dict _handlers
    cdef public tuple _hoods

    @cython.locals(
        p=bytearray, b=Py_ssize_t, loc=tuple, rw=list, own=double, l0=double, l1=double,
        l2=double, w0=double, w1=double, w2=double, ds=long, bk=long, ve=long, gov=long,
    )
    cpdef double worth(
        self, obs, Py_ssize_t s, long dds=*, long dbk=*, long dve=*, trib=*, long dgov=*
    )
    @cython.locals(memo=dict)
    cpdef double add_value(self, obs, Py_ssize_t s, long k)
    @cython.locals(memo=dict, t=long)
    cpdef double delta(
        self, obs, Py_ssize_t s, long dds=*, long dbk=*, long dve=*, trib=*, long dgov=*
    )
    cpdef double _add_value(self, obs, Py_ssize_t s, long k)
    cpdef double space_value(self, obs, str name, Py_ssize_t s)
    cpdef space_key(self, obs, str name, Py_ssize_t s)
    @cython.locals(key=tuple)
    cpdef double cached_space_value(self, obs, str name, Py_ssize_t s)
    @cython.locals(
        gained=double, best_loss=double, gain=double, total=double, nxt=double,
        best=Py_ssize_t, moved=long, i=Py_ssize_t, t=long, k=long,
        taken=list, lost=list, nexts=list,
    )
    cpdef tuple move_plan(self, obs, Py_ssize_t s, list sources, long limit)
    @cython.locals(
        n=Py_ssize_t, s=Py_ssize_t, a=Py_ssize_t,
        p=bytearray, trib=list, sig=list, stash=list, local=list, hood=list,
        hoods=tuple, memos=tuple,
    )
    cpdef _changed(self, spaces)
    @cython.locals(key=long, b=Py_ssize_t, k=Py_ssize_t, c=long)
    cpdef content_id(self, bytearray p, list trib, Py_ssize_t s)
    @cython.locals(sig=list, ids=list, t=Py_ssize_t)
    cpdef hood_id(self, Py_ssize_t s)
    @cython.locals(base=double)
    cpdef double res_value(self, long r)
    @cython.locals(total=double, i=long, cap=long)
    cpdef double gain_value(self, long r, long gain)
    @cython.locals(total=double, i=long, left=long)
    cpdef double cost(self, long r, long k=*)
    cpdef _moved(self, obs, long dynasty, long left)
    cpdef list space_values(self, obs, str name)
    cpdef list spaces_for(self, obs, str name)
