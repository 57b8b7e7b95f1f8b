"""The Event table: for each Event card and faction, the side worth taking and its average
gain over the Command the heuristic would play instead, measured in advance by one-turn
simulations (2.3.4) in heuristic games. The heuristic looks the gain up instead of
simulating every time (``events = "table"`` in ``weights.toml``), which keeps it fast.

The table belongs to one Event deck: it records the deck's digest, and a deck it does not
match (a designer's new ``events.yaml``) is simply not used (the heuristic then simulates).
Rebuild it after changing the deck:

    python -m strategies.heuristic.event_table --games 300 --seed 1

Format of ``events_table.toml``::

    deck_digest = "<sha256 of events.yaml>"
    games = 300
    seed = 1
    [cards."12"]
    DS = ["shaded", 0.42, 31]     # best side, mean gain in VP, positions measured
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from functools import lru_cache
from pathlib import Path

TABLE_FILE = Path(__file__).with_name("events_table.toml")
NAMES = ("DS", "BK", "VE")
SIDES = ("unshaded", "shaded")


@lru_cache(maxsize=4)
def _load(path: str) -> dict:
    p = Path(path)
    if not p.is_file():
        return {}
    with open(p, "rb") as fh:
        return tomllib.load(fh)


@lru_cache(maxsize=8)
def _table_for(digest: str, path: str) -> dict:
    data = _load(path)
    if data.get("deck_digest") != digest:
        return {}
    out = {}
    for card, row in data.get("cards", {}).items():
        for f, name in enumerate(NAMES):
            if name in row:
                side, gain = row[name][0], float(row[name][1])
                out[(card, f)] = (side, gain)
    return out


def rows_for(rules, path: Path = TABLE_FILE) -> dict:
    """(side, mean gain) by (card, faction) for these rules' deck: empty when the table was
    built for another deck (a bot reads it once per game)."""
    deck = getattr(rules, "deck", None)
    if deck is None:
        return {}
    return _table_for(deck.digest, str(path))


def _play(task: tuple) -> list[tuple[str, int, dict]]:
    """Heuristic games that simulate every Event choice, recording the gains."""
    from simulate import play_game
    from simulate.seeds import game_seed

    from . import HeuristicStrategy

    master, start, count = task
    rows: list = []
    for i in range(start, start + count):
        team = []
        for _ in NAMES:
            bot = HeuristicStrategy(events="simulate")
            bot.recorder = lambda card, f, gains: rows.append((card, f, dict(gains)))
            team.append(bot)
        play_game(game_seed(master, i), tuple(team))
    return rows


def build(games: int, seed: int, jobs: int = 1) -> dict:
    """Play ``games`` heuristic games and average the simulated gains per card and faction."""
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, games // (4 * max(1, jobs)))
    tasks = [(seed, s, min(chunk, games - s)) for s in range(0, games, chunk)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_play, tasks))
    else:
        parts = [_play(t) for t in tasks]
    sums: dict[tuple[str, int], list] = {}
    for rows in parts:
        for card, f, gains in rows:
            acc = sums.setdefault((card, f), [0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += gains["unshaded"]
            acc[2] += gains["shaded"]
    cards: dict[str, dict] = {}
    for (card, f), (n, u, s) in sorted(sums.items(), key=lambda kv: (_num(kv[0][0]), kv[0][1])):
        side, gain = ("unshaded", u / n) if u >= s else ("shaded", s / n)
        cards.setdefault(card, {})[NAMES[f]] = [side, round(gain, 3), n]
    return cards


def _num(card: str) -> tuple:
    return (0, int(card)) if card.isdigit() else (1, card)


def write(cards: dict, digest: str, games: int, seed: int, path: Path = TABLE_FILE) -> None:
    lines = [
        "# The Event table of the heuristic bot (strategies/heuristic/event_table.py).",
        "# Per card and faction: [best side, mean gain over the planned Command in VP, positions].",
        "# Rebuild after changing the Event deck: python -m strategies.heuristic.event_table",
        f'deck_digest = "{digest}"',
        f"games = {games}",
        f"seed = {seed}",
        "",
    ]
    for card, row in cards.items():
        lines.append(f'[cards."{card}"]')
        for name in NAMES:
            if name in row:
                side, gain, n = row[name]
                lines.append(f'{name} = ["{side}", {gain}, {n}]')
        lines.append("")
    path.write_text("\n".join(lines))
    _load.cache_clear()
    _table_for.cache_clear()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Rebuild the heuristic's Event table.")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=TABLE_FILE)
    args = ap.parse_args(argv)
    from simulate.rules.ruleset import load_rules

    rules = load_rules()
    if rules.deck is None:
        print("the rules carry no Event deck", file=sys.stderr)
        return 1
    cards = build(args.games, args.seed, args.jobs)
    write(cards, rules.deck.digest, args.games, args.seed, args.out)
    print(f"wrote {args.out}: {len(cards)} cards from {args.games} games")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
