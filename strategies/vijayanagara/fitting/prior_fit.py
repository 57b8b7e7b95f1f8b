"""An end-game search's prior (``mcts_rank``, ``mcts_pick``; ``strategies/vijayanagara/search/prior.py``),
fitted to the values mcts's own budget gives the same candidates.

In games of a lineup, at every decision one seat's end-game mcts makes (the last
``mcts_cards`` cards of its search settings), each candidate that search weighs (2.3.3:
every action, Command and Decree, the Event by side) is scored as the small search scores
it, the margin after its card on one determinised copy and one playout ``mcts_horizon``
cards deep on another (its leaf scored by the search's value model, if it has one), and
valued as mcts's own budget values it: the mean of ``--rollouts`` playouts ``--horizon``
cards deep on further copies (common random numbers; ``--value``: their leaves scored by
that value model too). Two ridge regressions within each decision (values centred per
decision) give the prior: the terms that, added to the margin after the card, rank the
candidates as those values do (``mcts_rank``), and the weights of that margin and the
playout with the terms that pick among the survivors (``mcts_pick``). It prints the
search-value regret per decision of the seat's small search with and without the prior,
cross-validated by game (the screen and the survivors simulated on the copies).

    python -m strategies.vijayanagara.fitting.prior_fit --games 800 --seed 910000 --seat DS --jobs 2

records games of the default lineup without its prior (``--lineup no-prior``; ``--lineup
heuristic`` refits on the games of the lineup that plays it, a second round) and writes
``strategies/vijayanagara/lineups/priors/heuristic-ds.toml`` (for ``--seat DS``), the prior the default
lineup's file names for that seat (``mcts_prior``; not its tiers').
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np
import tomli_w

from strategies.vijayanagara.lineup import LINEUPS, Lineup, default_lineup
from strategies.vijayanagara.search.mcts import MCTSSearch
from strategies.vijayanagara.search.prior import LATE, compile_prior, features

from .choice_fit import played

LAMBDA = 3.0  # ridge penalty: about 40 terms, a few thousand decisions
FOLDS = 5
CHUNK = 5  # games per task
NO_PRIOR = "no-prior"  # --lineup: the default lineup without its prior (the fit's own output)


def no_prior() -> Lineup:
    """The default's bots without their end-game search's prior: the games a first fit
    records, so that it does not read its own output (a refit on ``heuristic`` is a second
    round, as in DAgger)."""
    return default_lineup().without("mcts_prior")


def _make(spec: str):
    from strategies.registry import make

    return no_prior()() if spec == NO_PRIOR else make(spec)


def prior_file(seat: str) -> Path:
    """Where the default lineup's prior for ``seat`` is shipped."""
    return LINEUPS / "priors" / f"heuristic-{seat.lower()}.toml"


class Recorder:
    """A seat that plays ``spec`` and records each decision of its end-game search."""

    def __init__(self, spec: str, rollouts: int, horizon: int, value: bool = False) -> None:
        self.player = _make(spec)
        self.rollouts, self.horizon, self.value = rollouts, horizon, value
        self.rows: list[dict] = []

    def new_game(self, faction: str, rng: random.Random, rules) -> None:
        self.player.new_game(faction, rng, rules)
        self.rng = random.Random(rng.getrandbits(32))  # the recorder's copies and dice
        self.small = self.player.end_game  # the seat's end-game search (None: nothing to fit)
        if self.small is not None:
            self.search = MCTSSearch(self.player.policy.planner(), expand=True)
            self.search.new_game(faction, random.Random(self.rng.getrandbits(32)), rules)

    def choose(self, obs, decision):
        p = self.player
        seat = p.seat
        left = obs.cards_remaining
        if (
            self.small is not None
            and decision.kind == "action"
            and len(decision.options) > 1
            and seat.mcts_stop < left <= seat.mcts_cards
        ):
            self.rows.append(self.record(obs, decision, 1.0 - left / seat.mcts_cards))
        return p.choose(obs, decision)

    def record(self, obs, decision, late: float) -> dict:
        mcts, rng = self.search, self.rng
        s = mcts.search
        cands = s.candidates(obs, decision, True)
        default = s.default
        worlds = [(obs.determinise(rng), rng.getrandbits(32)) for _ in range(2 + self.rollouts)]
        small_h = self.small.horizon or None
        # the playout scored as the seat's small search scores it (its value model's leaves,
        # if it has one); the values as mcts's budget scores them, or with --value as the
        # same budget with the small search's value model at its leaves
        valued = self.small if self.value else mcts
        out = []
        for c in cands:
            state, dice = worlds[0]
            ctx = s.start(state, c, dice)
            # the screen's ranking: after the own turn, plus staying Eligible (2.3.7)
            turn = s.ev.margin(ctx.state, s.faction) + (s.elig if c.action == "limited" else 0)
            card = s.margin(s.finish(ctx, s.pause()))
            playout = self.small.score(s.play(worlds[1][0], c, worlds[1][1], True, small_h))
            value = [
                valued.score(s.play(st, c, d, True, self.horizon or None)) for st, d in worlds[2:]
            ]
            out.append(
                {
                    "f": features(c.action, c.plan, s.is_own(c)),
                    "screened": s.screens(c, default),
                    "turn": turn,
                    "card": card,
                    "playout": playout,
                    "value": float(np.mean(value)),
                }
            )
        return {"late": late, "cands": out}


def _play(task: tuple) -> list[tuple[int, dict]]:
    from simulate import play_game
    from simulate.seeds import game_seed
    from simulate.vijayanagara.result import FACTIONS

    master, start, count, spec, seat, rollouts, horizon, value = task
    rows = []
    for i in range(start, start + count):
        rec = Recorder(spec, rollouts, horizon, value)
        team = tuple(rec if f == seat else _make(spec) for f in FACTIONS)
        play_game(game_seed(master, i), team)
        rows.extend((i, r) for r in rec.rows)
    return rows


def collect(games, seed, seat, spec=NO_PRIOR, rollouts=8, horizon=4, jobs=1, value=False) -> list:
    """(game, decision) for every end-game search decision of ``seat`` in ``games`` games of
    ``spec`` from master ``seed``, in game order whatever ``jobs``."""
    tasks = [
        (seed, s, min(CHUNK, games - s), spec, seat, rollouts, horizon, value)
        for s in range(0, games, CHUNK)
    ]
    return played(_play, tasks, jobs)


def _names(rows: list) -> list[str]:
    return sorted({k for _, r in rows for c in r["cands"] for k in c["f"]})


def _design(rows: list, names: list[str], playout: bool) -> tuple[np.ndarray, np.ndarray]:
    """Features (margin after the card, the playout if asked, each term alone and *late)
    and values, centred within each decision."""
    col = {k: j for j, k in enumerate(names)}
    width = 2 + 2 * len(names)
    xs, ys = [], []
    for _, r in rows:
        x = np.zeros((len(r["cands"]), width))
        for i, c in enumerate(r["cands"]):
            x[i, 0] = c["card"]
            x[i, 1] = c["playout"] if playout else 0.0
            for k in c["f"]:
                if k in col:
                    x[i, 2 + col[k]] = 1.0
                    x[i, 2 + len(names) + col[k]] = r["late"]
        y = np.array([c["value"] for c in r["cands"]])
        xs.append(x - x.mean(axis=0))
        ys.append(y - y.mean())
    return np.vstack(xs), np.concatenate(ys)


def fit(rows: list, lam: float = LAMBDA) -> dict:
    """The ``mcts_rank`` and ``mcts_pick`` terms of these decisions."""
    names = _names(rows)
    out = {}
    for key, playout in (("mcts_rank", False), ("mcts_pick", True)):
        x, y = _design(rows, names, playout)
        if not playout:
            x = np.delete(x, 1, axis=1)
        theta = np.linalg.solve(x.T @ x + lam * np.eye(x.shape[1]), x.T @ y)
        head, terms = (theta[:1], theta[1:]) if not playout else (theta[:2], theta[2:])
        table = {k: terms[j] for j, k in enumerate(names)}
        table |= {k + LATE: terms[len(names) + j] for j, k in enumerate(names)}
        if playout:
            table = {"card": head[0], "playouts": head[1]} | table
        elif head[0] <= 0:
            raise ValueError("the margin after the card does not rank the candidates: no prior")
        else:  # the rank adds terms to the margin itself: in its units
            table = {k: v / head[0] for k, v in table.items()}
        out[key] = {k: round(float(v), 4) for k, v in table.items() if abs(v) >= 5e-5}
    return out


def choose(r: dict, prior, keep: int, top: int) -> int:
    """The candidate the seat's small search would play at decision ``r`` (its screen of
    ``keep``, its ``top`` survivors, one playout each), with ``prior`` or None."""
    cands = r["cands"]
    late = r["late"]
    screened = [i for i, c in enumerate(cands) if c["screened"]]
    kept = set(sorted(screened, key=lambda i: -cands[i]["turn"])[:keep] if keep else screened)
    finished = [i for i, c in enumerate(cands) if not c["screened"] or i in kept]

    def rank(i: int) -> float:
        c = cands[i]
        return c["card"] + (prior.bias(prior.rank, c["f"], late) if prior else 0.0)

    survivors = sorted(finished, key=lambda i: -rank(i))[:top]

    def pick(i: int) -> float:
        c = cands[i]
        if prior is None or not prior.picks:
            return c["playout"]
        bias = prior.bias(prior.pick, c["f"], late)
        return prior.card * c["card"] + prior.playouts * c["playout"] + bias

    return max(survivors, key=pick)


def regret(rows: list, keep: int, top: int, lam: float = LAMBDA) -> tuple[float, float]:
    """Mean search-value regret per decision of the small search without and with a prior
    fitted on the other folds (by game)."""
    games = sorted({g for g, _ in rows})
    folds = [set(games[k::FOLDS]) for k in range(FOLDS)]
    out = [[], []]
    for fold in folds:
        train = [row for row in rows if row[0] not in fold]
        tables = fit(train, lam)
        prior = compile_prior(tables["mcts_rank"], tables["mcts_pick"])
        for g, r in rows:
            if g in fold:
                values = [c["value"] for c in r["cands"]]
                for j, p in enumerate((None, prior)):
                    out[j].append(max(values) - values[choose(r, p, keep, top)])
    return float(np.mean(out[0])), float(np.mean(out[1]))


def write(tables: dict, header: list[str], path: Path) -> None:
    """The prior file: ``tables`` (``mcts_rank``, ``mcts_pick``) under ``header``."""
    doc = {"mcts_rank": tables["mcts_rank"], "mcts_pick": tables["mcts_pick"]}
    lines = [f"# {line}" if line else "#" for line in header]
    path.write_text("\n".join(lines) + "\n\n" + tomli_w.dumps(doc))


def parser() -> argparse.ArgumentParser:
    """The command's arguments (``python -m strategies.vijayanagara.fitting`` checks its steps by it)."""
    ap = argparse.ArgumentParser(prog="python -m strategies.vijayanagara.fitting.prior_fit")
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--seed", type=int, default=900000)
    ap.add_argument("--seat", choices=("DS", "BK", "VE"), default="DS")
    ap.add_argument(
        "--lineup",
        default=NO_PRIOR,
        help=f"the bots whose games are recorded ({NO_PRIOR}: the default without its prior)",
    )
    ap.add_argument("--rollouts", type=int, default=8, help="playouts valuing each candidate")
    ap.add_argument("--horizon", type=int, default=4, help="cards each of them plays")
    ap.add_argument(
        "--value",
        action="store_true",
        help="score those playouts' leaves with the seat's value model (mcts:value=1)",
    )
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, help="default: the shipped prior of the seat")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = parser().parse_args(argv)
    if a.games < FOLDS or a.rollouts < 1 or a.horizon < 0 or a.jobs < 1:
        print(f"error: need --games >= {FOLDS}, --rollouts >= 1, --horizon >= 0, --jobs >= 1")
        return 2
    t0 = time.time()
    rows = collect(a.games, a.seed, a.seat, a.lineup, a.rollouts, a.horizon, a.jobs, a.value)
    if len({g for g, _ in rows}) < FOLDS:
        print(f"error: the {a.seat} seat of {a.lineup!r} made no end-game search decisions")
        return 1
    budget = _make(a.lineup).searches[a.seat].mcts_budget
    keep, top = budget[4], budget[2]  # its mcts_screen and mcts_top
    before, after = regret(rows, keep, top)
    tables = fit(rows)
    minutes = (time.time() - t0) / 60
    cmd = " ".join(["python -m strategies.vijayanagara.fitting.prior_fit", *(argv or sys.argv[1:])])
    header = [
        f"The end-game search's prior of the {a.seat} seat (its mcts_rank and mcts_pick;",
        "strategies/vijayanagara/search/prior.py), named by a lineup's mcts_prior, fitted by",
        "strategies/vijayanagara/fitting/prior_fit.py:",
        f"  {cmd}",
        f"({len(rows)} decisions of {a.games} games; {minutes:.1f} minutes, --jobs {a.jobs}.)",
        f"Search-value regret per decision, cross-validated by game: {before:.3f} without,",
        f"{after:.3f} with the prior (VP).",
    ]
    out = a.out or prior_file(a.seat)
    write(tables, header, out)
    print(header[4])
    print(f"search-value regret per decision: {before:.3f} without, {after:.3f} with the prior")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
