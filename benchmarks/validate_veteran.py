"""Validate the veteran policy against the expert and ablate each of its rules; writes
results/veteran.md (run by hand; about 30 min on 2 free cores):

    python benchmarks/validate_veteran.py [--games 1000000] [--ablation-games 1000000]
        [--seed 20261201] [--ablation-seed 20261202] [--speed-games 200000]
        [--out results/veteran.md]

1. validation: ``expert`` vs ``veteran`` on the same ``--games`` deals per level, levels 1
   and 4 first, levels 2 and 3 last, seed ``--seed`` (not used while the rules were
   screened: seeds 1001-2008);
2. ablations: ``veteran`` against ``veteran`` with one rule switched off (its parameter at
   the value that gives back the expert's decision), levels 1 and 4, ``--ablation-games``,
   seed ``--ablation-seed``;
3. (after step 1) time per game: sim.fast.run_summary of each policy at level 4, 1 thread,
   ``--speed-games`` games, the two policies alternating, best of 3, in this one process.
Paired methods as `friday compare` (sim.lab.compare): Newcombe interval, McNemar exact test,
paired t for the score, Holm over the pairs of a level.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sim.lab.script import ArgumentParser  # noqa: E402

ABLATIONS = {          # rule -> the veteran variant with it off (policies/veteran.py)
    "R3 food knowledge +1 (food_bonus)": "veteran[food_bonus=0]",
    "R4.8 keep food cards (food_keep)": "veteran[food_keep=0]",
    "R3 below_pile knowledge -0.5 (below_bonus)": "veteran[below_bonus=0]",
    "R3 shortfall weighs less in yellow/red (late_value_weight)": "veteran[late_value_weight=1]",
    "R4.3/R4.10 pay on where a loss kills (pay_to_survive)": "veteran[pay_to_survive=0]",
}


def pp(x):
    return f"{100 * x:+.2f}"


def pval(p):
    return "< 1e-300" if p < 1e-300 else f"{p:.3g}"


def pair_table(c, rows, label_of=None):
    out = ["| level | games | a | b | a win rate [95% Wilson] | b win rate [95% Wilson] | "
           "a - b (pp) [95% Newcombe] | a won, b lost | b won, a lost | McNemar p | "
           "p (Holm) | score diff [95% t] | t-test p |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in c.iterrows():
        if (r.a, r.b) not in rows:
            continue
        out.append(
            f"| {r.level} | {r.games:,} | `{r.a}` | `{r.b}` | {100 * r.a_win_rate:.2f}% "
            f"[{100 * r.a_ci_low:.2f}, {100 * r.a_ci_high:.2f}] | {100 * r.b_win_rate:.2f}% "
            f"[{100 * r.b_ci_low:.2f}, {100 * r.b_ci_high:.2f}] | {pp(r.win_diff)} "
            f"[{pp(r.win_diff_low)}, {pp(r.win_diff_high)}] | {r.a_only:,} | {r.b_only:,} | "
            f"{pval(r.mcnemar_p)} | {pval(r.mcnemar_p_holm)} | {r.score_diff:+.2f} "
            f"[{r.score_diff_low:+.2f}, {r.score_diff_high:+.2f}] | {pval(r.score_p)} |")
    return "\n".join(out)


def speed(names, games, repeat=3):
    from policies import load_policy
    from sim.fast import run_summary
    pols = {n: load_policy(n) for n in names}
    for p in pols.values():
        run_summary(4, 1, 1000, p, threads=1)                     # compile / load
    best = {n: float("inf") for n in names}
    for _ in range(repeat):
        for n, p in pols.items():
            t = time.perf_counter()
            run_summary(4, 1, games, p, threads=1)
            best[n] = min(best[n], time.perf_counter() - t)
    return {n: best[n] / games for n in names}


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--ablation-games", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--ablation-seed", type=int, default=20261202)
    ap.add_argument("--speed-games", type=int, default=200_000)
    ap.add_argument("--out", default=str(ROOT / "results" / "veteran.md"))
    a = ap.parse_args(argv)
    from sim.lab import compare

    cmd = (f"python benchmarks/validate_veteran.py --games {a.games} --ablation-games "
           f"{a.ablation_games} --seed {a.seed} --ablation-seed {a.ablation_seed} "
           f"--speed-games {a.speed_games}")
    head = [
        "# veteran vs expert: validation and ablations", "",
        f"Made by `{cmd}`. Paired on the same deals (game g of a seed deals the same stacks "
        "and pirates for every policy); Wilson intervals for each rate, Newcombe's hybrid "
        "score interval for the paired difference, McNemar's exact test on the discordant "
        "games, paired t for the mean score, Holm over the pairs of each level (the ablation "
        "run compares all its policies pairwise; the rows below are veteran against each "
        "ablation). Default rule options. The stages are written as each one finishes "
        "(validation of levels 1 and 4, time per game, ablations, validation of levels 2 "
        "and 3); a stage missing below did not finish.", ""]
    parts = {}

    def write():
        out = Path(a.out)
        tmp = out.with_suffix(".tmp")
        tmp.write_text("\n".join(head + [x for k in sorted(parts) for x in parts[k]]) + "\n")
        tmp.replace(out)

    def validation(key, levels):
        t = time.time()
        c = compare(["expert", "veteran"], level=levels, games=a.games, seed=a.seed)
        parts[key] = [f"## Validation: expert vs veteran, levels {levels}, {a.games:,} games "
                      f"per level, seed {a.seed} ({time.time() - t:.0f} s, load average "
                      f"{os.getloadavg()[0]:.1f})", "", pair_table(c, {("expert", "veteran")}), ""]
        write()

    validation(0, [1, 4])
    per_game = speed(["expert", "veteran"], a.speed_games)
    parts[1] = [
        "## Time per game", "",
        f"sim.fast.run_summary, level 4, seed 1, {a.speed_games:,} games, 1 thread, best of 3, "
        f"the two alternating in one process; load average {os.getloadavg()[0]:.1f} after.", "",
        "| policy | us per game | ratio to expert |", "|---|---|---|",
        *[f"| `{n}` | {1e6 * s:.1f} | {s / per_game['expert']:.2f} |"
          for n, s in per_game.items()], ""]
    write()
    t = time.time()
    abl = compare(["veteran", *ABLATIONS.values()], level=[1, 4], games=a.ablation_games,
                  seed=a.ablation_seed)
    parts[2] = [
        f"## Ablations: veteran vs veteran with one rule off, levels 1 and 4, "
        f"{a.ablation_games:,} games per level, seed {a.ablation_seed} ({time.time() - t:.0f} s)",
        "", "| rule | switched off by |", "|---|---|",
        *[f"| {rule} | `{spec}` |" for rule, spec in ABLATIONS.items()], "",
        pair_table(abl, {("veteran", s) for s in ABLATIONS.values()}), ""]
    write()
    validation(3, [2, 3])
    print(Path(a.out).read_text())


if __name__ == "__main__":
    main()
