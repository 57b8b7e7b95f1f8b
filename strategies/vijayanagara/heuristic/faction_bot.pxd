# C types for the compiled copy of faction_bot.py (see valuation.pxd): FactionBot as an
# extension type over TurnPlanner, so no Python class stands between the bots and their
# typed methods. Declares no attribute of its own: it sets none.

from strategies.vijayanagara.heuristic.counters cimport counts
from strategies.vijayanagara.heuristic.turn cimport TurnPlanner

# the integer constants it imports (pieces.py), as C integers
cdef long BK, DS, GOVERNOR, MI, MONGOL, NK, VE

cdef class FactionBot(TurnPlanner):
    pass
