"""Where a swept card is as hard as the median pirate (or gives a target win rate), with a
95% interval from a Poisson bootstrap over games (sim.lab.balance ``sweep``).

The crossing is the first sign change of a gap between adjacent values, linearly interpolated;
the gap is, per value, the pirate's beaten-when-faced rate minus the median other pirate's
(R9.1: both fights counted), or the win rate minus the target.  Each bootstrap replicate
weighs every game with a Poisson(1) draw, the same weights for every value (the values were
played on the same deals: the pairing is kept).  The replicates are computed a block at a time
as matrix products over the games' fights, with the very draws and sums of the plain per-game
counts (``Games.counts(w)``), so the numbers equal those of one replicate at a time.
"""
from __future__ import annotations

import warnings

import numpy as np

from sim import cards as C

FIRST_PIRATE = C.PIRATE_IDS[0]
N_PIRATES = len(C.PIRATE_IDS)
BOOTSTRAP_BLOCK = 1 << 21        # bootstrap game weights drawn and multiplied at a time


def beaten_rates(c: dict) -> np.ndarray:
    """Beaten-when-faced rate (first and second fights together) of each pirate, from
    ``Games.counts``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return c["beaten"] / c["faced"]


def median_other(rates: np.ndarray, i: int) -> float:
    """The median beaten-when-faced rate of the other pirates (nan if none was faced)."""
    others = np.delete(rates, i)
    others = others[~np.isnan(others)]
    return float(np.median(others)) if len(others) else np.nan


def _gap(runs, card, target_rate) -> np.ndarray:
    """What the interpolation sets to zero, per value: the pirate's beaten-when-faced rate
    minus the median other pirate's, or the win rate minus ``target_rate``."""
    if target_rate is not None:
        return np.array([g.won.mean() - target_rate for g in runs])
    i = card - FIRST_PIRATE
    return np.array([r[i] - median_other(r, i) for r in (beaten_rates(g.counts()) for g in runs)])


def _fights(g):
    """The games' pirate fights as a sparse games x 20 matrix: per pirate, faced (first and
    second fights, R9.1), then beaten; game weights times it are ``g.counts(w)``'s faced and
    beaten, for many replicates at once."""
    from scipy.sparse import csr_matrix
    parts = ((g.faced, g.first, 0), (g.beaten_first, g.second, 0),
             (g.beaten_first, g.first, N_PIRATES), (g.beaten_second, g.second, N_PIRATES))
    rows = np.concatenate([np.flatnonzero(mask) for mask, _, _ in parts])
    cols = np.concatenate([who[mask].astype(np.int64) + off for mask, who, off in parts])
    return csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(g), 2 * N_PIRATES))


def _boot_gaps(runs, fights, card, target_rate, W) -> np.ndarray:
    """``_gap`` under each row of game weights ``W`` (replicates x games): replicates x
    values; the weighted counts are whole numbers, summed exactly as ``g.counts(w)`` does."""
    if target_rate is not None:
        total = W.sum(axis=1)
        return np.column_stack([W @ g.won.astype(np.float64) / total - target_rate
                                for g in runs])
    i, out = card - FIRST_PIRATE, []
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)          # a replicate with no fight
        for m in fights:
            c = np.asarray((m.T @ W.T).T)                        # faced, then beaten
            rates = c[:, N_PIRATES:] / c[:, :N_PIRATES]
            out.append(rates[:, i] - np.nanmedian(np.delete(rates, i, axis=1), axis=1))
    return np.column_stack(out)


def _weights(rng, replicates: int, games: int):
    """Poisson(1) game weights, one row per replicate, a block of rows at a time (at most
    about BOOTSTRAP_BLOCK numbers): the very draws of one ``rng.poisson(1.0, games)`` per
    replicate in turn."""
    per = max(1, BOOTSTRAP_BLOCK // max(games, 1))
    for start in range(0, replicates, per):
        yield rng.poisson(1.0, (min(per, replicates - start), games)).astype(np.float64)


def _interpolate(values, gap) -> float:
    """The first value where ``gap`` changes sign, linearly interpolated (nan if none)."""
    for k in range(len(values) - 1):
        y0, y1 = gap[k], gap[k + 1]
        if np.isnan(y0) or np.isnan(y1):
            continue
        if y0 == 0:
            return float(values[k])
        if y0 * y1 < 0:
            return float(values[k] + (values[k + 1] - values[k]) * y0 / (y0 - y1))
    return float(values[-1]) if gap[-1] == 0 else np.nan


def crossing(runs, values, card, is_pirate, target_rate, bootstrap, seed) -> dict:
    """The crossing value and its bootstrap interval: every replicate's weights are shared by
    all values (the pairing kept), and replicates are computed a block at a time as matrix
    products, a small part of the time the games took (after Ctrl-C too: the report of the
    finished games follows at once)."""
    if target_rate is None and not is_pirate:
        return {"what": None, "value": np.nan, "lo": np.nan, "hi": np.nan}
    what = (f"win rate = {target_rate:.2%}" if target_rate is not None
            else "beaten when faced = median other pirate")
    fights = None if target_rate is not None else [_fights(g) for g in runs]
    rng = np.random.default_rng(seed)
    boots = np.array([_interpolate(values, gap)
                      for W in _weights(rng, int(bootstrap), len(runs[0]))
                      for gap in _boot_gaps(runs, fights, card, target_rate, W)])
    ok = boots[~np.isnan(boots)]
    lo, hi = (np.percentile(ok, [2.5, 97.5]) if len(ok) else (np.nan, np.nan))
    return {"what": what, "value": _interpolate(values, _gap(runs, card, target_rate)),
            "lo": float(lo), "hi": float(hi),
            "bootstrap": int(bootstrap), "bootstrap_no_crossing": int(len(boots) - len(ok)),
            "method": "linear interpolation between adjacent values; 95% percentile interval "
                      f"of a Poisson bootstrap over games ({int(bootstrap)} replicates, the "
                      "same game weights for every value)"}
