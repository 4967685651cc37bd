"""sim.lab.stats: each named method against a value from a published table or worked by hand."""
import math

import numpy as np
import pytest

from sim.lab import stats


@pytest.mark.parametrize("k,n,low,high", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat. Med.
    # 17:857, Table II, method 3 (Wilson score, no continuity correction)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_newcombe_table(k, n, low, high):
    lo, hi = stats.wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


def test_wilson_interval_by_hand():
    """0 of n: the upper bound is z^2 / (n + z^2) (Wilson's formula with p = 0)."""
    z2 = 1.959963984540054 ** 2
    assert stats.wilson_interval(0, 20) == pytest.approx((0.0, z2 / (20 + z2)))
    assert all(math.isnan(x) for x in stats.wilson_interval(0, 0))


def test_newcombe_paired_interval_matches_published_example():
    """Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8:
    complete response before/after consolidation therapy (Cavo et al. 2012), table
    [[59, 6], [16, 80]]: Newcombe square-and-add estimate -0.0621, 95% CI -0.1186 to -0.0046."""
    lo, hi = stats.newcombe_paired_interval(59, 6, 16, 80)
    assert (lo, hi) == pytest.approx((-0.1186, -0.0046), abs=5e-5)
    a = np.array([1] * 59 + [1] * 6 + [0] * 16 + [0] * 80, bool)
    b = np.array([1] * 59 + [0] * 6 + [1] * 16 + [0] * 80, bool)
    d = stats.paired_proportion_difference(a, b)
    assert d.difference == pytest.approx(-10 / 161)
    assert (d.both, d.a_only, d.b_only, d.neither) == (59, 6, 16, 80)
    assert (d.low, d.high) == pytest.approx((lo, hi))


@pytest.mark.parametrize("k1, n1, k2, n2, low, high", [
    (56, 70, 48, 80, 0.0524, 0.3339), (9, 10, 3, 10, 0.1705, 0.8090),
    (6, 7, 2, 7, 0.0582, 0.8062)])
def test_newcombe_independent_matches_published_table(k1, n1, k2, n2, low, high):
    """Newcombe (1998), Stat. Med. 17:873, table II, method 10 (hybrid score, independent)."""
    d, lo, hi = stats.newcombe_independent(k1, n1, k2, n2)
    assert d == pytest.approx(k1 / n1 - k2 / n2)
    assert (lo, hi) == pytest.approx((low, high), abs=5e-5)


def test_newcombe_identical_outcomes():
    """No discordant game: difference exactly 0, an interval around it, symmetric."""
    a = np.array([True] * 30 + [False] * 70)
    d = stats.paired_proportion_difference(a, a)
    assert d.difference == 0.0 and d.a_only == d.b_only == 0
    assert d.low < 0 < d.high and d.low == pytest.approx(-d.high)


def test_mcnemar_exact_by_hand():
    """1 vs 8 discordant: two-sided binomial p = 2 * (C(9,0) + C(9,1)) / 2^9 = 20/512."""
    assert stats.mcnemar_exact(1, 8) == pytest.approx(20 / 512)
    assert stats.mcnemar_exact(8, 1) == pytest.approx(20 / 512)
    assert stats.mcnemar_exact(0, 0) == 1.0
    assert stats.mcnemar_exact(5, 5) == 1.0


def test_paired_mean_difference_by_hand():
    """Differences 1..5: mean 3, sd sqrt(2.5), se sqrt(0.5); t(0.975, 4) = 2.776 (t table)."""
    r = stats.paired_mean_difference([1, 2, 3, 4, 5], [0, 0, 0, 0, 0])
    half = 2.7764451051977987 * math.sqrt(0.5)
    assert r.difference == 3.0 and r.n == 5
    assert (r.low, r.high) == pytest.approx((3 - half, 3 + half))
    # paired t statistic 3 / sqrt(0.5) = 4.243 on 4 df: two-sided p = 0.01324
    assert r.p_value == pytest.approx(0.013236, abs=1e-5)


def test_paired_mean_difference_identical():
    r = stats.paired_mean_difference([3, -1, 7], [3, -1, 7])
    assert (r.difference, r.low, r.high, r.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_holm_by_hand():
    """Sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03, 0.06, 0.04 -> running max 0.03, 0.06, 0.06."""
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert stats.holm([0.02]) == pytest.approx([0.02])
