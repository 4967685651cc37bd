"""Validate the veteran policy against the expert and ablate each of its rules; writes
results/veteran.md (run by hand; about 30 min on 2 free cores):

    python benchmarks/validate_veteran.py [--games 1000000] [--ablation-games 1000000]
        [--seed 20261201] [--ablation-seed 20261202] [--speed-games 200000]
        [--out results/veteran.md]

1. validation: ``expert`` vs ``veteran`` on the same ``--games`` deals per level, levels 1
   and 4 first, levels 2 and 3 last, seed ``--seed`` (not used while the rules were
   screened: seeds 1001-2008, 5, 6, 31-34);
2. ablations: ``veteran`` against ``veteran`` with one rule switched off (its parameter at
   the value that gives back the expert's decision), levels 1 and 4, ``--ablation-games``,
   seed ``--ablation-seed``;
3. (after step 1) time per game: sim.fast.run_summary of each policy at level 4, 1 thread,
   ``--speed-games`` games, the two policies alternating, best of 3, in this one process.
``--stages`` runs some of them (``validation14``, ``speed``, ``ablations1``, ``ablations4``,
``validation23``; default all, in that order) and keeps the other stages' sections of
``--out`` as they are, so that the stages can run as separate jobs; each section names the
command that made it.
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
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402

STAGES = ("validation14", "speed", "ablations1", "ablations4", "validation23")
ABLATIONS = {          # rule -> the veteran variant with it off (policies/veteran.py)
    "R3 food knowledge +1 (food_bonus)": "veteran[food_bonus=0]",
    "R4.8 keep food cards (food_keep)": "veteran[food_keep=0]",
    "R3 below_pile knowledge -0.5 (below_bonus)": "veteran[below_bonus=0]",
    "R3 shortfall weighs less in yellow/red (late_value_weight)": "veteran[late_value_weight=1]",
    "R4.3/R4.10 pay on where a loss kills (pay_to_survive)": "veteran[pay_to_survive=0]",
    "R4.3/R7.1 pay on while the best affordable cards could win (reach_cards)":
        "veteran[reach_cards=0]",
    "R5.3 a won fight destroys a card worth <= 0 (destroy_won_max)": "veteran[destroy_won_max=-1]",
    "R3 shortfall weight 0.6 (value_weight; the expert's 0.5)": "veteran[value_weight=0.5]",
    "R4.8 green culling keeps 15 - level life (cull_min_life, cull_life_per_level; the expert's "
    "12)": "veteran[cull_min_life=12,cull_life_per_level=0]",
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
    ap.add_argument("--stages", default=",".join(STAGES),
                    help="comma-separated: " + ", ".join(STAGES))
    a = ap.parse_args(argv)
    stages = [x for x in a.stages.split(",") if x]
    bad = [x for x in stages if x not in STAGES]
    if bad:
        ap.error(f"unknown stage {bad[0]!r} in --stages (choose from {', '.join(STAGES)})")
    from sim.lab import compare

    cmd = command_line(["--games", a.games, "--ablation-games", a.ablation_games, "--seed",
                        a.seed, "--ablation-seed", a.ablation_seed, "--speed-games",
                        a.speed_games, "--stages", ",".join(stages)]
                       + ([] if Path(a.out).resolve() == ROOT / "results" / "veteran.md"
                          else ["--out", a.out]), "python benchmarks/validate_veteran.py")
    made = f"Made by `{cmd}`."
    head = [
        "# veteran vs expert: validation and ablations", "",
        "Each section names the command that made it (`--stages` runs some stages and keeps "
        "the others' sections). Paired on the same deals (game g of a seed deals the same stacks "
        "and pirates for every policy); Wilson intervals for each rate, Newcombe's hybrid "
        "score interval for the paired difference, McNemar's exact test on the discordant "
        "games, paired t for the mean score, Holm over the pairs of each level (the ablation "
        "run compares all its policies pairwise; the rows below are veteran against each "
        "ablation). Default rule options. The stages are written as each one finishes "
        "(validation of levels 1 and 4, time per game, ablations, validation of levels 2 "
        "and 3); a stage missing below did not finish.", ""]
    parts = old_parts(Path(a.out))

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
                      f"{os.getloadavg()[0]:.1f})", "", made, "",
                      pair_table(c, {("expert", "veteran")}), ""]
        write()

    def ablations(level):
        t = time.time()
        abl = compare(["veteran", *ABLATIONS.values()], level=[level], games=a.ablation_games,
                      seed=a.ablation_seed)
        parts[2 + level / 10] = [
            f"## Ablations: veteran vs veteran with one rule off, level {level}, "
            f"{a.ablation_games:,} games, seed {a.ablation_seed} ({time.time() - t:.0f} s, "
            f"load average {os.getloadavg()[0]:.1f})", "", made, "",
            "| rule | switched off by |", "|---|---|",
            *[f"| {rule} | `{spec}` |" for rule, spec in ABLATIONS.items()], "",
            pair_table(abl, {("veteran", s) for s in ABLATIONS.values()}), ""]
        write()

    if "validation14" in stages:
        validation(0, [1, 4])
    if "speed" in stages:
        speed_stage(parts, a.speed_games, made)
        write()
    for level in (1, 4):
        if f"ablations{level}" in stages:
            ablations(level)
    if "validation23" in stages:
        validation(3, [2, 3])
    print(Path(a.out).read_text())


def speed_stage(parts, games, made):
    per_game = speed(["expert", "veteran"], games)
    parts[1] = [
        "## Time per game", "", made, "",
        f"sim.fast.run_summary, level 4, seed 1, {games:,} games, 1 thread, best of 3, "
        f"the two alternating in one process; load average {os.getloadavg()[0]:.1f} after.", "",
        "| policy | us per game | ratio to expert |", "|---|---|---|",
        *[f"| `{n}` | {1e6 * s:.1f} | {s / per_game['expert']:.2f} |"
          for n, s in per_game.items()], ""]


def old_parts(out):
    """The sections of an earlier results file, keyed as main() keys its stages."""
    parts = {}
    if not out.exists():
        return parts
    for sec in out.read_text().split("\n## ")[1:]:
        title = sec.split("\n", 1)[0]
        if title.startswith("Validation") and "[1, 4]" in title:
            key = 0
        elif title.startswith("Time per game"):
            key = 1
        elif title.startswith("Ablations") and "level 1," in title:
            key = 2.1
        elif title.startswith("Ablations") and "level 4," in title:
            key = 2.4
        elif title.startswith("Validation") and "[2, 3]" in title:
            key = 3
        else:
            continue
        parts[key] = ("## " + sec.rstrip("\n") + "\n").split("\n")
    return parts


if __name__ == "__main__":
    main()
