"""Strength against time per game: search settings on the same deals; a table and a figure.

    python benchmarks/search_curve.py SPEC [SPEC ...] [--level 4] [--games 500] [--seed 1]
        [--threads N] [--time-games 30] [--cache .strength_cache] [--out results/search_curve]
        [--force]

Every SPEC (a policy spec: ``search[rollouts=1024,race=0]``, ``veteran``...) plays games
0..N-1 of the seed at the level (the same deals for every spec, sim.rng).  Per spec: the win
rate with its 95% Wilson interval, the time per game per core (CPU time, all threads, / games over
the first ``--time-games`` games, played again in this run after the compile), and against the
first SPEC on the very same games the paired win-rate difference (Newcombe's hybrid score
interval, method 10) and McNemar's exact p.  Writes OUT.md and OUT.png (win rate against time
per game, log scale).  Finished chunks are kept in ``--cache`` as by benchmarks/strength.py
(an interrupted run resumes; a kept chunk is checked by playing some of its games again).
"""
from __future__ import annotations

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
from sim.rules import check_level, check_seed  # noqa: E402


def rows_of(specs, results) -> list[list[str]]:
    """The table's rows: results = {spec: (won, score, core seconds per game)}."""
    first_won = results[specs[0]][0]
    rows = []
    for spec in specs:
        won, score, secs = results[spec]
        cells = [f"`{spec}`", f"{len(won):,}", interval(*stats.rate_with_interval(
            int(won.sum()), len(won))), f"{score.mean():.1f}", per_game(secs)]
        if spec == specs[0]:
            cells += ["(reference)", ""]
        else:
            d = stats.paired_proportion_difference(won, first_won)
            cells += [f"{d.difference:+.2%} [{d.low:+.2%}, {d.high:+.2%}]",
                      pvalue(stats.mcnemar_exact(d.a_only, d.b_only))]
        rows.append(cells)
    return rows


def figure(specs, results, level, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(9, 6.5))
    for i, spec in enumerate(specs, 1):             # numbered points, the specs in the legend
        won, _, secs = results[spec]
        r, lo, hi = stats.rate_with_interval(int(won.sum()), len(won))
        ax.errorbar([secs], [r], yerr=[[r - lo], [hi - r]], fmt="o", capsize=3,
                    label=f"{i}: {spec}")
        ax.annotate(str(i), (secs, r), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize=7, ncol=1,
              frameon=False)
    ax.set_xscale("log")
    ax.set_xlabel("time per game per core (s, log scale)")
    ax.set_ylabel(f"win rate at level {level} (95% Wilson interval)")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.grid(True, alpha=0.3)
    ax.set_title("Search settings: strength against time per game (same deals)")
    fig.tight_layout()
    save_figure(fig, path, dpi=120)


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--level", type=int, default=4)
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
        level, seed = check_level(a.level), check_seed(a.seed)
        for name, v in (("--games", a.games), ("--chunk", a.chunk),
                        ("--time-games", a.time_games), ("--threads", a.threads or 1)):
            if v <= 0:
                raise UsageError(f"{name} must be positive, got {v}")
        if len(set(a.specs)) != len(a.specs):
            raise UsageError("a SPEC is given twice")
        pols = {spec: load_policy(spec) for spec in a.specs}
        md, png = a.out.with_suffix(".md"), a.out.with_suffix(".png")
        check_file(md, (".md",), a.force)
        check_file(png, (".png",), a.force)
    except FridayError as exc:
        ap.exit(2, f"error: {error_line(exc)}\n")
    a.cache.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]

    def log(msg):
        print(msg, file=sys.stderr, flush=True)
    results = {}
    try:
        for spec, pol in pols.items():
            won, score = play(pol, level, seed, a.games, a.chunk, a.threads, a.cache, log)
            secs = time_per_game(pol, level, seed, min(a.time_games, a.games), a.threads)
            results[spec] = won, score, secs
            log(f"{spec}: {won.mean():.2%} won, {per_game(secs)} per game per core")
    except KeyboardInterrupt:
        log("interrupted: finished chunks are kept in the cache; rerun the same command to go on")
        return 130
    command = command_line(argv, "python benchmarks/search_curve.py")
    head = ["spec", "games", "win rate [95% Wilson]", "mean score", "time per game per core",
            f"vs `{a.specs[0]}`: difference [95% Newcombe]", "McNemar p"]
    lines = [f"# Search: strength against time per game, level {level}", "",
             f"Made by `{command}` from the repository root (games 0..{a.games - 1:,} of master "
             f"seed {seed}, the same deals for every spec). Time per game per core: CPU time "
             f"(all threads) / games over the first {min(a.time_games, a.games)} games, compile "
             f"excluded, {numba_threads(a.threads)} threads, load average at the start "
             f"{load:.1f}. Figure: [{png.name}]({png.name}).", "",
             *markdown_table(head, rows_of(a.specs, results)), ""]
    write_text(md, "\n".join(lines))
    figure(a.specs, results, level, png)
    log(f"wrote {md} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
