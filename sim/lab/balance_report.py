"""Figures and Markdown of the balance questions (sim.lab.balance), readable on their own:
titles with the policy, level and game counts, axis labels, 95% interval bars, every heatmap
cell with its value and its game count, the special pirates explained in a legend."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim import cards as C
from sim.cardtable import as_table
from .balance import ABILITY_TEXT, pirate_description, pirate_label
from .files import save_figure, write_atomic, write_text


def _plt():
    """pyplot; Agg unless a session (a notebook) has chosen its backend already."""
    import sys
    import matplotlib
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _special_legend(cards) -> str:
    t = as_table(cards)
    lines = [pirate_description(p, t) for p in C.PIRATE_IDS
             if C.PIRATE_ABILITY_NAMES[int(t.PIRATE_ABILITY[p])] in ABILITY_TEXT]
    return "Special pirates (R9.5):\n" + "\n".join("  " + s for s in lines)


def _save(fig, path: Path | None):
    """Write the figure atomically and close it (sim.lab.files); without a path return it
    (notebooks)."""
    if path is None:
        return fig
    save_figure(fig, path, dpi=110)


def ranking_figure(pirates: pd.DataFrame, path: Path, policy: str, games, cards=None):
    """Per level, the pirates ranked by beaten-when-faced rate (95% Wilson interval bars);
    ``games``: games per level, or a text saying so."""
    games = games if isinstance(games, str) else f"{games:,} games per level"
    plt = _plt()
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
        rate = 100 * d["beaten_rate"].to_numpy()
        err = 100 * np.vstack([d["beaten_rate"] - d["beaten_lo"], d["beaten_hi"] - d["beaten_rate"]])
        ax.errorbar(rate, y, xerr=err, fmt="o", color="tab:blue", ecolor="black", capsize=3)
        ax.set_yticks(y, d["label"], fontsize=8)
        for yy, r, n in zip(y, rate, d["beaten_n"]):
            ax.annotate(f"{r:.1f}% (n={n:,})", (r, yy), xytext=(0, 6), textcoords="offset points",
                        fontsize=6.5, ha="center")
        ax.set_xlabel("beaten when faced (%)")
        ax.set_title(f"level {level} (hardest at the top)")
        ax.grid(axis="x", alpha=0.3)
        ax.margins(x=0.15, y=0.06)
    fig.suptitle(f"How often policy {policy} beats each pirate when it faces it "
                 f"({games}; bars: 95% Wilson intervals; n = fights)",
                 fontsize=10)
    fig.text(0.01, 0.005, _special_legend(cards), fontsize=7.5, va="bottom", family="monospace")
    fig.tight_layout(rect=(0, 0.16 / nrows, 1, 0.96))
    return _save(fig, path)


def pair_heatmap(pairs: pd.DataFrame, level: int, path: Path, policy: str, cards=None):
    """Win rate of each pirate pair at one level; each cell: win rate and game count."""
    plt = _plt()
    t = as_table(cards)
    d = pairs[pairs["level"] == level]
    n = len(C.PIRATE_IDS)
    rate = np.full((n, n), np.nan)
    count = np.zeros((n, n), dtype=np.int64)
    for r in d.itertuples():
        i, j = r.pirate_a - C.PIRATE_IDS[0], r.pirate_b - C.PIRATE_IDS[0]
        rate[i, j] = rate[j, i] = 100 * r.win_rate
        count[i, j] = count[j, i] = r.games
    fig, ax = plt.subplots(figsize=(10, 9.4))
    im = ax.imshow(rate, cmap="viridis")
    labels = [pirate_label(p, t) for p in C.PIRATE_IDS]
    ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(n), labels, fontsize=8)
    lo, hi = (np.nanmin(rate), np.nanmax(rate)) if np.isfinite(rate).any() else (0.0, 1.0)
    for i in range(n):
        for j in range(n):
            if i != j and count[i, j]:          # dark text on the light half of viridis
                light = (rate[i, j] - lo) > 0.5 * (hi - lo)
                ax.text(j, i, f"{rate[i, j]:.1f}%\n{count[i, j]:,}", ha="center", va="center",
                        fontsize=6.5, color="black" if light else "white")
    ax.set_xlabel("pirate")
    ax.set_ylabel("the other pirate")
    fig.colorbar(im, ax=ax, label="games won (%)", shrink=0.8)
    total = int(d["games"].sum())
    ax.set_title(f"Win rate by pirate pair, level {level}, policy {policy}\n"
                 f"({total:,} games; each cell: win rate and games with that pair)", fontsize=10)
    fig.text(0.01, 0.01, _special_legend(cards), fontsize=7.5, va="bottom", family="monospace")
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return _save(fig, path)


def sweep_figure(result: dict, path: Path, policy: str):
    """Win rate (and the pirate's beaten-when-faced rate) against the swept value."""
    plt = _plt()
    tab = result["table"]
    pirate = result["is_pirate"]
    fig, axes = plt.subplots(1, 2 if pirate else 1, figsize=(11 if pirate else 6.5, 4.8),
                             squeeze=False)
    x = tab["value"].to_numpy()
    panels = [("win_rate", "win_lo", "win_hi", "games won (%)", "the game's win rate")]
    if pirate:
        panels.append(("beaten_rate", "beaten_lo", "beaten_hi", "beaten when faced (%)",
                       f"pirate {result['label']} beaten when faced "
                       f"({tab['faced'].min():,}-{tab['faced'].max():,} fights per value)"))
    cross = result["crossing"]
    for ax, (col, lo, hi, ylabel, title) in zip(axes[0], panels):
        y = 100 * tab[col].to_numpy()
        err = 100 * np.vstack([tab[col] - tab[lo], tab[hi] - tab[col]])
        ax.errorbar(x, y, yerr=err, fmt="o-", capsize=3, label=title)
        if col == "beaten_rate":
            ax.plot(x, 100 * tab["median_other_beaten"], "s--", color="tab:gray",
                    label="median of the other pirates")
        if np.isfinite(cross["value"]):
            ax.axvline(cross["value"], color="tab:red", lw=1)
            if np.isfinite(cross["lo"]):
                ax.axvspan(cross["lo"], cross["hi"], color="tab:red", alpha=0.15,
                           label=f"{cross['what']}: {cross['value']:.1f} "
                                 f"[{cross['lo']:.1f}, {cross['hi']:.1f}]")
        ax.set_xlabel(f"card {result['card']} ({result['label']}) {result['field']}")
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7.5)
    fig.suptitle(f"Sweep of {result['label']} {result['field']}, level {result['level']}, "
                 f"policy {policy}: {result['games']:,} games per value on the same deals "
                 f"(seed {result['seed']}); bars: 95% Wilson intervals", fontsize=9.5)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    return _save(fig, path)


# --- text -----------------------------------------------------------------------------------
def pct(r, lo, hi) -> str:
    """A rate with its interval; ``n/a`` where nothing was counted."""
    if not np.isfinite(r):
        return "n/a"
    return f"{r:.2%} [{lo:.2%}, {hi:.2%}]"


def terminal_table(d: pd.DataFrame) -> str:
    """The per-pirate table of one level (pirate_table), for the terminal."""
    def col(key):
        return [pct(r, lo, hi) for r, lo, hi in
                zip(d[f"{key}_rate"], d[f"{key}_lo"], d[f"{key}_hi"])]
    return pd.DataFrame({
        "rank": d["rank"], "pirate": d["label"], "drawn": d["drawn"].map("{:,}".format),
        "reached": d["reached_rate"].map("{:.1%}".format), "beaten first": col("beaten_first"),
        "beaten second": col("beaten_second"), "beaten when faced": col("beaten"),
        "win when drawn": col("win_when_drawn")}).to_string(index=False)


def sweep_markdown(result: dict) -> list[str]:
    tab = result["table"]
    head = "| value | games | win rate [95%] | vs previous value (McNemar p) |"
    sep = "|---|---|---|---|"
    if result["is_pirate"]:
        head += " fights | beaten when faced [95%] | median other pirate |"
        sep += "---|---|---|"
    lines = [head, sep]
    for r in tab.to_dict("records"):
        paired = ("" if not np.isfinite(r.get("mcnemar_p", np.nan)) else
                  f"{100 * r['win_diff_vs_previous']:+.2f} points (p={r['mcnemar_p']:.2g})")
        line = (f"| {r['value']} | {r['games']:,} | {pct(r['win_rate'], r['win_lo'], r['win_hi'])}"
                f" | {paired} |")
        if result["is_pirate"]:
            line += (f" {r['faced']:,} | {pct(r['beaten_rate'], r['beaten_lo'], r['beaten_hi'])} |"
                     f" {r['median_other_beaten']:.2%} |")
        lines.append(line)
    c = result["crossing"]
    lines.append("")
    if c["what"] is None:
        lines.append("No interpolation: the card is not a pirate; give --target for a win rate.")
    elif np.isfinite(c["value"]):
        lines.append(f"**{c['what']} at {result['field']} = {c['value']:.1f}** "
                     f"(95% interval [{c['lo']:.1f}, {c['hi']:.1f}]; {c['method']}; "
                     f"{c['bootstrap_no_crossing']} replicates without a crossing).")
    else:
        lines.append(f"{c['what']}: not reached between {tab['value'].min()} and "
                     f"{tab['value'].max()}; widen --values.")
    return lines


def games_text(study: dict) -> str:
    """'100,000 games per level', or each level's games after Ctrl-C."""
    counts = study["level_games"]
    if not study.get("interrupted"):
        return f"{study['games']:,} games per level"
    return ("interrupted: " + ", ".join(f"level {lv} {n:,} games" for lv, n in counts.items()))


def study_markdown(study: dict, policy: str, command: str, cards=None, what_if=None) -> str:
    """results/pirates.md: headline, per level the ranking, significance, pairs, what-if."""
    pir, tests, pairs = study["pirates"], study["tests"], study["pairs"]
    t = as_table(cards)
    from .balance import indistinguishable
    lines = ["# Pirate balance", "",
             f"Made by `{command}` ({games_text(study)}, seed {study['seed']}, "
             f"policy `{policy}`, card table {t.describe()}).", "",
             "A pirate is *faced* when Robinson fights it: the first pirate (the policy's choice, "
             "R9.1) in every game that reaches the pirates, the second only after the first is "
             "beaten. *Beaten when faced* counts both fights; *reached* is the share of the "
             "games in which it was drawn that reach the pirates (R8.2). Intervals: 95% Wilson. "
             "Differences between pirates: two-sided two-proportion z-tests on beaten when faced, "
             "Holm-adjusted over the 45 pairs of each level (the two fights of one game share a "
             "deck; the tests treat fights as independent).", "", "## Headline", ""]
    for level in sorted(pir["level"].unique()):
        d = pir[pir["level"] == level]
        tl = tests[tests["level"] == level]
        hard, easy = d.iloc[0], d.iloc[-1]
        same_hard = indistinguishable(tl, hard["label"])
        same_easy = indistinguishable(tl, easy["label"])
        lines.append(
            f"* Level {level}: hardest **{hard['label']}** (beaten when faced "
            f"{pct(hard['beaten_rate'], hard['beaten_lo'], hard['beaten_hi'])})"
            + (f", indistinguishable from {', '.join(same_hard)}" if same_hard else
               ", significantly harder than every other pirate")
            + f"; easiest **{easy['label']}** "
              f"({pct(easy['beaten_rate'], easy['beaten_lo'], easy['beaten_hi'])})"
            + (f", indistinguishable from {', '.join(same_easy)}" if same_easy else
               ", significantly easier than every other pirate") + ".")
    if what_if is not None:
        c = what_if["crossing"]
        lines.append(f"* What-if (level {what_if['level']}): {what_if['label']} is beaten as "
                     f"often as the median other pirate at {what_if['field']} = "
                     + (f"{c['value']:.1f} (95% interval [{c['lo']:.1f}, {c['hi']:.1f}])"
                        if np.isfinite(c["value"]) else "a value outside the swept range")
                     + " (see below).")
    lines += ["", "Figures: `pirate_ranking.png` (all levels), `pirate_pairs_level<L>.png`."]
    for level in sorted(pir["level"].unique()):
        d = pir[pir["level"] == level]
        tl = tests[tests["level"] == level]
        lines += ["", f"## Level {level}", "",
                  "| rank | pirate | drawn | reached | beaten when faced first | beaten when faced "
                  "second | beaten when faced | win rate when drawn |", "|---|---|---|---|---|---|---|---|"]
        for r in d.to_dict("records"):
            lines.append(
                f"| {r['rank']} | {r['label']} | {r['drawn']:,} | "
                f"{pct(r['reached_rate'], r['reached_lo'], r['reached_hi'])} | "
                f"{pct(r['beaten_first_rate'], r['beaten_first_lo'], r['beaten_first_hi'])} "
                f"(n={r['beaten_first_n']:,}) | "
                f"{pct(r['beaten_second_rate'], r['beaten_second_lo'], r['beaten_second_hi'])} "
                f"(n={r['beaten_second_n']:,}) | "
                f"{pct(r['beaten_rate'], r['beaten_lo'], r['beaten_hi'])} (n={r['beaten_n']:,}) | "
                f"{pct(r['win_when_drawn_rate'], r['win_when_drawn_lo'], r['win_when_drawn_hi'])} |")
        ns = tl[~tl["significant"]]
        lines += ["", "Not significantly different (Holm-adjusted p >= 0.05): "
                  + ("; ".join(f"{a} vs {b} (p={p:.2g})" for a, b, p in
                               zip(ns["harder"], ns["easier"], ns["p_holm"])) or "none") + ".",
                  "", "Hardest and easiest pairs:", "",
                  "| pair | games | win rate [95%] |", "|---|---|---|"]
        pl = pairs[pairs["level"] == level]
        for r in pd.concat([pl.head(3), pl.tail(3)]).to_dict("records"):
            lines.append(f"| {r['pair']} | {r['games']:,} | "
                         f"{pct(r['win_rate'], r['win_lo'], r['win_hi'])} |")
    if what_if is not None:
        lines += ["", f"## What-if: {what_if['label']} {what_if['field']}, level "
                  f"{what_if['level']}", "",
                  f"The same {what_if['games']:,} deals (seed {what_if['seed']}) for every value "
                  f"(common random numbers); figure `pirate_what_if.png`.", ""]
        lines += sweep_markdown(what_if)
    lines.append("")
    return "\n".join(lines)


def write_study(out: Path, study: dict, policy: str, command: str, cards=None, what_if=None):
    """pirates.md, pirates.csv, pirate_pairs.csv and the figures into ``out``, each written
    atomically (sim.lab.files)."""
    ranking_figure(study["pirates"], out / "pirate_ranking.png", policy, games_text(study),
                   cards)
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


STUDY_FILES = ("pirates.md", "pirates.csv", "pirate_pairs.csv", "pirate_ranking.png")
