"""Games do not depend on how the interpreter adds floats (issue 65).

Python 3.12's ``sum()`` adds floats with compensated (Neumaier) summation, 3.11's left to
right, and ``requires-python`` admits both: a bot that ranks its options by a float sum could
play another game on 3.12 from the same seed. Every float sum in the code that plays games is
``simulate.vijayanagara.rules.summation.ordered_sum``, left to right as 3.11 adds. These tests check the
helper against 3.11's ``sum()``, and that the built-in ``sum`` left in that code is only ever
given ints: each call is on a reviewed list (read from the source), and games played with a
``sum`` that reports any float it is given from that code report none.
"""

from __future__ import annotations

import ast
import functools
import json
import operator
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from simulate.vijayanagara.rules.summation import ordered_sum

ROOT = Path(__file__).resolve().parent.parent
CANCELLING = [1e16, 1.0, -1e16]  # 3.11's sum: 0.0 (1.0 is lost to 1e16); 3.12's: 1.0

# the code that plays games: both packages but their analysis, CLI, study and fitting code
PACKAGES = ("simulate", "strategies")
NOT_PLAYING = (
    "simulate/analysis/",
    "simulate/cli/",
    "simulate/study/",
    "strategies/vijayanagara/fitting/",
    "simulate/vijayanagara/report.py",  # the game's report sections and figures: read games
    "simulate/vijayanagara/figures.py",
    "simulate/vijayanagara/replay_text.py",
    "simulate/pax_pamir/report.py",  # the game's report sections: read games, play none
    "simulate/pax_pamir/report_cards.py",
    "simulate/pax_pamir/bot_space.py",  # tune-bots' space and weights file: plays no game
)

# every built-in sum() left in that code, by module (its source text, whitespace collapsed),
# each reviewed as a sum of ints (counts, Prosperity, Cavalry, slot sizes), exact on every
# Python. A new sum() lands here only as a sum of ints; a sum of floats is ordered_sum.
INTEGER_SUMS = {
    "simulate/pax_pamir/encoding.py": [  # counts of cards, piles
        "sum(c.region == r for c in data.court)",
        "sum(len(a) for a in data.adjacency)",
        "sum(max(1, len(c.actions)) for c in data.court)",
    ],
    "simulate/pax_pamir/variants.py": [  # counts of cards, piles
        "sum(c < len(data.court) for c in removed)",
        "sum(c >= len(data.court) for c in removed)",
        "sum(checks_by)",
        "sum(checks_by)",
        "sum(court)",
        "sum(court)",
        "sum(court)",
        "sum(court)",
        "sum(court)",
        "sum(events)",
        "sum(events)",
        "sum(events)",
    ],
    "simulate/pax_pamir/setup.py": [  # counts of cards, piles
        "sum(plan.court_by_pile)",
    ],
    "simulate/pax_pamir/options.py": ["sum(len(c) for c in state.court)"],  # cards in courts
    "simulate/pax_pamir/invariants.py": [  # pieces, rupees, cards counted
        "sum(st.armies[r * len(st.blocks) + c] for r in range(len(data.regions)))",
        "sum(st.roads[b * len(st.blocks) + c] for b in range(len(data.borders)))",
        "sum(st.spies[c * st.players + p] for c in range(len(data.court)))",
        "sum(st.tribes[r * st.players + p] for r in range(len(data.regions)))",
    ],
    "strategies/pax_pamir/heuristic.py": [  # pieces, rupees, cards counted
        "sum(A.vulnerable(data, st, p) for p in A.taxable(data, st, me, ruled))",
        "sum(data.court[c].suit == s for c in court)",
        "sum(st.armies[st.army_at(r, c)] for c in range(len(st.blocks)) if c != mine)",
        "sum(st.armies[st.army_at(r, c)] for r in data.borders[b])",
        "sum(st.market_rupees[s] for s, c in enumerate(st.market) if c != EMPTY)",
        "sum(st.tribes[st.tribe_at(r, p)] for p in range(st.players) if p != self.me)",
    ],
    "simulate/pax_pamir/actions.py": ["sum(market.values())", "sum(players.values())"],  # rupees
    "simulate/pax_pamir/dominance.py": [  # patriots counted; victory points of tied places
        "sum( 1 for card in state.court[player] if data.court[card].patriot == state.loyalty[player] )",
        "sum( points[i] * multiplier for i in range(place, place + len(group)) if i < len(points) )",
        # Wakhan's prizes and patriots of a coalition counted (RB p16, p18)
        "sum(1 for c in state.court[player] if data.court[c].patriot == coalition)",
        "sum(1 for c in state.prizes[player] if data.court[c].prize == coalition)",
    ],
    "simulate/pax_pamir/wakhan/actions.py": [  # rupees she taxes
        "sum(from_market.values())",
        "sum(from_players.values())",
    ],
    "simulate/pax_pamir/wakhan/cleanup.py": [  # leveraged cards, spies counted
        'sum(1 for c in cards if data.icons.index("leverage") in data.court[c].icons)',
        "sum(state.spies[state.spy_at(card, p)] for p in range(state.players))",
    ],
    "simulate/pax_pamir/wakhan/military.py": [  # tribes, spies counted
        "sum( trial.tribes[trial.tribe_at(region, p)] for p in range(trial.players) if p != player )",
        "sum(state.spies[state.spy_at(c, p)] for p in range(state.players))",
    ],
    "simulate/pax_pamir/wakhan/priorities.py": [  # armies, tribes counted
        "sum(armies)",
        "sum(loss(r))",
        "sum(tribes)",
    ],
    "simulate/pax_pamir/wakhan/radicalize.py": [  # icons, spies counted
        "sum(1 for i in data.court[card].icons if data.icons[i] in names)",
        "sum(state.spies[state.spy_at(c, player)] for c in range(len(data.court)))",
    ],
    "simulate/pax_pamir/military.py": [  # pieces a battle removes
        "sum(armies.values())",
        "sum(roads.values())",
        "sum(spies.values())",
        "sum(tribes.values())",
    ],
    "simulate/pax_pamir/cleanup.py": [  # stars: ranks of a suit's cards in a court
        "sum(data.court[c].rank for c in state.court[player] if data.court[c].suit == s)",
    ],
    "simulate/pax_pamir/cards.py": [  # counts of cards, events and checks, when loading
        "sum(card.ability != NONE for card in court)",
        "sum(d.dominance_checks_by_pile)",
        "sum(d.dominance_checks_by_pile)",
        "sum(d.dominance_checks_by_pile)",
        "sum(d.events_by_pile)",
        "sum(d.events_by_pile)",
        "sum(d.events_by_pile)",
    ],
    "simulate/pax_pamir/play.py": [  # blocks a card's icons place
        'sum(i in (_icon(data, "army"), _icon(data, "road")) for i in info.icons)',
    ],
    "simulate/vijayanagara/ai/chance.py": ["sum(n for n, _ in left)"],
    "simulate/vijayanagara/ai/encoding.py": ["sum(self.slot_sizes)"],
    "simulate/vijayanagara/game.py": [
        "sum(p[QASBAH::NK])",
        "sum([1 for s in provinces if st.control[s] == f])",
        "sum([1 for s in provinces if st.tributary[s]])",
        "sum([p[s * NK + FORT] for s in provinces])",
        "sum([p[s * NK + TEMPLE] for s in provinces])",
    ],
    "simulate/native.py": ['sum(1 for v in states.values() if v == "compiled")'],
    "simulate/vijayanagara/rules/commands/attack.py": ["sum([p[b + c] for c in def_counters])"],
    "simulate/vijayanagara/rules/decrees/campaign.py": ["sum(_units(ctx, s))"],
    "simulate/vijayanagara/rules/decrees/tax.py": [
        "sum([board.prosperity[s] for s in board.provinces if st.control[s] == f])",
        "sum([st.pieces[s * NK + STRUCTURE_OF[f]] for s in board.provinces])",
    ],
    "simulate/vijayanagara/rules/decrees/trade.py": [
        "sum([1 for s in ctx.rules.board.provinces if any(p[s * NK + c] for c in mine)])"
    ],
    "simulate/vijayanagara/rules/decrees/tribute.py": [
        "sum([pr[s] for s in ctx.rules.board.provinces if st.tributary[s]])"
    ],
    "simulate/vijayanagara/rules/event_ops.py": [
        "sum(present)",
        "sum(present[i + 1 :])",
        "sum([n for _, n in present_pieces(ctx, s, movable)])",
        "sum([remove(ctx, s, c, n) for c, n in taken])",
        "sum([room(x) for x in left])",
    ],
    "simulate/vijayanagara/rules/event_select.py": ["sum([k for _, k in have])"],
    "simulate/vijayanagara/rules/invariants.py": [
        "sum(state.cavalry)",
        "sum(state.cavalry)",
        "sum(state.slots[f])",
    ],
    "simulate/vijayanagara/rules/ruleset.py": [
        "sum(1 << b for b in s)",
        "sum(1 for c in cards if c.kind == EVENT)",
        "sum(1 for c in cards if c.kind == MONGOL_CARD)",
        "sum(cavalry)",
        "sum(cavalry)",
        "sum(prosperity)",
        "sum(prosperity)",
        'sum(s.get("mongol_invasions", 0) for s in stacks)',
    ],
    "simulate/vijayanagara/rules/setup.py": ["sum(rules.setup_cavalry)"],
    "simulate/vijayanagara/rules/succession.py": [
        "sum([p[s * NK + STRUCTURE_OF[f]] for s in ctx.rules.board.provinces])",
        "sum([pr[s] for s in ctx.rules.board.provinces if st.control[s] == f])",
    ],
    "strategies/vijayanagara/heuristic/bahmani.py": [
        "sum([1 for s in self.provinces if counts(p, s)[BK]])"
    ],
    "strategies/vijayanagara/heuristic/deccan.py": [
        "sum([p[s * NK + TROOP] for s in self.provinces])"
    ],
    "strategies/vijayanagara/heuristic/faction_bot.py": [
        "sum(c)",
        "sum(c)",
        "sum([1 for v in opp if v <= opp_u and v < miss])",
        "sum([1 for v in own if v <= my_u and v < miss])",
        "sum([n for _c, n in o])",
    ],
    "strategies/vijayanagara/heuristic/sultanate.py": [
        "sum([self.P[s] for s in self.provinces if self.tributary[s]])",
        "sum(taken.values())",
    ],
    "strategies/vijayanagara/heuristic/vijayanagara.py": [
        "sum([p[s * NK + TEMPLE] for s in self.provinces])",
        "sum([self.P[s] for s in self.provinces if self.control[s] == VE])",
    ],
}
# reductions whose order (or compensation) is the library's or the version's: none in play
OTHER_REDUCTIONS = {"fsum", "fmean", "mean", "sumprod", "nansum", "average", "cumsum"}


def _playing_modules() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if not path.relative_to(ROOT).as_posix().startswith(NOT_PLAYING)
    ]


def _calls(names: set[str]) -> dict[str, list[str]]:
    """The calls of ``names`` (as a plain name or an attribute) in the code that plays, by
    module: each call's source text, whitespace collapsed, sorted."""
    out: dict[str, list[str]] = {}
    for path in _playing_modules():
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source, str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                text = " ".join(ast.get_source_segment(source, node).split())
                out.setdefault(path.relative_to(ROOT).as_posix(), []).append(text)
    return {module: sorted(texts) for module, texts in sorted(out.items())}


def test_ordered_sum_adds_left_to_right():
    assert ordered_sum(CANCELLING) == 0.0
    assert ordered_sum([0.1] * 10) == 0.9999999999999999  # 3.12's sum: 1.0
    assert ordered_sum([1.0, 1e100, 1.0, -1e100]) == 0.0  # 3.12's sum: 2.0
    assert ordered_sum(x / 10 for x in range(10)) == 4.5  # any iterable, a generator too
    empty = ordered_sum([])
    assert empty == 0.0 and isinstance(empty, float)


def test_the_builtin_sum_is_what_the_helper_protects_against():
    compensated = sys.version_info >= (3, 12)
    assert sum(CANCELLING) == (1.0 if compensated else 0.0)


def _mixed(rng: random.Random, n: int) -> list:
    """Floats of every scale, signed zeros and small ints (a count times a chance is either)."""
    pick = (
        lambda: rng.uniform(-1.0, 1.0),
        lambda: rng.uniform(-1e16, 1e16),
        lambda: rng.random() * 1e-12,
        lambda: rng.choice((0.0, -0.0)),
        lambda: rng.randrange(-6, 7),
        lambda: 0.1,
    )
    return [rng.choice(pick)() for _ in range(n)]


def test_ordered_sum_rounds_after_every_addition_on_every_python():
    rng = random.Random(65)
    for _ in range(3000):
        xs = _mixed(rng, rng.randrange(0, 25))
        assert ordered_sum(xs).hex() == functools.reduce(operator.add, xs, 0.0).hex()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.11's sum() is the reference")
def test_ordered_sum_is_the_sum_of_python_3_11_to_the_bit():
    rng = random.Random(11)
    for _ in range(3000):
        xs = _mixed(rng, rng.randrange(0, 25))
        assert ordered_sum(xs).hex() == float(sum(xs)).hex(), xs


def test_every_builtin_sum_in_the_code_that_plays_is_a_reviewed_sum_of_ints():
    found = _calls({"sum"})
    new = {m: [c for c in cs if c not in INTEGER_SUMS.get(m, [])] for m, cs in found.items()}
    new = {m: cs for m, cs in new.items() if cs}
    assert not new, (
        f"sum() calls not reviewed as sums of ints: {new}; a sum of floats must be "
        "simulate.vijayanagara.rules.summation.ordered_sum (Python 3.12's sum() adds floats another way), "
        "a sum of ints goes in INTEGER_SUMS"
    )
    # a removed one leaves the list too
    assert found == {m: sorted(cs) for m, cs in INTEGER_SUMS.items()}


def test_the_code_that_plays_has_no_other_float_reduction():
    assert _calls(OTHER_REDUCTIONS) == {}
    imports = [
        path.relative_to(ROOT).as_posix()
        for path in _playing_modules()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (getattr(node, "module", None) or alias.name).split(".")[0] == "statistics"
            for alias in node.names
        )
    ]
    assert imports == []


def test_the_key_float_sums_of_play_are_the_helper():
    from simulate.vijayanagara.ai import search as challenger
    from strategies.vijayanagara import value_model
    from strategies.vijayanagara.heuristic import deccan, faction_bot, sultanate
    from strategies.vijayanagara.search import prior

    for module in (challenger, value_model, deccan, faction_bot, sultanate, prior):
        assert module.ordered_sum is ordered_sum, module.__name__
    helpers = _calls({"ordered_sum"})
    assert {m: len(cs) for m, cs in helpers.items()} == {
        "simulate/vijayanagara/ai/search.py": 1,
        "strategies/vijayanagara/heuristic/deccan.py": 2,
        "strategies/vijayanagara/heuristic/faction_bot.py": 1,
        "strategies/vijayanagara/heuristic/sultanate.py": 2,
        "strategies/vijayanagara/search/prior.py": 1,
        "strategies/vijayanagara/value_model.py": 3,
    }


# plays games from source (VSIM_PURE=1: every module is Python, so the caller of each sum() is
# known) with a built-in sum() that notes every call from the code that plays, and any float
# it was given: the default lineup (heuristic, greedy lookahead, end-game mcts with the value
# model and the prior), the other heuristic tiers, a short mcts and greedy, and random
GUARDED_GAMES = r"""
import builtins, json, sys
real_sum = builtins.sum
calls, floats = {}, {}
def noting_sum(iterable, /, start=0):
    items = list(iterable)
    module = sys._getframe(1).f_globals.get("__name__", "")
    if module.startswith(("simulate", "strategies")):
        calls[module] = calls.get(module, 0) + 1
        if any(isinstance(x, float) for x in (start, *items)):
            floats[module] = floats.get(module, 0) + 1
    return real_sum(items, start)
builtins.sum = noting_sum
from simulate import play_game
lineups = [
    dict.fromkeys(("DS", "BK", "VE"), "heuristic"),
    {"DS": "heuristic-fast", "BK": "heuristic-v1", "VE": "random"},
    {"DS": "greedy:screen=3", "BK": "mcts:rollouts=1,horizon=1", "VE": "heuristic-fast"},
]
for k, lineup in enumerate(lineups):
    play_game(11 + k, lineup)
print(json.dumps({"calls": calls, "floats": floats}))
"""


def test_games_give_the_builtin_sum_no_float():
    env = dict(os.environ, VSIM_PURE="1")
    out = subprocess.run(
        [sys.executable, "-c", GUARDED_GAMES],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["floats"] == {}
    # the guard saw the game's sums: the engine's and every kind of bot's
    assert {"simulate.vijayanagara.game", "strategies.vijayanagara.heuristic.faction_bot"} <= set(
        seen["calls"]
    )
