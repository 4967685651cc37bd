"""Paired comparison of policies on the same deals (common random numbers).

Game g of seed s starts from the same stacks and pirates whatever the policy (sim.rng), so
two policies are compared game by game: the win-rate difference with Newcombe's paired
interval, McNemar's exact test on the discordant games, the paired mean score difference
with its t interval (sim.lab.stats).  With more than two policies every pair is compared and
the p-values of each level are Holm-adjusted over its pairs.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from sim.cardtable import as_table
from sim.errors import UsageError
from sim.rules import CAUSE_NAMES, STEP_NAMES, as_options, check_seed, parse_levels
from . import stats
from .files import check_file, write_parquet
from .run import Plan, Run, Setup, backend_for, concat_rows
from .simulate import check_games, check_threads
from .summary import summarize as summarize_rows

# per-game outcomes kept for each policy in the paired frame, with compact dtypes
OUTCOMES = {"won": np.bool_, "score": np.int16, "cause": np.int8, "step": np.int8,
            "life": np.int8, "destroyed": np.int16, "fights_lost_green": np.int16,
            "turns": np.int16, "pirate_1_beaten": np.int8, "pirate_2_beaten": np.int8,
            "pirate_first": np.int8}
DEAL = ("pirate_1", "pirate_2")          # the same for every policy: checked
METHODS = {"win rate interval": "Wilson score (95%)",
           "win-rate difference": "Newcombe hybrid score interval for paired proportions (95%)",
           "win test": "McNemar exact (two-sided binomial test on the discordant games)",
           "score difference": "paired t interval (95%) and paired t-test",
           "multiple comparisons": "Holm step-down, over the pairs of each level"}


def labels_for(policies) -> list[str]:
    """Column labels: the policies' exact specs, ``#2``... where one is named twice."""
    out = []
    for p in policies:
        label, k = p.name, 2
        while label in out:
            label, k = f"{p.name} #{k}", k + 1
        out.append(label)
    return out


def play_paired(policies, level="all", games: int = 100_000, seed: int = 1, options=None,
                threads=None, chunk: int | None = None, keep_on_interrupt: bool = False,
                cluster=None, cards=None, quiet: bool = True) -> pd.DataFrame:
    """Every policy plays the very same games: one row per level and game, the outcomes of
    every policy side by side (columns ``"<policy>:won"``, ``"<policy>:score"``, ...).

    ``keep_on_interrupt``: a Ctrl-C keeps the games every policy finished (``df.attrs
    ["interrupted"]``) instead of raising KeyboardInterrupt.  ``cluster``: play on Dask
    (an address such as ``"local:2"``, a ``distributed.Client`` or a connected
    ``sim.lab.cluster.Cluster``) in chunks of ``chunk`` games: identical results.  ``cards``:
    a what-if card table every policy plays with.  ``quiet=False``: the compile notice and
    a progress bar (sim.lab.run)."""
    from policies import load_policy
    from .cluster import connected
    if isinstance(policies, str) or not hasattr(policies, "__iter__"):
        raise UsageError(f"policies must be a list of two or more policies, got {policies!r}")
    pols = [load_policy(p) for p in policies]
    if len(pols) < 2:
        raise UsageError("compare needs at least two policies (the same one twice is allowed)")
    levels, seed = parse_levels(level), check_seed(seed)
    games, threads = check_games(games), check_threads(threads)
    opts, table = as_options(options), as_table(cards)
    labels = labels_for(pols)
    plan = Plan(tuple(Setup(p, opts, table) for p in pols), tuple(levels), games, seed)
    with connected(cluster) as dask:
        with Run(plan, backend_for(dask, chunk, threads), quiet) as run:
            parts = [_side_by_side(part, labels) for part in run]
    if run.interrupted and not keep_on_interrupt:
        raise KeyboardInterrupt
    df = (pd.DataFrame(concat_rows(parts)) if parts
          else pd.DataFrame(columns=["level", "game", *DEAL]))
    for label in labels if parts else ():
        for col, names in (("cause", CAUSE_NAMES), ("step", STEP_NAMES)):
            df[f"{label}:{col}"] = pd.Categorical.from_codes(df[f"{label}:{col}"],
                                                             categories=list(names))
    df.attrs.update({"labels": labels, "policies": [p.record() for p in pols],
                     "seed": seed, "options": opts.as_dict(), "engine": "fast",
                     "games_per_level": games, "levels": levels,
                     "interrupted": run.interrupted, "methods": METHODS,
                     "cards": table.meta()})
    return df


def _side_by_side(part, labels) -> dict:
    """One range's outcomes of every policy as compact columns; the deals must agree."""
    runs = part.results
    out = {"level": np.full(part.count, part.level, np.int8), "game": runs[0]["game"]}
    for col in DEAL:
        if any(not np.array_equal(r[col], runs[0][col]) for r in runs):
            raise RuntimeError("policies were dealt different games: common random numbers "
                               "broken")
        out[col] = runs[0][col].astype(np.int8)
    for label, r in zip(labels, runs):
        for col, dtype in OUTCOMES.items():
            out[f"{label}:{col}"] = r[col].astype(dtype)
    return out


def check_paired(paired, who: str, columns=tuple(OUTCOMES)) -> pd.DataFrame:
    """``paired`` is a frame of ``play_paired`` (its ``attrs["labels"]`` name the policies,
    each with the outcome ``columns`` that ``who`` reads unless no game finished), else
    UsageError saying that ``who`` wants it."""
    labels = paired.attrs.get("labels") if isinstance(paired, pd.DataFrame) else None
    if not labels or "level" not in paired.columns or len(paired) and any(
            f"{label}:{col}" not in paired.columns for label in labels for col in columns):
        what = (f"{type(paired).__name__} {paired!r:.40}" if not isinstance(
            paired, pd.DataFrame) else "a frame without the policies' outcome columns and "
            "attrs['labels']")
        raise UsageError(f"paired must be the frame of play_paired (one row per level and "
                         f"game, every policy's outcomes side by side): {who} got {what}",
                         "paired")
    return paired


def long_frame(paired: pd.DataFrame) -> pd.DataFrame:
    """The paired frame as one row per policy, level and game (column ``policy``)."""
    check_paired(paired, "long_frame")
    out = pd.concat([pd.DataFrame({"policy": label, "level": paired["level"],
                                   "game": paired["game"],
                                   **{c: paired[f"{label}:{c}"] for c in OUTCOMES}})
                     for label in paired.attrs["labels"]], ignore_index=True)
    out["policy"] = pd.Categorical(out["policy"], categories=paired.attrs["labels"])
    return out


def compare_paired(paired: pd.DataFrame) -> pd.DataFrame:
    """One row per level and pair of policies (a, b), everything as a - b."""
    check_paired(paired, "compare_paired", ("won", "score"))     # all it compares
    rows = []
    for lv, g in paired.groupby("level", sort=True):
        for a, b in combinations(paired.attrs["labels"], 2):
            wa, wb = g[f"{a}:won"].to_numpy(), g[f"{b}:won"].to_numpy()
            row = {"level": int(lv), "a": a, "b": b, "games": len(g)}
            for side, won in (("a", wa), ("b", wb)):
                lo, hi = stats.wilson_interval(int(won.sum()), len(g))
                row.update({f"{side}_wins": int(won.sum()), f"{side}_win_rate": won.mean(),
                            f"{side}_ci_low": lo, f"{side}_ci_high": hi})
            d = stats.paired_proportion_difference(wa, wb)
            sd = stats.paired_mean_difference(g[f"{a}:score"], g[f"{b}:score"])
            rows.append({
                **row, "win_diff": d.difference, "win_diff_low": d.low, "win_diff_high": d.high,
                "a_only": d.a_only, "b_only": d.b_only,
                "mcnemar_p": stats.mcnemar_exact(d.a_only, d.b_only),
                "a_mean_score": float(g[f"{a}:score"].mean()),
                "b_mean_score": float(g[f"{b}:score"].mean()),
                "score_diff": sd.difference, "score_diff_low": sd.low,
                "score_diff_high": sd.high, "score_p": sd.p_value})
    out = pd.DataFrame(rows)
    for key in ("mcnemar_p", "score_p"):
        out[key + "_holm"] = out.groupby("level")[key].transform(stats.holm)
    out.attrs = dict(paired.attrs)
    return out


def compare(policies, level="all", games: int = 100_000, seed: int = 1, options=None,
            threads=None) -> pd.DataFrame:
    """Compare policies on the same deals: one row per level and pair (a, b) with each side's
    win rate and Wilson interval, the paired win-rate difference a - b with Newcombe's
    interval, the discordant games (``a_only``: a won and b lost; ``b_only``), McNemar's exact
    p, the paired mean score difference with its t interval and p, and Holm-adjusted p-values
    (``*_holm``, over the pairs of each level).  ``policies``: specs, Policy objects or
    functions, at least two (the same one twice gives 0 discordant games and p = 1)."""
    return compare_paired(play_paired(policies, level, games, seed, options, threads))


def ranking(comparison: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Per level, the policies ordered by win rate (then mean score); ``vs_next`` says whether
    each is better than the next one: Holm-adjusted McNemar p (wins) and paired t p (score).
    ``alpha``: the level of the tests, strictly between 0 and 1."""
    need = {"level", "a", "b", "a_win_rate", "b_win_rate", "mcnemar_p_holm", "score_p_holm"}
    if not isinstance(comparison, pd.DataFrame) or not need <= set(comparison.columns):
        raise UsageError("comparison must be the frame of compare or compare_paired (one row "
                         "per level and pair of policies)", "comparison")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) \
            or not 0 < alpha < 1:
        raise UsageError(f"alpha must be a test level strictly between 0 and 1, not {alpha!r}",
                         "alpha")
    rows = []
    for lv, g in comparison.groupby("level", sort=True):
        rate = dict(zip([*g.a, *g.b], [*g.a_win_rate, *g.b_win_rate]))
        score = dict(zip([*g.a, *g.b], [*g.a_mean_score, *g.b_mean_score]))
        order = sorted(rate, key=lambda p: (-rate[p], -score[p]))
        for rank, (p, q) in enumerate(zip(order, order[1:] + [None]), 1):
            row = {"level": int(lv), "rank": rank, "policy": p, "win_rate": rate[p],
                   "mean_score": score[p], "next": q, "wins_p_holm": np.nan,
                   "score_p_holm": np.nan, "vs_next": ""}
            if q is not None:
                pair = g[((g.a == p) & (g.b == q)) | ((g.a == q) & (g.b == p))].iloc[0]
                better_wins = pair.mcnemar_p_holm < alpha and rate[p] > rate[q]
                better_score = pair.score_p_holm < alpha and score[p] > score[q]
                row.update(wins_p_holm=pair.mcnemar_p_holm, score_p_holm=pair.score_p_holm,
                           vs_next="better (wins, score)" if better_wins and better_score else
                           "better (wins)" if better_wins else
                           "better (score only)" if better_score else "not distinguishable")
            rows.append(row)
    return pd.DataFrame(rows)


def summarize(df: pd.DataFrame, by=None) -> pd.DataFrame:
    """Win rate with its 95% Wilson interval, mean/median score, causes per group: for a
    ``simulate`` frame per level, for a ``play_paired`` frame per policy and level."""
    if isinstance(df, pd.DataFrame) and "labels" in df.attrs and "policy" not in df.columns:
        df = long_frame(df)
    if by is None:
        by = ("policy", "level") if "policy" in getattr(df, "columns", ()) else ("level",)
    return summarize_rows(df, by=(by,) if isinstance(by, str) else tuple(by))


def write_paired(paired: pd.DataFrame, out, force: bool = False):
    """The paired frame to Parquet (sim.lab.files: atomic), its attrs in the metadata.  An
    existing file is refused unless ``force``."""
    check_paired(paired, "write_paired")
    check_file(out, (".parquet",), force)
    write_parquet(paired, out, dict(paired.attrs))
