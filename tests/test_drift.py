"""Drift guards: an exact digest of fixed games, and a test of the default lineup's balance.

1. **Determinism** (``test_play_of_the_fixed_games_has_not_changed``): 24 fixed games (random,
   the default lineup and a mixed lineup; base and Timur's Shadow) digested from their seeds,
   winners and final-state digests. Any change in play fails it, a rules fix as much as a
   reordered random draw: that is its job. Update it deliberately with the command below.
2. **Balance drift** (``test_default_lineup_balance_has_not_drifted``): the default lineup's
   outcome counts (DS, BK, VE, unresolved tie) on a fresh sample (master seed
   ``SAMPLE_SEED``, other seeds than the baseline's) against a stored baseline of
   ``BASELINE_GAMES`` = 20,000 games, by a chi-square test of homogeneity on the 2 x 4 table
   (``scipy.stats.chi2_contingency``) at ``ALPHA`` = 0.001: an unchanged engine fails it
   once in 1,000 fresh samples. Power (noncentral chi-square, ``detectable_shift``): CI's
   600-game sample detects a shift of about 8 points of one Faction's win rate (moved to
   another Faction) with 80% power; ``--full``'s 6,000 games about 3 points. (A change of play
   in the fixed games fails the exact digest above; CI's sample is kept small for its budget.)

A deliberate change to the engine, the data or the default bots is acknowledged by

    pytest tests/test_drift.py --update-baseline      # about 3 minutes on 2 cores

and committing ``tests/baselines/drift.json`` with the change that moved it.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest
from scipy import stats as sps

from simulate.study import batches, play
from simulate.vijayanagara.variants import load_variant
from strategies import registry

BASELINE = Path(__file__).parent / "baselines" / "drift.json"
UPDATE = "pytest tests/test_drift.py --update-baseline"
OUTCOMES = ("DS", "BK", "VE", "tie")
ALPHA = 0.001
BASELINE_GAMES = 20_000
BASELINE_SEED = 20230
SAMPLE_SEED = 777
CI_GAMES = 600
FULL_GAMES = 6_000
FIXED_SEED = 4242
FIXED = (  # (variant, lineup, games): the fixed games of the determinism digest
    ("base", "all=random", 8),
    ("base", f"all={registry.DEFAULT}", 8),
    ("timurs-shadow", "DS=heuristic:aggression=0.9", 4),
    ("timurs-shadow", "BK=random", 4),
)


def _lineup(spec: str) -> dict[str, str]:
    from simulate.study.specs import parse_strategies

    return parse_strategies([spec])


def _play(variant: str, lineup: dict[str, str], seed: int, games: int) -> list[dict]:
    work = batches(load_variant(variant), lineup, seed, range(games), size=100)
    rows = [row for result in play(work, jobs=2) for row in result.rows("games")]
    return sorted(rows, key=lambda r: r["game_index"])


def fixed_games_digest() -> str:
    """sha256 over the fixed games' seeds, winners and final-state digests."""
    h = hashlib.sha256()
    for variant, spec, games in FIXED:
        for row in _play(variant, _lineup(spec), FIXED_SEED, games):
            h.update(
                f"{variant}|{spec}|{row['seed']}|{row['winner']}|{row['state_digest']}\n".encode()
            )
    return h.hexdigest()


def outcome_counts(seed: int, games: int) -> dict[str, int]:
    """Outcome counts of the default lineup (base rules) over ``games`` games."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for row in _play("base", _lineup(f"all={registry.DEFAULT}"), seed, games):
        if row["error"] is not None:
            raise AssertionError(f"game {row['game_index']} raised: {row['error']}")
        counts[row["winner"] or "tie"] += 1
    return counts


def homogeneity_p(a: dict[str, int], b: dict[str, int]) -> float:
    """p-value of the chi-square test that two samples share one outcome distribution
    (outcomes seen in neither sample dropped)."""
    keep = [o for o in OUTCOMES if a[o] + b[o] > 0]
    return float(sps.chi2_contingency([[a[o] for o in keep], [b[o] for o in keep]])[1])


def detectable_shift(n: int, m: int, rates: dict[str, float], alpha: float, power: float) -> float:
    """The smallest move of win rate from DS to VE (the least favourable pair is close) that
    the homogeneity test of samples of ``n`` and ``m`` games detects with ``power``."""
    df = sum(1 for r in rates.values() if r > 0) - 1
    crit = sps.chi2.ppf(1 - alpha, df)
    eff = n * m / (n + m)
    for step in range(1, 400):
        d = step / 1000
        shifted = dict(rates) | {"DS": rates["DS"] - d, "VE": rates["VE"] + d}
        pooled = {o: (rates[o] + shifted[o]) / 2 for o in rates if rates[o] > 0}
        lam = eff * sum((shifted[o] - rates[o]) ** 2 / pooled[o] for o in pooled)
        if sps.ncx2.sf(crit, df, lam) >= power:
            return d
    return float("nan")


def _baseline() -> dict:
    if not BASELINE.exists():
        pytest.fail(f"no drift baseline at {BASELINE}; create it with: {UPDATE}")
    return json.loads(BASELINE.read_text(encoding="utf-8"))


def write_baseline() -> None:
    from simulate.study import manifest

    started = time.perf_counter()
    counts = outcome_counts(BASELINE_SEED, BASELINE_GAMES)
    data = {
        "fixed_games": {"seed": FIXED_SEED, "games": [list(f) for f in FIXED]},
        "fixed_games_digest": fixed_games_digest(),
        "balance": {
            "lineup": f"all={registry.DEFAULT}",
            "variant": "base",
            "games": BASELINE_GAMES,
            "master_seed": BASELINE_SEED,
            "counts": counts,
            "rates": {o: round(c / BASELINE_GAMES, 4) for o, c in counts.items()},
        },
        "data_digest": manifest.data_digest(manifest.data_files()),
        "package_version": manifest.package_version(),
        "regenerate": UPDATE,
        "seconds": round(time.perf_counter() - started),
        "note": "The map and Event deck are provisional stand-ins; regenerate whenever the "
        "engine, the data or the default bots change on purpose.",
    }
    BASELINE.parent.mkdir(parents=True, exist_ok=True)
    BASELINE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def test_play_of_the_fixed_games_has_not_changed(request):
    if request.config.getoption("--update-baseline"):
        write_baseline()
        return
    stored = _baseline()["fixed_games_digest"]
    assert fixed_games_digest() == stored, (
        "play changed: the fixed games end differently. If the engine, the data or the bots "
        f"changed on purpose, rewrite the baselines: {UPDATE}"
    )


def test_default_lineup_balance_has_not_drifted(request):
    if request.config.getoption("--update-baseline"):
        return  # written by the determinism test's update
    base = _baseline()["balance"]
    assert base["lineup"] == f"all={registry.DEFAULT}", f"the default bot changed: {UPDATE}"
    games = FULL_GAMES if request.config.getoption("--full") else CI_GAMES
    sample = outcome_counts(SAMPLE_SEED, games)
    p = homogeneity_p(base["counts"], sample)
    assert p >= ALPHA, (
        f"the default lineup's outcomes moved: baseline {base['rates']}, now "
        f"{ {o: round(c / games, 3) for o, c in sample.items()} } over {games} games "
        f"(chi-square p = {p:.2g} < {ALPHA}). If on purpose, rewrite the baselines: {UPDATE}"
    )


def test_the_homogeneity_test_catches_a_planted_shift_and_passes_an_equal_sample():
    base = {"DS": 6000, "BK": 5600, "VE": 8000, "tie": 400}
    same = {"DS": 300, "BK": 280, "VE": 400, "tie": 20}
    shifted = {"DS": 230, "BK": 280, "VE": 470, "tie": 20}  # 7 points from DS to VE
    assert homogeneity_p(base, same) > 0.5
    assert homogeneity_p(base, shifted) < ALPHA


def test_stated_power_matches_the_docstring():
    rates = {"DS": 0.30, "BK": 0.28, "VE": 0.40, "tie": 0.02}
    ci = detectable_shift(CI_GAMES, BASELINE_GAMES, rates, ALPHA, 0.8)
    full = detectable_shift(FULL_GAMES, BASELINE_GAMES, rates, ALPHA, 0.8)
    assert 0.07 <= ci <= 0.085 and 0.025 <= full <= 0.035
