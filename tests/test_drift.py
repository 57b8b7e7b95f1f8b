"""Drift guard: a fixed-seed study whose win counts must not move silently.

150 games of random vs random under the base rules, played with ``simulate.play_game`` on
the seeds ``seeds.game_seed(MASTER_SEED, k)``. The same engine gives exactly the same counts;
a change to the rules, the data or the random strategy may move them. Small moves are
tolerated, but when a faction's win rate (or the rate of unresolved ties) moves by more than
max(4 percentage points, 3 binomial standard errors of the baseline rate) the test fails.

A deliberate change to the engine is acknowledged by rewriting the baseline:

    pytest tests/test_drift.py --update-baseline

and committing ``tests/baselines/drift.json`` with the change that moved it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from simulate import play_game
from simulate.seeds import game_seed

BASELINE = Path(__file__).parent / "baselines" / "drift.json"
GAMES = 150
MASTER_SEED = 20230
STRATEGIES = "random"
VARIANT = "base"
MIN_PP = 0.04  # the band is at least 4 percentage points...
N_SE = 3.0  # ...or 3 binomial standard errors of the baseline rate, whichever is wider
OUTCOMES = ("DS", "BK", "VE", "tie")
UPDATE = "pytest tests/test_drift.py --update-baseline"


def play_study() -> dict[str, int]:
    """Win counts of the fixed study (``tie``: unresolved ties)."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for k in range(GAMES):
        seed = game_seed(MASTER_SEED, k)
        try:
            result = play_game(seed, STRATEGIES, None)
        except Exception as exc:  # an engine failure is a bug, not drift
            raise AssertionError(
                f"game {k} (seed {seed}) raised {type(exc).__name__}: {exc}; "
                f"repro: python -c 'from simulate import play_game; play_game({seed})'"
            ) from exc
        counts["tie" if result.winner is None else result.winner] += 1
    return counts


def band(rate: float, n: int, min_pp: float = MIN_PP, n_se: float = N_SE) -> float:
    """The largest tolerated move of a rate whose baseline is ``rate`` over ``n`` games."""
    return max(min_pp, n_se * math.sqrt(rate * (1.0 - rate) / n))


def write_baseline(counts: dict[str, int]) -> None:
    from simulate.study import manifest

    BASELINE.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "study": {
            "games": GAMES,
            "master_seed": MASTER_SEED,
            "strategies": STRATEGIES,
            "variant": VARIANT,
        },
        "wins": counts,
        "rates": {k: round(v / GAMES, 4) for k, v in counts.items()},
        "band": {"min_pp": MIN_PP, "n_se": N_SE},
        "data_digest": manifest.data_digest(manifest.data_files()),
        "package_version": manifest.package_version(),
        "regenerate": UPDATE,
        "note": "The map and Event deck are provisional stand-ins; re-run the command above "
        "whenever the engine, the data or the random strategy change on purpose.",
    }
    BASELINE.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def test_win_rates_have_not_drifted(request):
    counts = play_study()
    assert sum(counts.values()) == GAMES
    if request.config.getoption("--update-baseline"):
        write_baseline(counts)
        return
    if not BASELINE.exists():
        pytest.fail(f"no drift baseline at {BASELINE}; create it with: {UPDATE}")
    base = json.loads(BASELINE.read_text(encoding="utf-8"))
    assert base["study"] == {
        "games": GAMES,
        "master_seed": MASTER_SEED,
        "strategies": STRATEGIES,
        "variant": VARIANT,
    }, f"the baseline was made for another study; rewrite it with: {UPDATE}"
    limits = base.get("band", {})
    min_pp, n_se = float(limits.get("min_pp", MIN_PP)), float(limits.get("n_se", N_SE))
    moved = []
    for outcome in OUTCOMES:
        old = base["wins"][outcome] / GAMES
        new = counts[outcome] / GAMES
        tolerance = band(old, GAMES, min_pp, n_se)
        if abs(new - old) > tolerance:
            moved.append(
                f"{outcome}: {100 * old:.1f}% -> {100 * new:.1f}% "
                f"(moved {100 * (new - old):+.1f} pp, band ±{100 * tolerance:.1f} pp)"
            )
    assert not moved, (
        "win rates drifted in the fixed-seed study ("
        + "; ".join(moved)
        + f"). If the engine changed on purpose, rewrite the baseline: {UPDATE}"
    )


@pytest.mark.parametrize(
    ("rate", "expected"),
    [(0.0, MIN_PP), (0.5, N_SE * math.sqrt(0.25 / GAMES)), (0.99, MIN_PP)],
)
def test_band_is_the_wider_of_four_points_and_three_standard_errors(rate, expected):
    assert band(rate, GAMES) == pytest.approx(expected)
