"""The heuristic's caches are keyed by content (issue 42): a space's content id names exactly
its counters and Tributary marker (1.4, 1.6), so a value kept for one content is never read
for another; exactness over whole games is ``test_heuristic_caches_never_change_a_choice``."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.vijayanagara.rules.pieces import NK
from simulate.vijayanagara.rules.ruleset import load_rules
from strategies import registry

# a space's counters: real counts fit 6 bits each; larger ones take the interned fallback
COUNTS = st.lists(st.integers(min_value=0, max_value=90), min_size=NK, max_size=NK)
SPACE = st.tuples(COUNTS, st.booleans())


def _bot():
    policy = registry.make("heuristic").policy
    policy.new_game("DS", random.Random(0), load_rules())
    return policy.bot


BOT = _bot()


def _content_id(bot, counts: list[int], tributary: bool) -> int:
    return bot.content_id(bytearray(counts), [tributary], 0)


@settings(max_examples=300, deadline=None)
@given(SPACE, SPACE)
def test_two_spaces_share_a_content_id_exactly_when_their_counters_and_marker_match(a, b):
    same = a[0] == b[0] and a[1] == b[1]
    assert (_content_id(BOT, *a) == _content_id(BOT, *b)) == same


@settings(max_examples=100, deadline=None)
@given(SPACE)
def test_a_content_id_is_the_same_each_time_it_is_asked(a):
    assert _content_id(BOT, *a) == _content_id(BOT, *a)


def test_a_count_too_large_to_pack_is_named_apart_from_every_packed_content():
    bot = _bot()
    small = _content_id(bot, [1] + [0] * (NK - 1), False)
    large = _content_id(bot, [64] + [0] * (NK - 1), False)
    assert small != large
    assert _content_id(bot, [64] + [0] * (NK - 1), False) == large  # interned once


def _position_bot():
    """A DS bot that has read the opening position (2.1) as at its first decision."""
    from simulate.vijayanagara.rules.decisions import Decision
    from simulate.vijayanagara.rules.observation import Observation
    from simulate.vijayanagara.rules.setup import new_state

    rules = load_rules()
    state = new_state(rules, random.Random(0))
    obs = Observation(rules, state)
    policy = registry.make("heuristic").policy
    policy.new_game("DS", random.Random(0), rules)
    policy.bot.choose(obs, Decision("action", "DS", ("command", "pass"), "1"))
    return policy.bot, obs, rules.board.province_ids


CHANGE = st.integers(min_value=-100, max_value=100)  # beyond the packed range (|d| < 64) too
TRIB = st.sampled_from([None, False, True])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(CHANGE, CHANGE, CHANGE, TRIB, CHANGE), min_size=1, max_size=12))
def test_a_memoised_worth_change_is_the_change_it_names_whatever_else_was_asked(changes):
    """``delta`` keeps each change of a Province's pieces (1.4), Tributary marker (1.6) and
    Governors under its own key, packed or not: no change ever reads another's value."""
    bot, obs, provinces = _position_bot()
    s = provinces[0]
    for dds, dbk, dve, trib, dgov in changes + changes[::-1]:
        want = bot.worth(obs, s, dds, dbk, dve, trib, dgov) - bot.worth(obs, s)
        assert bot.delta(obs, s, dds, dbk, dve, trib, dgov) == want
