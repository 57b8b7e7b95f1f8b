"""What a report takes from its game (``simulate.games``): the seats and their parity, the
words for a seat, the score and the length; the default game's when none is given."""

from __future__ import annotations

from collections.abc import Sequence

from simulate.games import Game
from simulate.games import get as get_game

TIE = "tie"  # the outcome of a game nobody won
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_SHARES = {2: "an even half", 3: "an even third", 4: "an even quarter", 5: "an even fifth"}
_SCORE_WORDS = {"VP": "victory points"}  # an abbreviation a report spells out once


def game_of(game: Game | str | None = None) -> Game:
    """``game`` itself, the game a reference names, or the default game (None)."""
    return game if isinstance(game, Game) else get_game(game)


def default_seats() -> tuple[str, ...]:
    """The default game's seats under its base rules."""
    return tuple(game_of().seats())


def outcomes(seats: Sequence[str]) -> tuple[str, ...]:
    """What a game can end in: a win for each seat, or an unresolved tie."""
    return (*seats, TIE)


def parity(seats: Sequence[str] | int) -> float:
    """The win rate every seat has in a balanced game: 1/n."""
    n = seats if isinstance(seats, int) else len(seats)
    return 1 / n


def parity_text(seats: Sequence[str] | int) -> str:
    """Parity as a fraction, e.g. ``1/3``."""
    n = seats if isinstance(seats, int) else len(seats)
    return f"1/{n}"


def even_share(seats: Sequence[str] | int) -> str:
    """Parity in words: "an even third" (three seats), "an even 1/6" beyond five."""
    n = seats if isinstance(seats, int) else len(seats)
    return _SHARES.get(n, f"an even {parity_text(n)}")


def number_word(n: int) -> str:
    """A small count in words ("four"), a larger one in digits."""
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def listing(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def seat_noun(game: Game | None = None) -> str:
    """A seat as sentences name it: the game's seat word, capitalised ("Faction")."""
    return game_of(game).seat_word.capitalize()


def score_words(game: Game | None = None) -> str:
    """The score spelled out ("victory points" for VP; else its label)."""
    label = game_of(game).score_label
    return _SCORE_WORDS.get(label, label)


def seat_names(game: Game | None = None) -> dict[str, str]:
    """Each seat's full name, when the game gives them (``seat_names``; else none)."""
    return dict(game_of(game).seat_names)
