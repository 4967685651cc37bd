"""Plain-text tables of sim.lab results, as ``friday compare`` prints them, and the one
builder of Markdown tables (``friday report``, ``friday balance``)."""
from __future__ import annotations

import math

import pandas as pd

from sim.rules import options_text
from .compare import METHODS


def interval(r, lo, hi) -> str:
    """A rate with its 95% interval, ``n/a`` where nothing was counted."""
    return f"{r:.2%} [{lo:.2%}, {hi:.2%}]" if math.isfinite(r) else "n/a"


def pvalue(p) -> str:
    return "n/a" if p != p else "< 1e-300" if p < 1e-300 else f"{p:.3g}"


def markdown_table(head, rows) -> list[str]:
    """A Markdown table's lines: the header, its rule, one line per row of cells."""
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(map(str, r)) + " |" for r in rows)]


def header_lines(attrs: dict) -> list[str]:
    lines = [f"friday compare: {len(attrs['labels'])} policies on the same deals (game g of seed "
             f"{attrs['seed']} dealt alike for every policy), {attrs['games_per_level']:,} games "
             f"per level, options {options_text(attrs['options'])}"]
    for label, rec in zip(attrs["labels"], attrs["policies"]):
        src = f"{rec['file']} sha256 {rec['sha256'][:12]}" if rec.get("file") else "no file"
        over = ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v}"
                         for k, v in rec["overrides"].items())
        lines.append(f"  {label}: " + (f"{rec['base']} with {over}" if over else "defaults")
                     + f"; {src}")
    return lines


def level_table(comparison: pd.DataFrame, level: int) -> str:
    g = comparison[comparison.level == level]
    rates = {p: v for s in "ab" for p, *v in
             zip(g[s], *(g[f"{s}_{c}"] for c in ("win_rate", "ci_low", "ci_high", "mean_score")))}
    sides = pd.DataFrame({"policy": list(rates),
                          "win rate [95% Wilson]": [interval(*v[:3]) for v in rates.values()],
                          "mean score": [f"{s:.2f}" for *_, s in rates.values()]})
    many = len(g) > 1
    pairs = pd.DataFrame({
        "a - b": [f"{a} - {b}" for a, b in zip(g.a, g.b)],
        "win-rate diff [95% Newcombe]": [f"{100 * d:+.2f} pp [{100 * lo:+.2f}, {100 * hi:+.2f}]"
                                         for d, lo, hi in zip(g.win_diff, g.win_diff_low,
                                                              g.win_diff_high)],
        "a won, b lost": g.a_only.map("{:,}".format),
        "b won, a lost": g.b_only.map("{:,}".format),
        "McNemar p": g.mcnemar_p.map(pvalue),
        **({"(Holm)": g.mcnemar_p_holm.map(pvalue)} if many else {}),
        "score diff [95% paired t]": [f"{d:+.2f} [{lo:+.2f}, {hi:+.2f}]" for d, lo, hi in
                                      zip(g.score_diff, g.score_diff_low, g.score_diff_high)],
        "t-test p": g.score_p.map(pvalue),
        **({"(Holm) ": g.score_p_holm.map(pvalue)} if many else {}),
    })
    n = int(g.games.iloc[0])
    return (f"level {level} ({n:,} games)\n" + sides.to_string(index=False) + "\n\n"
            + pairs.to_string(index=False))


def ranking_text(ranks: pd.DataFrame) -> str:
    lines = []
    for lv, g in ranks.groupby("level", sort=True):
        lines.append(f"  level {lv}:")
        for r in g.itertuples():
            vs = f"   vs {r.next}: {r.vs_next}" if isinstance(r.next, str) else ""
            lines.append(f"    {r.rank}. {r.policy} ({r.win_rate:.2%} won, mean score "
                         f"{r.mean_score:.2f}){vs}")
    return "\n".join(lines)


def comparison_text(comparison: pd.DataFrame, ranks: pd.DataFrame | None = None) -> str:
    out = header_lines(comparison.attrs)
    if comparison.attrs.get("interrupted"):
        out.append("  [INTERRUPTED: only the games every policy finished are compared]")
    for lv in sorted(comparison.level.unique()):
        out += ["", level_table(comparison, lv)]
    if ranks is not None:
        out += ["", "ranking by win rate, then mean score (better than the next one: "
                    "Holm-adjusted p < 0.05)", ranking_text(ranks)]
    out += ["", "methods:"] + [f"  {k}: {v}" for k, v in METHODS.items()]
    return "\n".join(out)
