"""Faction and piece indices shared by the whole engine (1.4, 1.5).

Each map space holds a row of ``NK`` counters. Faction ``f`` in DS/BK/VE owns counters
``3f, 3f+1, 3f+2``; the third is its Structure. DS's two Units are Troops and Governors;
BK's and VE's two counters are the Obedient and the Rebelling state of one Unit (1.4.5).
"""

from __future__ import annotations

DS, BK, VE, MI = 0, 1, 2, 3
FACTIONS = (DS, BK, VE)
NAMES = ("DS", "BK", "VE", "MI")
INDEX = {"DS": DS, "BK": BK, "VE": VE, "MI": MI}

# The most pieces of one type (1.4): a space's counter is one byte of the state's flat
# ``pieces`` (state.py), so no counter can exceed it whatever the variant.
MAX_TOTAL = 255

# Counters in a space.
TROOP, GOVERNOR, QASBAH = 0, 1, 2
AMIR_OB, AMIR_REB, FORT = 3, 4, 5
RAJA_OB, RAJA_REB, TEMPLE = 6, 7, 8
MONGOL = 9
NK = 10

# Piece types (what totals and holding boxes count).
PT_TROOP, PT_GOVERNOR, PT_QASBAH, PT_AMIR, PT_FORT, PT_RAJA, PT_TEMPLE, PT_MONGOL = range(8)
PIECE_TYPES = ("troop", "governor", "qasbah", "amir", "fort", "raja", "temple", "mongol")
PT_INDEX = {name: i for i, name in enumerate(PIECE_TYPES)}
PT_OWNER = (DS, DS, DS, BK, BK, VE, VE, MI)

COUNTER_TYPE = (
    PT_TROOP,
    PT_GOVERNOR,
    PT_QASBAH,
    PT_AMIR,
    PT_AMIR,
    PT_FORT,
    PT_RAJA,
    PT_RAJA,
    PT_TEMPLE,
    PT_MONGOL,
)
COUNTER_OWNER = (DS, DS, DS, BK, BK, BK, VE, VE, VE, MI)
COUNTER_NAMES = (
    "troop",
    "governor",
    "qasbah",
    "amir",
    "amir_rebelling",
    "fort",
    "raja",
    "raja_rebelling",
    "temple",
    "mongol",
)
STRUCTURES = (QASBAH, FORT, TEMPLE)
STRUCTURE_OF = (QASBAH, FORT, TEMPLE)  # by faction
STRUCTURE_TYPE = (PT_QASBAH, PT_FORT, PT_TEMPLE)
UNITS_OF = ((TROOP, GOVERNOR), (AMIR_OB, AMIR_REB), (RAJA_OB, RAJA_REB), (MONGOL,))
PIECES_OF = (
    (TROOP, GOVERNOR, QASBAH),
    (AMIR_OB, AMIR_REB, FORT),
    (RAJA_OB, RAJA_REB, TEMPLE),
    (MONGOL,),
)
UNIT_TYPE = (None, PT_AMIR, PT_RAJA)  # the one Unit type of BK and VE
OB = (None, AMIR_OB, RAJA_OB)  # Obedient counter of BK / VE
REB = (None, AMIR_REB, RAJA_REB)  # Rebelling counter of BK / VE
