"""Vijayanagara as a game of the toolkit's protocol (``simulate.games``): its seats, the
columns of its records, its variants, data files and sections (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from simulate.games.protocol import Column, Game, Outcome, Section
from simulate.vijayanagara.result import FACTIONS, GameResult

_I, _S = "int32", "string"

GAME_COLUMNS = (
    *(Column(f"resources_{f}", _I) for f in FACTIONS),
    *(Column(f"cavalry_{f}", _I) for f in FACTIONS),
    Column("influence_BK", _I),
    Column("influence_VE", _I),
    Column("mongols_in_delhi_end", _I),
    Column("delhi_timur_bonus", _I, doc="5.1: 3 minus the Invaders left in Delhi, at least -3"),
    Column("tributary_provinces_end", _I),
    Column("controlled_BK_end", _I),
    Column("controlled_VE_end", _I),
    Column("forts_end", _I),
    Column("temples_end", _I),
    Column("troops_lost_to_mongols", _I),
    Column("qasbahs_end", _I, doc="Qasbahs on the map at the end, every space"),
    Column("qasbahs_lost_to_mongols", _I, doc="removed by Mongol attacks (3.5.3, 2.6)"),
)
STEP_COLUMNS = (
    Column("turn", _I, False, "1-based position of the card in the deck"),
    Column("card_id", _S, False),
    Column("card_kind", _S, False, "event | mongol | succession | timurid", categorical=True),
    Column("faction", _S, False),
    Column(
        "action",
        _S,
        False,
        "event_unshaded | event_shaded | command_decree | command | limited | pass | none",
        categorical=True,
    ),
    Column("command", _S, doc="the Command's name", categorical=True),
    Column("decree", _S, doc="the Decree's name", categorical=True),
    Column("vp", _I),
    Column("resources", _I),
    Column("cavalry", _I),
    Column("influence", _I, doc="null for DS"),
    Column("tributary_provinces", _I),
    Column("controlled_provinces", _I),
    Column("units_on_map", _I),
    Column("mongols_mountain_passes", _I),
    Column("mongols_punjab", _I),
    Column("mongols_delhi", _I),
    Column("qasbahs", _I, doc="the Sultanate's Qasbahs on the map after the card"),
)


_SEARCHERS = {"greedy": "GreedyStrategy", "mcts": "MCTSStrategy"}  # over the default's policy


class Vijayanagara(Game):
    """Vijayanagara: The Deccan Empires of Medieval India, 1290-1398 (GMT Games, 2023)."""

    name = "vijayanagara"
    title = "Vijayanagara: The Deccan Empires of Medieval India, 1290-1398 (3 Factions)"
    seat_word = "faction"
    score = "vp"
    score_label = "VP"
    length = "cards_played"
    length_label = "cards"
    step_label = "card"
    game_columns = GAME_COLUMNS
    step_columns = STEP_COLUMNS
    step_key = ("turn", "faction")
    step_score = "vp"
    seat_names = {"DS": "Delhi Sultanate", "BK": "Bahmani Kingdom", "VE": "Vijayanagara"}
    rule_refs = {"score": "5.1-5.3", "tiebreak": "5.0"}
    ladder_held = (  # what a ladder's card-by-card table says each seat held
        ("units_on_map", "Units on the map"),
        ("resources", "Resources"),
        ("cavalry", "Cavalry"),
        ("controlled_provinces", "Controlled Provinces"),
    )
    provisional = (
        "The map's Prosperity values and most adjacencies and the whole Event deck are "
        "provisional stand-ins, not the printed game: read results as such."
    )

    def seats(self, rules: Any = None) -> tuple[str, ...]:
        return FACTIONS  # 1.0: three Factions whatever the variant

    def load_variant(self, ref: str | Path | None) -> Any:
        from simulate.vijayanagara.variants import load_variant

        return load_variant(ref)

    def variant_from_content(self, content: dict[str, Any], path: Path) -> Any:
        from simulate.vijayanagara.variants import variant_from_content

        return variant_from_content(content, path)

    def variant_names(self) -> list[str]:
        from simulate.vijayanagara.variants import list_variants

        return [v.name for v in list_variants()]

    def variants_dir(self) -> Path:
        from simulate.vijayanagara.variants import VARIANTS_DIR

        return VARIANTS_DIR

    def data_dir(self) -> Path:
        from simulate.vijayanagara.rules.datafiles import DATA_DIR

        return DATA_DIR

    def compile(self, variant: Any) -> Any:
        from simulate.vijayanagara.rules.ruleset import load_rules

        return load_rules(variant)

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
        from simulate.vijayanagara.game import play_game

        result = play_game(
            seed,
            tuple(strategies),
            rules,
            trace=trace,
            on_action=on_action,
            decision_timeout=decision_timeout,
        )
        return outcome(result)

    def check_invariants(self, ctx: Any) -> None:
        from simulate.vijayanagara.rules import invariants

        invariants.check(ctx.state, ctx.rules)

    def replay_lines(self, outcome: Outcome, rules: Any, trace: bool) -> list[str]:
        from simulate.vijayanagara import replay_text

        return replay_text.lines(outcome, rules, trace)

    def strategy_names(self) -> dict[str, str]:
        from strategies.vijayanagara import lineup

        found = {n: f"strategies/vijayanagara/lineups/{n}.toml" for n in lineup.names()}
        return found | {n: f"strategies.vijayanagara.searchers:{c}" for n, c in _SEARCHERS.items()}

    def named_strategy(self, name: str) -> Any:
        from strategies.vijayanagara import lineup

        if name in lineup.names():
            return lineup.shipped(name)
        if name in _SEARCHERS:
            from strategies.vijayanagara import searchers

            return getattr(searchers, _SEARCHERS[name])
        return None

    def strategy_file(self, path: str) -> Any:
        from strategies.vijayanagara import lineup

        return lineup.load(path)

    def strategy_words(self) -> dict[str, str]:
        return {
            self.lineups()["default"]: "the default bots",
            "heuristic-fast": "the fast default bots",
            "heuristic-strong": "the default bots with a bigger end-game search",
            "heuristic-v1": "the first heuristic bots",
            "greedy": "a one-card greedy search",
        }

    def lineups(self) -> dict[str, str]:
        from strategies.vijayanagara import lineup

        return {"default": lineup.DEFAULT, "fast": "heuristic-fast", "strong": "heuristic-strong"}

    def strength_rungs(self) -> list[tuple[str, str]]:
        """The fast tier, the default lineup, then mcts in every seat at 1x, 2x, 4x."""
        from simulate.study.strength import search_rungs

        default = self.lineups()["default"]
        return [("heuristic-fast", "heuristic-fast"), ("heuristic", default), *search_rungs("mcts")]

    def lineup_files(self) -> dict[str, Path]:
        import strategies.vijayanagara as bots

        folder = Path(bots.__file__).parent
        return {
            "exploitability": folder / "exploitability.json",
            "strength": folder / "strength.json",
        }

    def encoder(self, rules: Any) -> Any:
        from simulate.vijayanagara.ai import encoder

        return encoder(rules, self)

    def tunable(self) -> Any:
        from simulate.vijayanagara import bot_space

        return bot_space

    def report_sections(self, run: Any, figures_dir: Path | None) -> list[Section]:
        from simulate.vijayanagara import report

        return report.sections(run, figures_dir)


def outcome(result: GameResult) -> Outcome:
    """A GameResult in the protocol's terms (the games row's columns as before)."""
    extra: dict[str, Any] = {}
    for f in FACTIONS:
        extra[f"resources_{f}"] = result.resources.get(f)
    for f in FACTIONS:
        extra[f"cavalry_{f}"] = result.cavalry.get(f)
    extra["influence_BK"] = result.influence.get("BK")
    extra["influence_VE"] = result.influence.get("VE")
    extra["mongols_in_delhi_end"] = result.mongols_in_delhi_end
    extra["delhi_timur_bonus"] = result.delhi_timur_bonus
    extra["tributary_provinces_end"] = result.tributary_provinces_end
    extra["controlled_BK_end"] = result.controlled_end.get("BK")
    extra["controlled_VE_end"] = result.controlled_end.get("VE")
    extra["forts_end"] = result.forts_end
    extra["temples_end"] = result.temples_end
    extra["troops_lost_to_mongols"] = result.troops_lost_to_mongols
    extra["qasbahs_end"] = result.qasbahs_end
    extra["qasbahs_lost_to_mongols"] = result.qasbahs_lost_to_mongols
    return Outcome(
        seed=result.seed,
        winner=result.winner,
        scores=result.vp,
        length=result.cards_played,
        tiebreak=result.tiebreak,
        state_digest=result.state_digest,
        extra=extra,
        steps=result.turns,
        actions=result.actions,
    )


GAME = Vijayanagara()
