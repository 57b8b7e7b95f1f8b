"""Rebuild the heuristic's Event table (``strategies/vijayanagara/heuristic/event_table.py`` reads
it): play default games whose bots simulate every Event choice (2.3.4), recording each
side's gain over the planned Command, and average them per card and faction.

    python -m strategies.vijayanagara.fitting.event_table --games 300 --seed 1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from strategies.vijayanagara.heuristic.event_table import NAMES, TABLE_FILE, forget


def _play(task: tuple) -> list[tuple[str, int, dict]]:
    """Default games that simulate every Event choice, recording the gains."""
    from simulate import play_game
    from simulate.seeds import game_seed
    from strategies.registry import make

    master, start, count = task
    rows: list = []
    for i in range(start, start + count):
        team = []
        for _ in NAMES:
            bot = make("heuristic:events=simulate")
            for seat in NAMES:
                bot.policy_of(seat).recorder = _recorder(rows)
            team.append(bot)
        play_game(game_seed(master, i), tuple(team))
    return rows


def _recorder(rows: list):
    """A policy's ``recorder``: each simulated Event choice's gains, appended to ``rows``."""

    def record(card: str, faction: int, gains: dict) -> None:
        rows.append((card, faction, dict(gains)))

    return record


def build(games: int, seed: int, jobs: int = 1) -> dict:
    """Play ``games`` default games and average the simulated gains per card and faction."""
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
        "# The Event table of the heuristic bot (strategies/vijayanagara/heuristic/event_table.py).",
        "# Per card and faction: [best side, mean gain over the planned Command in VP, positions].",
        "# Rebuild after changing the Event deck: python -m strategies.vijayanagara.fitting.event_table",
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
    forget()


def parser() -> argparse.ArgumentParser:
    """The command's arguments (``python -m strategies.vijayanagara.fitting`` checks its steps by it)."""
    ap = argparse.ArgumentParser(
        prog="python -m strategies.vijayanagara.fitting.event_table",
        description="Rebuild the heuristic's Event table.",
    )
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, default=TABLE_FILE)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from simulate.vijayanagara.rules.ruleset import load_rules

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
