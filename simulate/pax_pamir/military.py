"""The card-based actions betray, move and battle (RB p13-14), in ``actions.py``'s frame.

Each action checks the RB p12 frame (``actions._check_frame``: the card in court showing the
action, once a turn, the action limit, the hostage bribe and the cost) and its own choices
before anything moves; a call that raises leaves ``state`` and ``turn`` as they were. Choices
are explicit arguments. Special abilities a card in the court gives (cards.yaml
``special_abilities``, RB p8 Card Precedence) are applied where these actions meet them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import lasting, ledger
from .actions import Turn, _check_frame, _has_ability, _open, pay_action_cost
from .cards import NONE, PaxData
from .play import (
    SPY_UNIT,
    Repay,
    TakeFrom,
    _restore,
    change_loyalty,
    discard_from_court,
    overthrow_tribeless,
    payer,
    place_unit,
    remove_tribes,
)
from .state import State

# The unit a move step moves (RB p13 Move: "one loyal army or spy"); a tribe under Nationalism.
ARMY, SPY, TRIBE = 0, 1, 2


def owner_of(state: State, card: int) -> int:
    """The player in whose court ``card`` lies, else -1."""
    return next((p for p in range(state.players) if card in state.court[p]), -1)


# --- RB p14 Betray ------------------------------------------------------------------------


def betray_targets(data: PaxData, state: State, player: int) -> list[int]:
    """Cards ``player`` may betray (RB p14 Betray): "Discard one card where you have a Spy
    (including cards in your own court)"; not a political card of a court holding Bodyguards
    ("your political cards cannot be chosen as betray targets", cards.yaml)."""
    political = data.suits.index("political")
    out = []
    for owner, court in enumerate(state.court):
        guarded = _has_ability(data, state, owner, "bodyguards")
        for c in court:
            if state.spies[state.spy_at(c, player)] == 0:
                continue
            if guarded and data.court[c].suit == political:
                continue
            out.append(c)
    return out


def betray(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    target: int,
    take_prize: bool = False,
    owner_pay_with: Sequence[int] | Repay = (),
    pay_with: Sequence[int] | Repay = (),
    waived: int = 0,
) -> None:
    """RB p14 Betray: "Discard one card where you have a Spy ... Any spies on the betrayed card
    are lost and returned to their owner's supply. This action always costs two. After the
    betrayed card is discarded, you may accept it as a prize, tucking it partially behind your
    loyalty dial. If this prize is different from your current loyalty, first remove all
    gifts, prizes, and patriots in your court matching your previous loyalty, and rotate your
    loyalty dial to match the prize taken."

    "Reminder: Betrayals may trigger leveraged icons and The Overthrow Rule (page 8)": the
    discard is ``play.discard_from_court`` for the target's owner, who names cards for a
    leveraged card's unpaid rupees in ``owner_pay_with``; ``pay_with`` is the actor's, for
    leveraged patriots a loyalty change discards. ``take_prize`` needs a card with a prize.
    """
    cost = data.numbers.betray_cost
    bribe = _check_frame(data, state, turn, player, card, "betray", cost, waived)
    if target not in betray_targets(data, state, player):
        raise ValueError(f"player {player} may not betray card {target} (RB p14: a spy there)")
    prize = data.court[target].prize
    if take_prize and prize == NONE:
        raise ValueError(f"card {target} carries no prize")
    backup, used, left = state.copy(), turn.used[:], turn.actions_left
    try:
        _open(data, state, turn, player, card, bribe)
        pay_action_cost(state, player, cost, data, ledger.BETRAY)
        discard_from_court(data, state, owner_of(state, target), target, payer(owner_pay_with))
        if take_prize:
            state.discard.remove(target)
            if prize != state.loyalty[player]:
                change_loyalty(data, state, player, prize, pay_with=payer(pay_with))
            state.prizes[player].append(target)
    except Exception:
        _restore(state, backup)
        turn.used[:], turn.actions_left = used, left
        raise


# --- RB p13 Move --------------------------------------------------------------------------


def court_track(state: State) -> list[int]:
    """RB p13 Move: "Spies move along cards in the players' courts (clockwise or
    counter-clockwise), as if they formed a single continuous track around the area of play."
    Reading: clockwise from player 0, each court seen from its owner right to left (the player
    clockwise sits at your left, RB p9 seating), so one court's left end meets the right end
    of the next player's court; empty courts are skipped."""
    return [c for court in state.court for c in reversed(court)]


def spy_steps(data: PaxData, state: State, player: int, card: int) -> set[int]:
    """The cards one spy move of ``player`` may reach from ``card``: its neighbours on the
    track (RB p13); with Well-Connected "up to two cards", with Strange Bedfellows also "any
    court card of the same region" (cards.yaml special_abilities)."""
    track = court_track(state)
    if card not in track or len(track) < 2:
        return set()
    i, n = track.index(card), len(track)
    reach = 2 if _has_ability(data, state, player, "well_connected") else 1
    out = {track[(i + d) % n] for k in range(1, reach + 1) for d in (k, -k)}
    if _has_ability(data, state, player, "strange_bedfellows"):
        out |= {c for c in track if data.court[c].region == data.court[card].region}
    out.discard(card)
    return out


def border_between(data: PaxData, a: int, b: int) -> int:
    """The border id between regions ``a`` and ``b``, else -1 (RB p2 The Map)."""
    return data.border_of[a][b]  # compiled in ``PaxData``


def move(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    moves: Sequence[tuple[int, int, int]],
    waived: int = 0,
    pay_with: Sequence[int] | Repay = (),
) -> None:
    """RB p13 Move: "For each rank of the acting card you may move one loyal army or spy. The
    same unit can be moved multiple times on a single turn. Likewise, multiple moves may be
    split across several of your spies and loyal armies. To move an army from one region to an
    adjacent region there must be a road matching the loyalty of the moving army on the
    border being crossed."

    ``moves``: ``(ARMY, from_region, to_region)`` or ``(SPY, from_card, to_card)``, one per
    step, in order, 1 to the card's rank of them. Indian Supplies: "your armies may cross
    borders without a road" (cards.yaml). Reading: a step to an adjacent card of the track.
    Under Nationalism "your tribes may move (by your coalition's roads) ... as if they were
    your armies" (cards.yaml event_cards): ``(TRIBE, from_region, to_region)``; a region left
    without the mover's tribe brings the Overthrow Rule (RB p8, leverage from ``pay_with``).
    """
    bribe = _check_frame(data, state, turn, player, card, "move", 0, waived)
    if not 1 <= len(moves) <= data.court[card].rank:
        raise ValueError(f"a move makes 1 to the acting card's rank of steps, not {len(moves)}")
    coalition = state.loyalty[player]
    roadless = _has_ability(data, state, player, "indian_supplies")
    nationalism = lasting.applies(data, state, "nationalism", player)
    armies, spies, tribes = state.armies[:], state.spies[:], state.tribes[:]
    for kind, src, dst in moves:
        if kind in (ARMY, TRIBE):
            if kind == TRIBE and not nationalism:
                raise ValueError("tribes move only under Nationalism (cards.yaml event_cards)")
            table = armies if kind == ARMY else tribes
            at = state.army_at(src, coalition) if kind == ARMY else state.tribe_at(src, player)
            border = border_between(data, src, dst)
            if table[at] == 0:
                raise ValueError(f"player {player} has no loyal army or tribe in region {src}")
            if border < 0:
                raise ValueError(f"regions {src} and {dst} are not adjacent")
            if not roadless and state.roads[state.road_at(border, coalition)] == 0:
                raise ValueError(f"no road of the army's coalition on border {border}")
            table[at] -= 1
            to = state.army_at(dst, coalition) if kind == ARMY else state.tribe_at(dst, player)
            table[to] += 1
        elif kind == SPY:
            at = state.spy_at(src, player) if src < len(data.court) else -1
            if at < 0 or spies[at] == 0:
                raise ValueError(f"player {player} has no spy on card {src}")
            if dst not in spy_steps(data, state, player, src):
                raise ValueError(f"card {dst} is not next to card {src} on the court track")
            spies[at] -= 1
            spies[state.spy_at(dst, player)] += 1
        else:
            raise ValueError(f"a move step moves ARMY, SPY or TRIBE, not {kind}")
    left = [src for kind, src, _ in moves if kind == TRIBE]
    backup, used, actions = state.copy(), turn.used[:], turn.actions_left
    _open(data, state, turn, player, card, bribe)
    state.armies[:], state.spies[:], state.tribes[:] = armies, spies, tribes
    try:
        pay = payer(pay_with)
        for region in left:
            overthrow_tribeless(data, state, player, region, pay)
    except Exception:
        _restore(state, backup)
        turn.used[:], turn.actions_left = used, actions
        raise


# --- RB p14 Battle ------------------------------------------------------------------------


def _battle_limit(data: PaxData, card: int, mine: int, removed: int) -> None:
    """RB p14 Battle: "remove any combination ... equal to the acting card's rank" and "You
    cannot remove more units than you yourself have armies or spies in that battle". Reading:
    up to that many, at least one."""
    top = min(data.court[card].rank, mine)
    if not 1 <= removed <= top:
        raise ValueError(f"a battle here removes 1 to {top} units, not {removed}")


def battle_region(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    region: int,
    armies: Mapping[int, int] | None = None,
    roads: Mapping[tuple[int, int], int] | None = None,
    tribes: Mapping[int, int] | None = None,
    waived: int = 0,
    pay_with: Mapping[int, Sequence[int] | Repay] | None = None,
) -> None:
    """RB p14 Battle in a region: "remove any combination of tribes, spies, roads, or armies
    equal to the acting card's rank", with "three restrictions": no more units than "you
    yourself have armies" there, none of "armies or roads that are of your loyalty", no
    "tribes belonging to players that share your loyalty" (the actor's own included).

    ``armies``: coalition -> armies removed in ``region``; ``roads``: (border, coalition) ->
    roads removed, on a border of ``region`` (reading: the RB p14 example's battle "selects a
    region" and "may eliminate the enemy road"); ``tribes``: player -> tribes removed. Citadel:
    its holder's tribes in its region "cannot be removed in battle" (cards.yaml). A player
    left without a tribe there loses its political cards of the region (RB p8 The Overthrow
    Rule), repaying leverage from ``pay_with`` (player -> cards). Under Nationalism the actor's
    tribes "battle as if they were your armies" (cards.yaml event_cards): they count as armies
    in the limit."""
    armies, roads, tribes = dict(armies or {}), dict(roads or {}), dict(tribes or {})
    bribe = _check_frame(data, state, turn, player, card, "battle", 0, waived)
    coalition = state.loyalty[player]
    mine = state.armies[state.army_at(region, coalition)]
    if lasting.applies(data, state, "nationalism", player):
        mine += state.tribes[state.tribe_at(region, player)]
    if any(n < 0 for n in (*armies.values(), *roads.values(), *tribes.values())):
        raise ValueError("units removed must not be negative")
    _battle_limit(
        data, card, mine, sum(armies.values()) + sum(roads.values()) + sum(tribes.values())
    )
    for c, n in armies.items():
        if n and c == coalition:
            raise ValueError("RB p14: you cannot remove armies of your loyalty")
        if state.armies[state.army_at(region, c)] < n:
            raise ValueError(f"region {region} has fewer than {n} armies of coalition {c}")
    for (border, c), n in roads.items():
        if n and c == coalition:
            raise ValueError("RB p14: you cannot remove roads of your loyalty")
        if border not in data.region_borders[region]:
            raise ValueError(f"border {border} is not a border of region {region}")
        if state.roads[state.road_at(border, c)] < n:
            raise ValueError(f"border {border} has fewer than {n} roads of coalition {c}")
    for p, n in tribes.items():
        if n and state.loyalty[p] == coalition:
            raise ValueError("RB p14: you cannot remove tribes of players sharing your loyalty")
        if n and any(
            data.court[c].region == region
            for c in data.ability_cards[data.ability_ids["citadel"]]
            if c in state.court[p]
        ):
            raise ValueError(f"player {p}'s tribes in region {region} are under a Citadel")
        if state.tribes[state.tribe_at(region, p)] < n:
            raise ValueError(f"player {p} has fewer than {n} tribes in region {region}")
    backup, used, left = state.copy(), turn.used[:], turn.actions_left
    _open(data, state, turn, player, card, bribe)
    for c, n in armies.items():
        state.armies[state.army_at(region, c)] -= n
        state.blocks[c] += n
    for (border, c), n in roads.items():
        state.roads[state.road_at(border, c)] -= n
        state.blocks[c] += n
    try:
        pays = {p: payer(cards) for p, cards in (pay_with or {}).items()}
        for p, n in tribes.items():
            remove_tribes(data, state, p, region, n, pays.setdefault(p, []))
    except Exception:
        _restore(state, backup)
        turn.used[:], turn.actions_left = used, left
        raise


def battle_card(
    data: PaxData,
    state: State,
    turn: Turn,
    player: int,
    card: int,
    target: int,
    spies: Mapping[int, int],
    waived: int = 0,
    saved: Sequence[int] = (),
) -> None:
    """RB p14 Battle on a court card: the spies there are the units ("However, their spies may
    be removed!", whatever their owner's loyalty), no more than the acting card's rank and
    than "you yourself have ... spies in that battle". ``spies``: player -> spies removed from
    ``target``. Indispensable Advisors: its holder's spies "cannot be removed by battles on
    court cards" (cards.yaml). Removed spies go to their owner's supply (RB p2: cylinders), or
    with Safe House, "when another player's battle removes your spy, you may put it on this
    card instead of your supply" (cards.yaml): ``saved`` names a Safe House card per spy so
    kept, the spy's owner the card's; reading: not the battle's own target."""
    spies = dict(spies)
    bribe = _check_frame(data, state, turn, player, card, "battle", 0, waived)
    if owner_of(state, target) < 0:
        raise ValueError(f"card {target} is in no court")
    if any(n < 0 for n in spies.values()):
        raise ValueError("units removed must not be negative")
    _battle_limit(data, card, state.spies[state.spy_at(target, player)], sum(spies.values()))
    for p, n in spies.items():
        if state.spies[state.spy_at(target, p)] < n:
            raise ValueError(f"player {p} has fewer than {n} spies on card {target}")
        if n and _has_ability(data, state, p, "indispensable_advisors"):
            raise ValueError(f"player {p}'s spies are protected by Indispensable Advisors")
    houses = data.ability_cards[data.ability_ids["safe_house"]]
    kept: dict[int, int] = {}
    for house in saved:
        owner = owner_of(state, house) if house in houses else -1
        if owner < 0 or owner == player or house == target:
            raise ValueError(f"card {house} is no Safe House of another player's court")
        kept[owner] = kept.get(owner, 0) + 1
        if kept[owner] > spies.get(owner, 0):
            raise ValueError(f"player {owner} keeps more spies than the battle removes")
    _open(data, state, turn, player, card, bribe)
    for p, n in spies.items():
        state.spies[state.spy_at(target, p)] -= n
        state.cylinders[p] += n
    for house in saved:
        owner = owner_of(state, house)
        state.cylinders[owner] -= 1
        state.spies[state.spy_at(house, owner)] += 1


# --- Blackmail (cards.yaml special_abilities) ---------------------------------------------


def blackmail_targets(data: PaxData, state: State, player: int) -> list[int]:
    """Cards Blackmail lets ``player`` spy on: "at the start of your turn you may place a spy
    on any court card of the card's region (43: Kandahar, 54: Herat) that has no spy"
    (cards.yaml; RB p8 Card Precedence), by player then left to right; any court, one's own
    included."""
    regions = {
        data.court[c].region
        for c in data.ability_cards[data.ability_ids["blackmail"]]
        if c in state.court[player]
    }
    return [
        c
        for court in state.court
        for c in court
        if data.court[c].region in regions
        and not any(state.spies[state.spy_at(c, p)] for p in range(state.players))
    ]


def blackmail(
    data: PaxData,
    state: State,
    player: int,
    target: int,
    take_from: TakeFrom | None = None,
    pay_with: Sequence[int] | Repay = (),
) -> bool:
    """Place ``player``'s spy on ``target`` by Blackmail (``blackmail_targets``), at the start of
    their turn (the engine's timing: once per Blackmail card a turn). A cylinder the supply
    lacks is taken from play (RB p8 Component Limits, ``play.place_unit``); False when none can
    be, and nothing is placed."""
    if target not in blackmail_targets(data, state, player):
        raise ValueError(f"player {player} may not blackmail card {target}")
    backup = state.copy()
    try:
        at = state.spy_at(target, player)
        return place_unit(data, state, SPY_UNIT, player, at, take_from, payer(pay_with))
    except Exception:
        _restore(state, backup)
        raise
