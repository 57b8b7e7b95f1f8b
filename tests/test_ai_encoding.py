"""The fixed-size encoding and the action order shared by the AI adapters (issue 44)."""

from __future__ import annotations

import numpy as np
import pytest

from simulate.vijayanagara.ai.encoding import (
    KINDS,
    Encoder,
    K,
    TooManyOptions,
    UnknownDecision,
    words,
)
from simulate.vijayanagara.rules.decisions import Decision
from simulate.vijayanagara.rules.pieces import COUNTER_TYPE, PT_GOVERNOR, PT_TROOP
from simulate.vijayanagara.rules.ruleset import load_rules
from simulate.vijayanagara.rules.setup import new_state
from simulate.vijayanagara.seeds import streams


@pytest.fixture(scope="module")
def rules():
    return load_rules()


@pytest.fixture(scope="module")
def encoder(rules):
    return Encoder(rules)


def _total(rules, piece_type: int) -> int:
    on_map = sum(n for i, n in enumerate(rules.setup_pieces) if COUNTER_TYPE[i % 10] == piece_type)
    return on_map + rules.setup_available[piece_type]


def test_k_holds_every_troops_and_governors_pair_of_the_set_up(rules):
    troops, governors = _total(rules, PT_TROOP), _total(rules, PT_GOVERNOR)
    assert (troops + 1) * (governors + 1) <= K


def test_a_decision_past_k_is_refused_with_a_one_line_error(encoder):
    big = Decision("march_from", "DS", tuple((t, 0) for t in range(K + 1)), (0, 4))
    with pytest.raises(TooManyOptions, match=f"{K + 1} options, more than the {K} actions"):
        encoder.mask(big)


def test_the_mask_marks_the_first_options_in_the_engine_order(encoder):
    mask = encoder.mask(Decision("action", "BK", ("event", "limited", "pass"), "7"))
    assert mask.dtype == np.int8 and mask.shape == (K,)
    assert mask[:3].tolist() == [1, 1, 1] and not mask[3:].any()


def test_no_decision_leaves_no_legal_action(encoder):
    assert not encoder.mask(None).any()


def test_the_sections_tile_the_vector(encoder):
    at = 0
    for start, end in encoder.layout.values():
        assert start == at and end > start
        at = end
    assert at == encoder.size


def test_the_undrawn_deck_order_never_shows(rules, encoder):
    st = new_state(rules, streams(3)["deck"])
    st.pos = 5
    other = st.copy()
    other.deck = st.deck[:5] + tuple(reversed(st.deck[5:]))
    decision = Decision("action", "DS", ("command", "pass"), rules.cards[st.deck[4]].id)
    assert np.array_equal(encoder.encode(st, 0, decision), encoder.encode(other, 0, decision))


def test_the_played_cards_and_the_observer_show(rules, encoder):
    st = new_state(rules, streams(3)["deck"])
    st.pos = 2
    st.card = st.deck[1]
    v = encoder.encode(st, 2, None)
    played = encoder.layout["played"][0]
    assert {i for i in range(len(rules.cards)) if v[played + i]} == set(st.deck[:2])
    assert v[encoder.layout["current_card"][0] + st.card] == 1.0
    observer = encoder.layout["observer"][0]
    assert v[observer : observer + 3].tolist() == [0.0, 0.0, 1.0]


def test_each_option_is_written_as_typed_leaves(rules, encoder):
    decision = Decision("govern", "DS", ("governor", (0, 1, 0)), 5)
    v = encoder.encode(new_state(rules, streams(1)["deck"]), 0, decision)
    at = encoder.layout["options"][0]
    code = dict(zip(words(rules), range(1, 1000), strict=False))["governor"]
    assert v[at : at + 2].tolist() == [2.0, code]  # a word
    second = at + 16
    assert v[second : second + 6].tolist() == [1.0, 0.0, 1.0, 1.0, 1.0, 0.0]  # three integers
    assert v[encoder.layout["kind"][0] + KINDS.index("govern")] == 1.0


def test_a_kind_the_encoding_does_not_know_is_refused(rules, encoder):
    with pytest.raises(UnknownDecision, match="'no_such_kind'"):
        encoder.encode(
            new_state(rules, streams(1)["deck"]), 0, Decision("no_such_kind", "DS", (1, 2))
        )
