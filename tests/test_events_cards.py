"""Every Event of the shipped (provisional) deck, both sides, executed through
``events.play_event`` from the 2.1 setup, each with its specific effect asserted.

``CASES`` is written by hand from each card's text: the executing Faction (default: the
first in the card's order), an optional ``prep`` that makes the side meaningful on the setup
board, the choices made (by Decision kind, shared by the three strategies), loaded dice for
Attacks, and the exact expected changes. The test fails on any change not listed, and runs
the board invariants afterwards.

Setup reminder (2.1): Delhi 4T; Mountain Passes 2T; Punjab 4T; Sindh 1T; Rajput Kingdoms 1T;
Gujarat 1T 1A; Malwa 3T 1G; Jaunpur 2T; Madhyadesh 2T 2A; Gondwana 1A; Orissa empty;
Maharashtra 4A; Andhra 1T 1Q 2R; Karnataka 3R; Tamilakam 1T 1R; all Provinces Tributary;
Resources DS 12, BK 6, VE 7; DS 2 Cavalry; Influence 0; Khalji Dynasty.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from conftest import Scripted, make_ctx, put, sid

from simulate.vijayanagara.rules import events, invariants
from simulate.vijayanagara.rules import pieces as P
from simulate.vijayanagara.rules.control import set_independent
from simulate.vijayanagara.rules.influence import shift
from simulate.vijayanagara.rules.placement import flip

NAMES = ("DS", "BK", "VE")


@dataclass
class Case:
    expect: dict
    executor: str | None = None
    prep: Any = None  # (ctx) -> None, before the card is played
    picks: dict = field(default_factory=dict)
    dice: tuple = ()


def _sp(ctx, name):
    return sid(ctx, name)


def indep(*names):
    def prep(ctx):
        for n in names:
            set_independent(ctx.state, _sp(ctx, n))

    return prep


def influence(faction, level):
    def prep(ctx):
        shift(ctx, P.INDEX[faction], level)

    return prep


def pieces(name, **counts):
    def prep(ctx):
        put(ctx, name, **counts)

    return prep


def both(*preps):
    def prep(ctx):
        for p in preps:
            p(ctx)

    return prep


def rebel_rajas(name):
    def prep(ctx):
        s = _sp(ctx, name)
        flip(ctx, s, P.RAJA_OB, P.RAJA_REB)

    return prep


def at(rules, name):
    return sid(rules, name)


def cases(rules) -> dict[tuple[int, str], Case]:
    s = lambda name: at(rules, name)  # noqa: E731
    return {
        # 1 Capital Relocated
        (1, "unshaded"): Case(
            {"res": {"DS": -2}, "inf": {"BK": 1}, "pieces": {("Maharashtra", "amir"): 2}}
        ),
        (1, "shaded"): Case(
            {
                "pieces": {
                    ("Delhi", "troop"): -4,
                    ("Maharashtra", "troop"): 4,
                    ("Maharashtra", "qasbah"): 1,
                }
            }
        ),
        # 2 Uprising in Daulatabad
        (2, "unshaded"): Case(
            {
                "pieces": {
                    ("Maharashtra", "governor"): -1,
                    ("Maharashtra", "amir"): -4,
                    ("Maharashtra", "amir_rebelling"): 5,
                },
                "trib": ["Maharashtra"],
                "ctl": {"Maharashtra": "BK"},
            },
            prep=pieces("Maharashtra", governor=1),
        ),
        (2, "shaded"): Case(
            {
                "res": {"DS": 1},
                "pieces": {("Maharashtra", "amir"): 2, ("Maharashtra", "amir_rebelling"): -4},
                "trib": ["Maharashtra"],
                "ctl": {"Maharashtra": None},
            },
            prep=indep("Maharashtra"),
        ),
        # 3 Kakatiya Empire Extinguished: DS executes, VE decides its free Migrate
        (3, "unshaded"): Case(
            {"inf": {"VE": 1}, "pieces": {("Karnataka", "raja"): -3, ("Andhra", "raja"): 3}},
            picks={"space": [s("Andhra"), "done"], "migrate_from": [(3, 0)]},
        ),
        (3, "shaded"): Case({"pieces": {("Andhra", "raja"): -2, ("Andhra", "governor"): 1}}),
        # 4 The Hare and the Hounds
        (4, "unshaded"): Case({"pieces": {("Karnataka", "temple"): 1, ("Karnataka", "raja"): 1}}),
        (4, "shaded"): Case(
            {"inf": {"VE": -1}, "pieces": {("Karnataka", "raja"): -2}}, prep=influence("VE", 1)
        ),
        # 5 The Raichur Doab
        (5, "unshaded"): Case(
            {
                "inf": {"VE": 1, "BK": -1},
                "pieces": {("Maharashtra", "amir"): -2, ("Maharashtra", "raja"): 2},
            },
            prep=influence("BK", 1),
        ),
        (5, "shaded"): Case(
            {"inf": {"BK": 1, "VE": -1}, "pieces": {("Andhra", "raja"): -2, ("Andhra", "amir"): 2}},
            prep=influence("VE", 1),
            picks={"event_space": [s("Andhra")]},
        ),
        # 6 A New Calculus (Stay Eligible)
        (6, "unshaded"): Case(
            {"cav": {"VE": 1}, "lasting": (("attack_extra_die", P.VE, "next_succession"),)}
        ),
        (6, "shaded"): Case(
            {"cav": {"DS": 1}, "lasting": (("attack_extra_die", P.DS, "next_succession"),)}
        ),
        # 7 Musunuri Nayakas
        (7, "unshaded"): Case(
            {
                "pieces": {
                    ("Andhra", "troop"): -1,
                    ("Andhra", "governor"): -1,
                    ("Andhra", "raja"): -2,
                    ("Andhra", "raja_rebelling"): 3,
                },
                "trib": ["Andhra"],
                "ctl": {"Andhra": "VE"},
            },
            prep=pieces("Andhra", governor=1),
        ),
        (7, "shaded"): Case(
            {"res": {"BK": 1}, "cav": {"BK": 2}, "pieces": {("Andhra", "amir"): 1}}
        ),
        # 8 The Turquoise Throne
        (8, "unshaded"): Case({"inf": {"BK": 1}, "pieces": {("Andhra", "fort"): 1}}),
        (8, "shaded"): Case({"res": {"BK": -2}, "pieces": {("Andhra", "raja"): 2}}),
        # 9 Diamond Mines of Golconda (Stay Eligible): the executor picks the Cavalry option
        (9, "unshaded"): Case({"cav": {"VE": 2}}, picks={"event_choose": [1]}),
        (9, "shaded"): Case({"res": {"DS": 3, "BK": -2, "VE": -2}}),
        # 10 The Sack of Devagiri: up to 2 Provinces adjacent to Maharashtra
        (10, "unshaded"): Case(
            {"res": {"BK": 1}, "pieces": {("Gujarat", "amir"): 1, ("Karnataka", "amir"): 1}},
            picks={"event_space": [s("Gujarat"), s("Karnataka")]},
        ),
        (10, "shaded"): Case({"res": {"DS": 4}, "cav": {"DS": 1}}),
        # 11 Alauddin's Market Reforms
        (11, "unshaded"): Case(
            {"res": {"DS": 1}, "lasting": (("conscript_plus_one", P.DS, "next_succession"),)}
        ),
        (11, "shaded"): Case({"res": {"DS": -3, "BK": 1, "VE": 1}}),
        # 12 Targhi Besieges Delhi: Amass 3 in the Mountain Passes, then Advance 2 to Punjab
        (12, "unshaded"): Case(
            {"pieces": {("Mountain Passes", "mongol"): 1, ("Punjab", "mongol"): 2}},
            picks={"mongol_advance": [(s("Mountain Passes"), s("Punjab"), 2)]},
        ),
        (12, "shaded"): Case(
            {"pieces": {("Delhi", "troop"): 3, ("Punjab", "mongol"): -2}},
            prep=pieces("Punjab", mongol=3),
        ),
        # 13 Victory at Amroha (Stay Eligible)
        (13, "unshaded"): Case(
            {"cav": {"DS": 1}, "pieces": {("Punjab", "mongol"): -2, ("Delhi", "mongol"): -1}},
            prep=both(pieces("Punjab", mongol=3), pieces("Delhi", mongol=1)),
        ),
        (13, "shaded"): Case({"res": {"DS": -2}, "pieces": {("Punjab", "troop"): -2}}),
        # 14 The Fall of Chittor
        (14, "unshaded"): Case(
            {"pieces": {("Rajput Kingdoms", "governor"): 1, ("Rajput Kingdoms", "qasbah"): 1}}
        ),
        (14, "shaded"): Case(
            {"pieces": {("Rajput Kingdoms", "troop"): -1, ("Rajput Kingdoms", "raja"): 2}}
        ),
        # 15 The Siege of Warangal: Collect Tribute = half of 18 Tributary Prosperity, 2 Cavalry
        (15, "unshaded"): Case({"res": {"VE": 2}, "pieces": {("Andhra", "troop"): -1}}),
        (15, "shaded"): Case(
            {
                "res": {"DS": 9},
                "cav": {"DS": 2},
                "pieces": {("Andhra", "raja"): 2, ("Andhra", "raja_rebelling"): -2},
            },
            prep=rebel_rajas("Andhra"),
        ),
        # 16 Malik Kafur's Southern Campaign
        (16, "unshaded"): Case(
            {"res": {"VE": 1}, "pieces": {("Karnataka", "raja"): 1, ("Tamilakam", "raja"): 1}}
        ),
        (16, "shaded"): Case(
            {"res": {"DS": 3}, "pieces": {("Tamilakam", "raja"): -1}},
            picks={"event_space": [s("Tamilakam")]},
        ),
        # 17 Hoysala Twilight: free Compel, 2 Rajas placed in Karnataka (not yet Influential)
        (17, "unshaded"): Case(
            {"inf": {"VE": 1}, "pieces": {("Karnataka", "raja"): 2}},
            picks={"compel_space": [s("Karnataka")], "compel_place": [2]},
        ),
        (17, "shaded"): Case({"pieces": {("Tamilakam", "raja"): -1, ("Tamilakam", "amir"): 1}}),
        # 18 The Fall of Kampili
        (18, "unshaded"): Case({"res": {"DS": -2}, "pieces": {("Karnataka", "amir_rebelling"): 2}}),
        (18, "shaded"): Case(
            {
                "pieces": {
                    ("Karnataka", "troop"): 2,
                    ("Karnataka", "raja"): -3,
                    ("Karnataka", "raja_rebelling"): 1,
                }
            },
            picks={"attack_support": ["none"], "cavalry": "done"},
            dice=(1, 2, 6, 6, 6, 6),  # 2 Troops: 2 hits; VE rolls 6, 6: none
        ),
        # 19 Token Currency
        (19, "unshaded"): Case({"res": {"DS": -4}, "elig": [0, -1, -1]}),
        (19, "shaded"): Case(
            {"res": {"DS": -2}, "pieces": {("Delhi", "troop"): 5}},
            picks={"space": [s("Delhi"), "done"], "conscript_count": [5]},
        ),
        # 20 Famine in Delhi
        (20, "unshaded"): Case({"res": {"DS": -2}, "pieces": {("Delhi", "troop"): -3}}),
        (20, "shaded"): Case(
            {
                "res": {"DS": 2},
                "pieces": {("Delhi", "troop"): -3, ("Jaunpur", "troop"): 3},
                "elig": [1, -1, -1],
            }
        ),
        # 21 The Madurai Sultanate
        (21, "unshaded"): Case(
            {
                "pieces": {("Tamilakam", "troop"): -1, ("Tamilakam", "amir_rebelling"): 1},
                "trib": ["Tamilakam"],
            }
        ),
        (21, "shaded"): Case(
            {
                "pieces": {("Tamilakam", "amir_rebelling"): -3, ("Tamilakam", "amir"): 1},
                "trib": ["Tamilakam"],
                "ctl": {"Tamilakam": None},
            },
            prep=both(indep("Tamilakam"), pieces("Tamilakam", amir=3)),
        ),
        # 22 The Sangama Brothers: a free Rebel under the Khalji Dynasty (2.7.1)
        (22, "unshaded"): Case(
            {
                "pieces": {("Karnataka", "raja"): -3, ("Karnataka", "raja_rebelling"): 4},
                "trib": ["Karnataka"],
                "ctl": {"Karnataka": "VE"},
            }
        ),
        (22, "shaded"): Case(
            {"res": {"DS": 2}, "pieces": {("Karnataka", "raja"): -1, ("Karnataka", "governor"): 1}}
        ),
        # 23 Vidyaranya
        (23, "unshaded"): Case(
            {"res": {"VE": 1}, "pieces": {("Karnataka", "temple"): 1}},
            picks={"build": [s("Karnataka")]},
        ),
        (23, "shaded"): Case({"res": {"VE": -2}, "inf": {"VE": -1}}, prep=influence("VE", 1)),
        # 24 Bengal Breaks Away
        (24, "unshaded"): Case({"pieces": {("Jaunpur", "troop"): -2}, "trib": ["Orissa"]}),
        (24, "shaded"): Case(
            {"res": {"DS": 2}, "pieces": {("Delhi", "troop"): -2, ("Jaunpur", "troop"): 2}},
            picks={
                "campaign_origin": [s("Delhi")],
                "campaign_pickup": [(2, 0), (0, 0)],
                "campaign_step": [s("Jaunpur"), "stop"],
                "campaign_drop": [(0, 0)],
            },
        ),
        # 25 The Reddis of Kondavidu
        (25, "unshaded"): Case(
            {"inf": {"VE": 1}, "pieces": {("Orissa", "raja"): 2}},
            picks={"event_space": [s("Orissa")]},
        ),
        (25, "shaded"): Case({"pieces": {("Andhra", "raja"): -2, ("Andhra", "amir"): 2}}),
        # 26 Death at Thatta
        (26, "unshaded"): Case(
            {"pieces": {("Sindh", "troop"): -1, ("Mountain Passes", "mongol"): 3}}
        ),
        (26, "shaded"): Case(
            {"res": {"DS": 2}, "pieces": {("Delhi", "troop"): -2, ("Jaunpur", "troop"): 2}},
            picks={"space": [s("Jaunpur"), "done"], "march_from": [(2, 0), (0, 0)]},
        ),
        # 27 Firuz Shah's Canals (Stay Eligible): shaded executed by BK, DS chooses
        (27, "unshaded"): Case({"res": {"DS": 4}, "pieces": {("Delhi", "troop"): 2}}),
        (27, "shaded"): Case(
            {"pieces": {("Sindh", "troop"): -1, ("Rajput Kingdoms", "troop"): -1}},
            executor="BK",
            picks={"event_choose": [1], "event_space": [s("Sindh"), s("Rajput Kingdoms")]},
        ),
        # 28 The Raid on Jajnagar
        (28, "unshaded"): Case({"res": {"VE": 1}, "pieces": {("Orissa", "raja"): 2}}),
        (28, "shaded"): Case(
            {"res": {"DS": 1}, "pieces": {("Orissa", "troop"): 2}, "trib": ["Orissa"]},
            prep=indep("Orissa"),
        ),
        # 29 Battle of Mudkal
        (29, "unshaded"): Case(
            {"cav": {"BK": 1}, "inf": {"BK": 1}, "pieces": {("Karnataka", "raja"): -2}},
            prep=pieces("Karnataka", amir=2),
            picks={"cavalry": "done"},
            dice=(1, 1, 6, 6, 6, 6),  # 2 Amirs: 2 hits; VE: none -> BK wins the shift (3.3.4)
        ),
        (29, "shaded"): Case(
            {"cav": {"VE": 1}, "pieces": {("Andhra", "fort"): -1}}, prep=pieces("Andhra", fort=1)
        ),
        # 30 Kumara Kampana Takes Madurai
        (30, "unshaded"): Case(
            {"pieces": {("Tamilakam", "raja_rebelling"): 2, ("Tamilakam", "troop"): -1}},
            picks={"cavalry": "done"},
            dice=(1, 6, 6, 6, 6, 6),  # 1 hit on the Troop; DS: none
        ),
        (30, "shaded"): Case({"res": {"VE": -3}, "elig": [-1, -1, 0]}),
        # 31 Horses from Hormuz (Stay Eligible): Trade = 4 Provinces with a BK piece, 1 Cavalry
        (31, "unshaded"): Case({"res": {"BK": 4}, "cav": {"BK": 1}}),
        (31, "shaded"): Case({"res": {"VE": 2}, "cav": {"VE": 2}}),
        # 32 Hereditary Iqtas
        (32, "unshaded"): Case(
            {
                "lasting": (
                    ("no_rebel", P.BK, "next_succession"),
                    ("no_rebel", P.VE, "next_succession"),
                )
            }
        ),
        (32, "shaded"): Case(
            {
                "res": {"BK": 1},
                "pieces": {("Maharashtra", "governor"): -1, ("Maharashtra", "amir"): 1},
            },
            prep=pieces("Maharashtra", governor=1),
            picks={"conspire_amir": ["obedient"]},
        ),
        # 33 Malik Sarwar, King of the East
        (33, "unshaded"): Case(
            {
                "pieces": {("Jaunpur", "troop"): -1, ("Jaunpur", "amir_rebelling"): 2},
                "trib": ["Jaunpur"],
                "ctl": {"Jaunpur": "BK"},
            }
        ),
        (33, "shaded"): Case(
            {"res": {"DS": 1}, "pieces": {("Jaunpur", "governor"): 1, ("Jaunpur", "troop"): 1}}
        ),
        # 34 Gulbarga, the Bahmani Capital
        (34, "unshaded"): Case(
            {"res": {"BK": 1}, "pieces": {("Maharashtra", "amir"): 1, ("Maharashtra", "fort"): 1}},
            picks={"build": [s("Maharashtra")]},
        ),
        (34, "shaded"): Case({"res": {"BK": -3}, "inf": {"BK": -1}}, prep=influence("BK", 2)),
        # 35 Khanqahs and Mathas (Stay Eligible)
        (35, "unshaded"): Case(
            {"inf": {"BK": 1}, "lasting": (("migrate_free_shift", P.BK, "next_succession"),)}
        ),
        (35, "shaded"): Case(
            {"inf": {"VE": 1}, "lasting": (("migrate_free_shift", P.VE, "next_succession"),)}
        ),
        # 36 Zafar Khan of Gujarat
        (36, "unshaded"): Case(
            {
                "pieces": {("Gujarat", "amir"): -1, ("Gujarat", "amir_rebelling"): 2},
                "trib": ["Gujarat"],
                "ctl": {"Gujarat": "BK"},
            }
        ),
        (36, "shaded"): Case(
            {"res": {"DS": 2}, "pieces": {("Gujarat", "troop"): 1}, "trib": ["Gujarat"]},
            prep=indep("Gujarat"),
        ),
    }


# --- the harness -------------------------------------------------------------------------


def planned(picks: dict) -> Scripted:
    """Answers by Decision kind (lists in order, else a constant), else the first option."""
    queues = {k: list(v) for k, v in picks.items() if isinstance(v, list)}

    def pick(d):
        if d.kind in queues and queues[d.kind]:
            return queues[d.kind].pop(0)
        if d.kind in picks and not isinstance(picks[d.kind], list):
            return picks[d.kind]
        return d.options[0]

    return Scripted(pick)


def snapshot(st) -> dict:
    return {
        "res": list(st.resources),
        "cav": list(st.cavalry),
        "inf": list(st.influence),
        "pieces": list(st.pieces),
        "trib": list(st.tributary),
        "ctl": list(st.control),
        "elig": list(st.elig_next),
        "lasting": st.lasting,
    }


def changes(rules, a: dict, b: dict) -> dict:
    """What changed between two snapshots, in the table's words."""
    names = rules.board.names
    out: dict = {}
    for key in ("res", "cav", "inf"):
        d = {NAMES[f]: b[key][f] - a[key][f] for f in range(3) if b[key][f] != a[key][f]}
        if d:
            out[key] = d
    moved = {
        (names[i // P.NK], P.COUNTER_NAMES[i % P.NK]): y - x
        for i, (x, y) in enumerate(zip(a["pieces"], b["pieces"], strict=True))
        if x != y
    }
    if moved:
        out["pieces"] = moved
    trib = [names[s] for s in range(rules.board.n) if a["trib"][s] != b["trib"][s]]
    if trib:
        out["trib"] = trib
    ctl = {
        names[s]: (None if b["ctl"][s] < 0 else NAMES[b["ctl"][s]])
        for s in range(rules.board.n)
        if a["ctl"][s] != b["ctl"][s]
    }
    if ctl:
        out["ctl"] = ctl
    if a["elig"] != b["elig"]:
        out["elig"] = b["elig"]
    if a["lasting"] != b["lasting"]:
        out["lasting"] = b["lasting"]
    return out


def play(rules, card_id: int, side: str, case: Case):
    agents = {n: planned(case.picks) for n in NAMES}
    ctx = make_ctx(rules, dice=case.dice, **agents)
    st = ctx.state
    st.card = next(i for i, c in enumerate(rules.cards) if c.id == str(card_id))
    if case.prep is not None:
        case.prep(ctx)
    invariants.check(st, rules)
    card = rules.deck.event(card_id)
    ex = P.INDEX[case.executor or card.order[0]]
    # the executing Faction picks the side; the test asks for the side under test
    agents[NAMES[ex]]._pick = _side_first(agents[NAMES[ex]]._pick, side)
    before = snapshot(st)
    offered = events.side_options(ctx, card, ex)
    action = events.play_event(ctx, ex)
    invariants.check(st, rules)
    return ctx, card, ex, offered, action, changes(rules, before, snapshot(st))


def _side_first(pick, side):
    def wrapped(d):
        return side if d.kind == "event_side" else pick(d)

    return wrapped


ALL = [(n, side) for n in range(1, 37) for side in ("unshaded", "shaded")]


def test_the_table_covers_every_event_both_sides(rules):
    assert sorted(cases(rules)) == sorted(ALL)
    assert sorted(c.id for c in rules.deck.events) == list(range(1, 37))


@pytest.mark.parametrize(("card_id", "side"), ALL, ids=[f"{n}-{s}" for n, s in ALL])
def test_event(rules, card_id, side):
    case = cases(rules)[(card_id, side)]
    ctx, card, ex, offered, action, got = play(rules, card_id, side, case)
    assert side in offered, (
        f"card {card_id} {side} could take no effect: the fixture is not meaningful"
    )
    assert action == f"event_{side}"
    assert got == case.expect, f"card {card_id} {side}: {getattr(card, side).text}"
    # 2.3.4, 2.3.7: a Stay Eligible card marks its executor
    assert ctx.state.stay == ((1 << ex) if card.stay_eligible else 0)
