"""Pirate balance under three strengths, side by side: the studies of ``friday balance
pirates`` for veteran, learned and search (each folder's pirates.csv and pirates.md), as one
Markdown page with each pirate's beaten-when-faced and win-rate-when-drawn figures and ranks,
the rank correlation between strengths (Spearman, scipy) and, per strength, whether the
hardest and easiest pirate by win rate when drawn differ (two-proportion z-test).

    python benchmarks/pirate_strengths.py results results/pirates_learned results/pirates_search \
        --out results/pirate_strengths.md --force
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pandas as pd
from scipy import stats

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.stats import two_proportion_p  # noqa: E402


def study(folder: Path) -> tuple[pd.DataFrame, str, str, str]:
    """A study's table, its policy, its command and its what-if verdict (from its pirates.md;
    "" without a what-if)."""
    table = pd.read_csv(folder / "pirates.csv")
    md = (folder / "pirates.md").read_text()
    command = re.search(r"Made by `([^`]+)`", md).group(1)
    policy = re.search(r"policy `([^`]+)`", md).group(1)
    what_if = re.search(r"^\* What-if \(level \d\): (.+)$", md, re.M)
    return table, policy, command, what_if.group(1) if what_if else ""


def pct(rate, lo, hi) -> str:
    return f"{rate:.2%} [{lo:.2%}, {hi:.2%}]" if rate == rate else "n/a"


def fmt_p(p: float) -> str:
    return "< 1e-300" if p == 0 else f"{p:.2g}"


MEASURE = ("Which measure says how hard a pirate is? Both pirates are known from the start "
           "(R2.4), so a good player builds the deck for them. *Beaten when faced* conditions "
           "on reaching the pirate with that deck: a strong player's preparation shows as a "
           "rate near 100% that hides what the preparation cost earlier. *Win rate when "
           "drawn* counts the whole game, preparation and fight: what a player drawing that "
           "pirate can expect. It is the measure that answers \"how hard is this pirate for "
           "this player\", and the tables are ranked by it; beaten when faced says where "
           "the difficulty lies, in the final fight or before it.")


def level_section(level: int, studies: list) -> list[str]:
    have = [(pol, t[t.level == level].set_index("label")) for t, pol, _, _ in studies
            if (t.level == level).any()]
    labels = have[0][1].sort_values("win_when_drawn_rate").index
    head = "| pirate | " + " | ".join(
        f"{pol}: beaten when faced | {pol}: win rate when drawn (rank)" for pol, _ in have) + " |"
    lines = [f"## Level {level}", "", head, "|---|" + "---|---|" * len(have)]
    for lab in labels:
        cells = []
        for _, t in have:
            r = t.loc[lab]
            rank = int(t.win_when_drawn_rate.rank(method="min").loc[lab])
            cells += [f"{pct(r.beaten_rate, r.beaten_lo, r.beaten_hi)} (n={int(r.beaten_n):,})",
                      f"{pct(r.win_when_drawn_rate, r.win_when_drawn_lo, r.win_when_drawn_hi)}"
                      f" ({rank})"]
        lines.append(f"| {lab} | " + " | ".join(cells) + " |")
    lines += ["", "Rank 1: the lowest win rate when drawn (the hardest).", ""]
    for pol, t in have:
        hard, easy = t.win_when_drawn_rate.idxmin(), t.win_when_drawn_rate.idxmax()
        k = lambda lab: (t.loc[lab].win_when_drawn_rate * t.loc[lab].win_when_drawn_n,
                         t.loc[lab].win_when_drawn_n)
        p = two_proportion_p(*k(hard), *k(easy))
        pairs = len(t) * (len(t) - 1) // 2         # the extremes are picked from all pairs
        spread = t.loc[easy].win_when_drawn_rate - t.loc[hard].win_when_drawn_rate
        lines.append(f"* {pol}: hardest **{hard}**, easiest **{easy}**, {spread:+.2%} apart "
                     f"(two-proportion z-test p {fmt_p(p)}, "
                     f"Bonferroni over the {pairs} pairs {fmt_p(min(1.0, p * pairs))}); beaten when faced from "
                     f"{t.beaten_rate.min():.2%} to {t.beaten_rate.max():.2%}.")
    for i in range(len(have)):
        for j in range(i + 1, len(have)):
            (a, ta), (b, tb) = have[i], have[j]
            for col, word in (("win_when_drawn_rate", "win rate when drawn"),
                              ("beaten_rate", "beaten when faced")):
                rho, p = stats.spearmanr(ta[col], tb.loc[ta.index][col])
                lines.append(f"* Ranks by {word}, {a} against {b}: Spearman rho = {rho:+.2f} "
                             f"(p = {p:.2g}).")
    return lines + [""]


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path, help="study folders (--out of friday "
                    "balance pirates), weakest policy first")
    ap.add_argument("--out", type=Path, default=Path("results/pirate_strengths.md"),
                    help="the Markdown page to write")
    ap.add_argument("--force", action="store_true", help="overwrite --out")
    args = ap.parse_args(argv)
    if args.out.exists() and not args.force:
        ap.error(f"{args.out} exists: add --force")
    for f in args.folders:
        if not (f / "pirates.csv").exists() or not (f / "pirates.md").exists():
            ap.error(f"{f} holds no study (pirates.csv and pirates.md of friday balance pirates)")
    studies = [study(f) for f in args.folders]
    levels = sorted(set().union(*(set(t.level) for t, _, _, _ in studies)))
    lines = ["# Pirate balance under three strengths", "",
             "Made by `" + command_line([*args.folders, "--out", args.out, "--force"],
                                        "python benchmarks/" + Path(__file__).name)
             + "` from the "
             "studies below (each row: its pirates.csv).  Intervals: 95% Wilson.", ""]
    for t, pol, command, _ in studies:
        n = t.groupby("level").drawn.sum() // 2
        lines.append(f"* `{pol}`: `{command}` ("
                     + ", ".join(f"level {lv}: {g:,} games" for lv, g in n.items()) + ").")
    lines += ["", MEASURE, "", "Fair value of the hardest pirate (each study's what-if):", ""]
    lines += [f"* {pol}: {w.replace(' (see below)', '').rstrip('.')}." if w else f"* {pol}: not measured (no what-if in "
              "its study)." for _, pol, _, w in studies]
    lines.append("")
    for lv in levels:
        lines += level_section(lv, studies)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
