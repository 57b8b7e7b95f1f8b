"""The game protocol: what a game provides so that every layer above its rules can play it,
record it, report it and adapt it (docs/architecture.md).

A game is callback-driven, as our engines are: ``play`` builds the state from a seed, calls
one strategy per seat with ``(observation, decision)`` whenever the rules need a choice, and
returns an :class:`Outcome`. Everything else here is a declaration (seats, columns, data
files) or an optional part with a safe default (report sections, lineups, an encoder for the
AI adapters, a tunable policy). A game registers itself in the entry-point group
``vijayanagara_sim.games`` (``simulate.games.registry``); nothing generic imports a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TYPES = ("string", "int32", "int64", "float64")


@dataclass(frozen=True)
class Column:
    """One column a game declares for its tables: name, Parquet type, whether null is allowed,
    a line of documentation, and whether the report tabulates its values (a category)."""

    name: str
    type: str
    nullable: bool = True
    doc: str = ""
    categorical: bool = False

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"column {self.name!r}: type must be one of {', '.join(TYPES)}")


@dataclass(frozen=True)
class Outcome:
    """What one game returns, in the toolkit's terms.

    ``winner`` is a seat or None (a tie no tiebreak resolved); ``scores`` one number per seat;
    ``length`` the game's length in its own unit (cards, turns); ``extra`` the values of the
    game's declared ``game_columns``; ``steps`` one tuple per row of its per-step table, in the
    order of its ``step_columns``; ``tables`` one sequence of tuples per extra table the game
    declares (``Game.tables``), each in the order of that table's columns; ``actions``
    (traced games only) ``(turn, seat, kind, option)`` per decision."""

    seed: int
    winner: str | None
    scores: Mapping[str, int | float]
    length: int
    tiebreak: str
    state_digest: str
    extra: Mapping[str, Any] = field(default_factory=dict)
    steps: Sequence[tuple] = ()
    actions: Sequence[tuple] | None = None
    tables: Mapping[str, Sequence[tuple]] = field(default_factory=dict)


@dataclass(frozen=True)
class Section:
    """A report section only one game has: a title, Markdown paragraphs and tables (rendered
    as given) and figures (file names under the report's folder)."""

    title: str
    body: str
    figures: tuple[str, ...] = ()


class Game(ABC):
    """The base of every game: the required parts are abstract, the optional ones have
    defaults.

    Required: ``name``, ``title``, ``seats``, ``load_variant``, ``base_variant``,
    ``compile``, ``play``. Declared: ``score``/``length`` column names, ``game_columns``,
    ``step_columns``, ``seat_word``. Optional: the rest (extra per-game ``tables`` among
    them)."""

    name: str = ""  # the registered name: ``--game NAME``
    ref: str = ""  # how a process finds it again (set by the registry: name or module:attr)
    title: str = ""  # one line for ``vsim games``
    seat_word: str = "seat"  # what a seat is called ("faction"): the per-step tables' column
    score: str = "score"  # the per-seat score column prefix: ``score_P1``
    score_label: str = "score"  # how the report says it ("VP")
    length: str = "length"  # the games table's length column ("cards_played")
    length_label: str = "steps"  # its unit in words ("cards")
    step_label: str = "step"  # the per-step table's row unit ("card")
    game_columns: tuple[Column, ...] = ()  # after the scores, before the length
    step_columns: tuple[Column, ...] = ()  # the per-step table, after game/variant/lineup
    step_key: tuple[str, ...] = ()  # the per-step table's unique key within a game
    step_score: str | None = None  # the per-step column holding the seat's score, if any
    # extra per-game tables beside ``games`` and ``turns`` (a card table): name -> its columns
    # after game_index/variant/lineup, recorded from ``Outcome.tables``; none by default
    tables: dict[str, tuple[Column, ...]] = {}
    table_keys: dict[str, tuple[str, ...]] = {}  # each extra table's unique key within a game
    provisional: str | None = None  # one sentence when the game's data are stand-ins
    seat_names: dict[str, str] = {}  # each seat's full name, for legends
    rule_refs: dict[str, str] = {}  # the rules the report cites: "score", "tiebreak"
    # (per-step column, words) of what a seat held after a step, that a ladder compares
    ladder_held: tuple[tuple[str, str], ...] = ()
    streams: tuple[str, ...] = ()  # the names of its seeded streams (simulate.seeds.streams)
    # each search bot's budget parameter (``vsim ladder --budgets``); {}: mcts rollouts,
    # greedy samples (``simulate.study.budgets``)
    search_budgets: dict[str, str] = {}

    # -- required --------------------------------------------------------------------------
    @abstractmethod
    def seats(self, rules: Any = None) -> tuple[str, ...]:
        """The seats in turn order under ``rules`` (a compiled variant; None: the base)."""

    @abstractmethod
    def load_variant(self, ref: str | Path | None) -> Any:
        """A checked variant (``simulate.variant_format.Variant``) by name, path or None (base)."""

    def base_variant(self) -> Any:
        return self.load_variant(None)

    def variant_from_content(self, content: dict[str, Any], path: Path) -> Any:
        """A variant from parsed TOML read at ``path``, checked as a file is (``vsim tune``'s
        search file, its ``[search]`` table taken out)."""
        from simulate.errors import DataError

        raise DataError(f"{path}: game {self.name!r} reads no variant from a search file")

    def variant_names(self) -> list[str]:
        """The built-in variants' names."""
        return []

    def variants_dir(self) -> Path | None:
        """The folder of the built-in variants (a manifest names those by name)."""
        return None

    @abstractmethod
    def compile(self, variant: Any) -> Any:
        """The compiled rules of a variant (cached per process by the batch layer)."""

    @abstractmethod
    def play(
        self,
        seed: int,
        strategies: Sequence[Any],
        rules: Any,
        *,
        trace: bool = False,
        on_action: Callable[[Any], None] | None = None,
        decision_timeout: float | None = None,
    ) -> Outcome:
        """Play one game from ``seed`` with one strategy instance per seat (in seat order)."""

    # -- optional --------------------------------------------------------------------------
    def check_invariants(self, ctx: Any) -> None:
        """Raise when the position after an action breaks an invariant (``vsim soak``); a game
        that declares none has nothing to break."""
        return None

    def data_dir(self) -> Path | None:
        """The folder of the data files the game reads (the manifest records each file's
        sha256, and whether it marks entries ``provisional``); None: no data files."""
        return None

    def report_sections(self, run: Any, figures_dir: Path | None) -> list[Section]:
        """The sections only this game's report has (tables and figures of its columns)."""
        return []

    def replay_lines(self, outcome: Outcome, rules: Any, trace: bool) -> list[str]:
        """What ``vsim replay`` prints of a game: each decision (``trace``) or each step."""
        if trace and outcome.actions is not None:
            return [f"{a[0]:>4} {a[1]:<6} {a[2]:<24} {a[3]}" for a in outcome.actions]
        names = [c.name for c in self.step_columns]
        return [" ".join(names)] + [" ".join(str(v) for v in row) for row in outcome.steps]

    def strategy_names(self) -> dict[str, str]:
        """The game's own named strategies (name -> what it is, for ``vsim strategies``)."""
        return {}

    def named_strategy(self, name: str) -> Any:
        """What the game's own strategy ``name`` is made with (a class or factory called with
        a spec's parameters); None: not one of the game's (the registry looks further)."""
        return None

    def strategy_file(self, path: str) -> Any:
        """A strategy from a file the game reads (Vijayanagara's lineup files); None: none."""
        return None

    def strategy_words(self) -> dict[str, str]:
        """The game's own strategies in a designer's words (``heuristic`` -> "the default
        bots"), for the reports' answers."""
        return {}

    def strategy_phrase(self, spec: str) -> str | None:
        """One of the game's strategy specs in a designer's words, where its parameters
        matter ("searching with twice the default budget"); None: said by name."""
        return None

    def lineups(self) -> dict[str, str]:
        """Named lineups: ``default``, ``fast``, ``strong`` -> a strategy spec for every seat."""
        return {"default": "random", "fast": "random", "strong": "random"}

    def strength_rungs(self) -> list[tuple[str, str]]:
        """(name, spec) of the strength curve's rungs, weakest first."""
        return [("random", "random")]

    def lineup_files(self) -> dict[str, Path]:
        """Its shipped measurement files: ``exploitability`` and ``strength`` -> a path."""
        return {}

    def encoder(self, rules: Any) -> Any:
        """The observation/action encoder of the AI adapters (None: the game has none)."""
        return None

    def tunable(self) -> Any:
        """The tunable-policy interface of ``vsim tune-bots`` (None: nothing to tune)."""
        return None

    # -- derived ---------------------------------------------------------------------------
    def score_column(self, seat: str) -> str:
        return f"{self.score}_{seat}"

    def __repr__(self) -> str:
        return f"<game {self.name}>"
