"""Tests for simulate.stats: reference values computed by hand from the textbook formulas."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simulate.analysis import stats

Z95 = NormalDist().inv_cdf(0.975)


def wilson_by_hand(x: int, n: int, z: float) -> tuple[float, float]:
    """Wilson (1927): (x + z²/2 ± z·sqrt(x(n-x)/n + z²/4)) / (n + z²)."""
    centre = (x + z * z / 2) / (n + z * z)
    half = z * math.sqrt(x * (n - x) / n + z * z / 4) / (n + z * z)
    return (centre - half, centre + half)


# --- wilson_interval ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "expected"),
    [(0, (0.0, 0.27753)), (5, (0.23659, 0.76341)), (10, (0.72247, 1.0))],
)
def test_wilson_matches_hand_formula_for_0_5_10_of_10(x, expected):
    low, high = stats.wilson_interval(x, 10)
    assert (low, high) == pytest.approx(wilson_by_hand(x, 10, Z95), abs=1e-12)
    assert (low, high) == pytest.approx(expected, abs=1e-5)


def test_wilson_is_exactly_0_and_1_at_the_extremes():
    assert stats.wilson_interval(0, 10)[0] == 0.0
    assert stats.wilson_interval(10, 10)[1] == 1.0


def test_wilson_with_no_games_is_uninformative():
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_narrows_at_lower_confidence():
    low90, high90 = stats.wilson_interval(5, 10, confidence=0.90)
    z90 = NormalDist().inv_cdf(0.95)
    assert (low90, high90) == pytest.approx(wilson_by_hand(5, 10, z90), abs=1e-12)
    assert high90 - low90 < 0.76341 - 0.23659


@pytest.mark.parametrize(("x", "n", "conf"), [(-1, 10, 0.95), (11, 10, 0.95), (5, 10, 1.0)])
def test_wilson_rejects_impossible_inputs(x, n, conf):
    with pytest.raises(ValueError):
        stats.wilson_interval(x, n, conf)


@given(
    st.integers(min_value=1, max_value=100_000).flatmap(
        lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n))
    ),
    st.floats(min_value=0.5, max_value=0.999),
)
def test_wilson_always_contains_the_sample_proportion_within_0_1(xn, confidence):
    x, n = xn
    low, high = stats.wilson_interval(x, n, confidence)
    assert 0.0 <= low <= x / n <= high <= 1.0


# --- goodman_intervals -------------------------------------------------------------------------


def test_goodman_is_wilson_at_a_bonferroni_level():
    # Goodman (1965): each cell is a Wilson interval with z² = chi²₁(1 - alpha/k).
    counts = {"DS": 50, "BK": 30, "VE": 20}
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * 3))
    got = stats.goodman_intervals(counts)
    for label, c in counts.items():
        assert got[label] == pytest.approx(wilson_by_hand(c, 100, z), abs=1e-9)


def test_goodman_contains_estimates_and_is_wider_than_wilson():
    counts = {"DS": 50, "BK": 30, "VE": 20}
    got = stats.goodman_intervals(counts)
    for label, c in counts.items():
        low, high = got[label]
        w_low, w_high = stats.wilson_interval(c, 100)
        assert low <= c / 100 <= high
        assert low < w_low and high > w_high


def test_goodman_handles_a_zero_cell():
    got = stats.goodman_intervals([7, 0, 3])
    assert set(got) == {0, 1, 2}
    assert got[1][0] == 0.0
    assert 0.0 < got[1][1] < 1.0


def test_goodman_with_no_observations_is_uninformative():
    assert stats.goodman_intervals({"DS": 0, "BK": 0}) == {"DS": (0.0, 1.0), "BK": (0.0, 1.0)}


def test_goodman_single_category_is_certain():
    assert stats.goodman_intervals({"DS": 4}) == {"DS": (1.0, 1.0)}


# --- win_rate_table ----------------------------------------------------------------------------


def test_win_rate_table_counts_rates_and_ties():
    winners = ["DS"] * 5 + ["BK"] * 3 + ["VE"] + [None]
    rows = {r["faction"]: r for r in stats.win_rate_table(winners)}
    assert list(rows) == ["DS", "BK", "VE", "tie"]
    assert [rows[f]["wins"] for f in rows] == [5, 3, 1, 1]
    assert all(r["n"] == 10 for r in rows.values())
    assert rows["DS"]["rate"] == 0.5
    assert (rows["DS"]["wilson_low"], rows["DS"]["wilson_high"]) == pytest.approx(
        (0.23659, 0.76341), abs=1e-5
    )
    for r in rows.values():
        assert r["goodman_low"] < r["wilson_low"] <= r["rate"] <= r["wilson_high"]
        assert r["wilson_high"] < r["goodman_high"]


def test_win_rate_table_accepts_a_polars_series_with_nulls():
    rows = stats.win_rate_table(pl.Series(["VE", None, "VE"]))
    by = {r["faction"]: r["wins"] for r in rows}
    assert by == {"DS": 0, "BK": 0, "VE": 2, "tie": 1}


def test_win_rate_table_rejects_unknown_winner():
    with pytest.raises(ValueError):
        stats.win_rate_table(["DS", "Mongols"])


# --- paired_win_comparison ---------------------------------------------------------------------


def paired_winners(n11: int, n10: int, n01: int, n00: int) -> tuple[list, list]:
    """Two aligned winner lists whose DS 2x2 table (rows a, columns b) is the one given."""
    a = ["DS"] * (n11 + n10) + ["BK"] * n01 + ["VE"] * n00
    b = ["DS"] * n11 + [None] * n10 + ["DS"] * n01 + ["VE"] * n00
    return a, b


def test_paired_interval_matches_fagerland_newcombe_example():
    # Cavo et al. (2012) in Fagerland, Lydersen & Laake (2017), ch. 8: Newcombe square-and-add
    # gives -0.0621 (-0.1186 to -0.0046) for p1+ - p+1; our diff is the reverse sign.
    a, b = paired_winners(59, 6, 16, 80)
    out = stats.paired_win_comparison(a, b, "DS")
    assert out["n"] == 161
    assert out["diff"] == pytest.approx(10 / 161)
    assert out["diff_low"] == pytest.approx(0.0046, abs=5e-5)
    assert out["diff_high"] == pytest.approx(0.1186, abs=5e-5)


def test_the_paired_interval_is_public_and_the_comparison_carries_all_four_cells():
    a, b = paired_winners(59, 6, 16, 80)
    out = stats.paired_win_comparison(a, b, "DS")
    assert (out["b11"], out["b10"], out["b01"], out["b00"]) == (59, 6, 16, 80)
    assert stats.paired_interval(59, 6, 16, 80, 0.95) == (out["diff_low"], out["diff_high"])
    narrow = stats.paired_interval(59, 6, 16, 80, 0.9)
    assert out["diff_low"] < narrow[0] < narrow[1] < out["diff_high"]


@pytest.mark.parametrize(("k", "n"), [(0, 10), (3, 10), (10, 10), (624, 1947), (1, 2)])
def test_clopper_pearson_is_the_exact_binomial_interval(k, n):
    from scipy.stats import binomtest

    exact = binomtest(k, n).proportion_ci(0.9, method="exact")
    assert stats.clopper_pearson(k, n, 0.9) == pytest.approx((exact.low, exact.high), abs=1e-9)


def test_clopper_pearson_with_no_games_is_uninformative():
    assert stats.clopper_pearson(0, 0) == (0.0, 1.0)


def test_mcnemar_exact_on_few_discordant_pairs():
    # b01 = 1, b10 = 9: exact two-sided binomial p = 2 * (C(10,0) + C(10,1)) / 2^10 = 22/1024.
    a, b = paired_winners(5, 9, 1, 5)
    out = stats.paired_win_comparison(a, b, "DS")
    assert (out["b01"], out["b10"]) == (1, 9)
    assert out["mcnemar_method"] == "exact"
    assert out["p_value"] == pytest.approx(22 / 1024, rel=1e-12)
    assert out["rate_a"] == pytest.approx(14 / 20)
    assert out["rate_b"] == pytest.approx(6 / 20)
    assert out["diff"] == pytest.approx(-8 / 20)


def test_mcnemar_chi_square_with_continuity_from_25_discordant_pairs():
    # b01 = 10, b10 = 20: X² = (|10 - 20| - 1)² / 30 = 2.7; chi²₁ tail = erfc(sqrt(2.7 / 2)).
    a, b = paired_winners(5, 20, 10, 5)
    out = stats.paired_win_comparison(a, b, "DS")
    assert out["mcnemar_method"] == "chi2"
    assert out["mcnemar_statistic"] == pytest.approx(2.7)
    assert out["p_value"] == pytest.approx(math.erfc(math.sqrt(1.35)), rel=1e-9)


def test_paired_comparison_of_identical_runs_has_no_difference():
    a = ["DS", "BK", "VE", None, "DS"] * 4
    out = stats.paired_win_comparison(a, a, "DS")
    assert out["diff"] == 0.0
    assert out["p_value"] == 1.0
    assert out["diff_low"] < 0.0 < out["diff_high"]


def test_paired_comparison_rejects_misaligned_inputs():
    with pytest.raises(ValueError):
        stats.paired_win_comparison(["DS"], ["DS", "BK"], "DS")


# --- paired_mean_difference --------------------------------------------------------------------


def test_paired_bootstrap_on_perfectly_correlated_data_is_tight():
    x = np.random.default_rng(1).normal(10.0, 3.0, size=400)
    out = stats.paired_mean_difference(x, x + 2.0, seed=7)
    assert out["diff"] == pytest.approx(2.0)
    assert out["diff_high"] - out["diff_low"] < 1e-9
    assert out["variance_reduction"] == pytest.approx(1.0, abs=1e-9)
    assert out["paired_se"] < 1e-9 < out["unpaired_se"]


def test_paired_bootstrap_on_independent_data_buys_nothing():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=4000), rng.normal(size=4000)
    out = stats.paired_mean_difference(x, y, seed=3)
    assert abs(out["variance_reduction"]) < 0.05
    assert out["pairing_efficiency"] == pytest.approx(1.0, abs=0.06)
    assert out["diff_low"] < out["diff"] < out["diff_high"]
    # The percentile interval is close to the normal one, diff ± 1.96 * paired_se.
    assert out["diff_high"] - out["diff_low"] == pytest.approx(2 * Z95 * out["paired_se"], rel=0.1)


def test_paired_bootstrap_half_shared_noise_halves_the_variance():
    rng = np.random.default_rng(4)
    shared = rng.normal(size=5000)
    a = shared + rng.normal(size=5000)
    b = shared + rng.normal(size=5000)
    out = stats.paired_mean_difference(a, b)
    assert out["variance_reduction"] == pytest.approx(0.5, abs=0.05)
    assert out["pairing_efficiency"] == pytest.approx(2.0, rel=0.1)


def test_paired_bootstrap_is_deterministic_for_a_seed():
    rng = np.random.default_rng(5)
    a, b = rng.normal(size=50), rng.normal(size=50)
    first = stats.paired_mean_difference(a, b, seed=11)
    assert stats.paired_mean_difference(a, b, seed=11) == first
    assert stats.paired_mean_difference(a, b, seed=12)["diff_low"] != first["diff_low"]


def test_paired_mean_difference_rejects_misaligned_inputs():
    with pytest.raises(ValueError):
        stats.paired_mean_difference([1.0, 2.0, 3.0], [1.0, 2.0])


# --- games_needed ------------------------------------------------------------------------------


def test_games_needed_matches_hand_computation_for_a_five_point_change():
    # Cohen's h = 2 asin sqrt(p1) - 2 asin sqrt(p0); n = 2 ((z_.975 + z_.80) / h)².
    h = 2 * math.asin(math.sqrt(1 / 3 + 0.05)) - 2 * math.asin(math.sqrt(1 / 3))
    z = Z95 + NormalDist().inv_cdf(0.8)
    expected = math.ceil(2 * (z / h) ** 2)
    assert expected == 1443
    assert stats.games_needed(0.05) == expected


def test_games_needed_grows_as_delta_shrinks():
    ns = [stats.games_needed(d) for d in (0.2, 0.1, 0.05, 0.02)]
    assert ns == sorted(ns) and len(set(ns)) == 4


def test_games_needed_with_rho_one_half_halves_it():
    unpaired = stats.games_needed(0.05)
    assert stats.games_needed(0.05, paired_rho=0.5) == math.ceil(unpaired / 2) == 722
    assert stats.games_needed(0.05, paired_rho=0.0) == unpaired


@pytest.mark.parametrize(
    "kwargs",
    [
        {"delta": 0.0},
        {"delta": 1.0},
        {"delta": -0.1},
        {"delta": 0.1, "p0": 0.0},
        {"delta": 0.1, "p0": 1.0},
        {"delta": 0.5, "p0": 0.6},
        {"delta": 0.1, "paired_rho": 1.0},
        {"delta": 0.1, "paired_rho": -0.1},
        {"delta": 0.1, "alpha": 0.0},
        {"delta": 0.1, "power": 1.0},
    ],
)
def test_games_needed_rejects_invalid_inputs(kwargs):
    with pytest.raises(ValueError):
        stats.games_needed(**kwargs)


# --- mean_interval -----------------------------------------------------------------------------


def test_mean_interval_is_the_student_t_interval():
    # mean 2.5, sd sqrt(5/3), t_{0.975, 3} = 3.182446305284263.
    mean, low, high = stats.mean_interval([1, 2, 3, 4])
    half = 3.182446305284263 * math.sqrt(5 / 3) / 2
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half), abs=1e-12)


def test_mean_interval_of_constant_values_has_zero_width():
    assert stats.mean_interval(pl.Series([7.0, 7.0, 7.0])) == (7.0, 7.0, 7.0)


def test_mean_interval_of_one_value_is_unbounded():
    assert stats.mean_interval([3.0]) == (3.0, -math.inf, math.inf)
