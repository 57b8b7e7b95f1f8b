"""Her Betray, Battle and Move actions (RB p18 Wakhan's Actions), by the rules' own
functions (``military.py``) once her targets are chosen; each step returns whether it was
valid."""

from __future__ import annotations

from collections.abc import Sequence

from .. import actions as A
from .. import military as X
from .. import ruling
from ..cards import NONE, PaxData
from ..state import State
from .cleanup import forgive, leverage_grace
from .deck import WakhanState, red_targets, region_priority
from .frame import WakhanTurn
from .humans import repayment
from .priorities import by_priority, choose_card
from .records import card_name


def betray_choice(data: PaxData, state: State, player: int) -> int:
    """RB p18 Betray: "Wakhan will betray the highest priority card with a loyalty prize where
    she also has a spy, including those in her court"; ``NONE`` if there is none."""
    targets = [c for c in X.betray_targets(data, state, player) if data.court[c].prize != NONE]
    return choose_card(data, state, player, targets)


def wakhan_betray(
    data: PaxData,
    state: State,
    turn: A.Turn,
    player: int,
    card: int,
    target: int,
    owner_pay_with: Sequence[int] = (),
    waived: int = 0,
) -> None:
    """``military.betray`` for her: "She will always take the loyalty prize" (RB p18), with no
    loyalty change (she "can hold loyalty prizes ... belonging to different coalitions", RB
    p16); her own leveraged card is repaid with RB p16's grace."""
    owner = X.owner_of(state, target)
    lent = 0
    if owner == player:  # the grace counts the rupees left once the bribe and cost are paid
        bribe = max(0, A.hostage_bribe(data, state, player, card) - max(0, waived))
        spent = bribe + data.numbers.betray_cost
        state.rupees[player] -= spent
        lent = leverage_grace(data, state, player, [target])
        state.rupees[player] += spent
    state.rupees[player] += lent
    try:
        X.betray(data, state, turn, player, card, target, False, owner_pay_with, (), waived)
    except Exception:
        state.rupees[player] -= lent
        raise
    forgive(state, player, lent)
    state.discard.remove(target)
    state.prizes[player].append(target)


def betray(t: WakhanTurn, cards: Sequence[int]) -> bool:
    data, state, w = t.data, t.state, t.player
    target = betray_choice(data, state, w)
    if target == NONE or not cards:
        return False
    card = cards[0]
    waived = t.waived(card, "betray", data.numbers.betray_cost) or 0
    owner = X.owner_of(state, target)
    pay = repayment(data, state, t.humans, owner, target) if owner != w else []
    wakhan_betray(data, state, t.turn, w, card, target, pay, waived)
    t.record(
        "betray", f"{card_name(data, card)}: {card_name(data, target)}, prize taken" + t.bonus(card)
    )
    return True


def _removable_tribes(data: PaxData, state: State, player: int, region: int) -> int:
    """``player``'s tribes in ``region`` a battle may remove (Citadel protects, cards.yaml)."""
    citadel = data.ability_cards[data.abilities.index("citadel")]
    if any(data.court[c].region == region for c in citadel if c in state.court[player]):
        return 0
    return state.tribes[state.tribe_at(region, player)]


def battle_plan(
    data: PaxData, state: State, wakhan: WakhanState, player: int, rank: int
) -> tuple[int, dict[int, int], dict[tuple[int, int], int], dict[int, int]] | None:
    """RB p18 Battle: "Wakhan will battle in the region where another player has pieces
    (tribes, loyal armies or roads) and she has at least one army. If multiple regions fulfill
    this condition, use the leftmost region as listed on the AI card. Once the region is
    chosen she will try to destroy tribes, armies, and roads in that order." Returns (region,
    armies, roads, tribes) for ``military.battle_region``, or None. Readings: only pieces she
    may remove count (not her loyalty's, not a Citadel's tribes); roads on the region's
    borders; within each kind the red arrow's player first; roads by her region priority."""
    own = state.loyalty[player]
    targets = red_targets(data, state, wakhan, player)
    coalitions: list[int] = []
    for p in targets:
        if state.loyalty[p] != own and state.loyalty[p] not in coalitions:
            coalitions.append(state.loyalty[p])
    order = region_priority(data, wakhan)
    for region in order:
        mine = state.armies[state.army_at(region, own)]
        if mine == 0:
            continue
        left = min(rank, mine)
        tribes: dict[int, int] = {}
        for p in targets:
            if state.loyalty[p] == own:
                continue  # RB p14: not "tribes belonging to players that share your loyalty"
            n = min(left, _removable_tribes(data, state, p, region))
            if n:
                tribes[p], left = n, left - n
        armies: dict[int, int] = {}
        for c in coalitions:
            n = min(left, state.armies[state.army_at(region, c)])
            if n:
                armies[c], left = n, left - n
        roads: dict[tuple[int, int], int] = {}
        neighbours = [r for r in order if r in data.adjacency[region]]
        for c in coalitions:
            for r in neighbours:
                border = X.border_between(data, region, r)
                n = min(left, state.roads[state.road_at(border, c)])
                if n:
                    roads[(border, c)], left = n, left - n
        if tribes or armies or roads:
            return region, armies, roads, tribes
    return None


def card_battle_targets(data: PaxData, state: State, player: int) -> list[int]:
    """Court cards where she and another player have spies she may remove (Indispensable
    Advisors protects its holder's, cards.yaml), highest priority first (RB p18 Battle)."""
    advisors = data.ability_cards[data.abilities.index("indispensable_advisors")]
    out = []
    for court in state.court:
        for c in court:
            if state.spies[state.spy_at(c, player)] == 0:
                continue
            if any(
                state.spies[state.spy_at(c, p)] and not any(a in state.court[p] for a in advisors)
                for p in range(state.players)
                if p != player
            ):
                out.append(c)
    return by_priority(data, state, player, out)


def _battle_card(t: WakhanTurn, card: int, target: int) -> bool:
    data, state, w = t.data, t.state, t.player
    advisors = data.ability_cards[data.abilities.index("indispensable_advisors")]
    left = min(data.court[card].rank, state.spies[state.spy_at(target, w)])
    spies: dict[int, int] = {}
    for p in red_targets(data, state, t.wakhan, w):
        if any(a in state.court[p] for a in advisors):
            continue
        n = min(left, state.spies[state.spy_at(target, p)])
        if n:
            spies[p], left = n, left - n
    if not spies:
        return False
    X.battle_card(data, state, t.turn, w, card, target, spies, t.waived(card, "battle", 0) or 0)
    t.record(
        "battle",
        f"{card_name(data, card)} on {card_name(data, target)}: spies {spies}" + t.bonus(card),
    )
    return True


def battle(t: WakhanTurn, cards: Sequence[int]) -> bool:
    """RB p18 Battle, by ``battle_plan``; "If no region is chosen, she will battle on the
    highest priority court card where she and another player have spies." "If multiple
    players can be targeted in a battle action, use the red arrow"."""
    data, state, w = t.data, t.state, t.player
    if not cards:
        return False
    card = cards[0]
    plan = battle_plan(data, state, t.wakhan, w, data.court[card].rank)
    if plan is not None:
        region, armies, roads, tribes = plan
        waived = t.waived(card, "battle", 0) or 0
        pays = {p: repayment(data, state, t.humans, p, NONE, region) for p in tribes}
        X.battle_region(
            data, state, t.turn, w, card, region, armies, roads, tribes, waived, pay_with=pays
        )
        detail = f"{card_name(data, card)} in {data.regions[region]}: tribes {tribes}, armies {armies}, roads {roads}"
        t.record("battle", detail + t.bonus(card))
        return True
    targets = card_battle_targets(data, state, w)
    return bool(targets) and _battle_card(t, card, targets[0])


def battle_most_spies(t: WakhanTurn, cards: Sequence[int]) -> bool:
    """The AI action ``battle_card_most_spies_with_own_spy``: "battle on the highest-priority
    court card with the most spies where Wakhan also has a spy" (wakhan.yaml). Reading: the
    most spies of all players on the card, then priority; another player's spy to remove."""
    data, state, w = t.data, t.state, t.player
    targets = card_battle_targets(data, state, w)
    if not targets or not cards:
        return False
    total = {c: sum(state.spies[state.spy_at(c, p)] for p in range(state.players)) for c in targets}
    top = max(total.values())
    target = next(c for c in targets if total[c] == top)  # ``targets`` is in priority order
    return _battle_card(t, cards[0], target)


def move_steps(
    data: PaxData, state: State, wakhan: WakhanState, player: int, rank: int
) -> list[tuple[int, int]]:
    """Her army moves, (from, to) per step, up to ``rank`` (RB p18 Move): "Wakhan only moves
    armies and does not require any roads ... will only move her armies to adjacent regions
    where other players have tribes, using the region priority on the AI card to determine the
    choice between equally viable origins and destinations. She will seek to have only as many
    armies as there are tribes in that region. Wakhan will not move Armies if doing so would
    cause her to lose a ruler token." Readings: "tribes" are the other players'; a destination
    has fewer of her armies than that, an origin more (or none of their tribes); destinations,
    then origins, by her region priority."""
    own = state.loyalty[player]
    trial = state.copy()
    order = region_priority(data, wakhan)

    def theirs(region: int) -> int:
        return sum(
            trial.tribes[trial.tribe_at(region, p)] for p in range(trial.players) if p != player
        )

    def armies(region: int) -> int:
        return trial.armies[trial.army_at(region, own)]

    steps: list[tuple[int, int]] = []
    for _ in range(rank):
        step = None
        for dst in order:
            if theirs(dst) == 0 or armies(dst) >= theirs(dst):
                continue
            for src in order:
                if src not in data.adjacency[dst] or armies(src) == 0:
                    continue
                if theirs(src) and armies(src) - 1 < theirs(src):
                    continue
                ruled = ruling.ruler(trial, src) == player
                trial.armies[trial.army_at(src, own)] -= 1
                trial.armies[trial.army_at(dst, own)] += 1
                if ruled and ruling.ruler(trial, src) != player:
                    trial.armies[trial.army_at(src, own)] += 1
                    trial.armies[trial.army_at(dst, own)] -= 1
                    continue
                step = (src, dst)
                break
            if step:
                break
        if step is None:
            break
        steps.append(step)
    return steps


def move(t: WakhanTurn, cards: Sequence[int]) -> bool:
    """RB p18 Move by ``move_steps``, in ``actions.py``'s frame (RB p12)."""
    data, state, w = t.data, t.state, t.player
    if not cards:
        return False
    card = cards[0]
    steps = move_steps(data, state, t.wakhan, w, data.court[card].rank)
    if not steps:
        return False
    waived = t.waived(card, "move", 0) or 0
    bribe = A.check_frame(data, state, t.turn, w, card, "move", 0, waived)
    A.open_action(data, state, t.turn, w, card, bribe)
    own = state.loyalty[w]
    for src, dst in steps:
        state.armies[state.army_at(src, own)] -= 1
        state.armies[state.army_at(dst, own)] += 1
    moves = ", ".join(f"{data.regions[a]}->{data.regions[b]}" for a, b in steps)
    t.record("move", f"{card_name(data, card)}: {moves}" + t.bonus(card))
    return True
