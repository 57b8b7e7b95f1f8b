"""What must hold after every action of a Pax Pamir game (``vsim soak``, issue 66): every
card in exactly one place, every block and cylinder accounted for, every rupee a player holds
accounted for by the ledger (``ledger.py``), no negative count."""

from __future__ import annotations

from typing import Any

from .ledger import SOURCES, WIDTH
from .market import is_event
from .state import EMPTY, INACTIVE


def check(ctx: Any) -> None:
    """Raise AssertionError naming the first broken invariant of ``ctx.state``."""
    data, st = ctx.data, ctx.state
    _cards(data, st, ctx.dealt)
    n = data.numbers
    for c, supply in enumerate(st.blocks):
        board = sum(st.armies[r * len(st.blocks) + c] for r in range(len(data.regions)))
        board += sum(st.roads[b * len(st.blocks) + c] for b in range(len(data.borders)))
        if supply < 0 or supply + board != n.blocks_per_coalition:
            raise AssertionError(
                f"coalition {data.coalitions[c]}: {supply} in supply + {board} on the board"
                f" != {n.blocks_per_coalition} (RB p2)"
            )
    for p in range(st.players):
        tribes = sum(st.tribes[r * st.players + p] for r in range(len(data.regions)))
        spies = sum(st.spies[c * st.players + p] for c in range(len(data.court)))
        total = st.cylinders[p] + tribes + spies + st.gifts[p]
        if min(st.cylinders[p], tribes, spies, st.gifts[p]) < 0 or total != n.usable_cylinders:
            raise AssertionError(
                f"player {p}: {st.cylinders[p]} on the board + {tribes} tribes + {spies} spies"
                f" + {st.gifts[p]} gifts != {n.usable_cylinders} cylinders (RB p2, p4)"
            )
        if st.rupees[p] < 0:
            raise AssertionError(f"player {p} has {st.rupees[p]} rupees")
        _ledger(st, p, n.starting_rupees)
        if st.points[p] < 0:
            raise AssertionError(f"player {p} has {st.points[p]} victory points")
    if any(r < 0 for r in st.market_rupees):
        raise AssertionError("a market space holds negative rupees")
    for c in range(len(data.court)):
        if any(st.spies[c * st.players : (c + 1) * st.players]) and not any(
            c in court for court in st.court
        ):
            raise AssertionError(f"card {c} holds spies but lies in no court (RB p8)")


def _ledger(st: Any, p: int, start: int) -> None:
    """Player ``p``'s rupees are the starting rupees (RB p4 Take Player Pieces) plus what the
    ledger says they gained less what they paid, over every source: a rupee moved where no
    source was recorded breaks it."""
    first = p * WIDTH
    gained = paid = 0
    for i in range(first, first + WIDTH, 2):
        gained += st.flow[i]
        paid += st.flow[i + 1]
    if st.rupees[p] != start + gained - paid:
        by = {
            s: (st.flow[first + 2 * k], st.flow[first + 2 * k + 1]) for k, s in enumerate(SOURCES)
        }
        raise AssertionError(
            f"player {p} has {st.rupees[p]} rupees, not {start} + {gained} gained - {paid} paid"
            f" (RB p4; the ledger, gained/paid by source: {by})"
        )


def _cards(data: Any, st: Any, dealt: frozenset[int]) -> None:
    """Each card of the game's deck (``dealt``, RB p4) once: deck, market, hands, courts,
    prizes, discard pile or a lasting purchased event (below its buyer's court, RB p10)."""
    places = list(st.deck) + [c for c in st.market if c != EMPTY] + list(st.discard)
    for p in range(st.players):
        places += st.hand[p] + st.court[p] + st.prizes[p]
    for i, event in enumerate(data.events):
        if 2 * i < len(st.lasting) and st.lasting[2 * i] != INACTIVE:
            places.append(event.id)
    seen: set[int] = set()
    for c in places:
        if c in seen:
            raise AssertionError(f"card {c} is in two places")
        seen.add(c)
    if seen != dealt:
        lost, extra = sorted(dealt - seen), sorted(seen - dealt)
        raise AssertionError(f"cards lost {lost[:5]}, cards not dealt {extra[:5]}")
    for p in range(st.players):
        if any(is_event(data, c) for c in st.hand[p] + st.court[p]):
            raise AssertionError(f"an event card in player {p}'s hand or court (RB p10)")
