"""The value model of mcts's playout leaves (``strategies/vijayanagara/value_model.py``), fitted to how
games of a lineup end.

Plays ``--games`` games of ``--lineup`` (the default), records the public features of the
position at the first action of every card (``Features``), and labels each with how its game
ended: each Faction's final Victory Points (5.1-5.3, plus a hundredth of its Resources, the
evaluation's tiebreak, 5.0) and the winner. Fits ridge regressions of the final Victory Points
and a multinomial logistic regression of the winner (ties left out) on the standardised
features, and prints, cross-validated by game, how well they predict against the hand-set
evaluation calibrated the same way (its three scores alone), by third of the deck.

    python -m strategies.vijayanagara.fitting.value_fit --games 3000 --seed 930000 --jobs 2

writes ``strategies/vijayanagara/lineups/values/value.toml`` with its command, games and the digest of
the data it was fitted to.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np
import tomli_w
from scipy.optimize import minimize

from strategies.vijayanagara.value_model import NAMES, VALUE_FILE, Features

from .choice_fit import played

CHUNK = 20  # games per task
FOLDS = 5
RIDGE = 1.0  # ridge penalty of the Victory Point regressions (standardised features)
L2 = 1.0  # L2 penalty of the winner's logistic regression
HAND = tuple(NAMES.index(f"score_{f}") for f in ("DS", "BK", "VE"))  # the hand-set scores


def _play(task: tuple) -> list[tuple[int, list[float], list[float], int]]:
    """(game, features, final Victory Points, winner or -1) at every card of these games."""
    from simulate import play_game
    from simulate.seeds import game_seed
    from simulate.vijayanagara.rules.ruleset import load_rules
    from strategies.registry import make

    master, start, count, spec = task
    feats = Features(load_rules())
    out = []
    for i in range(start, start + count):
        rows: list[list[float]] = []
        seen = [-1]

        def record(ctx, rows=rows, seen=seen) -> None:
            st = ctx.state
            if st.pos != seen[0] and not st.over:
                seen[0] = st.pos
                rows.append(feats(st))

        r = play_game(game_seed(master, i), tuple(make(spec) for _ in range(3)), on_action=record)
        final = [r.vp[f] + 0.01 * r.resources[f] for f in ("DS", "BK", "VE")]
        win = ("DS", "BK", "VE").index(r.winner) if r.winner else -1
        out.extend((i, x, final, win) for x in rows)
    return out


def collect(games: int, seed: int, spec: str = "heuristic", jobs: int = 1) -> list:
    """The rows of ``games`` games of ``spec`` in every seat, in game order whatever ``jobs``."""
    tasks = [(seed, s, min(CHUNK, games - s), spec) for s in range(0, games, CHUNK)]
    return played(_play, tasks, jobs)


def arrays(rows: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(game, features, final Victory Points, winner) as arrays."""
    game = np.array([r[0] for r in rows], dtype=np.int64)
    x = np.array([r[1] for r in rows], dtype=np.float64)
    vp = np.array([r[2] for r in rows], dtype=np.float64)
    win = np.array([r[3] for r in rows], dtype=np.int64)
    return game, x, vp, win


def digest(x: np.ndarray, vp: np.ndarray, win: np.ndarray) -> str:
    """The data's digest (features, labels), for the model file."""
    h = hashlib.sha256()
    for a in (x, vp, win):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def _ridge(z: np.ndarray, y: np.ndarray, lam: float = RIDGE) -> np.ndarray:
    """Weights then intercept of a ridge regression (intercept unpenalised)."""
    zc = np.hstack([z, np.ones((len(z), 1))])
    pen = lam * np.eye(zc.shape[1])
    pen[-1, -1] = 0.0
    return np.linalg.solve(zc.T @ zc + pen, zc.T @ y)


def _softmax_fit(z: np.ndarray, win: np.ndarray, l2: float = L2) -> np.ndarray:
    """(3, k + 1) weights then intercepts of a multinomial logistic regression, L2 on the
    weights, by L-BFGS."""
    n, k = z.shape
    y = np.zeros((n, 3))
    y[np.arange(n), win] = 1.0
    zc = np.hstack([z, np.ones((n, 1))])
    mask = np.ones((3, k + 1))
    mask[:, -1] = 0.0

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w = theta.reshape(3, k + 1)
        logits = zc @ w.T
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        ll = -np.sum(y * np.log(np.clip(p, 1e-12, None)))
        grad = (p - y).T @ zc + l2 * w * mask
        return ll + 0.5 * l2 * np.sum((w * mask) ** 2), grad.ravel()

    res = minimize(loss, np.zeros(3 * (k + 1)), jac=True, method="L-BFGS-B")
    return res.x.reshape(3, k + 1)


def _predict(z: np.ndarray, vpw: np.ndarray, winw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    zc = np.hstack([z, np.ones((len(z), 1))])
    logits = zc @ winw.T
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return zc @ vpw, p / p.sum(axis=1, keepdims=True)


def fit(x: np.ndarray, vp: np.ndarray, win: np.ndarray) -> dict:
    """The model's tables: standardisation, Victory Point weights, winner weights."""
    mean = x.mean(axis=0)
    scale = np.maximum(x.std(axis=0), 1e-6)
    z = (x - mean) / scale
    vpw = _ridge(z, vp)
    decided = win >= 0
    winw = _softmax_fit(z[decided], win[decided])
    return {"mean": mean, "scale": scale, "vp": vpw, "win": winw}


def scores(x: np.ndarray, vp: np.ndarray, win: np.ndarray, tables: dict) -> tuple[float, float]:
    """(RMSE of the final Victory Points, log-loss of the winner over decided games)."""
    z = (x - tables["mean"]) / tables["scale"]
    pred, p = _predict(z, tables["vp"], tables["win"])
    rmse = float(np.sqrt(np.mean((pred - vp) ** 2)))
    d = win >= 0
    ll = float(-np.mean(np.log(np.clip(p[d, win[d]], 1e-12, None))))
    return rmse, ll


def cross_validated(game, x, vp, win, thirds: int = 3) -> dict[str, list[tuple[float, float]]]:
    """Held-out (RMSE, log-loss) by third of the deck, of the model and of the hand-set
    scores calibrated alike, folds by game."""
    late = x[:, NAMES.index("late")]
    third = np.minimum((late * thirds).astype(int), thirds - 1)
    out: dict[str, list] = {"model": [], "hand-set": []}
    fold = game % FOLDS
    preds = {k: (np.zeros_like(vp), np.zeros((len(vp), 3))) for k in out}
    for k in range(FOLDS):
        tr, te = fold != k, fold == k
        for name, cols in (("model", slice(None)), ("hand-set", list(HAND))):
            t = fit(x[tr][:, cols], vp[tr], win[tr])
            z = (x[te][:, cols] - t["mean"]) / t["scale"]
            pv, pw = _predict(z, t["vp"], t["win"])
            preds[name][0][te] = pv
            preds[name][1][te] = pw
    for name, (pv, pw) in preds.items():
        for j in range(thirds):
            sel = third == j
            d = sel & (win >= 0)
            rmse = float(np.sqrt(np.mean((pv[sel] - vp[sel]) ** 2)))
            ll = float(-np.mean(np.log(np.clip(pw[d, win[d]], 1e-12, None))))
            out[name].append((rmse, ll))
    return out


def write(tables: dict, header: list[str], info: dict, path: Path) -> None:
    """The model file: ``info`` (command, games, data digest), then the tables."""
    doc = dict(info)
    doc["features"] = list(NAMES)
    doc["mean"] = [round(float(v), 6) for v in tables["mean"]]
    doc["scale"] = [round(float(v), 6) for v in tables["scale"]]
    faction = ("DS", "BK", "VE")
    doc["final_vp"] = {
        f: [round(float(v), 6) for v in tables["vp"][:, j]] for j, f in enumerate(faction)
    }
    doc["win"] = {f: [round(float(v), 6) for v in tables["win"][j]] for j, f in enumerate(faction)}
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# {line}" if line else "#" for line in header]
    path.write_text("\n".join(lines) + "\n\n" + tomli_w.dumps(doc))


def parser() -> argparse.ArgumentParser:
    """The command's arguments (``python -m strategies.vijayanagara.fitting`` checks its steps by it)."""
    ap = argparse.ArgumentParser(prog="python -m strategies.vijayanagara.fitting.value_fit")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=930000)
    ap.add_argument("--lineup", default="heuristic", help="the bots whose games are recorded")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, help="default: the shipped value model")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = parser().parse_args(argv)
    if a.games < FOLDS or a.jobs < 1:
        print(f"error: need --games >= {FOLDS} and --jobs >= 1")
        return 2
    t0 = time.time()
    game, x, vp, win = arrays(collect(a.games, a.seed, a.lineup, a.jobs))
    cv = cross_validated(game, x, vp, win)
    tables = fit(x, vp, win)
    minutes = (time.time() - t0) / 60
    cmd = " ".join(["python -m strategies.vijayanagara.fitting.value_fit", *(argv or sys.argv[1:])])
    header = [
        "The value model of mcts's playout leaves (strategies/vijayanagara/value_model.py), fitted by",
        "strategies/vijayanagara/fitting/value_fit.py to how games of a lineup end:",
        f"  {cmd}",
        f"({len(x)} positions of {a.games} games; {minutes:.1f} minutes, --jobs {a.jobs}.)",
        "Held out by game, by third of the deck: RMSE of the final Victory Points and",
        "log-loss of the winner, this model against the hand-set scores calibrated alike:",
    ]
    for j in range(3):
        (mr, ml), (hr, hl) = cv["model"][j], cv["hand-set"][j]
        header.append(
            f"  third {j + 1}: RMSE {mr:.2f} (hand-set {hr:.2f}), log-loss {ml:.3f} "
            f"(hand-set {hl:.3f})"
        )
    info = {"command": cmd, "games": a.games, "lineup": a.lineup, "data_sha256": digest(x, vp, win)}
    out = a.out or VALUE_FILE
    write(tables, header, info, out)
    print("\n".join(header[3:]))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
