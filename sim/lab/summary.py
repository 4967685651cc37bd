"""Summaries of many games, in one place: the result frame, win rates with their 95% Wilson
interval (sim.lab.stats), scores and causes per level (and policy), from result rows or from
the fast engine's summary aggregates, and the table ``friday simulate`` prints."""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.errors import UsageError
from sim.rules import CAUSE_NAMES, RESULT_COLUMNS, STEP_NAMES
from .stats import wilson_interval


def to_frame(columns: dict) -> pd.DataFrame:
    """Result arrays (rules.RESULT_COLUMNS) -> DataFrame with readable cause/step categories."""
    df = pd.DataFrame({c: np.asarray(columns[c]) for c in RESULT_COLUMNS})
    df["won"] = df["won"].astype(bool)
    df["cause"] = pd.Categorical.from_codes(df["cause"], categories=list(CAUSE_NAMES))
    df["step"] = pd.Categorical.from_codes(df["step"], categories=list(STEP_NAMES))
    return df


def _row(n: int, wins: int, mean, median, sd, reached, lost: dict) -> dict:
    """The columns of a summary row: the win rate with its 95% Wilson interval, the score's
    mean, median and sd, the share that reached the pirates, ``lost``: each cause's share."""
    lo, hi = wilson_interval(wins, n)
    return {"games": n, "win_rate": wins / n, "ci95_low": lo, "ci95_high": hi,
            "mean_score": mean, "median_score": median, "score_sd": sd,
            "reached_pirates": reached, **{f"lost_{c}": lost[c] for c in CAUSE_NAMES[1:]}}


def check_frame(df, by) -> None:
    """A UsageError unless ``df`` is a frame of result rows with the columns ``by`` and those
    a summary reads."""
    if not isinstance(df, pd.DataFrame):
        text = repr(df)
        raise UsageError(f"summarize takes a frame of game results (from sim.lab.simulate or "
                         f"play_paired), not {type(df).__name__} "
                         f"{text if len(text) <= 40 else text[:37] + '...'}")
    lacking = [c for c in (*by, "won", "score", "step", "cause") if c not in df.columns]
    if lacking:
        raise UsageError(f"summarize takes a frame of game results (from sim.lab.simulate or "
                         f"play_paired): this one lacks the column(s) {', '.join(lacking)}")


def summarize(df: pd.DataFrame, by=("level",)) -> pd.DataFrame:
    """Win rate with its 95% Wilson interval, mean/median/sd of the score, the share that
    reached the pirates and each cause of defeat, per group of result rows."""
    check_frame(df, by)
    return pd.DataFrame([{**dict(zip(by, key)),
                          **_row(len(g), int(g["won"].sum()), g["score"].mean(),
                                 g["score"].median(), g["score"].std(),
                                 float((g["step"] == "pirates").mean()),
                                 {c: float((g["cause"] == c).mean()) for c in CAUSE_NAMES[1:]})}
                         for key, g in df.groupby(list(by), observed=True)])


def hist_sd(bins: np.ndarray, hist: np.ndarray) -> float:
    """Standard deviation of the scores from their histogram (bins of width 1)."""
    n = hist.sum()
    mean = (bins * hist).sum() / n
    return float(np.sqrt(((bins - mean) ** 2 * hist).sum() / max(n - 1, 1)))


def summary_row(s: dict) -> dict:
    """The ``summarize`` row of one level from the fast engine's summary (sim.fast.api
    ``summary_from``): the same columns, the median and sd from the score histogram (the
    median: the lowest score with half the games or more at or below it, no mean of two)."""
    n, bins, hist = s["games"], s["score_bins"], s["score_hist"]
    median = float(np.quantile(bins, 0.5, weights=hist, method="inverted_cdf"))
    return {"level": s["level"], **_row(n, s["wins"], s["sum_score"] / n, median,
                                        hist_sd(bins, hist), s["step_reached"]["pirates"] / n,
                                        {c: s["causes"][c] / n for c in CAUSE_NAMES[1:]})}


def format_summary(table: pd.DataFrame) -> str:
    """The per-level table ``friday simulate`` prints."""
    show = pd.DataFrame({
        "level": table["level"], "games": table["games"].map("{:,}".format),
        "win rate": [f"{w:6.2%} [{lo:.2%}, {hi:.2%}]" for w, lo, hi in
                     zip(table["win_rate"], table["ci95_low"], table["ci95_high"])],
        "mean score": table["mean_score"].map("{:.2f}".format),
        "median score": table["median_score"].map("{:.1f}".format),
        "reached pirates": table["reached_pirates"].map("{:.1%}".format),
        "lost: no life": table["lost_no_life"].map("{:.1%}".format),
        "old age": table["lost_old_age"].map("{:.1%}".format),
    })
    return show.to_string(index=False)
