"""``friday report``: policies (default the built-in ones) on the chosen levels, in results/.

Writes ``policies.md`` (win rate with 95% Wilson interval, mean and median score per policy and
level, every pair compared game by game with the paired methods of sim.lab, a ranking), and the
figures ``policy_win_rates.png``, ``score_distributions.png`` and ``paired_differences.png``
(pirate balance: ``friday balance pirates``, sim.lab.balance).  Every policy plays the same
seeded deals, so anyone can rerun the command and get the same files.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from sim.rules import Options, as_options, check_seed, options_text, parse_levels
from .compare import METHODS, compare_paired, long_frame, play_paired, ranking
from .files import check_folder, command_line, write_text
from .plots import finish, plot_paired_differences, pyplot
from .summary import summarize
from .text import pvalue

REPORT_FILES = ("policies.md", "policy_win_rates.png", "score_distributions.png",
                "paired_differences.png")


def policy_report(games: int, seed: int, out: Path, threads=None, force=False, echo=print,
                  policies=None, levels=(1, 2, 3, 4), options: Options | None = None,
                  quiet: bool = False, cluster=None, chunk=None):
    """Every given policy (specs; default the built-in ones) on every level, on the same
    deals: policies.md (rates, scores, paired comparisons, ranking) and figures, each
    written atomically.  After Ctrl-C the report covers the games every policy finished
    (``paired.attrs["interrupted"]``).  ``quiet``: no compile notice, no progress (a bar,
    or off a terminal, in a notebook too, a line a minute); ``cluster``/``chunk``: on Dask
    (sim.lab.cluster).  ``levels``: as ``simulate``'s (a list, ``"1,4"`` or ``"all"``);
    ``options``: Options, a dict or NAME=VALUE strings.  Every argument is checked before any
    game (UsageError).  Returns the paired frame."""
    from policies import builtin_policies, load_policy
    from .simulate import check_games
    levels, options = parse_levels(levels), as_options(options)
    games, seed = check_games(games), check_seed(seed)
    pols = [load_policy(p) for p in (policies or builtin_policies())]
    out = Path(out)
    check_folder(out, REPORT_FILES, force)
    start = time.perf_counter()
    paired = play_paired(pols, levels, games, seed, options, threads, chunk,
                         keep_on_interrupt=True, cluster=cluster, quiet=quiet)
    if len(paired) == 0:
        return paired
    comparison = compare_paired(paired)
    rows = long_frame(paired)
    table = summarize(rows, by=("policy", "level"))
    opts = [a for k, v in options.as_dict().items() if v != getattr(Options(), k)
            for a in ("--option", f"{k}={str(v).lower()}")]
    level_text = "all" if levels == [1, 2, 3, 4] else ",".join(map(str, levels))
    command = command_line(["report", *(p.name for p in pols), "--level", level_text, "--games",
                            games, "--seed", seed, *opts, "--out", out.as_posix()],
                           force=True)                       # remakes these very files
    write_text(out / "policies.md", policies_md(table, comparison, command, paired.attrs))
    _plot_win_rates(out / "policy_win_rates.png", table)
    _plot_scores(out / "score_distributions.png", rows, paired.attrs["labels"])
    plot_paired_differences(comparison, out / "paired_differences.png")
    echo(f"wrote {', '.join(REPORT_FILES)} to {out}/ in {time.perf_counter() - start:.0f} s")
    return paired


def shown_path(file: str) -> str:
    """A policy file as the report shows it: relative to the working folder when inside it
    (the project's own policies read ``policies/expert.py`` on every machine)."""
    path = Path(file).resolve()
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def policies_md(table: pd.DataFrame, comparison: pd.DataFrame, command: str, attrs) -> str:
    """policies.md: the policies, the table of rates and scores, every pair compared, the
    ranking; the games counted are those every policy finished."""
    games = int(table["games"].min())
    cut = (" -- interrupted: the games finished before Ctrl-C" if attrs.get("interrupted")
           else "")
    lines = ["# Policies compared", "",
             f"Made by `{command}` ({games:,} games per policy and level{cut}, master seed "
             f"{attrs['seed']}, rule options {options_text(attrs['options'])}). Game g of every "
             "policy starts from the same deal (common random numbers, see sim/rng.py), so "
             "policies are compared game by game with paired methods.", "", "Policies:", ""]
    for label, rec in zip(attrs["labels"], attrs["policies"]):
        src = (f" (file `{shown_path(rec['file'])}`, sha256 `{rec['sha256'][:12]}`)"
               if rec.get("file") else "")
        lines.append(f"- `{label}`{src}: parameters {rec['params']}")
    lines += ["", "| policy | level | games | win rate | 95% Wilson interval | mean score | "
              "median score | reached pirates |", "|---|---|---|---|---|---|---|---|"]
    for _, r in table.iterrows():
        lines.append(f"| {r['policy']} | {r['level']} | {r['games']:,} | {r['win_rate']:.2%} | "
                     f"[{r['ci95_low']:.2%}, {r['ci95_high']:.2%}] | {r['mean_score']:.2f} | "
                     f"{r['median_score']:.0f} | {r['reached_pirates']:.1%} |")
    lines += ["", "## Paired comparisons (a - b on the same games)", "",
              "Methods: " + "; ".join(f"{k}: {v}" for k, v in METHODS.items()) + ".", "",
              "| level | a - b | win-rate difference [95%] | a won, b lost | b won, a lost | "
              "McNemar p (Holm) | score difference [95%] | t-test p (Holm) |",
              "|---|---|---|---|---|---|---|---|"]
    for r in comparison.itertuples():
        lines.append(f"| {r.level} | {r.a} - {r.b} | {100 * r.win_diff:+.2f} pp "
                     f"[{100 * r.win_diff_low:+.2f}, {100 * r.win_diff_high:+.2f}] | "
                     f"{r.a_only:,} | {r.b_only:,} | {pvalue(r.mcnemar_p_holm)} | "
                     f"{r.score_diff:+.2f} [{r.score_diff_low:+.2f}, {r.score_diff_high:+.2f}] | "
                     f"{pvalue(r.score_p_holm)} |")
    lines += ["", "## Ranking per level (by win rate, then mean score)", ""]
    for lv, g in ranking(comparison).groupby("level", sort=True):
        lines.append(f"- level {lv}: " + "; ".join(
            f"{r.rank}. {r.policy} ({r.win_rate:.2%}, {r.mean_score:.2f})"
            + (f", vs {r.next}: {r.vs_next}" if isinstance(r.next, str) else "")
            for r in g.itertuples()))
    return "\n".join(lines) + "\n"


def _plot_win_rates(path: Path, table: pd.DataFrame):
    fig, ax = pyplot().subplots(figsize=(8, 4.5))
    names = list(dict.fromkeys(table["policy"]))
    levels = sorted(table["level"].unique())
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        t = table[table["policy"] == name].set_index("level").loc[levels]
        x = np.arange(len(levels)) + i * width
        err = np.vstack([t["win_rate"] - t["ci95_low"], t["ci95_high"] - t["win_rate"]])
        ax.bar(x, 100 * t["win_rate"], width, yerr=100 * err, capsize=3, label=name)
    ax.set_xticks(np.arange(len(levels)) + width * (len(names) - 1) / 2,
                  [f"level {lv}" for lv in levels])
    ax.set(ylabel="games won (%) with 95% interval", title="Win rate per policy and level")
    ax.legend()
    fig.tight_layout()
    finish(fig, path)


def _plot_scores(path: Path, rows: pd.DataFrame, names):
    """Each policy's share of games per score, from its lowest score to its highest."""
    levels = sorted(rows["level"].unique())
    scores = rows.groupby(["policy", "level"], observed=True)["score"]
    fig, axes = pyplot().subplots(1, len(levels), figsize=(4 * len(levels), 3.6), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, level in zip(axes, levels):
        for name in names:
            s = scores.get_group((name, level)).to_numpy(np.int64)
            hist = np.bincount(s - s.min())
            ax.plot(np.arange(len(hist)) + s.min(), hist / hist.sum(), label=name, lw=1.2)
        ax.set(title=f"level {level}", xlabel="score")
    axes[0].set_ylabel("share of games")
    axes[-1].legend(fontsize=8)
    fig.suptitle("Score distributions (R10.3)")
    fig.tight_layout()
    finish(fig, path)


