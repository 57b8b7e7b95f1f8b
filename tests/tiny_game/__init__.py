"""Pig, a tiny game of the protocol (``simulate.games``) that the tests play through every
command and both AI adapters at 2 to 5 seats, so that the layers above the rules stay
generic (issue 65). Use it as ``--game tests.tiny_game:GAME`` from the
repository's root."""

from __future__ import annotations

import hashlib
import json
import random
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulate.errors import DataError
from simulate.games import Column, Game, Outcome, Section
from simulate.seeds import streams
from simulate.variant_format import Variant

from . import rules as R

VARIANTS = Path(__file__).with_name("variants")
BASE = {"name": "base", "description": "Pig as written: 3 seats, a race to 12"}


class _Setup(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    players: int = Field(3, ge=2, le=5)


class _Scoring(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    goal: int = Field(12, ge=1, le=1000)
    turn_limit: int = Field(60, ge=1, le=10_000)


class VariantFile(BaseModel):
    """A Pig variant: ``[setup] players`` and ``[scoring] goal, turn_limit``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str
    description: str
    setup: _Setup = _Setup()
    scoring: _Scoring = _Scoring()


class Pig(Game):
    name = "tiny"
    title = "Pig, the tests' tiny dice race (2-5 seats)"
    score = "score"
    score_label = "points"
    length = "turns"
    length_label = "turns"
    step_label = "turn"
    game_columns = (
        Column("lead_changes", "int32", doc="times the lead passed to another seat"),
        Column("ending", "string", doc="goal | limit", categorical=True),
    )
    step_columns = (
        Column("turn", "int32", False),
        Column("seat", "string", False),
        Column("action", "string", False, "bank | bust", categorical=True),
        Column("points", "int32", False, "points banked this turn"),
        Column("score", "int32", False),
    )
    step_key = ("turn", "seat")
    step_score = "score"
    streams = ("dice", "P1", "P2", "P3", "P4", "P5")

    def seats(self, rules: Any = None) -> tuple[str, ...]:
        return (rules or self.compile(self.base_variant())).seats

    def load_variant(self, ref: str | Path | None) -> Variant:
        if ref is None or ref == "base":
            content, path = dict(BASE), None
        else:
            path = Path(ref) if str(ref).endswith(".toml") else VARIANTS / f"{ref}.toml"
            if not path.is_file():
                raise DataError(f"unknown variant {str(ref)!r} of the tiny game")
            content = tomllib.loads(path.read_text())
        try:
            VariantFile.model_validate(content)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in err["loc"])
            raise DataError(f"{path or 'base'}: {where}: {err['msg']}") from None
        text = json.dumps(content, sort_keys=True)
        return Variant(
            name=content["name"],
            description=content["description"],
            path=None if path is None else path.resolve(),
            content=content,
            digest=hashlib.sha256(text.encode()).hexdigest(),
        )

    def variant_names(self) -> list[str]:
        return ["base", *sorted(p.stem for p in VARIANTS.glob("*.toml"))]

    def variants_dir(self) -> Path:
        return VARIANTS

    def compile(self, variant: Variant) -> R.Rules:
        v = VariantFile.model_validate(variant.content)
        return R.Rules(v.setup.players, v.scoring.goal, v.scoring.turn_limit)

    def play(
        self,
        seed: int,
        strategies: Sequence[Any],
        rules: R.Rules,
        *,
        trace: bool = False,
        on_action: Callable[[Any], None] | None = None,
        decision_timeout: float | None = None,
    ) -> Outcome:
        rngs = streams(seed, self.streams)
        for name, agent in zip(rules.seats, strategies, strict=True):
            agent.new_game(name, rngs[name], rules)
        ctx = R.Context(rules, R.new_state(rules), rngs["dice"], tuple(strategies))
        ctx.log = [] if trace else None
        ctx.on_action = on_action
        while not ctx.state.over:
            R.play_turn(ctx)
        st = ctx.state
        return Outcome(
            seed=seed,
            winner=None if st.winner is None else rules.seats[st.winner],
            scores=dict(zip(rules.seats, st.scores, strict=True)),
            length=st.turn,
            tiebreak="none" if st.winner is not None else "unresolved",
            state_digest=st.digest(),
            extra={
                "lead_changes": st.lead_changes,
                "ending": "goal" if max(st.scores) >= rules.goal else "limit",
            },
            steps=tuple(ctx.steps),
            actions=None if ctx.log is None else tuple(ctx.log),
        )

    def check_invariants(self, ctx: Any) -> None:
        R.check(ctx)

    def report_sections(self, run: Any, figures_dir: Path | None) -> list[Section]:
        import polars as pl

        games = run.games.filter(pl.col("error").is_null())
        mean = games["lead_changes"].mean() if games.height else None
        text = "no finished games" if mean is None else f"{mean:.2f} lead changes a game"
        return [Section("Lead changes", f"On average, {text}.")]

    def lineups(self) -> dict[str, str]:
        return {"default": "cautious", "fast": "random", "strong": "bold"}

    def strength_rungs(self) -> list[tuple[str, str]]:
        return [("random", "random"), ("cautious", "cautious")]

    def strategy_names(self) -> dict[str, str]:
        return {"cautious": "tests.tiny_game:Cautious", "bold": "tests.tiny_game:Bold"}

    def named_strategy(self, name: str) -> Any:
        return {"cautious": Cautious, "bold": Bold}.get(name)

    def strategy_words(self) -> dict[str, str]:
        return {"cautious": "the cautious bots", "bold": "the bold bots"}

    def encoder(self, rules: R.Rules) -> Any:
        from .encoding import PigEncoder

        return PigEncoder(self, rules)


class Cautious:
    """Banks once the turn holds ``threshold`` points (a fixed policy, the tiny game's
    heuristic)."""

    name = "cautious"
    threshold = 8

    def __init__(self, **params: Any) -> None:
        self.threshold = int(params.pop("threshold", self.threshold))
        if params:
            raise ValueError(f"cautious has no parameter {sorted(params)[0]!r}")

    def new_game(self, faction: str, rng: random.Random, rules: Any) -> None:
        self.rng = rng

    def choose(self, observation: Any, decision: Any) -> Any:
        return R.BANK if decision.context >= self.threshold else R.ROLL


class Bold(Cautious):
    name = "bold"
    threshold = 15


class TabledPig(Pig):
    """Pig with a table of its own (``Game.tables``): one row per seat and game, its banked
    and bust turns (the generic layers record, resume and read it as ``turns``)."""

    name = "tiny-tabled"
    tables = {
        "seat_turns": (
            Column("seat", "string", False),
            Column("banks", "int32", False, "turns banked"),
            Column("busts", "int32", False, "turns lost to a one"),
        )
    }
    table_keys = {"seat_turns": ("seat",)}

    def play(self, seed: int, strategies: Sequence[Any], rules: R.Rules, **kw: Any) -> Outcome:
        import dataclasses

        out = super().play(seed, strategies, rules, **kw)
        counts = {s: [0, 0] for s in rules.seats}
        for _, seat, action, *_ in out.steps:
            counts[seat][action != "bank"] += 1
        rows = tuple((s, banks, busts) for s, (banks, busts) in counts.items())
        return dataclasses.replace(out, tables={"seat_turns": rows})


GAME = Pig()
TABLED = TabledPig()
