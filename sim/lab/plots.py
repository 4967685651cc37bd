"""Figures of sim.lab, readable on their own: title, axis labels, n, intervals; how every
figure of the lab gets pyplot and is written."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .files import save_figure


def pyplot():
    """pyplot; Agg unless a session (a notebook) has chosen its backend already."""
    import sys
    import matplotlib
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def finish(fig, path):
    """Write the figure atomically at 110 dpi and close it (sim.lab.files); without a path
    return it (notebooks)."""
    if path is None:
        return fig
    save_figure(fig, path, dpi=110)


# (column, scale, the subfigure's title, the x axis) of the two rows of plot_paired_differences
PAIRED_PANELS = (("win_diff", 100,
                  "Win rate: difference a - b with its 95% Newcombe paired interval",
                  "percentage points"),
                 ("score_diff", 1, "Mean score: difference a - b with its 95% paired t interval",
                  "points"))
SIDE_COLOURS = ("tab:blue", "tab:red", "grey")       # a better, b better, not distinguishable


def plot_paired_differences(comparison: pd.DataFrame, path=None):
    """Per level (a column) each pair's paired differences a - b (a row, labelled ``a - b``)
    with their 95% intervals: win rate (percentage points, Newcombe) above, mean score (points,
    paired t) below; each point's value written beside it, blue where the interval is above 0,
    red below, grey across.  Saves to ``path`` when given; returns the figure."""
    plt = pyplot()
    pairs = list(dict.fromkeys(zip(comparison["a"], comparison["b"])))
    levels = sorted(comparison["level"].unique())
    labels = [f"{a} - {b}" for a, b in pairs]
    width = 0.6 + 0.075 * max(map(len, labels)) + 2.5 * len(levels)
    fig = plt.figure(figsize=(max(width, 6.5), 1.5 + 2 * (0.9 + 0.24 * len(pairs))),
                     layout="constrained")
    n = int(comparison["games"].iloc[0])
    fig.suptitle(f"Paired differences a - b on the same deals: n = {n:,} games per level, "
                 f"seed {comparison.attrs.get('seed', '?')}", fontsize=11)
    fig.supxlabel("blue: a better (interval above 0), red: b better (below 0), grey: the "
                  "interval includes 0", fontsize=8)
    y = np.arange(len(pairs))
    for sub, (col, scale, title, unit) in zip(fig.subfigures(2, 1), PAIRED_PANELS):
        sub.suptitle(title, fontsize=10)
        axes = sub.subplots(1, len(levels), sharey=True, squeeze=False)[0]
        for ax, lv in zip(axes, levels):
            t = comparison[comparison.level == lv].set_index(["a", "b"]).reindex(pairs)
            x, lo, hi = (scale * t[c].to_numpy(dtype=float) for c in
                         (col, col + "_low", col + "_high"))
            side = np.where(lo > 0, 0, np.where(hi < 0, 1, 2))
            colours = [SIDE_COLOURS[k] for k in side]
            ax.hlines(y, lo, hi, colors=colours, lw=1.5)
            ax.scatter(x, y, c=colours, s=16, zorder=3)
            for xi, yi in zip(x, y):
                if np.isfinite(xi):
                    ax.annotate("0" if round(xi, 1) == 0 else f"{xi:+.1f}", (xi, yi),
                                xytext=(0, 4), ha="center", textcoords="offset points",
                                fontsize=6.5)
            ax.axvline(0, color="grey", lw=0.8)
            ax.set_title(f"level {lv}", fontsize=9)
            ax.set_xlabel(unit, fontsize=8)
            ax.tick_params(labelsize=7.5)
            ax.grid(axis="x", alpha=0.3)
            ax.margins(x=0.12, y=0.08)
        axes[0].set_yticks(y, labels, fontsize=8)
        axes[0].invert_yaxis()
    finish(fig, path)
    return fig
