"""Named statistical methods for comparing policies: thin wrappers over scipy.

Every function says which method it is; tests/test_lab_stats.py checks each one against a
value worked out by hand or taken from a published table.

* ``wilson_interval``: Wilson score interval of one proportion (scipy.stats.binomtest).
* ``paired_proportion_difference``: difference of two proportions measured on the same games,
  with Newcombe's hybrid score interval for paired data (Newcombe 1998, Stat. Med. 17:2635,
  method 10, no continuity correction), built from the two Wilson intervals.
* ``mcnemar_exact``: McNemar's exact test, a two-sided binomial test (p = 1/2) on the
  discordant pairs (scipy.stats.binomtest).
* ``paired_mean_difference``: mean of per-game differences with its Student t interval and
  the paired t-test (scipy.stats.ttest_rel).
* ``holm``: Holm's step-down adjustment of p-values (family-wise error rate); scipy has only
  Benjamini-Hochberg (false_discovery_control), so these few lines are written out here.
* ``rate_with_interval``: k/n with its Wilson interval (nan for n = 0).
* ``two_proportion_p``: the two-sided pooled two-proportion z-test (independent samples).
* ``newcombe_independent``: difference of two proportions from independent samples with
  Newcombe's hybrid score interval (Newcombe 1998, Stat. Med. 17:873, method 10).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

CONFIDENCE = 0.95


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` (nan, nan when n == 0)."""
    if n == 0:
        return (math.nan, math.nan)
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def rate_with_interval(k, n) -> tuple[float, float, float]:
    """k/n with its 95% Wilson interval (nan for n = 0)."""
    lo, hi = wilson_interval(int(k), int(n))
    return (k / n if n else math.nan, lo, hi)


def two_proportion_p(k1, n1, k2, n2) -> float:
    """Two-sided pooled two-proportion z-test of k1/n1 = k2/n2 (nan if a sample is empty)."""
    if min(n1, n2) == 0:
        return math.nan
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return float(2 * stats.norm.sf(abs(k1 / n1 - k2 / n2) / se)) if se else 1.0


def newcombe_independent(k1, n1, k2, n2) -> tuple[float, float, float]:
    """k1/n1 - k2/n2 with Newcombe's hybrid score interval for independent samples (method
    10 of Newcombe 1998, Stat. Med. 17:873), from the two 95% Wilson intervals."""
    p1, l1, u1 = rate_with_interval(k1, n1)
    p2, l2, u2 = rate_with_interval(k2, n2)
    d = p1 - p2
    return d, d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


@dataclass(frozen=True)
class PairedDifference:
    """p_a - p_b on the same n games, its interval, and the 2x2 table of outcomes."""
    difference: float
    low: float
    high: float
    both: int           # a and b succeeded
    a_only: int         # a succeeded, b failed (discordant)
    b_only: int         # b succeeded, a failed (discordant)
    neither: int
    method: str = "Newcombe hybrid score (paired, method 10)"


def paired_proportion_difference(a, b, confidence: float = CONFIDENCE) -> PairedDifference:
    """Difference of success rates of ``a`` and ``b`` (boolean arrays, one entry per game,
    the same games) with Newcombe's hybrid score interval for paired proportions."""
    a, b = np.asarray(a, dtype=bool), np.asarray(b, dtype=bool)
    if a.shape != b.shape:
        raise ValueError("paired outcomes must have the same length")
    both, a_only, b_only = (int(np.sum(x)) for x in (a & b, a & ~b, ~a & b))
    neither = int(a.size - both - a_only - b_only)
    low, high = newcombe_paired_interval(both, a_only, b_only, neither, confidence)
    n = max(a.size, 1)
    return PairedDifference((a_only - b_only) / n, low, high, both, a_only, b_only, neither)


def newcombe_paired_interval(both: int, a_only: int, b_only: int, neither: int,
                             confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Newcombe (1998) method 10 for p_a - p_b from the paired 2x2 table
    (a = both, b = a_only, c = b_only, d = neither in Newcombe's notation)."""
    n = both + a_only + b_only + neither
    if n == 0:
        return (math.nan, math.nan)
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = wilson_interval(both + a_only, n, confidence)
    l2, u2 = wilson_interval(both + b_only, n, confidence)
    denom = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    cross = both * neither - a_only * b_only       # Newcombe's corrected phi (ad - bc - n/2)
    phi = (0.0 if denom == 0 or 0 <= cross <= n / 2
           else (cross - n / 2 if cross > 0 else cross) / math.sqrt(denom))
    d = p1 - p2
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    eps = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (max(-1.0, d - delta), min(1.0, d + eps))


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """McNemar's exact two-sided p-value from the discordant counts (1.0 when both are 0)."""
    discordant = int(a_only) + int(b_only)
    return float(stats.binomtest(int(a_only), discordant, 0.5).pvalue) if discordant else 1.0


@dataclass(frozen=True)
class MeanDifference:
    """Mean of a - b over paired observations, its t interval and the paired t-test p."""
    difference: float
    low: float
    high: float
    p_value: float
    n: int
    method: str = "paired t (Student t interval on per-game differences)"


def paired_mean_difference(a, b, confidence: float = CONFIDENCE) -> MeanDifference:
    """Paired mean difference of ``a`` and ``b`` (numbers per game, the same games)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError("paired outcomes must have the same length")
    diff = a - b
    n = diff.size
    mean = float(diff.mean()) if n else math.nan
    if n < 2:
        return MeanDifference(mean, math.nan, math.nan, math.nan, n)
    if np.all(diff == diff[0]):        # no spread: the difference is known exactly
        return MeanDifference(mean, mean, mean, 1.0 if mean == 0 else 0.0, n)
    res = stats.ttest_rel(a, b)
    ci = res.confidence_interval(confidence)
    return MeanDifference(mean, float(ci.low), float(ci.high), float(res.pvalue), n)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (same order as given)."""
    p = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    out = np.empty(p.size)
    out[order] = np.minimum(1.0, np.maximum.accumulate((p.size - np.arange(p.size)) * p[order]))
    return out
