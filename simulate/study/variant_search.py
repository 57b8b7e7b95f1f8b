"""``vsim tune VARIANT.toml``: which values of a variant's parameters bring the win rates
nearest a target (issue 19).

The variant file names what to search in a ``[search]`` table: ``"KEY" = [v1, v2, ...]``
(choices) or ``"KEY" = {low = 1, high = 4}`` (a range; integers when both ends are, an
optional ``step``). KEY is any dotted key of the variant format (``--set``'s keys). The rest
of the file is the variant every candidate starts from. Every choice and both ends of every
range are checked before a game is played.

Optuna's TPE sampler (seeded; the same library as ``vsim tune-bots``) proposes candidates.
Each plays ``first`` games on common seeds (game k of every candidate has the same seed);
the objective is the root-mean-square distance, in points, of the seats' win rates
(among decided games) from the target. Racing spends the rest of the budget where it
matters: the better half of the candidates doubles its games on the same seeds, then the
better half of those, and so on (successive halving). The winner is the candidate whose
distance has the lowest upper bound (Wilson intervals), not the luckiest small sample.

A winner chosen for its small distance on the search's games looks better on them than it
is (the winner's curse), and so does its gain over the base game. So a sixth of the budget
(at least ``first`` games) plays the winner, and as much the base game, on fresh seeds no
candidate played (game indices from ``FRESH_START``, paired with each other): the figures
reported are those. When the winner's distance is not smaller than the base game's beyond
noise (a one-sided test at 5%: the upper bound of the 90% paired bootstrap interval of the
difference not below 0), the search says that no candidate beat the base game, and writes
the winner anyway. The whole budget counts every game, the fresh ones included.

Every evaluation is a Parquet row in ``OUT/evaluations/``; a rerun of the same command
replays them through the sampler and goes on, and a larger ``--budget`` continues a search.
"""

from __future__ import annotations

import json
import math
import tomllib
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulate.errors import DataError
from simulate.games import DEFAULT as DEFAULT_GAME
from simulate.games import Game
from simulate.games import get as get_game
from simulate.overrides import with_settings
from simulate.study import manifest as manifest_mod
from simulate.study import tuning_folder
from simulate.study.backends import Backend, default_jobs, open_backend
from simulate.study.batch import Batch, Chunk, play
from simulate.study.errors import GamesFailed, RunError
from simulate.study.runs import Progress, locked
from simulate.study.specs import check_strategies, default_strategy, parse_strategies

STATE_FILE = "search.json"
CHUNK = 50
FRESH_START = 2**30  # game indices of the fresh seeds: beyond any candidate's search games
FRESH_SHARE = 6  # 1/6 of the budget for the winner on fresh seeds, as much for the base game
BOOT = 2000  # bootstrap resamples of the winner's gain over the base game


@dataclass(frozen=True)
class Dimension:
    """One searched key: its choices, or its range."""

    key: str
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    step: float | None = None

    def distribution(self) -> Any:
        import optuna

        if self.choices:
            return optuna.distributions.CategoricalDistribution(self.choices)
        if isinstance(self.low, int) and isinstance(self.high, int):
            return optuna.distributions.IntDistribution(
                self.low, self.high, step=int(self.step or 1)
            )
        return optuna.distributions.FloatDistribution(
            float(self.low), float(self.high), step=self.step
        )

    def edges(self) -> tuple[Any, ...]:
        """The values checked up front: every choice, or both ends of the range."""
        return self.choices or (self.low, self.high)

    def to_json(self) -> dict[str, Any]:
        if self.choices:
            return {"key": self.key, "choices": list(self.choices)}
        return {"key": self.key, "low": self.low, "high": self.high, "step": self.step}


def parse_target(text: str, seats: Sequence[str] | None = None) -> dict[str, float]:
    """``equal`` or ``P1=0.4,P2=0.3,P3=0.3`` (a share per seat, summing to 1; the default
    game's seats when none are given); RunError (one line) if bad."""
    order = tuple(seats or get_game().seats())
    share = round(1 / len(order), 1)
    example = ",".join(
        f"{f}={1 - share * (len(order) - 1) if i == 0 else share:.2g}" for i, f in enumerate(order)
    )
    if text.strip().lower() == "equal":
        return {f: 1 / len(order) for f in order}
    out: dict[str, float] = {}
    for part in text.split(","):
        name, eq, value = part.partition("=")
        name = name.strip().upper()
        try:
            share = float(value)
        except ValueError:
            share = math.nan
        if not eq or name not in order or not 0 <= share <= 1:
            raise RunError(f"--target {text!r}: expected equal or {example}")
        out[name] = share
    if set(out) != set(order) or abs(sum(out.values()) - 1) > 1e-6:
        every = ", ".join(order[:-1]) + f" and {order[-1]}"
        raise RunError(f"--target {text!r}: give {every}, summing to 1")
    return {f: out[f] for f in order}


def load_search(path: Path, game: Game | None = None) -> tuple[Any, tuple[Dimension, ...]]:
    """The variant of a search file (its ``[search]`` table left out) and the dimensions,
    each value checked as a variant setting; RunError (one line) on any problem."""
    game = game or get_game()
    variant_from_content = game.variant_from_content

    def load_rules(variant: Any) -> Any:
        return game.compile(variant)

    try:
        content = tomllib.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise RunError(f"{path}: cannot read ({exc.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RunError(f"{path}: invalid TOML ({' '.join(str(exc).split())})") from None
    raw = content.pop("search", None)
    if not isinstance(raw, dict) or not raw:
        raise RunError(f"{path}: no [search] table naming the keys to search")
    try:
        base = variant_from_content(content, Path(path))
    except DataError as exc:
        raise RunError(str(exc)) from None
    dims = tuple(_dimension(key, spec, path) for key, spec in sorted(raw.items()))
    for dim in dims:
        for value in dim.edges():
            try:
                load_rules(with_settings(base, [(dim.key, value)]))
            except (DataError, ValueError) as exc:
                message = " ".join(str(exc).split())
                raise RunError(f"{path}: [search] {dim.key!r} = {value!r}: {message}") from None
    return base, dims


def _dimension(key: str, spec: Any, path: Path) -> Dimension:
    where = f"{path}: [search] {key!r}"
    if isinstance(spec, list):
        if not spec:
            raise RunError(f"{where}: an empty list of choices")
        if any(isinstance(v, list | dict) for v in spec):
            raise RunError(f"{where}: choices must be numbers, strings or booleans")
        return Dimension(key, choices=tuple(spec))
    if isinstance(spec, dict):
        low, high, step = spec.get("low"), spec.get("high"), spec.get("step")
        extra = set(spec) - {"low", "high", "step"}
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (low, high))
        if extra or not numbers:
            raise RunError(f"{where}: expected {{low = N, high = M}} (and optionally step)")
        if not low < high:
            raise RunError(f"{where}: an empty range [{low}, {high}]")
        if step is not None and not (isinstance(step, int | float) and step > 0):
            raise RunError(f"{where}: step must be a positive number")
        return Dimension(key, low=low, high=high, step=step)
    raise RunError(f"{where}: expected a list of choices or {{low = N, high = M}}")


@dataclass(frozen=True)
class Search:
    """A checked variant search."""

    path: Path
    base: Any
    dims: tuple[Dimension, ...]
    target: dict[str, float]
    budget: int
    first: int
    seed: int
    strategies: dict[str, str]
    data_files: dict[str, Any] = field(default_factory=dict, compare=False)
    game: str = DEFAULT_GAME  # the game's reference (simulate.games)
    seats: tuple[str, ...] = ()  # in turn order

    @classmethod
    def create(
        cls,
        path: Path,
        target: str = "equal",
        budget: int = 4000,
        first: int = 100,
        seed: int = 0,
        strategies: Sequence[str] | None = None,
        game: str | None = None,
    ) -> Search:
        for name, value, low in (
            ("--budget", budget, 1),
            ("--first-games", first, 2),
            ("--seed", seed, 0),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise RunError(f"{name} must be an integer >= {low}, got {value!r}")
        if budget < 4 * first:
            raise RunError(
                f"--budget ({budget}) must be at least four times --first-games ({first}): "
                "a third of it or more plays the winner and the base game again on fresh seeds"
            )
        try:
            the_game = get_game(game)
        except ValueError as exc:
            raise RunError(str(exc)) from None
        base, dims = load_search(Path(path), the_game)
        seats = the_game.seats(the_game.compile(base))
        goal = parse_target(target, seats)
        word = the_game.seat_word
        chosen = parse_strategies(strategies, seats, default_strategy(the_game), word)
        check_strategies(chosen, game=the_game.ref)
        files = manifest_mod.data_files(the_game.data_dir())
        ref = the_game.ref or the_game.name
        return cls(Path(path), base, dims, goal, budget, first, seed, chosen, files, ref, seats)

    def config(self) -> dict[str, Any]:
        return {
            "kind": "variant search",
            "variant": {"name": self.base.name, "digest": self.base.digest},
            "search": [d.to_json() for d in self.dims],
            "target": self.target,
            "budget": self.budget,
            "first": self.first,
            "seed": self.seed,
            "strategies": self.strategies,
            "data_digest": manifest_mod.data_digest(self.data_files),
        } | ({"game": self.game} if self.game != DEFAULT_GAME else {})

    def candidate(self, params: dict[str, Any], name: str) -> Any:
        return with_settings(self.base, sorted(params.items()), name=name)

    @property
    def fresh_games(self) -> int:
        """Games of the winner, and of the base game, on fresh seeds."""
        return max(self.first, self.budget // FRESH_SHARE)

    @property
    def search_budget(self) -> int:
        """Games the search itself may play: the budget less the fresh games."""
        return self.budget - 2 * self.fresh_games


def distance(
    wins: dict[str, int], decided: int, target: dict[str, float]
) -> tuple[float, float, float]:
    """(distance, lower, upper) in points: the root-mean-square gap of the win rates among
    decided games from the target, and its bounds from each rate's 95% Wilson interval."""
    from simulate.analysis.stats import wilson_interval

    if decided == 0:
        return math.inf, 0.0, math.inf
    gaps, lows, highs = [], [], []
    for f in target:
        p, t = wins[f] / decided, target[f]
        lo, hi = wilson_interval(wins[f], decided)
        gaps.append(p - t)
        lows.append(0.0 if lo <= t <= hi else min(abs(lo - t), abs(hi - t)))
        highs.append(max(abs(lo - t), abs(hi - t)))

    def rms(xs: list[float]) -> float:
        return 100 * math.sqrt(sum(x * x for x in xs) / len(xs))

    return rms(gaps), rms(lows), rms(highs)


def _play(
    be: Backend, search: Search, params: dict[str, Any], name: str, first: int, last: int
) -> dict[str, int]:
    """Winner counts of games ``first..last`` of the candidate ``params`` on the search's
    seeds; a game that raises stops the search (``GamesFailed``)."""
    variant = search.candidate(params, name)
    work = [
        Batch(
            Chunk("c", a, min(last, a + CHUNK - 1)),
            variant,
            search.strategies,
            search.seed,
            "tune",
            game=search.game,
        )
        for a in range(first, last + 1, CHUNK)
    ]
    counts = dict.fromkeys([*search.seats, "tie", "failed"], 0)  # "failed": kept in the schema
    for result in play(work, backend=be):
        g = result.games()
        for w, e in zip(g["winner"], g["error"], strict=True):
            if e is not None:  # a setting that breaks a game is not a distant one: stop
                raise GamesFailed(f"{e} (a game of the candidate {params or 'base game'})")
            counts[w or "tie"] += 1
    return counts


@dataclass
class Outcome:
    """What a search found: every candidate's latest row; the winner and the base game on
    fresh seeds (``best``, ``reference``) and the winner's row on the search's own games
    (``search_best``, chosen for it: biased low); the winner's gain over the base game with
    its interval, and whether it beats the base game beyond noise."""

    out: Path
    rows: list[dict[str, Any]]
    best: dict[str, Any]
    reference: dict[str, Any]
    played: int
    games_used: int
    search_best: dict[str, Any] = field(default_factory=dict)
    gain: dict[str, float] = field(default_factory=dict)
    beats_base: bool = False


def run_search(
    search: Search,
    out: Path,
    *,
    jobs: int | None = None,
    backend: str = "loky",
    scheduler: str | None = None,
    force: bool = False,
    progress: Progress | None = None,
    command: Sequence[str] | None = None,
) -> Outcome:
    """Run (or resume, or continue with a larger budget) ``search`` into ``out``."""
    import optuna

    out = Path(out)
    progress = progress or Progress()
    state = tuning_folder.check_out(out, search, force, STATE_FILE, grows="budget")
    with open_backend(backend, default_jobs() if jobs is None else jobs, scheduler) as be:
        out.mkdir(parents=True, exist_ok=True)
        with locked(out):
            if state is None:
                tuning_folder.wipe(out, (STATE_FILE, "best.toml"))
            state = tuning_folder.new_state(search, command) if state is None else state
            state["config"] = search.config()
            state["status"] = "running"
            tuning_folder.write_state(out, state, STATE_FILE)
            log = tuning_folder.EvaluationLog(out, keys=("trial", "games"))
            fresh = state.get("fresh") or {}
            cached = 2 * fresh.get("games", 0)
            done = min(search.search_budget, games_used(log.rows.values())) + cached
            progress.start(search.budget, min(search.budget, done))
            counter = {"played": 0}
            latest: dict[int, dict[str, Any]] = {}

            def evaluate(trial: int, params: dict[str, Any], kind: str, games: int) -> dict:
                """The row of ``trial`` after ``games`` games (from the log, or played now)."""
                row = log.rows.get((trial, games))
                if row is not None:
                    if json.loads(row["params"]) != json.loads(json.dumps(params, sort_keys=True)):
                        raise RunError(
                            f"the log in {log.folder} does not match this search; use --force"
                        )
                    latest[trial] = row
                    return row
                before = latest.get(trial)
                have = before["games"] if before else 0
                counts = _play(be, search, params, f"trial-{trial}", have, games - 1)
                counter["played"] += games - have
                progress.advance(games - have)
                for k in counts:
                    counts[k] += before[k] if before else 0
                decided = games - counts["tie"] - counts["failed"]
                d, lo, hi = distance(counts, decided, search.target)
                row = {
                    "trial": trial, "kind": kind, "games": games,
                    "params": json.dumps(params, sort_keys=True), **counts,
                    **{
                        f"win_{f}": counts[f] / decided if decided else math.nan
                        for f in search.seats
                    },
                    "distance": d, "distance_low": lo, "distance_high": hi,
                }  # fmt: skip
                log.add(f"t{trial:04d}-{games:06d}", [row])
                latest[trial] = row
                return row

            dists = {d.key: d.distribution() for d in search.dims}
            optuna.logging.set_verbosity(optuna.logging.WARNING)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                study = optuna.create_study(
                    direction="minimize", sampler=optuna.samplers.TPESampler(seed=search.seed)
                )
                used = 0
                explore = int(0.6 * search.search_budget)
                seen: dict[str, int] = {}  # a setting -> the trial that played it
                asks = 0  # a small space runs out of new settings: stop asking then
                while used + search.first <= explore and asks < 20 * (explore // search.first):
                    t = study.ask(dists)
                    asks += 1
                    key = json.dumps(dict(t.params), sort_keys=True)
                    if key in seen:
                        # the same candidate on the same seeds plays the same games: one
                        # candidate, one row, so racing and the best see each setting once
                        study.tell(t, latest[seen[key]]["distance"])
                        continue
                    seen[key] = t.number
                    row = evaluate(t.number, dict(t.params), "explore", search.first)
                    study.tell(t, row["distance"])
                    used += search.first
            used += _race(search, latest, evaluate, search.search_budget - used)
            chosen = min(latest.values(), key=lambda r: (r["distance_high"], r["trial"]))
            params = json.loads(chosen["params"])
            fresh = state.get("fresh") or {}
            if fresh.get("params") != params or fresh.get("games") != search.fresh_games:
                fresh = _fresh(be, search, params, progress)
                counter["played"] += 2 * search.fresh_games
            best = _fresh_row(search, chosen, fresh["winner"], "fresh")
            reference = _fresh_row(search, None, fresh["base"], "base game, fresh")
            gain = fresh_gain(fresh["winner"], fresh["base"], search.target, search.seed)
            beats = gain["high"] < 0
            state["status"] = "complete"
            state |= {"fresh": fresh, "search_best": chosen, "best": best}
            state |= {"reference": reference, "gain": gain, "beats_base": beats}
            state["games_used"] = games_used(log.rows.values()) + 2 * search.fresh_games
            state.setdefault("sessions", []).append(
                {
                    "end_time": manifest_mod.now(),
                    "games_played": counter["played"],
                    "command": command,
                }
            )
            write_variant(out / "best.toml", search, params, best, beats)
            tuning_folder.write_state(out, state, STATE_FILE)
    return Outcome(
        out, sorted(latest.values(), key=lambda r: r["trial"]), best, reference,
        counter["played"], state["games_used"], chosen, gain, beats,
    )  # fmt: skip


def _fresh(be: Backend, search: Search, params: dict[str, Any], progress: Progress) -> dict:
    """The winners of the fresh games (indices from ``FRESH_START``) of the winner
    (``params``) and of the base game, side by side on the same seeds, in game order; a game
    that raises stops the search (``GamesFailed``)."""
    first = FRESH_START
    last = first + search.fresh_games - 1
    sides = {"winner": params, "base": {}}
    work = [
        Batch(Chunk(side, a, min(last, a + CHUNK - 1)),
              search.candidate(values, f"fresh-{side}"), search.strategies, search.seed, "tune",
              game=search.game)
        for side, values in sides.items()
        for a in range(first, last + 1, CHUNK)
    ]  # fmt: skip
    found: dict[str, dict[int, str]] = {side: {} for side in sides}
    for result in play(work, backend=be):
        g = result.games()
        for k, w, e in zip(g["game_index"], g["winner"], g["error"], strict=True):
            if e is not None:
                what = sides[result.chunk.variant] or "base game"
                raise GamesFailed(f"{e} (a fresh game of the candidate {what})")
            found[result.chunk.variant][int(k)] = w or "tie"
        progress.advance(len(result.chunk))
    order = range(first, last + 1)
    return {
        "params": params,
        "games": search.fresh_games,
        "first_index": first,
        "winner": [found["winner"][k] for k in order],
        "base": [found["base"][k] for k in order],
    }


def _fresh_row(
    search: Search, chosen: dict[str, Any] | None, winners: Sequence[str], kind: str
) -> dict[str, Any]:
    """A row like the search's (counts, win rates, distance) of games on fresh seeds."""
    counts = {o: sum(1 for w in winners if w == o) for o in (*search.seats, "tie")}
    decided = len(winners) - counts["tie"]
    d, lo, hi = distance(counts, decided, search.target)
    return {
        "trial": chosen["trial"] if chosen else -1,
        "kind": kind,
        "games": len(winners),
        "params": chosen["params"] if chosen else json.dumps({}),
        **counts,
        "failed": 0,
        **{f"win_{f}": counts[f] / decided if decided else math.nan for f in search.seats},
        "distance": d,
        "distance_low": lo,
        "distance_high": hi,
    }


def fresh_gain(
    winner: Sequence[str], base: Sequence[str], target: dict[str, float], seed: int = 0
) -> dict[str, float]:
    """The winner's distance minus the base game's on the same fresh games (negative: the
    winner is nearer the target), with a 90% paired percentile-bootstrap interval (games
    resampled together on both sides)."""
    import numpy as np

    seats = tuple(target)
    k = len(seats)
    codes = {o: i for i, o in enumerate((*seats, "tie"))}
    a = np.array([codes[w] for w in winner])
    b = np.array([codes[w] for w in base])
    n = a.size
    goal = np.array([target[f] for f in seats])

    def dist(x: Any) -> Any:
        counts = np.stack([(x == i).sum(axis=-1) for i in range(len(codes))], axis=-1)
        decided = np.maximum(n - counts[..., k], 1)
        rates = counts[..., :k] / decided[..., None]
        return 100 * np.sqrt(((rates - goal) ** 2).mean(axis=-1))

    rng = np.random.default_rng(seed)
    diffs = []
    chunk = max(1, 4_000_000 // max(1, n))
    for start in range(0, BOOT, chunk):
        idx = rng.integers(0, n, size=(min(chunk, BOOT - start), n))
        diffs.append(dist(a[idx]) - dist(b[idx]))
    low, high = np.quantile(np.concatenate(diffs), [0.05, 0.95])  # high < 0: better at 5%
    return {"diff": float(dist(a) - dist(b)), "low": float(low), "high": float(high)}


def _race(search: Search, latest: dict[int, dict], evaluate: Any, left: int) -> int:
    """Successive halving over the explored candidates: the better half (by distance) doubles
    its games on the same seeds, then the better half of those, while the budget lasts."""
    used = 0
    alive = sorted(latest.values(), key=lambda r: (r["distance"], r["trial"]))
    alive = alive[: max(1, len(alive) // 2)]
    while alive:
        step = sum(r["games"] for r in alive)
        if used + step > left:
            alive = alive[: max(0, (left - used) // max(1, alive[0]["games"]))]
            if not alive:
                break
            step = sum(r["games"] for r in alive)
        rows = [
            evaluate(r["trial"], json.loads(r["params"]), "race", 2 * r["games"]) for r in alive
        ]
        used += step
        if len(rows) == 1:
            break
        rows.sort(key=lambda r: (r["distance"], r["trial"]))
        alive = rows[: max(1, len(rows) // 2)]
    return used


def write_variant(
    path: Path, search: Search, params: dict[str, Any], row: dict[str, Any], beats: bool = True
) -> None:
    """The winner as a ready variant file (``vsim run --variant PATH``); its header says when
    it did not beat the base game beyond noise."""
    import tomli_w

    name = path.stem
    variant = with_settings(search.base, sorted(params.items()), name=name)
    content = dict(variant.content)
    settings = ", ".join(f"{k} = {json.dumps(v)}" for k, v in sorted(params.items()))
    content["description"] = (
        f"{search.base.name} with {settings} (vsim tune: {row['distance']:.1f} percentage "
        f"points from the target over {row['games']} fresh games"
        + ("" if beats else "; no better than the base game beyond noise")
        + ")"
    )
    header = (
        f"# Found by `vsim tune {search.path}` (seed {search.seed}, target "
        + ", ".join(f"{f} {100 * t:.1f}%" for f, t in search.target.items())
        + ").\n"
    )
    if not beats:
        header += (
            "# No candidate beat the base game beyond noise on fresh seeds: this is the "
            "search's best, not a better game.\n"
        )
    path.write_text(header + tomli_w.dumps(content), "utf-8")


def games_used(rows: Any) -> int:
    """Games played for these rows: each candidate's largest count (its rows are cumulative)."""
    most: dict[int, int] = {}
    for r in rows:
        most[r["trial"]] = max(most.get(r["trial"], 0), r["games"])
    return sum(most.values())


def read_state(out: Path) -> dict[str, Any]:
    try:
        return json.loads((Path(out) / STATE_FILE).read_text())
    except (OSError, ValueError):
        raise RunError(f"{out} holds no finished variant search ({STATE_FILE})") from None


__all__ = [
    "Dimension",
    "Outcome",
    "Search",
    "distance",
    "fresh_gain",
    "load_search",
    "parse_target",
    "run_search",
]
