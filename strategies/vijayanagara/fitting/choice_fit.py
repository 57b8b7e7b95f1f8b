"""The learned choice of the turn's option (``play.choice``, 2.3.3): fitted to search values.

In default games, at every top-level decision of every seat, each option the bot could take
(``TurnPlanner.options_here``: each action with each Command and Decree, both Event sides,
Pass) is played out on the same determinised copies of the position, as mcts plays them
(the option, the rest of the card, ``horizon`` more cards by heuristic bots; common random
numbers), and scored by the evaluation. A linear model of those search values, within each
decision (ridge regression on values centred per decision), gives the bot's own value of an
option a ``scale``, each action, Command and Decree a bias, and ``terms`` the rest: the
action's own scale, the pairs action-Command and Command-Decree, and all of these crossed
with the position (``choice.choice_context``: the game's progress, own Resources, the
evaluation's margin). The heuristic then chooses as the search would on average, at no cost
in speed (issue 18, part 4). The fit prints, per quarter of the deck, what the fitted choice
and the one-card lookahead (a lineup's ``lookahead``) gain over the bot's own choice: where a seat's
lookahead is worth its cost.

    python -m strategies.vijayanagara.fitting.choice_fit --games 120 --seed 600000 --jobs 2
    python -m strategies.vijayanagara.fitting.choice_fit --games 200 --seed 610000 --jobs 2 \
        --lineup heuristic --seat VE --cache runs/choice-fit

writes the heuristic's ``choice.toml`` (``strategies/vijayanagara/heuristic/``: one
``[seat.F.play.choice]`` table per Faction), which the default lineup plays over ``tuned.toml``. It prints, per Faction, how much the
fitted choice gains over the bot's own by the same search values, cross-validated by game.
The second line refits one seat on the positions of the lineup that plays the first fit
(``--lineup heuristic``: a second round, as in DAgger), keeping the other seats' tables;
with ``--cache`` a stopped fit resumes from the chunks it finished. ``--playouts lineup``
takes the search values as the default ``mcts`` scores them (its playouts by the lineup's own
bots, learned choice included) rather than by the bots without a learned choice. ``--value
shipped`` (or a value model file) scores the playouts' leaves by the learned value model, as
``mcts:value=1`` does: the choice learns from a stronger search (expert iteration, issue 43).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import tomli_w

from simulate.vijayanagara.result import FACTIONS as NAMES
from simulate.vijayanagara.rules.sequence import COMMAND, LIMITED, PASS
from simulate.vijayanagara.rules.sequence import COMMAND_DECREE as CD
from simulate.vijayanagara.rules.sequence import EVENT_OPTION as EVENT
from strategies.vijayanagara.heuristic.choice import CHOICE_CONTEXT, choice_context, option_features
from strategies.vijayanagara.heuristic.weights import CHOICE_FILE, TUNED_FILE, WEIGHTS_FILE
from strategies.vijayanagara.lineup import Lineup, default_lineup
from strategies.vijayanagara.search.mcts import MCTSSearch
from strategies.vijayanagara.search.searcher import Candidate
from strategies.vijayanagara.value_model import BadValueModel, ValueModel, load_value

ACTIONS = (CD, COMMAND, LIMITED, PASS, EVENT)  # the top-level actions (2.3.3)
UNFITTED = "unfitted"  # --lineup: the default lineup as it plays without a learned choice
LINEUP = "lineup"  # --playouts: the search values of the default mcts (its rollouts: the lineup)
SHIPPED = "shipped"  # --value: the shipped value model scores the playouts' leaves


def value_model(value: str) -> ValueModel:
    """The value model ``--value`` names: the shipped one (``SHIPPED``) or a file's."""
    return load_value(None if value == SHIPPED else value)


def unfitted() -> Lineup:
    """The default's bots without a learned choice (``tuned.toml`` alone, and no prior for
    its end-game search): the values a fit starts from and the bots its playouts play, so
    that a fit does not read its own output."""
    return default_lineup().without(CHOICE_FILE.name, "mcts_prior")


class Recorder:
    """A seat that plays its lineup's bot and records, at each top-level decision, every
    option's value to the bot and its search value (``rollouts`` playouts, ``horizon``)."""

    def __init__(
        self,
        spec: str,
        rollouts: int,
        horizon: int,
        record: bool = True,
        by: str = UNFITTED,
        value: str | None = None,
    ) -> None:
        from strategies.registry import make

        self.player = unfitted()() if spec == UNFITTED else make(spec)
        self.rollouts = rollouts
        self.horizon = horizon
        self.by = by  # whose playouts give the search values: UNFITTED, or LINEUP (mcts's)
        self.value = value  # a value model scoring the playouts' leaves (SHIPPED, a file), or None
        self.recording = record  # False: play exactly as recorded, record nothing
        self.rows: list[tuple[int, list[tuple], list[float], list[float]]] = []

    def new_game(self, faction: str, rng: random.Random, rules) -> None:
        from strategies.vijayanagara.searchers import MCTSStrategy

        self.player.new_game(faction, rng, rules)
        own = random.Random(rng.getrandbits(32))
        # the bot's own values, Event table included
        self.planner = unfitted().policy_for(None, {}, faction)
        self.planner.new_game(faction, random.Random(own.getrandbits(32)), rules)
        value = self.value
        if self.by == LINEUP:  # the playouts of the default mcts: the lineup's bots play on
            self.search = MCTSStrategy(value=True if value == SHIPPED else value or False)
        else:
            leaf = value_model(value) if value else None
            self.search = MCTSSearch(self.planner.planner(), value=leaf)
        self.search.new_game(faction, random.Random(own.getrandbits(32)), rules)
        self.rng = own

    def choose(self, obs, decision):
        if self.recording and decision.kind == "action" and len(decision.options) > 1:
            self.record(obs, decision)
        return self.player.choose(obs, decision)

    def record(self, obs, decision) -> None:
        bot = self.planner.bot
        bot.choose(obs, decision)  # k_action: its values of this position
        options = bot.options_here(obs, decision)
        search = self.search.search
        worlds = [
            (obs.determinise(self.rng), self.rng.getrandbits(32)) for _ in range(self.rollouts)
        ]
        q = []
        for _, plan in options:
            cand = Candidate(plan["action"], plan, plan["action"])
            total = 0.0
            for state, dice in worlds:
                total += self.search.score(search.play(state, cand, dice, True, self.horizon))
            q.append(total / len(worlds))
        g = []  # the option's own turn, and its card, played on one more copy (lookahead values)
        state, dice = obs.determinise(self.rng), self.rng.getrandbits(32)
        for _, plan in options:
            cand = Candidate(plan["action"], plan, plan["action"])
            copy = search.start(state, cand, dice)
            turn = search.margin(copy.state)
            card = search.margin(search.finish(copy, search.pause()))
            g.append((turn, card))
        feats = [(v, p["action"], p.get("command"), p.get("decree")) for v, p in options]
        ev = self.planner.ev
        margin = ev.margin_of(ev.scores_obs(obs), bot.faction)
        ctx = list(
            choice_context(ev.progress(obs), obs.resources[bot.faction], margin, obs.dynasty)
        )
        self.rows.append((bot.faction, feats, q, ctx, g))


CHUNK = 10  # games per task: a resumed fit reuses every finished chunk whatever --jobs


def _lineup_tag(spec: str, by: str = UNFITTED, value: str | None = None) -> str:
    """The lineup, whose playouts, the value model and the weight files its bots read: a
    cached chunk of other weights is never reused."""
    # v5: the context with the Dynasty (a v4 chunk's rows have one context feature fewer)
    digest = hashlib.sha256(f"rows-v5 {spec}{'' if by == UNFITTED else ' by ' + by}".encode())
    if value:
        digest.update(value_model(value).info["sha256"].encode())
    for path in (WEIGHTS_FILE, TUNED_FILE, CHOICE_FILE):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _play(task: tuple) -> list[tuple[int, int, list, list]]:
    """The rows of games ``start`` .. ``start + count - 1``; with a ``cache`` folder, read
    from it when that chunk was played before, else written there when done."""
    from simulate import play_game
    from simulate.seeds import game_seed

    master, start, count, spec, rollouts, horizon, seats, cache, tag, by, value = task
    done = None
    if cache is not None:
        name = f"{tag}-r{rollouts}-h{horizon}-s{''.join(map(str, seats))}-{master}-{start:06d}"
        done = Path(cache) / f"{name}-{count}.json"
        if done.is_file():
            return [
                (i, f, [tuple(o) for o in feats], q, ctx, [tuple(x) for x in g])
                for i, f, feats, q, ctx, g in json.loads(done.read_text())
            ]
    out = []
    for i in range(start, start + count):
        team = tuple(
            Recorder(spec, rollouts, horizon, f in seats, by, value) for f in range(len(NAMES))
        )
        play_game(game_seed(master, i), team)
        for seat in team:
            out.extend((i, f, feats, q, ctx, g) for f, feats, q, ctx, g in seat.rows)
    if done is not None:
        tmp = done.with_suffix(".tmp")
        tmp.write_text(json.dumps(out))
        tmp.replace(done)  # a chunk is there whole or not at all
    return out


def collect(
    games: int,
    seed: int,
    jobs: int = 1,
    spec: str = "heuristic",
    rollouts: int = 8,
    horizon: int = 4,
    cache: Path | None = None,
    seats: tuple[int, ...] = (0, 1, 2),
    by: str = UNFITTED,
    value: str | None = None,
) -> list[tuple[int, int, list, list]]:
    """(game, faction, options, search values) for every top-level decision of the ``seats``
    (Faction indices) in ``games`` games of the ``spec`` lineup, in game order whatever
    ``jobs``; the same games whatever ``seats``; chunks already in the ``cache`` folder are
    read, not played again (a stopped fit resumes). ``by``: whose playouts give the values;
    ``value``: the value model scoring their leaves (``SHIPPED``, a file, or None)."""
    if cache is not None:
        Path(cache).mkdir(parents=True, exist_ok=True)
    tag = _lineup_tag(spec, by, value)
    tasks = [
        (
            seed,
            s,
            min(CHUNK, games - s),
            spec,
            rollouts,
            horizon,
            tuple(seats),
            cache,
            tag,
            by,
            value,
        )
        for s in range(0, games, CHUNK)
    ]
    return played(_play, tasks, jobs)


def played(play: Any, tasks: list[tuple], jobs: int) -> list:
    """The rows of ``play(task)`` for every task, in task order whatever ``jobs`` (worker
    processes): a fit's games, chunk by chunk."""
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(play, tasks))
    else:
        parts = [play(t) for t in tasks]
    return [row for part in parts for row in part]


LAMBDA = 3.0  # ridge penalty: the crossed terms are many, the decisions a few thousand
BASE = {"v": "scale", "a": "action", "c": "command", "d": "decree"}  # terms with own tables


def _features(row: tuple) -> list[list[tuple[str, float]]]:
    """Each option's features (``choice.option_features``), alone and crossed with the
    position's (``choice.choice_context``), as (name, value)."""
    ctx = row[4]
    out = []
    for v, a, c, d in row[2]:
        own = option_features(v, {"action": a, "command": c, "decree": d})
        crossed = [
            (f"{z}*{k}", x * zv) for z, zv in zip(CHOICE_CONTEXT, ctx, strict=True) for k, x in own
        ]
        out.append(own + crossed)
    return out


def _design(rows: list, names: list[str] | None = None) -> tuple[list[np.ndarray], list[str]]:
    feats = [_features(r) for r in rows]
    if names is None:
        names = sorted({k for fs in feats for f in fs for k, _ in f})
    col = {k: j for j, k in enumerate(names)}
    out = []
    for fs in feats:
        x = np.zeros((len(fs), len(names)))
        for i, f in enumerate(fs):
            for k, val in f:
                if k in col:
                    x[i, col[k]] += val
        out.append(x)
    return out, names


def _solve(rows: list, lam: float = LAMBDA) -> tuple[np.ndarray, list[str]]:
    """Ridge regression of the search values on the features, within each decision (values
    and features centred per decision: only differences between options count)."""
    xs, names = _design(rows)
    x = np.vstack([m - m.mean(axis=0) for m in xs])
    y = np.concatenate([np.asarray(r[3]) - np.mean(r[3]) for r in rows])
    if lam > 0:
        theta = np.linalg.solve(x.T @ x + lam * np.eye(len(names)), x.T @ y)
    else:
        theta, *_ = np.linalg.lstsq(x, y, rcond=None)
    return theta, names


def fit(rows: list, faction: int, lam: float = LAMBDA) -> dict:
    """The ``play.choice`` table of one Faction from its decisions: the scale on the bot's
    own value and the action, Command and Decree biases, then every other term by name."""
    theta, names = _solve([r for r in rows if r[1] == faction], lam)
    model: dict = {"fitted": True, "scale": 0.0, "action": {a: 0.0 for a in ACTIONS}}
    model |= {"command": {}, "decree": {}, "terms": {}}
    for k, w in zip(names, theta, strict=True):
        w = round(float(w), 4)
        kind, _, name = k.partition(":")
        if k == "v":
            model["scale"] = w
        elif kind in BASE and name:
            model[BASE[kind]][name] = w
        elif w:
            model["terms"][k] = w
    return model


def own_choice(feats: list) -> int:
    """The bot's own option among ``feats``: the first of the best value (its plan comes
    first for each action, 2.3.3)."""
    return max(range(len(feats)), key=lambda i: (feats[i][0], -i))


def _phase(row: tuple) -> int:
    """Which quarter of the deck a decision is in (0: the first)."""
    return min(3, int(row[4][0] * 4))


def gains(rows: list, faction: int, folds: int = 5, lam: float = LAMBDA) -> dict[str, list]:
    """Mean search value gained per decision over the bot's own choice, per quarter of the
    deck, by the fitted choice (fitted on the other games' decisions: folds by game) and by
    the one-card lookahead (``play.lookahead``: the best value after the card): where the
    lookahead is worth its cost."""
    mine = [r for r in rows if r[1] == faction]
    out = {"fitted": [[0.0, 0] for _ in range(4)], "lookahead": [[0.0, 0] for _ in range(4)]}
    for k in range(folds):
        test = [r for r in mine if r[0] % folds == k]
        if not test:
            continue
        theta, names = _solve([r for r in mine if r[0] % folds != k], lam)
        xs, _ = _design(test, names)
        for r, x in zip(test, xs, strict=True):
            q, own, p = r[3], r[3][own_choice(r[2])], _phase(r)
            ahead = max(range(len(q)), key=lambda i: r[5][i][1])
            for key, pick in (("fitted", int(np.argmax(x @ theta))), ("lookahead", ahead)):
                out[key][p][0] += q[pick] - own
                out[key][p][1] += 1
    return {key: [t / max(1, n) for t, n in cells] for key, cells in out.items()}


def cross_validated_gain(rows: list, faction: int, folds: int = 5, lam: float = LAMBDA) -> float:
    """Mean search value gained per decision by the fitted choice over the bot's own, the
    model fitted on the other games' decisions (folds by game)."""
    mine = [r for r in rows if r[1] == faction]
    n = [0] * 4
    for r in mine:
        n[_phase(r)] += 1
    by = gains(rows, faction, folds, lam)["fitted"]
    return sum(g * k for g, k in zip(by, n, strict=True)) / max(1, len(mine))


def write(models: dict[str, dict], header: list[str], path: Path = CHOICE_FILE) -> None:
    """``models`` as ``[seat.F.play.choice]`` tables under ``header`` (comment lines)."""
    tables = {"seat": {name: {"play": {"choice": model}} for name, model in models.items()}}
    path.write_text("".join(f"# {line}\n" for line in header) + "\n" + tomli_w.dumps(tables))


def parser() -> argparse.ArgumentParser:
    """The command's arguments (``python -m strategies.vijayanagara.fitting`` checks its steps by it)."""
    ap = argparse.ArgumentParser(
        prog="python -m strategies.vijayanagara.fitting.choice_fit",
        description="Fit the heuristic's choice to search values.",
    )
    ap.add_argument("--games", type=int, default=160)
    ap.add_argument("--seed", type=int, default=600000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--rollouts", type=int, default=8)
    ap.add_argument("--horizon", type=int, default=4)
    ap.add_argument(
        "--lineup",
        default=UNFITTED,
        help="the bots whose games give the positions (a strategy spec; default: the default lineup without its learned choice)",
    )
    ap.add_argument(
        "--playouts",
        choices=(UNFITTED, LINEUP),
        default=UNFITTED,
        help="whose bots play the playouts of the search values: the default lineup without its"
        " learned choice (unfitted), or as the default mcts plays them (lineup)",
    )
    ap.add_argument(
        "--value",
        metavar="shipped|FILE",
        help="score the playouts' leaves by a learned value model (as mcts:value=1): the shipped"
        " one, or a value model file; default: the evaluation",
    )
    ap.add_argument("--out", type=Path, default=CHOICE_FILE)
    ap.add_argument(
        "--cache",
        type=Path,
        help="a folder for the played chunks: a stopped fit run again with it resumes",
    )
    ap.add_argument(
        "--seat",
        action="append",
        choices=NAMES,
        help="refit only this seat (repeatable), keeping the other seats' tables of --out",
    )
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.games < 5 or args.rollouts < 1 or args.horizon < 0:
        print("need --games >= 5, --rollouts >= 1, --horizon >= 0", file=sys.stderr)
        return 2
    if args.value:
        try:  # a bad model file is refused before any game is played
            value_model(args.value)
        except BadValueModel as err:
            print(f"--value: {err}", file=sys.stderr)
            return 2
    seats = tuple(sorted({NAMES.index(n) for n in args.seat or NAMES}))
    kept, header = _kept(args.out, seats)
    if kept is None:
        print(
            f"--seat keeps the other seats of --out, but {args.out} cannot be read", file=sys.stderr
        )
        return 2
    start = time.perf_counter()
    rows = collect(
        args.games,
        args.seed,
        args.jobs,
        args.lineup,
        args.rollouts,
        args.horizon,
        args.cache,
        seats,
        args.playouts,
        args.value,
    )
    models = dict(kept)
    for f in seats:
        name = NAMES[f]
        models[name] = fit(rows, f)
        by = gains(rows, f)
        n = sum(1 for r in rows if r[1] == f)
        print(
            f"{name}: {n} decisions; VP per decision over its own choice, by quarter of the deck:"
            f" fitted {' '.join(f'{g:+.3f}' for g in by['fitted'])},"
            f" one-card lookahead {' '.join(f'{g:+.3f}' for g in by['lookahead'])}"
        )
    command = (
        f"python -m strategies.vijayanagara.fitting.choice_fit --games {args.games} --seed {args.seed} "
        f"--rollouts {args.rollouts} --horizon {args.horizon} --lineup {args.lineup}"
        + (f" --playouts {args.playouts}" if args.playouts != UNFITTED else "")
        + (f" --value {args.value}" if args.value else "")
        + "".join(f" --seat {NAMES[f]}" for f in seats if args.seat)
    )
    made = "Made by" if not kept else f"Then {', '.join(NAMES[f] for f in seats)} by"
    write(
        {name: models[name] for name in NAMES},
        header
        + [
            f"{made}: {command}",
            f"({len(rows)} decisions of {args.games} games; "
            f"{(time.perf_counter() - start) / 60:.1f} minutes this run, --jobs {args.jobs}.)",
        ],
        args.out,
    )
    print(f"wrote {args.out}")
    return 0


def _kept(path: Path, seats: tuple[int, ...]) -> tuple[dict | None, list[str]]:
    """The other seats' tables and the header of the choice file ``path`` (a refit of some
    seats keeps them); None when they are needed and ``path`` cannot be read."""
    header = [
        "The learned choice of the default heuristic lineup (play.choice, 2.3.3), per seat:",
        "fitted to search values of every option (strategies/vijayanagara/fitting/choice_fit.py).",
    ]
    others = [NAMES[f] for f in range(len(NAMES)) if f not in seats]
    if not others:
        return {}, header
    import tomllib

    try:
        text = path.read_text()
        tables = tomllib.loads(text)["seat"]
        kept = {name: tables[name]["play"]["choice"] for name in others}
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return None, header
    return kept, [line[2:] for line in text.splitlines() if line.startswith("# ")]


if __name__ == "__main__":
    raise SystemExit(main())
