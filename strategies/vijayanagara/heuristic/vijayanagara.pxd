# C types for the compiled copy of vijayanagara.py (see valuation.pxd): VijayanagaraBot as an extension type
# too, so no Python subclass stands between DeccanBot's typed methods and the bot (a Python
# subclass makes every typed call look for an override first). Declares no attribute of
# its own: it sets none.

from strategies.vijayanagara.heuristic.counters cimport counts
from strategies.vijayanagara.heuristic.deccan cimport DeccanBot

cdef class VijayanagaraBot(DeccanBot):
    pass
