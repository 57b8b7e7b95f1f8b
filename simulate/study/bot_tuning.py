"""``vsim tune-bots``: each seat's values of the game's tunable policy searched by self-play
(issue 18; ``simulate.study.tunable``, Vijayanagara's heuristic weights).

Iterated best response: round after round, each seat in turn searches its values (the ranges
of the tunable's space file) with CMA-ES (Optuna's ``CmaEsSampler``, ask and tell, started
from the incumbent: ``tunable.Param.around``) to maximise its win rate, plus ``vp_weight``
times its mean score margin over the best opponent (the tie-breaking signal), against a pool
of opponent lineups: the current field, the field at the start of the previous round, and
fixed lineups (the tunable's base bot by default; ``greedy`` on request). Every candidate of a phase plays the same games (common
random numbers). The best candidate replaces the incumbent only when it also beats it on
fresh validation seeds, so a lucky sample does not move the field. Before a phase's search,
``probe_games`` games against the field show which searched values change no game at either
end of their range (a value the seat's bot never reads, e.g. ``play.event_margin`` under a
learned choice): those keep the incumbent's value and are not searched.

Each evaluation is a Parquet row in ``OUT/evaluations/``. A rerun of the same command
resumes: the logged evaluations are replayed through a fresh sampler with the same seed
(its proposals are checked against the log) and the search goes on where it stopped, so a
resumed tuning writes the rows an uninterrupted one would. More ``--rounds`` continue a
finished tuning.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simulate.games import DEFAULT as DEFAULT_GAME
from simulate.games import get as get_game
from simulate.study import manifest as manifest_mod
from simulate.study import tuning_folder
from simulate.study.backends import Backend, default_jobs, open_backend
from simulate.study.batch import Batch, Chunk, play
from simulate.study.errors import GamesFailed, RunError
from simulate.study.runs import Progress, locked
from simulate.study.specs import check_strategies, load_variants, seats_of
from simulate.study.tunable import Param, Space, tunable_of
from simulate.study.tuning_folder import evaluations, read_state

CHUNK = 50  # games per batch handed to a worker


# ---------------------------------------------------------------------------------------------
# What a tuning is


@dataclass(frozen=True)
class Tuning:
    """A checked tuning: budget, pool, seeds, variant and space."""

    seed: int
    rounds: int
    generations: int
    popsize: int
    games: int  # per candidate and pool lineup
    validation_games: int
    pool: tuple[str, ...]
    factions: tuple[str, ...]
    vp_weight: float
    variant: Any
    space: Space
    start: dict[str, dict[str, float]]
    ladder_games: int = 0
    challengers: tuple[str, ...] = ()  # the final ladder's (default: greedy, the base, random)
    variant_ref: str | None = None  # as given (a built-in name or a path), for the ladder
    space_ref: str = ""  # the space file as given (default: the tunable's SPACE_REF)
    data_files: dict[str, Any] = field(default_factory=dict, compare=False)
    base: str = ""  # the bot the seat values are laid over (the tunable's BASES)
    probe_games: int = 0  # games that show which values change no game (0: search them all)
    game: str = DEFAULT_GAME  # the game's reference (simulate.games)
    seats: tuple[str, ...] = ()  # every seat, in turn order

    @property
    def tunable(self) -> Any:
        """The game's tunable policy (``simulate.study.tunable``)."""
        return tunable_of(get_game(self.game))

    @classmethod
    def create(
        cls,
        *,
        seed: int = 0,
        rounds: int = 3,
        generations: int = 4,
        popsize: int = 10,
        games: int = 150,
        validation_games: int = 300,
        pool: Sequence[str] | None = None,
        factions: Sequence[str] | None = None,
        vp_weight: float = 0.01,
        variant: str | None = None,
        space: Path | str | None = None,
        start: Path | None = None,
        ladder_games: int = 0,
        challengers: Sequence[str] | None = None,
        base: str | None = None,
        probe_games: int = 0,
        game: str | None = None,
    ) -> Tuning:
        """A checked tuning, or RunError (one line) on any bad input. ``pool`` (default: the
        tunable's base bot), ``factions`` (default: every seat), ``challengers`` (default:
        greedy, the base bot and random) and ``base`` come from the game's tunable policy."""
        try:
            the_game = get_game(game)
        except ValueError as exc:
            raise RunError(str(exc)) from None
        tunable = tunable_of(the_game)
        base = base or tunable.BASE_BOT
        pool = tuple((tunable.BASE_BOT,) if pool is None else pool)
        challengers = tuple(challengers or ("greedy", tunable.BASE_BOT, "random"))
        if base not in tunable.BASES:
            raise RunError(f"--base must be one of {', '.join(tunable.BASES)}, got {base!r}")
        for name, value, low in (
            ("--seed", seed, 0),
            ("--rounds", rounds, 1),
            ("--generations", generations, 1),
            ("--popsize", popsize, 4),
            ("--games", games, 1),
            ("--validation-games", validation_games, 0),
            ("--ladder-games", ladder_games, 0),
            ("--probe-games", probe_games, 0),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise RunError(f"{name} must be an integer >= {low}, got {value!r}")
        if not math.isfinite(vp_weight) or vp_weight < 0:
            raise RunError(f"--vp-weight must be a non-negative number, got {vp_weight}")
        (loaded,) = load_variants([variant] if variant else None, game=the_game)
        every = seats_of(the_game, [loaded])
        chosen = tuple(dict.fromkeys(f.strip().upper() for f in factions or every))
        bad = [f for f in chosen if f not in every]
        if bad or not chosen:
            expected = ", ".join(every[:-1]) + f" or {every[-1]}"
            raise RunError(f"--faction {bad[0] if bad else ''!r}: expected {expected}")
        for spec in (*pool, *challengers):
            check_strategies(dict.fromkeys(every, spec), game=the_game.ref)
        the_space = tunable.load_space(space or tunable.SPACE_FILE)
        # the seats the variant seats (a game's space may hold more: one for any player count)
        the_space = Space({f: the_space.params.get(f, ()) for f in every})
        empty = [f for f in chosen if not the_space.params[f]]
        if empty:
            raise RunError(f"--space: nothing to search for {empty[0]}")
        return cls(
            seed, rounds, generations, popsize, games, validation_games,
            tuple(dict.fromkeys(pool)), tuple(f for f in every if f in chosen), vp_weight,
            loaded, the_space, tunable.start_values(the_space, start, base), ladder_games,
            tuple(dict.fromkeys(challengers)), variant, str(space or tunable.SPACE_REF),
            manifest_mod.data_files(the_game.data_dir()), base, probe_games,
            the_game.ref or the_game.name, every,
        )  # fmt: skip

    def config(self, rounds: bool = True) -> dict[str, Any]:  # noqa: FBT001
        """What decides the evaluations (compared on resume; more rounds may follow)."""
        out = {
            "kind": "tune-bots",
            "seed": self.seed,
            "generations": self.generations,
            "popsize": self.popsize,
            "games": self.games,
            "validation_games": self.validation_games,
            "pool": list(self.pool),
            "factions": list(self.factions),
            "vp_weight": self.vp_weight,
            "variant": {"name": self.variant.name, "digest": self.variant.digest},
            "space": self.space.digest(),
            "start": self.start,
            "data_digest": manifest_mod.data_digest(self.data_files),
        }
        if self.base != self.tunable.BASE_BOT:  # (a tuning over the default keeps its config)
            out["base"] = self.base
        if self.game != DEFAULT_GAME:
            out["game"] = self.game
        if self.probe_games:  # (a tuning without the probe keeps its config as it was)
            out["probe_games"] = self.probe_games
        return out | ({"rounds": self.rounds} if rounds else {})

    def phase_games(self, opponents: int, faction: str) -> int:
        """Games of one Faction's phase against ``opponents`` pool lineups (at most)."""
        search = (1 + self.generations * self.popsize) * self.games
        return opponents * (search + 2 * self.validation_games) + self.probe_size(faction)

    def probe_size(self, faction: str) -> int:
        """Games of one Faction's probe (at most: a range end equal to the incumbent's value
        is not played)."""
        return (
            (1 + 2 * len(self.space.params[faction])) * self.probe_games if self.probe_games else 0
        )


def phase_seed(
    master: int, rnd: int, faction: str, purpose: int, seats: Sequence[str] | None = None
) -> int:
    """The master seed of one phase's games (``purpose`` 0: search, 1: validation, 2: probe;
    the seat by its index in ``seats``, the default game's when None)."""
    seats = list(seats or get_game().seats())
    words = np.random.SeedSequence([master, rnd, seats.index(faction), purpose])
    return int(words.generate_state(1, np.uint32)[0])


# ---------------------------------------------------------------------------------------------
# Evaluations


@dataclass(frozen=True)
class Candidate:
    """Seat values to evaluate, with where they stand in the tuning."""

    kind: str  # "incumbent", "candidate" or "validation"
    generation: int  # -1 outside the search
    trial: int  # the sampler's trial number; -1 incumbent; 0/1 incumbent/best in validation
    values: dict[str, float]


def evaluate(
    be: Backend,
    tuning: Tuning,
    faction: str,
    cands: Sequence[Candidate],
    opponents: Sequence[tuple[str, dict[str, str]]],
    games: int,
    master: int,
    progress: Progress,
) -> list[dict[str, Any]]:
    """Play every candidate in ``faction``'s seat against every opponent lineup, ``games``
    each on seeds ``master`` (the same games for all), and return one row per candidate."""
    work = []
    for i, cand in enumerate(cands):
        own = tuning.tunable.spec_of(cand.values, tuning.base)
        for j, (_, others) in enumerate(opponents):
            lineup = dict(others) | {faction: own}
            for first in range(0, games, CHUNK):
                chunk = Chunk(f"{i}~{j}", first, min(games, first + CHUNK) - 1)
                work.append(
                    Batch(chunk, tuning.variant, lineup, master, "tune-bots", game=tuning.game)
                )
    tallies: dict[tuple[int, int], list[float]] = {}
    started = time.perf_counter()
    for result in play(work, backend=be):
        i, j = (int(x) for x in result.chunk.variant.split("~"))
        t = tallies.setdefault((i, j), [0, 0, 0.0])  # games, wins, margin sum
        g = result.games()
        for k, winner in enumerate(g["winner"]):
            t[0] += 1
            if g["error"][k] is not None:
                # a lineup that raises is broken, not weak: scored as a loss, it would steer
                # the search silently; stop, keeping the finished phases' evaluations
                own = tuning.tunable.spec_of(cands[i].values, tuning.base)
                lineup = dict(opponents[j][1]) | {faction: own}
                raise GamesFailed(
                    f"{g['error'][k]} (a game of {faction}'s {cands[i].kind} against the "
                    f"{opponents[j][0]!r} lineup, {lineup})"
                )
            t[1] += winner == faction
            score = get_game(tuning.game).score_column
            vp = {f: g[score(f)][k] for f in tuning.seats}
            t[2] += vp[faction] - max(v for f, v in vp.items() if f != faction)
        progress.advance(len(result.chunk))
    seconds = time.perf_counter() - started
    rows = []
    for i, cand in enumerate(cands):
        per = [tallies[(i, j)] for j in range(len(opponents))]
        n = sum(t[0] for t in per)
        rates = [t[1] / t[0] for t in per]
        margins = [t[2] / t[0] for t in per]
        win_rate = float(np.mean(rates))
        margin = float(np.mean(margins))
        rows.append(
            {
                "faction": faction,
                "kind": cand.kind,
                "generation": cand.generation,
                "trial": cand.trial,
                "params": json.dumps(cand.values, sort_keys=True),
                "games": n,
                "wins": int(sum(t[1] for t in per)),
                "failed": 0,  # in the log's schema: a game that raises stops the tuning
                "win_rate": win_rate,
                "vp_margin": margin,
                "objective": win_rate + tuning.vp_weight * margin,
                "by_opponent": json.dumps(
                    {name: round(r, 4) for (name, _), r in zip(opponents, rates, strict=True)}
                ),
                "master_seed": master,
                "seconds": seconds / max(1, len(cands)),
            }
        )
    return rows


# ---------------------------------------------------------------------------------------------
# The tuning loop


@dataclass
class Phase:
    """One Faction's search in one round, as it ended."""

    round: int
    faction: str
    incumbent: float  # objective on the search seeds
    best: float
    validated: tuple[float, float] | None  # (incumbent, best) on the validation seeds
    accepted: bool
    values: dict[str, float]  # the seat's values after the phase
    win_rate: float  # the incumbent's win rate on the search seeds (before the phase)
    inert: tuple[str, ...] = ()  # values the probe found change no game: not searched


@dataclass
class TuneRun:
    """What a tuning did: the field it ended with, every phase, games played now and before."""

    out: Path
    field: dict[str, dict[str, float]]
    phases: list[Phase]
    played: int
    replayed: int
    seconds: float
    ladder: Any = None


def opponents_of(
    tuning: Tuning,
    faction: str,
    current: dict[str, dict[str, float]],
    previous: dict[str, dict[str, float]],
) -> list[tuple[str, dict[str, str]]]:
    """The pool for ``faction``'s seat: the field, the previous round's field, the fixed
    lineups; each once (a lineup equal to an earlier one is dropped)."""
    out: list[tuple[str, dict[str, str]]] = []
    seen = set()
    base, spec_of, others = tuning.base, tuning.tunable.spec_of, tuning.seats
    lineups = [("field", {f: spec_of(current[f], base) for f in others if f != faction})]
    lineups.append(("previous", {f: spec_of(previous[f], base) for f in others if f != faction}))
    lineups += [(spec, {f: spec for f in others if f != faction}) for spec in tuning.pool]
    for name, others in lineups:
        key = tuple(sorted(others.items()))
        if key not in seen:
            seen.add(key)
            out.append((name, others))
    return out


def tune_bots(
    tuning: Tuning,
    out: Path,
    *,
    jobs: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
) -> TuneRun:
    """Run (or resume, or continue with more rounds) ``tuning`` into ``out``."""
    out = Path(out)
    progress = progress or Progress()
    state = tuning_folder.check_out(out, tuning, force)
    with open_backend(backend, default_jobs() if jobs is None else jobs, scheduler) as be:
        out.mkdir(parents=True, exist_ok=True)
        with locked(out):
            if state is None:
                tuning_folder.wipe(out)
            log = tuning_folder.EvaluationLog(out)
            state = tuning_folder.new_state(tuning, command) if state is None else state
            state["config"] = tuning.config()
            state["space_file"] = tuning.space_ref
            state["game"], state["seats"] = tuning.game, list(tuning.seats)
            state["ladder_games"] = tuning.ladder_games
            state["status"] = "running"
            tuning_folder.write_state(out, state)
            run = _loop(tuning, out, be, log, progress)
            state["status"] = "complete"
            state["phases"] = [vars(p) for p in run.phases]
            state["field"] = run.field
            state["games"] = {"played_now": run.played, "total": tuning_folder.total_games(log)}
            state.setdefault("sessions", []).append(
                {"end_time": manifest_mod.now(), "games_played": run.played, "command": command}
            )
            tuning.tunable.write_weights(
                out / "weights.toml", run.field, tuning, tuning_folder.total_games(log)
            )
            tuning_folder.write_state(out, state)
    if tuning.ladder_games:
        run.ladder = final_ladder(tuning, out, jobs, backend, scheduler, progress)
    return run


def final_ladder(
    tuning: Tuning,
    out: Path,
    jobs: int | None,
    backend: str,
    scheduler: str | None,
    progress: Progress,
) -> Any:
    """The tuned lineup's ladder (exploitability) against the challengers, in OUT/ladder."""
    from simulate.study.ladder import Ladder, play_ladder

    ladder = Ladder.create(
        lineup_spec((out / "weights.toml").resolve(), tuning.base),
        tuning.challengers,
        [str(tuning.ladder_games)],
        seed=tuning.seed,
        variant=tuning.variant_ref,
        game=tuning.game,
    )
    return play_ladder(
        ladder, out / "ladder", jobs=jobs, backend=backend, scheduler=scheduler,
        progress=progress, force=True,
    )  # fmt: skip


def _loop(
    tuning: Tuning, out: Path, be: Backend, log: tuning_folder.EvaluationLog, progress: Progress
) -> TuneRun:
    started = time.perf_counter()
    field_ = {f: dict(v) for f, v in tuning.start.items()}
    previous = {f: dict(v) for f, v in field_.items()}
    first = {f: len(opponents_of(tuning, f, field_, previous)) for f in tuning.factions}
    later = len(tuning.pool) + 2  # the field and previous may differ
    # at most: a validation may be skipped, and so may a probe's range end
    total = sum(tuning.phase_games(n, f) for f, n in first.items())
    total += (tuning.rounds - 1) * sum(tuning.phase_games(later, f) for f in tuning.factions)
    progress.start(total, min(total, tuning_folder.total_games(log)))
    phases: list[Phase] = []
    counts = {"played": 0, "replayed": 0}
    for rnd in range(tuning.rounds):
        start_of_round = {f: dict(v) for f, v in field_.items()}
        for faction in tuning.factions:
            opponents = opponents_of(tuning, faction, field_, previous)
            phase = _phase(tuning, be, log, progress, rnd, faction, field_, opponents, counts)
            field_[faction] = dict(phase.values)
            phases.append(phase)
        previous = start_of_round
    return TuneRun(
        out, field_, phases, counts["played"], counts["replayed"], time.perf_counter() - started
    )


def _phase(
    tuning: Tuning,
    be: Backend,
    log: tuning_folder.EvaluationLog,
    progress: Progress,
    rnd: int,
    faction: str,
    field_: dict[str, dict[str, float]],
    opponents: list[tuple[str, dict[str, str]]],
    counts: dict[str, int],
) -> Phase:
    """One Faction's CMA-ES search against the pool, then the validation of its best."""
    import optuna

    params = tuning.space.params[faction]
    incumbent = {p.key: p.clip(field_[faction][p.key]) for p in params}
    seed = phase_seed(tuning.seed, rnd, faction, 0, tuning.seats)
    inert: tuple[str, ...] = ()
    if tuning.probe_games:
        pseed = phase_seed(tuning.seed, rnd, faction, 2, tuning.seats)
        inert, played = probe(be, tuning, faction, incumbent, opponents[0][1], pseed, progress)
        counts["played"] += played  # not logged: a resumed tuning plays it again
    searched = {p.key: p for p in params if p.key not in inert}
    # each range centred on the incumbent's value: where CmaEsSampler starts (Param.around)
    dists = {key: p.around(incumbent[key]) for key, p in searched.items()}

    def run(cands: list[Candidate], tag: str, games: int, master: int) -> list[dict]:
        rows = log.get(rnd, faction, cands)
        if rows is not None:  # counted as already played when the progress started
            counts["replayed"] += sum(r["games"] for r in rows)
            return rows
        rows = evaluate(be, tuning, faction, cands, opponents, games, master, progress)
        counts["played"] += sum(r["games"] for r in rows)
        log.write(rnd, faction, tag, rows)
        return rows

    (inc_row,) = run([Candidate("incumbent", -1, -1, incumbent)], "incumbent", tuning.games, seed)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.CmaEsSampler(seed=seed % 2**31, popsize=tuning.popsize)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    best_row, best_values = inc_row, incumbent
    for gen in range(tuning.generations if dists else 0):
        trials = [study.ask(dists) for _ in range(tuning.popsize)]
        cands = [
            Candidate(
                "candidate",
                gen,
                t.number,
                incumbent | {k: searched[k].clip(v) for k, v in t.params.items()},
            )
            for t in trials
        ]
        rows = run(cands, f"g{gen:03d}", tuning.games, seed)
        for t, row, cand in zip(trials, rows, cands, strict=True):
            study.tell(t, row["objective"])
            if row["objective"] > best_row["objective"]:
                best_row, best_values = row, cand.values
    validated = None
    accepted = False
    if best_values is not incumbent:
        if tuning.validation_games:
            vseed = phase_seed(tuning.seed, rnd, faction, 1, tuning.seats)
            pair = [
                Candidate("validation", -1, 0, incumbent),
                Candidate("validation", -1, 1, best_values),
            ]
            v_inc, v_best = run(pair, "validation", tuning.validation_games, vseed)
            validated = (v_inc["objective"], v_best["objective"])
            accepted = v_best["objective"] > v_inc["objective"]
        else:
            accepted = True
    return Phase(
        rnd, faction, inc_row["objective"], best_row["objective"], validated, accepted,
        best_values if accepted else incumbent, inc_row["win_rate"], inert,
    )  # fmt: skip


def probe(
    be: Backend,
    tuning: Tuning,
    faction: str,
    incumbent: dict[str, float],
    field_: dict[str, str],
    master: int,
    progress: Progress,
) -> tuple[tuple[str, ...], int]:
    """The searched values that change none of ``probe_games`` games against the field at
    either end of their range, the others at the incumbent's: values the seat's bot never
    reads (``play.event_margin`` under a learned choice, say), not worth a search dimension;
    and the games played."""
    variants: list[tuple[str, dict[str, float]]] = [("", incumbent)]
    for p in tuning.space.params[faction]:
        for end in (p.clip(p.low), p.clip(p.high)):
            if end != incumbent[p.key]:
                variants.append((p.key, incumbent | {p.key: end}))
    n = tuning.probe_games
    work = []
    for i, (_, values) in enumerate(variants):
        lineup = dict(field_) | {faction: tuning.tunable.spec_of(values, tuning.base)}
        for first in range(0, n, CHUNK):
            chunk = Chunk(f"{i}~probe", first, min(n, first + CHUNK) - 1)
            work.append(Batch(chunk, tuning.variant, lineup, master, "tune-bots", game=tuning.game))
    digests: dict[int, dict[int, str]] = {}
    for result in play(work, backend=be):
        i = int(result.chunk.variant.split("~")[0])
        g = result.games()
        for k, error in enumerate(g["error"]):
            if error is not None:
                raise GamesFailed(f"{error} (a probe game of {faction}'s {variants[i][1]})")
            digests.setdefault(i, {})[g["game_index"][k]] = g["state_digest"][k]
        progress.advance(len(result.chunk))
    moved = {key for i, (key, _) in enumerate(variants) if i and digests[i] != digests[0]}
    inert = tuple(p.key for p in tuning.space.params[faction] if p.key not in moved)
    return inert, len(variants) * n


def lineup_spec(weights: Path, base: str) -> list[str]:
    """The ``--strategy`` values that play a tuned weights file in every seat."""
    return [f"all={base}:weights={weights}"]


__all__: Iterable[str] = [
    "Candidate",
    "Param",
    "Phase",
    "Space",
    "TuneRun",
    "Tuning",
    "evaluate",
    "evaluations",
    "lineup_spec",
    "opponents_of",
    "read_state",
    "tune_bots",
]
