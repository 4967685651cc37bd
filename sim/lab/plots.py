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


def plot_paired_differences(comparison: pd.DataFrame, path=None):
    """Per level, each pair's paired differences a - b with their 95% intervals: win rate
    (percentage points, Newcombe) and mean score (points, paired t).  Saves to ``path`` when
    given; returns the figure."""
    import matplotlib
    if path is not None:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pairs = list(dict.fromkeys(zip(comparison["a"], comparison["b"])))
    levels = sorted(comparison["level"].unique())
    fig, axes = plt.subplots(1, 2, figsize=(11, 1.6 + 0.5 * len(levels) * len(pairs)))
    height = 0.8 / len(pairs)
    panels = (("win_diff", 100, "win-rate difference a - b (percentage points)"),
              ("score_diff", 1, "mean score difference a - b (points)"))
    for ax, (col, scale, xlabel) in zip(axes, panels):
        for i, (a, b) in enumerate(pairs):
            t = comparison[(comparison.a == a) & (comparison.b == b)].set_index("level").loc[levels]
            y = np.arange(len(levels)) + (i - (len(pairs) - 1) / 2) * height
            x = scale * t[col].to_numpy(dtype=float)
            err = scale * np.vstack([t[col] - t[col + "_low"], t[col + "_high"] - t[col]])
            ax.errorbar(x, y, xerr=np.nan_to_num(err), fmt="o", capsize=3, label=f"{a} - {b}")
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_yticks(np.arange(len(levels)), [f"level {lv}" for lv in levels])
        ax.invert_yaxis()
        ax.set_xlabel(xlabel)
    n = int(comparison["games"].iloc[0])
    seed = comparison.attrs.get("seed", "?")
    axes[0].set_title("win rate (95% Newcombe paired interval)", fontsize=10)
    axes[1].set_title("score (95% paired t interval)", fontsize=10)
    axes[1].legend(fontsize=8, loc="best")
    fig.suptitle(f"Paired differences on the same deals: n = {n:,} games per level, seed {seed}")
    fig.tight_layout()
    finish(fig, path)
    return fig
