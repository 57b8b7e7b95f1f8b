"""Statistics for balance studies: honest intervals for win rates and paired variant comparisons.

Every function is pure and takes plain sequences, numpy arrays or polars Series. Two variants
compared with the paired functions must be aligned by game index (common random numbers, see
``simulate.seeds``), so that element ``i`` of both inputs came from the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

import numpy as np

from simulate.analysis.terms import TIE, default_seats

EXACT_MCNEMAR_BELOW = 25  # discordant pairs under which McNemar uses the exact binomial test
_BOOT_CELLS = 4_000_000  # bootstrap index draws held in memory at once


def _check_confidence(confidence: float) -> float:
    """The alpha of a confidence level, after checking it lies in (0, 1)."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return 1.0 - confidence


def _as_float_array(x: Iterable[float]) -> np.ndarray:
    """A 1-d float array from any array-like (list, numpy array, polars Series)."""
    arr = np.asarray(x if hasattr(x, "__array__") else list(x), dtype=float)
    if arr.ndim != 1:
        raise ValueError("expected a one-dimensional sequence of numbers")
    return arr


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; sound near 0 and 1, unlike Wald.

    With no trials nothing is known, so ``n == 0`` gives (0.0, 1.0). The closed form with the
    standard library's normal quantile: the same bounds as statsmodels' ``proportion_confint``
    (tested), without its one-second import in every ``vsim run``.
    """
    alpha = _check_confidence(confidence)
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    z = NormalDist().inv_cdf(1 - alpha / 2)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # The exact bounds at 0/n and n/n are 0 and 1; snap away floating-point dust there.
    low = 0.0 if successes == 0 else min(max(centre - half, 0.0), p)
    high = 1.0 if successes == n else max(min(centre + half, 1.0), p)
    return (low, high)


def clopper_pearson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Clopper-Pearson (exact) interval for a binomial proportion (statsmodels' ``beta``
    method): each bound is an exact one-sided test at (1 - confidence) / 2, so a test built on
    it never exceeds its level, unlike Wilson's. ``n == 0`` gives (0.0, 1.0)."""
    alpha = _check_confidence(confidence)
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got successes={successes}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=alpha, method="beta")
    low = 0.0 if successes == 0 else float(low)
    high = 1.0 if successes == n else float(high)
    return (low, high)


def goodman_intervals(
    counts: Mapping[Any, int] | Sequence[int], confidence: float = 0.95
) -> dict[Any, tuple[float, float]]:
    """Goodman (1965) simultaneous intervals for multinomial shares: all hold jointly at ``confidence``.

    Keys are the mapping's labels, or positions 0..k-1 for a plain sequence of counts. Zero
    cells are fine (their interval starts at 0). Fallbacks: no observations gives (0, 1) per
    cell; a single category is certain, (1, 1).
    """
    alpha = _check_confidence(confidence)
    if isinstance(counts, Mapping):
        labels = list(counts.keys())
        values = [int(counts[k]) for k in labels]
    else:
        values = [int(c) for c in counts]
        labels = list(range(len(values)))
    if not values:
        raise ValueError("goodman_intervals needs at least one category")
    if any(v < 0 for v in values):
        raise ValueError("counts must be non-negative")
    total = sum(values)
    if total == 0:
        return {label: (0.0, 1.0) for label in labels}
    if len(values) == 1:
        return {labels[0]: (1.0, 1.0)}
    from statsmodels.stats.proportion import multinomial_proportions_confint

    bounds = multinomial_proportions_confint(values, alpha=alpha, method="goodman")
    bounds = np.clip(np.nan_to_num(bounds, nan=0.0), 0.0, 1.0)
    return {label: (float(lo), float(hi)) for label, (lo, hi) in zip(labels, bounds, strict=True)}


def win_rate_table(
    winners: Iterable[str | None],
    factions: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> list[dict[str, Any]]:
    """One row per seat (``factions``; None: the default game's) plus a "tie" row: wins,
    rate, its Wilson interval, and Goodman bounds.

    Wilson answers "how sure are we of this seat's rate"; Goodman holds for all outcomes
    (seats and ties) at once, which is what "is the game balanced" needs. ``None`` is a tie.
    """
    factions = default_seats() if factions is None else tuple(factions)
    outcomes = list(factions) + [TIE]
    tally = dict.fromkeys(outcomes, 0)
    for w in winners:
        if w is not None and w not in factions:
            raise ValueError(f"unknown winner {w!r}; expected one of {list(factions)} or None")
        tally[TIE if w is None else w] += 1
    n = sum(tally.values())
    goodman = goodman_intervals(tally, confidence)
    rows = []
    for label in outcomes:
        wins = tally[label]
        low, high = wilson_interval(wins, n, confidence)
        rows.append(
            {
                "faction": label,
                "wins": wins,
                "n": n,
                "rate": wins / n if n else math.nan,
                "wilson_low": low,
                "wilson_high": high,
                "goodman_low": goodman[label][0],
                "goodman_high": goodman[label][1],
            }
        )
    return rows


def paired_interval(
    n11: int, n10: int, n01: int, n00: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Newcombe (1998, Stat Med 17:2635, method 10) square-and-add interval for p_b - p_a, paired.

    Combines the Wilson intervals of both rates with the estimated correlation phi of the
    pairs, continuity-corrected as in Newcombe and in Fagerland, Lydersen & Laake (2014).
    Rows of the 2x2 table are variant a (win/not), columns variant b.
    """
    n = n11 + n10 + n01 + n00
    p_a, p_b = (n11 + n10) / n, (n11 + n01) / n
    l_a, u_a = wilson_interval(n11 + n10, n, confidence)
    l_b, u_b = wilson_interval(n11 + n01, n, confidence)
    margins = (n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00)
    phi = 0.0
    if margins > 0:
        cross = n11 * n00 - n10 * n01
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(margins)
        elif cross < 0:
            phi = cross / math.sqrt(margins)
    d_b, d_a = p_b - l_b, u_a - p_a  # how far each rate can fall / rise
    lower = math.sqrt(max(d_b**2 - 2 * phi * d_b * d_a + d_a**2, 0.0))
    e_b, e_a = u_b - p_b, p_a - l_a
    upper = math.sqrt(max(e_b**2 - 2 * phi * e_b * e_a + e_a**2, 0.0))
    diff = p_b - p_a
    return (max(diff - lower, -1.0), min(diff + upper, 1.0))


def paired_win_comparison(
    winners_a: Sequence[str | None],
    winners_b: Sequence[str | None],
    faction: str,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Compare one faction's win rate between variants a and b played on the same seeds.

    diff = rate_b - rate_a with Newcombe's paired square-and-add interval (method 10), and
    McNemar's test of equal rates: exact binomial below 25 discordant pairs, else chi-square
    with continuity correction (``mcnemar_statistic`` is min(b01, b10) when exact, else the
    chi-square). b01 counts games b won and a did not; b10 the reverse; b11 games both won,
    b00 games neither did.
    """
    a, b = list(winners_a), list(winners_b)
    if len(a) != len(b):
        raise ValueError(f"paired inputs differ in length: {len(a)} vs {len(b)}")
    if not a:
        raise ValueError("paired_win_comparison needs at least one paired game")
    _check_confidence(confidence)
    win_a = np.array([w == faction for w in a])
    win_b = np.array([w == faction for w in b])
    n11 = int(np.sum(win_a & win_b))
    n10 = int(np.sum(win_a & ~win_b))
    n01 = int(np.sum(~win_a & win_b))
    n00 = int(np.sum(~win_a & ~win_b))
    n = len(a)
    exact = n01 + n10 < EXACT_MCNEMAR_BELOW
    from statsmodels.stats.contingency_tables import mcnemar

    test = mcnemar([[n11, n10], [n01, n00]], exact=exact, correction=True)
    low, high = paired_interval(n11, n10, n01, n00, confidence)
    return {
        "faction": faction,
        "n": n,
        "rate_a": (n11 + n10) / n,
        "rate_b": (n11 + n01) / n,
        "diff": (n01 - n10) / n,
        "diff_low": low,
        "diff_high": high,
        "b01": n01,
        "b10": n10,
        "b11": n11,
        "b00": n00,
        "mcnemar_method": "exact" if exact else "chi2",
        "mcnemar_statistic": float(test.statistic),
        "p_value": float(test.pvalue),
    }


def _bootstrap_means(d: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Means of ``n_boot`` resamples (with replacement) of ``d``, drawn in memory-bounded chunks."""
    rng = np.random.default_rng(seed)
    n = d.size
    chunk = max(1, _BOOT_CELLS // n)
    out = np.empty(n_boot)
    for start in range(0, n_boot, chunk):
        stop = min(start + chunk, n_boot)
        idx = rng.integers(0, n, size=(stop - start, n))
        out[start:stop] = d[idx].mean(axis=1)
    return out


def paired_mean_difference(
    x_a: Iterable[float],
    x_b: Iterable[float],
    confidence: float = 0.95,
    n_boot: int = 2000,
    seed: int = 0,
) -> dict[str, float]:
    """Mean of b - a over paired games, with a percentile paired-bootstrap interval.

    Also reports what pairing bought: ``variance_reduction`` = 1 - var(b - a) / (var_a + var_b)
    and ``pairing_efficiency`` = (var_a + var_b) / var(b - a), the equivalent sample-size
    multiplier over unpaired games (inf when the differences are constant, nan when nothing varies).
    """
    alpha = _check_confidence(confidence)
    a, b = _as_float_array(x_a), _as_float_array(x_b)
    if a.size != b.size:
        raise ValueError(f"paired inputs differ in length: {a.size} vs {b.size}")
    if a.size < 2:
        raise ValueError("paired_mean_difference needs at least two paired games")
    if n_boot < 1:
        raise ValueError(f"n_boot must be positive, got {n_boot}")
    n = a.size
    d = b - a
    var_a, var_b, var_d = (float(np.var(v, ddof=1)) for v in (a, b, d))
    boot = _bootstrap_means(d, n_boot, seed)
    low, high = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
    unpaired_var = var_a + var_b
    if unpaired_var == 0:
        reduction, efficiency = math.nan, math.nan
    else:
        reduction = 1.0 - var_d / unpaired_var
        efficiency = unpaired_var / var_d if var_d > 0 else math.inf
    return {
        "n": n,
        "mean_a": float(a.mean()),
        "mean_b": float(b.mean()),
        "diff": float(d.mean()),
        "diff_low": float(low),
        "diff_high": float(high),
        "unpaired_se": math.sqrt(unpaired_var / n),
        "paired_se": math.sqrt(var_d / n),
        "variance_reduction": reduction,
        "pairing_efficiency": efficiency,
    }


def pairing_correlation(
    winners_a: Sequence[str | None],
    winners_b: Sequence[str | None],
    factions: Sequence[str] | None = None,
    confidence: float = 0.95,
) -> dict[str, float]:
    """Per-game correlation (phi) of "F won" between two variants on common seeds, per
    seat (``factions``; None: the default game's), with the mean, ``low`` (the smallest
    one-sided lower bound, by Fisher's z) and ``n``: the ``rho`` a paired study of these variants can count on (``games_needed``)."""
    a, b = list(winners_a), list(winners_b)
    if len(a) != len(b):
        raise ValueError(f"paired inputs differ in length: {len(a)} vs {len(b)}")
    n = len(a)
    if n < 4:
        raise ValueError(f"a pairing correlation needs at least 4 paired games, got {n}")
    alpha = _check_confidence(confidence)
    factions = default_seats() if factions is None else tuple(factions)
    z = NormalDist().inv_cdf(1 - alpha)
    out: dict[str, float] = {"n": n}
    lows = []
    for f in factions:
        x = np.array([w == f for w in a], dtype=float)
        y = np.array([w == f for w in b], dtype=float)
        if x.std() == 0 or y.std() == 0:
            rho = 0.0
        else:
            rho = float(np.corrcoef(x, y)[0, 1])
        out[f] = rho
        clipped = min(max(rho, -0.99), 0.99)  # a pilot where all pairs agree is not rho = 1
        lows.append(math.tanh(math.atanh(clipped) - z / math.sqrt(n - 3)))
    out["mean"] = float(np.mean([out[f] for f in factions]))
    out["low"] = float(min(lows))
    return out


def games_needed(
    delta: float,
    p0: float | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    paired_rho: float | None = None,
) -> int:
    """Games per variant to detect a win-rate change p0 -> p0 + delta (two-sided test);
    ``p0`` None: parity, 1/n for the default game's n seats.

    Unpaired: the normal approximation on Cohen's arcsine scale (what statsmodels'
    NormalIndPower solves), n = 2 * ((z_{1-alpha/2} + z_power) / h)^2 with
    h = proportion_effectsize(p0 + delta, p0). On that scale each rate has variance 1/(4n), so
    with common seeds and per-game correlation rho the difference's variance is (1 - rho) times
    smaller: n_paired = ceil(n_unpaired * (1 - rho)).
    """
    if p0 is None:
        p0 = 1 / len(default_seats())
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must be in (0, 1), got {delta}")
    if not 0.0 < p0 < 1.0:
        raise ValueError(f"p0 must be in (0, 1), got {p0}")
    if p0 + delta > 1.0:
        raise ValueError(f"p0 + delta must be <= 1, got {p0 + delta}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be in (0, 1), got {power}")
    if paired_rho is not None and not 0.0 <= paired_rho < 1.0:
        raise ValueError(f"paired_rho must be in [0, 1), got {paired_rho}")
    from scipy import stats as sps
    from statsmodels.stats.proportion import proportion_effectsize

    h = float(proportion_effectsize(p0 + delta, p0))
    z = sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)
    n_unpaired = math.ceil(2.0 * (z / h) ** 2)
    if paired_rho is None:
        return n_unpaired
    return max(1, math.ceil(n_unpaired * (1.0 - paired_rho) - 1e-9))


def mean_interval(x: Iterable[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Sample mean with its Student-t interval, e.g. the mean score of one seat.

    A single value carries no spread, so its interval is (-inf, inf).
    """
    alpha = _check_confidence(confidence)
    arr = _as_float_array(x)
    if arr.size == 0:
        raise ValueError("mean_interval needs at least one value")
    mean = float(arr.mean())
    if arr.size == 1:
        return (mean, -math.inf, math.inf)
    from scipy import stats as sps

    half = float(sps.t.ppf(1 - alpha / 2, arr.size - 1)) * float(
        np.std(arr, ddof=1) / math.sqrt(arr.size)
    )
    return (mean, mean - half, mean + half)


def stuart_maxwell(
    win_a: Sequence[str], win_b: Sequence[str], outcomes: Sequence[str] | None = None
) -> dict[str, float]:
    """One test across all outcomes (each seat and the tie; ``outcomes`` None: the default
    game's, and any other label met) of two paired sides: Stuart-Maxwell's test of marginal
    homogeneity on the paired winner table (statsmodels).

    An outcome with no discordant game (every game it won under one side it won under the
    other) carries no information on a change and would make the covariance singular: it is
    left out, as the standard treatment does, and the test runs on the outcomes that remain
    (df one less than their number). With fewer than two left nothing changed (p = 1). Should
    the covariance still be singular (discordances in separate groups of outcomes), its
    pseudo-inverse is used with its rank as df."""
    import numpy as np
    from statsmodels.stats.contingency_tables import SquareTable

    if outcomes is None:
        seen = dict.fromkeys((*win_a, *win_b))
        base = (*default_seats(), TIE)
        outcomes = (*base, *(o for o in seen if o not in base))
    outcomes = tuple(outcomes)
    index = {o: i for i, o in enumerate(outcomes)}
    table = np.zeros((len(outcomes), len(outcomes)))
    for x, y in zip(win_a, win_b, strict=True):
        table[index[x], index[y]] += 1
    off = table - np.diag(np.diag(table))
    kept = [i for i in range(len(outcomes)) if off[i].sum() + off[:, i].sum() > 0]
    if len(kept) < 2:
        return {"statistic": 0.0, "df": 0.0, "p_value": 1.0, "outcomes": []}
    table = table[np.ix_(kept, kept)]
    names = [outcomes[i] for i in kept]
    statistic, df = _pseudo_inverse_statistic(table)
    if df == len(kept) - 1:  # a covariance of full rank: statsmodels' test
        result = SquareTable(table, shift_zeros=False).homogeneity()
        statistic, df = float(result.statistic), float(result.df)
    from scipy.stats import chi2

    return {
        "statistic": statistic,
        "df": df,
        "p_value": float(chi2.sf(statistic, df)) if df > 0 else 1.0,
        "outcomes": names,
    }


def _pseudo_inverse_statistic(table: Any) -> tuple[float, float]:
    """Stuart-Maxwell's statistic with the covariance's pseudo-inverse, and its rank (df)."""
    import numpy as np

    n = table.sum()
    pr = table / n
    d = (pr.sum(0) - pr.sum(1))[:-1]
    vmat = -(pr + pr.T)[:-1, :-1]
    np.fill_diagonal(vmat, (pr.sum(0) + pr.sum(1) - 2 * np.diag(pr))[:-1])
    return float(n * d @ np.linalg.pinv(vmat) @ d), float(np.linalg.matrix_rank(vmat))
