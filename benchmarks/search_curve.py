"""Strength against time per game: players on the same deals, per level; a table and a figure.

    python benchmarks/search_curve.py SPEC [SPEC ...] [--level 4 | 1,4 | all] [--games 500]
        [--seed 1] [--threads N] [--time-games 30] [--cache .strength_cache]
        [--out results/search_curve] [--force]

Every SPEC (a policy spec: ``search[rollouts=1024,race=0]``, ``veteran``...) plays games
0..N-1 of the seed at each level (the same deals for every spec, sim.rng); ``expert`` is added
(last) when no SPEC is ``expert``: it is the reference of the cost column.  Per spec and level:
the win rate with its 95% Wilson interval, the mean score, the time per game per core (CPU
time, all threads, / games over the first ``--time-games`` games, played again in this run
after the compile; a faster player is timed over more games, until its timing holds at least
MIN_TIMED CPU seconds), that time as a ratio to expert's time per game measured in the same
run at the same level, and against the first SPEC on the very same games the paired win-rate
difference (Newcombe's hybrid score interval, method 10) and McNemar's exact p.  Players that
read hidden orders (``sees_all``: unfair-clairvoyant, unfair-solver) are bounds, not players:
marked UNFAIR in the table and drawn hollow in the figure.  Writes OUT.md (one table per
level) and OUT.png (one panel per level: win rate against the time ratio to expert, log
scale).  Finished chunks are kept in ``--cache`` as by benchmarks/strength.py (an interrupted
run resumes; a kept chunk is checked by playing some of its games again).
"""
from __future__ import annotations

import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from strength import numba_threads, per_game, play, time_per_game  # noqa: E402

from policies import load_policy  # noqa: E402
from sim.lab import stats  # noqa: E402
from sim.lab.files import check_file, command_line, save_figure, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.text import interval, markdown_table, pvalue  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError, UsageError  # noqa: E402
from sim.rules import check_seed, parse_levels  # noqa: E402

REFERENCE = "expert"        # the cost column's reference, added when no SPEC names it
MIN_TIMED = 1.0             # CPU seconds a player's timing holds at least
MAX_TIMED_GAMES = 200_000   # ... or this many games
UNFAIR = "UNFAIR: sees hidden orders"


def timed(pol, level, seed, games, threads) -> float:
    """Core-seconds per game over games 0..games-1, or over more games where those hold less
    than MIN_TIMED CPU seconds (a fast player: its ratio's denominator must not be noise)."""
    n = games
    while True:
        secs = time_per_game(pol, level, seed, n, threads)
        if secs * n >= MIN_TIMED or n >= MAX_TIMED_GAMES:
            return secs
        n = min(MAX_TIMED_GAMES, max(2 * n, math.ceil(1.2 * MIN_TIMED / max(secs, 1e-7))))


def ratio(r: float) -> str:
    return f"{r:,.0f}x" if r >= 10 else f"{r:.2f}x"


def label(spec, unfair) -> str:
    return f"`{spec}` ({UNFAIR})" if spec in unfair else f"`{spec}`"


def rows_of(specs, results, unfair=()) -> list[list[str]]:
    """One level's rows: results = {spec: (won, score, core seconds per game)}; the cost
    column is each spec's time per game over REFERENCE's."""
    first_won = results[specs[0]][0]
    ref_secs = results[REFERENCE][2]
    rows = []
    for spec in specs:
        won, score, secs = results[spec]
        cells = [label(spec, unfair), f"{len(won):,}", interval(*stats.rate_with_interval(
            int(won.sum()), len(won))), f"{score.mean():.1f}", per_game(secs),
            ratio(secs / ref_secs)]
        if spec == specs[0]:
            cells += ["(reference)", ""]
        else:
            d = stats.paired_proportion_difference(won, first_won)
            cells += [f"{d.difference:+.2%} [{d.low:+.2%}, {d.high:+.2%}]",
                      pvalue(stats.mcnemar_exact(d.a_only, d.b_only))]
        rows.append(cells)
    return rows


def figure(specs, results, unfair, path):
    """One panel per level: win rate (95% Wilson) against time per game / expert's (log);
    the UNFAIR bounds hollow, with UNFAIR in their labels."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    levels = list(results)
    fig, axes = plt.subplots(1, len(levels), figsize=(5.5 * len(levels) + 1.5, 6.5),
                             sharex=True, sharey=True, squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, level in zip(axes[0], levels):
        ref = results[level][REFERENCE][2]
        for i, spec in enumerate(specs, 1):         # numbered points, the specs in the legend
            won, _, secs = results[level][spec]
            r, lo, hi = stats.rate_with_interval(int(won.sum()), len(won))
            bound = spec in unfair
            ax.errorbar([secs / ref], [r], yerr=[[r - lo], [hi - r]], capsize=3,
                        fmt="D" if bound else "o", color=colors[(i - 1) % len(colors)],
                        mfc="none" if bound else None, markersize=7 if bound else 6,
                        label=f"{i}: {spec}" + (f" ({UNFAIR})" if bound else ""))
            ax.annotate(str(i), (secs / ref, r), textcoords="offset points", xytext=(4, 4),
                        fontsize=8)
        ax.axvline(1, color="grey", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel("time per game per core / expert's (log scale)")
        ax.set_title(f"level {level}")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("win rate (95% Wilson interval)")
    axes[0][0].yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", fontsize=7, ncol=1 if len(levels) == 1 else 2,
               frameon=False)
    fig.suptitle("Strength against time per game (same deals; hollow: UNFAIR bounds)")
    fig.tight_layout(rect=(0, 0.04 + 0.024 * math.ceil(len(specs) / min(2, len(levels))), 1, 1))
    save_figure(fig, path, dpi=120)


def parse(argv):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--level", default="4", help="a level, a list like 1,4, or all")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--time-games", type=int, default=30)
    ap.add_argument("--cache", type=Path, default=ROOT / ".strength_cache")
    ap.add_argument("--out", type=Path, default=Path("results/search_curve"))
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args(argv)
    try:
        a.levels, a.seed = parse_levels(a.level), check_seed(a.seed)
        for name, v in (("--games", a.games), ("--chunk", a.chunk),
                        ("--time-games", a.time_games), ("--threads", a.threads or 1)):
            if v <= 0:
                raise UsageError(f"{name} must be positive, got {v}")
        if len(set(a.specs)) != len(a.specs):
            raise UsageError("a SPEC is given twice")
        a.all_specs = a.specs + ([REFERENCE] if REFERENCE not in a.specs else [])
        a.pols = {spec: load_policy(spec) for spec in a.all_specs}
        a.md, a.png = a.out.with_suffix(".md"), a.out.with_suffix(".png")
        check_file(a.md, (".md",), a.force)
        check_file(a.png, (".png",), a.force)
    except FridayError as exc:
        ap.exit(2, f"error: {error_line(exc)}\n")
    return a


def text(a, argv, results, unfair, load) -> str:
    command = command_line(argv, "python benchmarks/search_curve.py")
    levels = ", ".join(map(str, a.levels))
    added = "" if REFERENCE in a.specs else f"; {REFERENCE} added as the cost reference"
    lines = [f"# Strength against time per game, level{'s' * (len(a.levels) > 1)} {levels}", "",
             f"Made by `{command}` from the repository root (games 0..{a.games - 1:,} of master "
             f"seed {a.seed} at each level, the same deals for every spec{added}). Time per game "
             f"per core: CPU time (all threads) / games over the first "
             f"{min(a.time_games, a.games)} games (a player faster than that: over as many "
             f"games as hold {MIN_TIMED} CPU seconds), compile excluded, "
             f"{numba_threads(a.threads)} threads, load average at the start {load:.1f}; "
             f"time / {REFERENCE}'s: that time over {REFERENCE}'s, measured in the same run at "
             f"the same level. Figure: [{a.png.name}]({a.png.name}).", ""]
    if unfair:
        lines += [f"{' and '.join(unfair)} are UNFAIR: they read every hidden order (the order "
                  "of each stack, every future shuffle), which R1.4 forbids; they are bounds on "
                  "what can be won, not players to choose.", ""]
    head = ["spec", "games", "win rate [95% Wilson]", "mean score", "time per game per core",
            f"time / {REFERENCE}'s", f"vs `{a.specs[0]}`: difference [95% Newcombe]",
            "McNemar p"]
    for level in a.levels:
        if len(a.levels) > 1:
            lines += [f"### Level {level}", ""]
        lines += [*markdown_table(head, rows_of(a.all_specs, results[level], unfair)), ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    a = parse(argv)
    a.cache.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    unfair = [s for s, p in a.pols.items() if getattr(p, "sees_all", False)]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)
    results = {}
    try:
        for level in a.levels:
            results[level] = {}
            for spec, pol in a.pols.items():
                won, score = play(pol, level, a.seed, a.games, a.chunk, a.threads, a.cache, log)
                secs = timed(pol, level, a.seed, min(a.time_games, a.games), a.threads)
                results[level][spec] = won, score, secs
                log(f"level {level} {spec}: {won.mean():.2%} won, {per_game(secs)} per game "
                    "per core")
    except KeyboardInterrupt:
        log("interrupted: finished chunks are kept in the cache; rerun the same command to go on")
        return 130
    write_text(a.md, text(a, argv, results, unfair, load))
    figure(a.all_specs, results, unfair, a.png)
    log(f"wrote {a.md} and {a.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
