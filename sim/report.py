"""``friday report``: every built-in policy on every level, in results/.

Writes ``policies.md`` (win rate with 95% Wilson interval, mean and median score per policy and
level, and the comparisons a researcher asks first) and the figures ``policy_win_rates.png``
and ``score_distributions.png`` (pirate balance: ``friday balance pirates``, sim.lab.balance).
Every number comes from the fast
engine's summary mode with the given seed, so anyone can rerun the command and get the same
files.
"""
from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .results import wilson
from .rules import Options, RuleError

REPORT_FILES = ("policies.md", "policy_win_rates.png", "score_distributions.png")


def hist_quantile(bins: np.ndarray, hist: np.ndarray, q: float) -> float:
    cum = np.cumsum(hist)
    return float(bins[int(np.searchsorted(cum, q * cum[-1]))])


def hist_sd(bins: np.ndarray, hist: np.ndarray) -> float:
    """Standard deviation of the scores from their histogram (bins of width 1)."""
    n = hist.sum()
    mean = (bins * hist).sum() / n
    return float(np.sqrt(((bins - mean) ** 2 * hist).sum() / max(n - 1, 1)))


def summary_row(policy: str, level: int, s: dict) -> dict:
    n, wins = s["games"], s["wins"]
    lo, hi = wilson(wins, n)
    return {"policy": policy, "level": level, "games": n, "win_rate": wins / n,
            "ci95_low": lo, "ci95_high": hi, "mean_score": s["sum_score"] / n,
            "score_sd": hist_sd(s["score_bins"], s["score_hist"]),
            "median_score": hist_quantile(s["score_bins"], s["score_hist"], 0.5),
            "reached_pirates": s["step_reached"]["pirates"] / n}


def compare(a: pd.Series, b: pd.Series) -> str:
    """Two-proportion z-test of win rates, in words."""
    n1, n2 = a["games"], b["games"]
    p1, p2 = a["win_rate"], b["win_rate"]
    pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
    se = math.sqrt(max(pooled * (1 - pooled) * (1 / n1 + 1 / n2), 1e-300))
    z = (p1 - p2) / se
    if abs(z) < 1.96:
        verdict = "no significant difference"
    else:
        verdict = "higher" if z > 0 else "lower"
    return f"{p1:.2%} vs {p2:.2%} (z = {z:+.1f}: {verdict})"


def compare_scores(a: pd.Series, b: pd.Series) -> str:
    """Difference of mean scores with its 95% interval (normal approximation)."""
    diff = a["mean_score"] - b["mean_score"]
    se = math.sqrt(a["score_sd"] ** 2 / a["games"] + b["score_sd"] ** 2 / b["games"])
    verdict = "no significant difference" if abs(diff) < 1.96 * se else \
        ("higher" if diff > 0 else "lower")
    return (f"{a['mean_score']:.2f} vs {b['mean_score']:.2f} (difference {diff:+.2f} "
            f"± {1.96 * se:.2f}: {verdict})")


def policy_report(games: int, seed: int, out: Path, threads=None, force=False, echo=print,
                  policies=None, levels=(1, 2, 3, 4), options: Options | None = None,
                  quiet=False):
    """Ctrl-C stops within a second (SimulationInterrupted) and writes no file."""
    from policies import builtin_policies
    from .progress import Bar, SimulationInterrupted, StopFlag, prepare_engine
    from .simulate import level_summary
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    existing = [f for f in REPORT_FILES if (out / f).exists()]
    if existing and not force:
        raise RuleError(f"{out} already has {', '.join(existing)}: pass --force to overwrite")
    options = options or Options()
    pols = builtin_policies()
    names = list(policies or pols)
    rows, hists = [], {}
    prepare_engine(pols[names[0]], quiet, threads)
    start = time.perf_counter()
    with StopFlag() as flag, Bar(quiet) as bar:
        tasks = {(name, level): bar.task(f"{name} level {level}", games)
                 for name in names for level in levels}
        for name in names:
            for level in levels:
                s = level_summary(level, games, seed, pols[name], options, threads, bar,
                                  tasks[(name, level)], flag)
                if flag.stop:
                    raise SimulationInterrupted(len(rows) * games + s["games"])
                rows.append(summary_row(name, level, s))
                hists[(name, level)] = (s["score_bins"], s["score_hist"])
                echo(f"  {name:13s} level {level}: {rows[-1]['win_rate']:.2%} won "
                     f"({time.perf_counter() - start:.0f} s)")
    table = pd.DataFrame(rows)
    command = (f"friday report --games {games} --seed {seed}"
               + (f" --threads {threads}" if threads else ""))
    _write_policies_md(out / "policies.md", table, command, games, seed, options)
    _plot_win_rates(out / "policy_win_rates.png", table)
    _plot_scores(out / "score_distributions.png", hists, names, levels)
    echo(f"wrote {', '.join(REPORT_FILES)} to {out}/ in {time.perf_counter() - start:.0f} s")
    return table


def _write_policies_md(path: Path, table: pd.DataFrame, command: str, games, seed, options):
    lines = ["# Policies compared", "",
             f"Made by `{command}` ({games:,} games per policy and level, master seed {seed}, "
             f"rule options {options.as_dict()}). Win rates with 95% Wilson intervals; game g "
             "of every policy starts from the same deal (common random numbers, see sim/rng.py).",
             "", "| policy | level | games | win rate | 95% interval | mean score | median score "
             "| reached pirates |", "|---|---|---|---|---|---|---|---|"]
    for _, r in table.iterrows():
        lines.append(f"| {r['policy']} | {r['level']} | {r['games']:,} | {r['win_rate']:.2%} | "
                     f"[{r['ci95_low']:.2%}, {r['ci95_high']:.2%}] | {r['mean_score']:.2f} | "
                     f"{r['median_score']:.0f} | {r['reached_pirates']:.1%} |")
    lines += ["", "## Comparisons (two-proportion z-test on win rates)", ""]
    by = {(r["policy"], r["level"]): r for _, r in table.iterrows()}
    pairs = [("always-fight", "random"), ("cull-green", "always-fight"),
             ("expert", "always-fight"), ("expert", "cull-green")]
    for a, b in pairs:
        for level in sorted(table["level"].unique()):
            if (a, level) in by and (b, level) in by:
                ra, rb = by[(a, level)], by[(b, level)]
                lines.append(f"- level {level}, {a} vs {b}: win rate {compare(ra, rb)}; "
                             f"mean score {compare_scores(ra, rb)}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _plot_win_rates(path: Path, table: pd.DataFrame):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 4.5))
    names = list(dict.fromkeys(table["policy"]))
    levels = sorted(table["level"].unique())
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        t = table[table["policy"] == name].set_index("level").loc[levels]
        x = np.arange(len(levels)) + i * width
        err = np.vstack([t["win_rate"] - t["ci95_low"], t["ci95_high"] - t["win_rate"]])
        ax.bar(x, 100 * t["win_rate"], width, yerr=100 * err, capsize=3, label=name)
    ax.set_xticks(np.arange(len(levels)) + width * (len(names) - 1) / 2)
    ax.set_xticklabels([f"level {lv}" for lv in levels])
    ax.set_ylabel("games won (%) with 95% interval")
    ax.set_title("Win rate per policy and level")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _plot_scores(path: Path, hists: dict, names, levels):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(levels), figsize=(4 * len(levels), 3.6), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, level in zip(axes, levels):
        for name in names:
            bins, hist = hists[(name, level)]
            keep = hist > 0
            lo, hi = bins[keep].min(), bins[keep].max()
            sel = (bins >= lo) & (bins <= hi)
            ax.plot(bins[sel], hist[sel] / hist.sum(), label=name, lw=1.2)
        ax.set_title(f"level {level}")
        ax.set_xlabel("score")
    axes[0].set_ylabel("share of games")
    axes[-1].legend(fontsize=8)
    fig.suptitle("Score distributions (R10.3)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
