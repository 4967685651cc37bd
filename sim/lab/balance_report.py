"""Figures and Markdown of the balance questions (sim.lab.balance), readable on their own:
titles with the policy, level and game counts, axis labels, 95% interval bars, every heatmap
cell with its value and its game count, the special pirates explained in a legend."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim import cards as C
from sim.cardtable import as_table
from .balance import (ABILITY_TEXT, indistinguishable, pirate_ability, pirate_description,
                      pirate_label)
from .files import write_atomic, write_text
from .plots import finish, pyplot
from .text import interval, markdown_table


def _special_legend(fig, cards, y: float):
    """The special pirates explained (R9.5), at the bottom left of ``fig``."""
    t = as_table(cards)
    lines = [pirate_description(p, t) for p in C.PIRATE_IDS
             if pirate_ability(p, t)[0] in ABILITY_TEXT]
    fig.text(0.01, y, "Special pirates (R9.5):\n" + "\n".join("  " + s for s in lines),
             fontsize=7.5, va="bottom", family="monospace")


def ranking_figure(pirates: pd.DataFrame, path: Path, policy: str, games, cards=None):
    """Per level, the pirates ranked by beaten-when-faced rate (95% Wilson interval bars);
    ``games``: games per level, or a text saying so."""
    games = games if isinstance(games, str) else f"{games:,} games per level"
    plt = pyplot()
    levels = sorted(pirates["level"].unique())
    ncols = min(2, len(levels))
    nrows = (len(levels) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols + 0.6, 4.6 * nrows + 1.4),
                             squeeze=False)
    for ax in axes.flat[len(levels):]:
        ax.axis("off")
    for ax, level in zip(axes.flat, levels):
        d = pirates[pirates["level"] == level].sort_values("beaten_rate", ascending=False)
        y = np.arange(len(d))
        br, lo, hi = (d[f"beaten_{c}"] for c in ("rate", "lo", "hi"))
        rate = 100 * br.to_numpy()
        ax.errorbar(rate, y, xerr=100 * np.vstack([br - lo, hi - br]), fmt="o", color="tab:blue",
                    ecolor="black", capsize=3)
        ax.set_yticks(y, d["label"], fontsize=8)
        for yy, r, n in zip(y, rate, d["beaten_n"]):
            ax.annotate(f"{r:.1f}% (n={n:,})", (r, yy), xytext=(0, 6), textcoords="offset points",
                        fontsize=6.5, ha="center")
        ax.set(xlabel="beaten when faced (%)", title=f"level {level} (hardest at the top)")
        ax.grid(axis="x", alpha=0.3)
        ax.margins(x=0.15, y=0.06)
    fig.suptitle(f"How often policy {policy} beats each pirate when it faces it "
                 f"({games}; bars: 95% Wilson intervals; n = fights)", fontsize=10)
    _special_legend(fig, cards, 0.005)
    fig.tight_layout(rect=(0, 0.16 / nrows, 1, 0.96))
    return finish(fig, path)


def pair_heatmap(pairs: pd.DataFrame, level: int, path: Path, policy: str, cards=None):
    """Win rate of each pirate pair at one level; each cell: win rate and game count."""
    plt = pyplot()
    t = as_table(cards)
    d = pairs[pairs["level"] == level]
    n = len(C.PIRATE_IDS)
    rate = np.full((n, n), np.nan)
    count = np.zeros((n, n), dtype=np.int64)
    i, j = d["pirate_a"].to_numpy() - C.PIRATE_IDS[0], d["pirate_b"].to_numpy() - C.PIRATE_IDS[0]
    rate[i, j] = rate[j, i] = 100 * d["win_rate"].to_numpy()
    count[i, j] = count[j, i] = d["games"].to_numpy()
    fig, ax = plt.subplots(figsize=(10, 9.4))
    im = ax.imshow(rate, cmap="viridis")
    labels = [pirate_label(p, t) for p in C.PIRATE_IDS]
    ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(n), labels, fontsize=8)
    lo, hi = (np.nanmin(rate), np.nanmax(rate)) if np.isfinite(rate).any() else (0.0, 1.0)
    for i, j in zip(*np.nonzero(count)):    # dark text on the light half of viridis
        light = (rate[i, j] - lo) > 0.5 * (hi - lo)
        ax.text(j, i, f"{rate[i, j]:.1f}%\n{count[i, j]:,}", ha="center", va="center",
                fontsize=6.5, color="black" if light else "white")
    ax.set(xlabel="pirate", ylabel="the other pirate")
    fig.colorbar(im, ax=ax, label="games won (%)", shrink=0.8)
    total = int(d["games"].sum())
    ax.set_title(f"Win rate by pirate pair, level {level}, policy {policy}\n"
                 f"({total:,} games; each cell: win rate and games with that pair)", fontsize=10)
    _special_legend(fig, cards, 0.01)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return finish(fig, path)


def sweep_figure(result: dict, path: Path, policy: str):
    """Win rate (and the pirate's beaten-when-faced rate) against the swept value."""
    plt = pyplot()
    tab, pirate = result["table"], result["is_pirate"]
    fig, axes = plt.subplots(1, 2 if pirate else 1, figsize=(11 if pirate else 6.5, 4.8),
                             squeeze=False)
    x = tab["value"].to_numpy()
    panels = [("win", "games won (%)", "the game's win rate")]
    if pirate:
        panels.append(("beaten", "beaten when faced (%)",
                       f"pirate {result['label']} beaten when faced "
                       f"({tab['faced'].min():,}-{tab['faced'].max():,} fights per value)"))
    cross = result["crossing"]
    for ax, (key, ylabel, title) in zip(axes[0], panels):
        r, lo, hi = (tab[f"{key}_{c}"] for c in ("rate", "lo", "hi"))
        ax.errorbar(x, 100 * r.to_numpy(), yerr=100 * np.vstack([r - lo, hi - r]), fmt="o-",
                    capsize=3, label=title)
        if key == "beaten":
            ax.plot(x, 100 * tab["median_other_beaten"], "s--", color="tab:gray",
                    label="median of the other pirates")
        if np.isfinite(cross["value"]):
            ax.axvline(cross["value"], color="tab:red", lw=1)
            if np.isfinite(cross["lo"]):
                ax.axvspan(cross["lo"], cross["hi"], color="tab:red", alpha=0.15,
                           label=f"{cross['what']}: {cross['value']:.1f} "
                                 f"[{cross['lo']:.1f}, {cross['hi']:.1f}]")
        ax.set(xlabel=f"card {result['card']} ({result['label']}) {result['field']}", ylabel=ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7.5)
    fig.suptitle(f"Sweep of {result['label']} {result['field']}, level {result['level']}, "
                 f"policy {policy}: {result['games']:,} games per value on the same deals "
                 f"(seed {result['seed']}); bars: 95% Wilson intervals", fontsize=9.5)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    return finish(fig, path)


# --- text -----------------------------------------------------------------------------------
def rate_text(r, key: str) -> str:
    """The rate ``key`` of a table row (columns ``key``_rate, _lo, _hi) with its interval."""
    return interval(r[f"{key}_rate"], r[f"{key}_lo"], r[f"{key}_hi"])


def terminal_table(d: pd.DataFrame) -> str:
    """The per-pirate table of one level (pirate_table), for the terminal."""
    def col(key):
        return [rate_text(r, key) for r in d.to_dict("records")]
    return pd.DataFrame({
        "rank": d["rank"], "pirate": d["label"], "drawn": d["drawn"].map("{:,}".format),
        "reached": d["reached_rate"].map("{:.1%}".format), "beaten first": col("beaten_first"),
        "beaten second": col("beaten_second"), "beaten when faced": col("beaten"),
        "win when drawn": col("win_when_drawn")}).to_string(index=False)


def sweep_markdown(result: dict) -> list[str]:
    tab, pirate = result["table"], result["is_pirate"]
    head = ["value", "games", "win rate [95%]", "vs previous value (McNemar p)"]
    if pirate:
        head += ["fights", "beaten when faced [95%]", "median other pirate"]
    rows = []
    for r in tab.to_dict("records"):
        paired = ("" if not np.isfinite(r.get("mcnemar_p", np.nan)) else
                  f"{100 * r['win_diff_vs_previous']:+.2f} points (p={r['mcnemar_p']:.2g})")
        rows.append([r["value"], f"{r['games']:,}", rate_text(r, "win"), paired])
        if pirate:
            rows[-1] += [f"{r['faced']:,}", rate_text(r, "beaten"),
                         f"{r['median_other_beaten']:.2%}"]
    c = result["crossing"]
    if c["what"] is None:
        crossing = "No interpolation: the card is not a pirate; give --target for a win rate."
    elif np.isfinite(c["value"]):
        crossing = (f"**{c['what']} at {result['field']} = {c['value']:.1f}** "
                    f"(95% interval [{c['lo']:.1f}, {c['hi']:.1f}]; {c['method']}; "
                    f"{c['bootstrap_no_crossing']} replicates without a crossing).")
    else:
        crossing = (f"{c['what']}: not reached between {tab['value'].min()} and "
                    f"{tab['value'].max()}; widen --values.")
    return markdown_table(head, rows) + ["", crossing]


def games_text(study: dict) -> str:
    """'100,000 games per level', or each level's games after Ctrl-C."""
    if not study.get("interrupted"):
        return f"{study['games']:,} games per level"
    return "interrupted: " + ", ".join(f"level {lv} {n:,} games"
                                       for lv, n in study["level_games"].items())


def _alike(tests: pd.DataFrame, r, word: str) -> str:
    """The pirates ``r`` cannot be told from, or that it is significantly ``word``."""
    same = indistinguishable(tests, r["label"])
    return (f", indistinguishable from {', '.join(same)}" if same else
            f", significantly {word} than every other pirate")


def _level_section(level: int, d: pd.DataFrame, tests: pd.DataFrame, pairs: pd.DataFrame):
    """pirates.md's section of one level: the pirates ranked, the pirates not told apart,
    the hardest and easiest pairs."""
    ns = tests[~tests["significant"]]
    alike = "; ".join(f"{a} vs {b} (p={p:.2g})"
                      for a, b, p in zip(ns["harder"], ns["easier"], ns["p_holm"]))
    ranked = [[r["rank"], r["label"], f"{r['drawn']:,}", rate_text(r, "reached"),
               *(f"{rate_text(r, k)} (n={r[k + '_n']:,})"
                 for k in ("beaten_first", "beaten_second", "beaten")),
               rate_text(r, "win_when_drawn")] for r in d.to_dict("records")]
    extremes = [[r["pair"], f"{r['games']:,}", rate_text(r, "win")]
                for r in pd.concat([pairs.head(3), pairs.tail(3)]).to_dict("records")]
    return (["", f"## Level {level}", ""]
            + markdown_table(["rank", "pirate", "drawn", "reached", "beaten when faced first",
                              "beaten when faced second", "beaten when faced",
                              "win rate when drawn"], ranked)
            + ["", f"Not significantly different (Holm-adjusted p >= 0.05): {alike or 'none'}.",
               "", "Hardest and easiest pairs:", ""]
            + markdown_table(["pair", "games", "win rate [95%]"], extremes))


def study_markdown(study: dict, policy: str, command: str, cards=None, what_if=None) -> str:
    """results/pirates.md: headline, per level the ranking, significance, pairs, what-if."""
    pir, tests, pairs = study["pirates"], study["tests"], study["pairs"]
    lines = ["# Pirate balance", "",
             f"Made by `{command}` ({games_text(study)}, seed {study['seed']}, "
             f"policy `{policy}`, card table {as_table(cards).describe()}).", "",
             "A pirate is *faced* when Robinson fights it: the first pirate (the policy's choice, "
             "R9.1) in every game that reaches the pirates, the second only after the first is "
             "beaten. *Beaten when faced* counts both fights; *reached* is the share of the "
             "games in which it was drawn that reach the pirates (R8.2). Intervals: 95% Wilson. "
             "Differences between pirates: two-sided two-proportion z-tests on beaten when faced, "
             "Holm-adjusted over the 45 pairs of each level (the two fights of one game share a "
             "deck; the tests treat fights as independent).", "", "## Headline", ""]
    sections = []
    for level in sorted(pir["level"].unique()):
        d, tl, pl = (x[x["level"] == level] for x in (pir, tests, pairs))
        hard, easy = d.iloc[0], d.iloc[-1]
        lines.append(f"* Level {level}: hardest **{hard['label']}** (beaten when faced "
                     f"{rate_text(hard, 'beaten')}){_alike(tl, hard, 'harder')}; easiest "
                     f"**{easy['label']}** ({rate_text(easy, 'beaten')})"
                     f"{_alike(tl, easy, 'easier')}.")
        sections += _level_section(level, d, tl, pl)
    if what_if is not None:
        c = what_if["crossing"]
        lines.append(f"* What-if (level {what_if['level']}): {what_if['label']} is beaten as "
                     f"often as the median other pirate at {what_if['field']} = "
                     + (f"{c['value']:.1f} (95% interval [{c['lo']:.1f}, {c['hi']:.1f}])"
                        if np.isfinite(c["value"]) else "a value outside the swept range")
                     + " (see below).")
        sections += ["", f"## What-if: {what_if['label']} {what_if['field']}, level "
                     f"{what_if['level']}", "",
                     f"The same {what_if['games']:,} deals (seed {what_if['seed']}) for every "
                     f"value (common random numbers); figure `pirate_what_if.png`.", "",
                     *sweep_markdown(what_if)]
    lines += ["", "Figures: `pirate_ranking.png` (all levels), `pirate_pairs_level<L>.png`."]
    return "\n".join(lines + sections + [""])


def write_study(out: Path, study: dict, policy: str, command: str, cards=None, what_if=None):
    """pirates.md, pirates.csv, pirate_pairs.csv and the figures into ``out``, each written
    atomically (sim.lab.files)."""
    ranking_figure(study["pirates"], out / "pirate_ranking.png", policy, games_text(study), cards)
    for level in sorted(study["pirates"]["level"].unique()):
        pair_heatmap(study["pairs"], level, out / f"pirate_pairs_level{level}.png", policy, cards)
    if what_if is not None:
        sweep_figure(what_if, out / "pirate_what_if.png", policy)
    for name, df in (("pirates.csv", study["pirates"]), ("pirate_pairs.csv", study["pairs"])):
        write_csv(df, out / name)
    write_text(out / "pirates.md", study_markdown(study, policy, command, cards, what_if))


def write_csv(df: pd.DataFrame, path: Path):
    """A table as CSV, atomically (sim.lab.files)."""
    write_atomic(path, lambda tmp: df.to_csv(tmp, index=False))


def write_sweep_csv(result: dict, path: Path):
    """A sweep's table as CSV (``balance sweep --csv``), with a last column ``complete``:
    True on every row when every game asked for was played, False on every row after Ctrl-C
    (the rows then count the games finished, the same for every value), as a Parquet file's
    ``interrupted`` and a review's ``complete`` say it."""
    write_csv(result["table"].assign(complete=not result["interrupted"]), path)


STUDY_FILES = ("pirates.md", "pirates.csv", "pirate_pairs.csv", "pirate_ranking.png")


def study_files(levels, what_if: bool) -> list[str]:
    """Every file ``write_study`` may write into --out for these levels (and the what-if
    sweep's figure), so that each is checked before any game."""
    return (list(STUDY_FILES) + [f"pirate_pairs_level{level}.png" for level in levels]
            + ["pirate_what_if.png"] * what_if)
