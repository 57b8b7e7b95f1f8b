"""The heuristic's Event table (2.3.4): built by ``strategies/vijayanagara/fitting/event_table.py`` from
default games that simulate every Event choice, read by the policy for the deck it was built
for and ignored for any other deck."""

from __future__ import annotations

from simulate.vijayanagara.rules.ruleset import load_rules
from strategies.vijayanagara.fitting import event_table as build
from strategies.vijayanagara.heuristic import event_table


def test_a_rebuilt_table_is_read_for_its_deck_and_not_for_another(tmp_path):
    rules = load_rules()
    cards = build.build(2, 5)
    sides = {side for row in cards.values() for side, _gain, _n in row.values()}
    assert cards and sides <= {"unshaded", "shaded"}
    out = tmp_path / "table.toml"
    build.write(cards, rules.deck.digest, 2, 5, out)
    rows = event_table.rows_for(rules, out)
    card, row = next(iter(cards.items()))
    name = next(iter(row))
    side, gain, _n = row[name]
    assert rows[(card, event_table.NAMES.index(name))] == (side, gain)
    build.write(cards, "another deck", 2, 5, out)
    assert event_table.rows_for(rules, out) == {}
