"""How much of Friday is luck, exactly?  Writes results/luck.md (issue 42).

    python benchmarks/luck.py [--games 1000] [--seed 3] [--level all] [--budget 10000000]
        [--fair expert,veteran,learned] [--threads N] [--out results/luck.md] [--force]

Per level, deals 0 .. N-1 of the master seed are solved by the UNFAIR ``unfair-solver``
(policies.unfair_solver: it reads every hidden order and future shuffle, R1.4 broken on
purpose, and searches the whole game tree, sim.fast.solver): each deal is won (a winning line
exists: found and played), proven lost (no line wins) or undecided (``--budget`` steps spent
first).  The deals won, with their 95% Wilson interval, are the share of deals that can be won
at all (an exact upper bound when nothing is undecided).  Beside it, on the same deals: today's
rollout bound ``unfair-clairvoyant`` and the fair players (``--fair``), each also as a share of
the deals the solver wins.  Time per deal: the process's CPU time over all threads per deal,
compile excluded, as a ratio to expert's on the same deals in the same run.  Ctrl-C writes
the levels finished (exit code 130).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from policies import load_policy  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError, UsageError  # noqa: E402
from sim.lab import stats  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.rules import check_seed, parse_levels  # noqa: E402

BOUND = "unfair-clairvoyant"
REFERENCE = "expert"
METHOD = ("exhaustive depth-first search of the game tree with every hidden order and future "
          "shuffle known (sim.fast.solver): limited-discrepancy iterations over veteran (d = 0, "
          "1, 2, ... deviations from its actions; a branch with none left is played out by "
          "veteran), a transposition table on a hash of the full state (states proven lost, "
          "and the most deviations tried without a win), and one bound (a pirate whose value "
          "exceeds the positive values of every card Robinson has or can still win, plus one "
          "more per double or copy card, cannot be beaten: R4.6, R5.4, R5.5, R9.5)")


def timed(run):
    """(result, CPU seconds of the process, all threads) of ``run()``."""
    t0 = time.process_time()
    result = run()
    return result, time.process_time() - t0


def percent(k, n) -> str:
    lo, hi = stats.wilson_interval(int(k), int(n))
    return f"{100 * k / n:.2f}% [{100 * lo:.2f}%, {100 * hi:.2f}%]"


def one_level(level, seed, games, budget, fair, threads, log):
    """The solver's answers and every player's wins on deals 0..games-1 of ``level``."""
    from policies.unfair_solver import solve_deals
    from sim.fast import run_batch
    solve_deals(level, seed, 0, 1, budget=budget, threads=threads)       # compile or load
    (rows, answers), cpu = timed(lambda: solve_deals(level, seed, 0, games, budget=budget,
                                                     threads=threads))
    log(f"level {level}: solved {games:,} deals in {cpu:.1f} CPU s")
    players = {}
    for policy in [load_policy(BOUND)] + fair:
        run_batch(level, seed, 0, 1, policy, threads=threads)
        won, t = timed(lambda: run_batch(level, seed, 0, games, policy, threads=threads)["won"])
        players[policy.name] = won.astype(bool), t
        log(f"level {level}: {policy.name} in {t:.1f} CPU s")
    return rows, answers, cpu, players


def level_lines(level, games, rows, answers, cpu, players) -> list[str]:
    status = answers["status"].to_numpy()
    won = status == "won"
    n_won, n_lost, n_open = int(won.sum()), int((status == "lost").sum()), \
        int((status == "undecided").sum())
    ref_time = players[REFERENCE][1] if REFERENCE in players else None

    def ratio(t):
        return f"{t / ref_time:,.0f}x" if ref_time else "n/a"
    lines = [f"### Level {level}", "",
             "| player | deals won | win rate [95% Wilson interval] | share of the deals "
             "unfair-solver wins | time per deal / expert's |", "|---|---|---|---|---|",
             f"| **unfair-solver** (exact, UNFAIR) | {n_won:,} of {games:,} | "
             f"{percent(n_won, games)} | 1.000 | {ratio(cpu)} |"]
    for name, (w, t) in players.items():
        share = f"{(w & won).sum() / n_won:.3f}" if n_won else "n/a"
        lines.append(f"| {name} | {int(w.sum()):,} of {games:,} | {percent(w.sum(), games)} | "
                     f"{share} | {ratio(t)} |")
    steps = answers["steps"].to_numpy()
    dev = answers.loc[won, "deviations"].value_counts().sort_index()
    lines += ["", f"Answers: won {n_won:,}, proven lost {n_lost:,}, undecided {n_open:,} "
              f"(of {games:,} deals).  Deviations from veteran the winning line needed: "
              + ", ".join(f"{int(d)}: {int(k):,}" for d, k in dev.items())
              + f".  Steps per deal: mean {steps.mean():,.0f}, max {steps.max():,}; "
              f"unfair-clairvoyant won {int((players[BOUND][0] & ~won).sum())} deal(s) that "
              "unfair-solver did not.", ""]
    return lines


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--level", default="all")
    ap.add_argument("--budget", type=int, default=10_000_000,
                    help="steps per deal before it is counted undecided")
    ap.add_argument("--fair", default="expert,veteran,learned",
                    help="comma-separated fair players (expert is the time reference)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "luck.md")
    ap.add_argument("--force", action="store_true", help="overwrite --out")
    a = ap.parse_args(argv)
    try:
        levels, seed = parse_levels(a.level), check_seed(a.seed)
        for name, v in (("--games", a.games), ("--budget", a.budget)):
            if v <= 0:
                raise UsageError(f"{name} must be positive, got {v}")
        if a.threads is not None and a.threads <= 0:
            raise UsageError(f"--threads must be positive, got {a.threads}")
        fair = [load_policy(p) for p in a.fair.split(",") if p.strip()]
        if any(getattr(p, "sees_all", False) for p in fair):
            raise UsageError("--fair takes fair players only (not an unfair-... one)")
        check_file(a.out, (".md",), a.force, "out")
    except FridayError as exc:
        print(f"error: {error_line(exc)}", file=sys.stderr)
        return 2

    def log(msg):
        print(msg, file=sys.stderr, flush=True)
    command = command_line(argv, "python benchmarks/luck.py", force=True)
    head = ["# How much of Friday is luck", "",
            f"Made by `{command}` (master seed {seed}; deals 0..{a.games - 1:,} of each level, "
            "the same deals for every player).", "",
            f"Method: {METHOD}.  A deal is won (a winning line was found and played: it can be "
            f"won), proven lost (no line wins), or undecided (its budget of {a.budget:,} steps, "
            "decisions played in the tree and in the play-outs, spent first).  "
            "unfair-solver and unfair-clairvoyant are UNFAIR: they read every hidden order "
            "(R1.4); the fair players' share of the deals it wins is how much of the winnable "
            "game they win.  Time per deal: CPU time of the process (all threads) per deal, "
            "compile excluded, over expert's on the same deals in this run.", ""]
    body, done = [], []
    try:
        for lv in levels:
            rows, answers, cpu, players = one_level(lv, seed, a.games, a.budget, fair,
                                                    a.threads, log)
            body += level_lines(lv, a.games, rows, answers, cpu, players)
            done.append(lv)
    except KeyboardInterrupt:
        if done:
            write_text(a.out, "\n".join(head + body + [
                f"Interrupted: levels {', '.join(map(str, done))} only.", ""]))
            log(f"interrupted: wrote the finished levels to {a.out}")
        else:
            log("interrupted before a level was finished: nothing written")
        return 130
    write_text(a.out, "\n".join(head + body))
    log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
