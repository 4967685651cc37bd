"""Writes the notebooks of this folder from the cell sources below (keeps them reviewable).

    python notebooks/make_notebooks.py --execute     # the committed run: cells and outputs
    python notebooks/make_notebooks.py               # cells only, no outputs
    python notebooks/make_notebooks.py --execute review_a_game.ipynb    # one of them

Each notebook reads FRIDAY_NOTEBOOK_GAMES (default in the notebook: the committed run uses
the defaults) so the test-suite can execute every notebook quickly with nbclient
(tests/test_notebooks.py).  The notebooks use only the Python API (``sim.lab``, ``sim.Game``).
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent

CULL = [
    ("markdown", """# Does losing green fights on purpose pay?

The classic advice for *Friday* is to lose weak fights in the green step on purpose, paying
life to destroy bad start cards (R4.8). We compare, on the very same seeded deals (game g of
the seed starts from the same stacks for every policy: common random numbers), the `expert`
policy with and without its deliberate green losses (`expert[cull_max_missing=0]` never loses
on purpose), the stronger `veteran` and `learned` with and without the same rule, and the
simpler `cull-green` against `always-fight`. (`learned[cull_max_missing=0]` drops the veteran's
culling rule it starts from; its network may still end a fight where it scores that higher.) Every comparison is paired:
the win-rate difference with Newcombe's interval for paired proportions, McNemar's exact test
on the games one policy won and the other lost, and the paired mean score difference with its
t interval (`sim.lab.stats`). Only the Python API `sim.lab` is used.

At its default size (20,000 games per policy and level; the environment variable
`FRIDAY_NOTEBOOK_GAMES` sets another) it plays 1.12 million games, 160,000 of them by `learned`,
whose games cost 9 to 16 times the expert's (results/strength.md). The last cell prints how long
the committed run took, on how many cores and at what load."""),
    ("code", """import os
import time
import matplotlib.pyplot as plt
from sim.lab import compare_paired, long_frame, play_paired, plot_paired_differences, summarize

STARTED = time.perf_counter()
GAMES = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 20_000))   # games per policy and level
SEED = 2024
NEVER = "expert[cull_max_missing=0]"
WITH_AND_WITHOUT = [("expert", NEVER), ("veteran", "veteran[cull_max_missing=0]"),
                    ("learned", "learned[cull_max_missing=0]"), ("cull-green", "always-fight")]
paired = play_paired([name for pair in WITH_AND_WITHOUT for name in pair], level="all",
                     games=GAMES, seed=SEED)
summarize(paired)[["policy", "level", "games", "win_rate", "ci95_low", "ci95_high", "mean_score"]]"""),
    ("code", """comparison = compare_paired(paired)
pairs = comparison[[(a, b) in WITH_AND_WITHOUT for a, b in zip(comparison.a, comparison.b)]]
pairs[["level", "a", "b", "games", "win_diff", "win_diff_low", "win_diff_high", "a_only",
       "b_only", "mcnemar_p_holm", "score_diff", "score_diff_low", "score_diff_high",
       "score_p_holm"]]"""),
    ("code", """plot_paired_differences(pairs)
plt.show()"""),
    ("markdown", """*How* they differ: cards destroyed, green fights lost and aging cards taken per game."""),
    ("code", """long_frame(paired).groupby(["policy", "level"], observed=True)[
    ["destroyed", "fights_lost_green", "won"]].mean().round(3)"""),
    ("markdown", """## How much culling? A sweep of the threshold

The expert loses a green fight on purpose when it misses at most `cull_max_missing` points
(and life stays at least `cull_min_life`). Each threshold is compared, on the same deals,
with never culling (threshold 0)."""),
    ("code", """THRESHOLDS = [1, 2, 3, 4, 6]
sweep_paired = play_paired([f"expert[cull_max_missing={k}]" for k in THRESHOLDS] + [NEVER],
                           level="all", games=GAMES, seed=SEED)
sweep = compare_paired(sweep_paired)
sweep = sweep[sweep.b == NEVER].assign(threshold=lambda t: t.a.str.extract(r"=(\\d+)")[0].astype(int))
sweep[["level", "threshold", "a_win_rate", "win_diff", "win_diff_low", "win_diff_high",
       "mcnemar_p_holm", "score_diff", "score_p_holm"]]"""),
    ("code", """fig, ax = plt.subplots(figsize=(8, 4))
for level, t in sweep.groupby("level"):
    ax.errorbar(t.threshold, 100 * t.win_diff,
                yerr=[100 * (t.win_diff - t.win_diff_low), 100 * (t.win_diff_high - t.win_diff)],
                fmt="o-", capsize=3, label=f"level {level}")
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("cull_max_missing (points short a green fight may be lost by)")
ax.set_ylabel("win rate minus never culling (pp)")
ax.set_title(f"Culling threshold vs never culling, paired, n = {GAMES:,} games per level")
ax.legend(); plt.show()"""),
    ("markdown", """## Conclusion

Computed from the tables above (rerun the notebook and these sentences follow the numbers):"""),
    ("code", """lines = []
for r in pairs.itertuples():
    verdict = ("pays" if r.win_diff_low > 0 else "costs" if r.win_diff_high < 0
               else "makes no clear difference")
    lines.append(f"- level {r.level}: {r.a} vs {r.b}: culling {verdict}: "
                 f"{100 * r.win_diff:+.2f} percentage points of games won "
                 f"[{100 * r.win_diff_low:+.2f}, {100 * r.win_diff_high:+.2f}] "
                 f"({r.a_only:,} games won only with culling, {r.b_only:,} only without; "
                 f"McNemar p {'< 1e-300' if r.mcnemar_p_holm < 1e-300 else f'= {r.mcnemar_p_holm:.2g}'}), "
                 f"mean score {r.score_diff:+.2f}.")
best = sweep.loc[sweep.groupby("level").win_diff.idxmax()]
for r in best.itertuples():
    lines.append(f"- level {r.level}: the best threshold of the sweep is {r.threshold} "
                 f"({100 * r.a_win_rate:.2f}% won, {100 * r.win_diff:+.2f} pp vs never culling).")
print("\\n".join(lines))"""),
    ("code", """played = GAMES * 4 * (2 * len(WITH_AND_WITHOUT) + len(THRESHOLDS) + 1)
print(f"{played:,} games in {time.perf_counter() - STARTED:.0f} s on {os.cpu_count()} cores, "
      f"load average {os.getloadavg()[0]:.1f} at the end")"""),
]

PIRATES = [
    ("markdown", """# Which pirate pair is hardest?

Both pirates are drawn at set-up (R2.4) and known from the start. We play `expert` games with
the Python API `sim.lab` and count, for every pair, games and wins (95% Wilson intervals)."""),
    ("code", """import os
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
from sim import cards
from sim.lab import simulate
from sim.lab.stats import wilson_interval

GAMES = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 1_000_000))
LEVEL = 4"""),
    ("code", """games = simulate("expert", level=LEVEL, games=GAMES, seed=7)
names = {p: cards.NAME[p] for p in cards.PIRATE_IDS}
first = np.minimum(games.pirate_1, games.pirate_2)
second = np.maximum(games.pirate_1, games.pirate_2)
pairs = games.groupby([first, second]).won.agg(["size", "sum"]).reset_index()
pairs.columns = ["p1", "p2", "games", "wins"]
ci = [wilson_interval(w, n) for w, n in zip(pairs.wins, pairs.games)]
pairs = pairs.assign(pair=[f"{names[a]} + {names[b]}" for a, b in zip(pairs.p1, pairs.p2)],
                     win_rate=pairs.wins / pairs.games, ci95_low=[c[0] for c in ci],
                     ci95_high=[c[1] for c in ci]).sort_values("win_rate")
pairs[["pair", "games", "win_rate", "ci95_low", "ci95_high"]].head(10)"""),
    ("code", """ids = list(cards.PIRATE_IDS)
rate = np.full((10, 10), np.nan)
for r in pairs.itertuples():
    i, j = ids.index(r.p1), ids.index(r.p2)
    rate[i, j] = rate[j, i] = r.win_rate
fig, ax = plt.subplots(figsize=(7, 6))
im = ax.imshow(100 * rate)
short = [names[p].replace("pirate ", "").split(" (")[0] for p in ids]
ax.set_xticks(range(10), short, rotation=60); ax.set_yticks(range(10), short)
fig.colorbar(im, label="games won (%)")
ax.set_title(f"expert, level {LEVEL}: win rate by pirate pair (n = {GAMES:,})"); plt.show()"""),
]

BALANCE = [
    ("markdown", """# Pirate balance: which pirate is hardest, and what value would make it fair?

The ten pirates (R9) are not equally hard. Here, through the Python API, we count for the
`expert` policy how often each pirate is beaten when it is faced (first, second, overall, R9.1),
rank them with 95% Wilson intervals and Holm-adjusted tests, and then ask a designer's
question: at which value would the hardest pirate be beaten as often as the median one? The
card table is data (`sim.cardtable`): an edited table needs no recompilation, and both engines
and the policies play with it. `results/pirates.md` is the same study with the stronger
`veteran` policy on 1,000,000 games per level (`friday balance pirates --policy veteran`)."""),
    ("code", """import os
import matplotlib.pyplot as plt
import numpy as np
from scipy import stats
from policies import load_policy
from sim.cardtable import build
from sim.fast import run_batch
from sim.lab import balance as B
from sim.lab.balance_report import pair_heatmap, ranking_figure, sweep_figure

expert = load_policy("expert")
GAMES = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 20_000))
SEED = 1"""),
    ("code", """study = B.pirate_study([1, 4], GAMES, SEED, expert)
cols = ["level", "rank", "label", "beaten_n", "beaten_first_rate", "beaten_second_rate", "beaten_rate", "beaten_lo", "beaten_hi",
        "win_when_drawn_rate"]
study["pirates"][cols].round(4)"""),
    ("markdown", """Which pirates of level 4 cannot be told apart at this number of games (two-proportion
z-tests on beaten when faced, Holm-adjusted over the 45 pairs)?"""),
    ("code", """t4 = study["tests"][study["tests"]["level"] == 4]
t4[~t4["significant"]][["harder", "easier", "difference", "p_holm"]].round(4)"""),
    ("code", """fig = ranking_figure(study["pirates"], None, expert.name, GAMES)
plt.show()
fig = pair_heatmap(study["pairs"], 4, None, expert.name)
plt.show()"""),
    ("markdown", """## What-if: the hardest pirate's value

The same deals for every value (common random numbers); the crossing with the median other
pirate is interpolated, its interval comes from a Poisson bootstrap over games."""),
    ("code", """p4 = study["pirates"][study["pirates"]["level"] == 4]
hardest = int(p4.iloc[0]["pirate"])
value = int(B.as_table(None).PIRATE_VALUE[hardest])
print("hardest at level 4:", B.pirate_label(hardest), "value", value)
res = B.sweep(f"{hardest}.pirate_hazard_value", list(range(max(0, value - 20), value + 1, 4)), 4,
              GAMES, SEED, expert, bootstrap=50)
print(res["crossing"])
res["table"].round(4)"""),
    ("code", """fig = sweep_figure(res, None, expert.name)
plt.show()"""),
    ("markdown", """## One edited table against the printed one, on the same deals

A paired comparison: the same games with 10/40 made 10/35; McNemar's exact test on the games
whose outcome differs."""),
    ("code", """edited = build(sets=["10/40.pirate_hazard_value=35"])
a = run_batch(4, SEED, 0, GAMES, expert)["won"].astype(bool)
b = run_batch(4, SEED, 0, GAMES, expert, cards=edited)["won"].astype(bool)
only_a, only_b = int((a & ~b).sum()), int((b & ~a).sum())
p = stats.binomtest(only_b, only_a + only_b).pvalue if only_a + only_b else 1.0
print(f"{edited.describe()}: win rate {a.mean():.2%} -> {b.mean():.2%}; "
      f"games won only with the edit {only_b}, only without {only_a}, McNemar exact p = {p:.3g}")"""),
]

REVIEW = [
    ("markdown", """# Where did this game slip away? A level-4 game of the expert, reviewed

`friday review` (here its Python side, `sim.lab.review`) scores every legal action of every
decision of one game by its chance of winning from there: each action is played on the same
continuations, copies of the game in which every order the player could not know is redrawn
(R1.4), played to the end by `learned`, the strongest policy a review can afford. The chance
lost by a decision is the best action's
chance minus the taken one's, on the very same continuations (Newcombe's paired interval).
The game: game 0 of seed 3 at level 4, played by the `expert`."""),
    ("code", """import os
import matplotlib.pyplot as plt
from sim import Game
from sim.lab.review import ReviewedDecision, costliest, decisions, figure, play_through, review

ROLLOUTS = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 1000))   # continuations per action
played = play_through(level=4, seed=3, game=0, policy="expert")
rows = review(played, rollouts=ROLLOUTS)
d = decisions(rows)
print(f"{len(d)} decisions with a choice; the expert {'won' if played.end.result['won'] else 'lost'}; "
      f"decisions that clearly lost chance: {int(d.clear.sum())}")"""),
    ("code", """figure(rows, f"level 4, seed 3, game 0: expert ({ROLLOUTS} continuations per action)")
plt.show()"""),
    ("markdown", """The five costliest decisions, with the chance after the action taken and after the
best one, and the paired 95% interval of the loss (a loss whose interval holds 0 may be noise;
the best of several noisy estimates is optimistic)."""),
    ("code", """worst = costliest(rows, 5)
worst[["decision", "turn", "step", "life", "phase", "taken", "chance", "best", "best_chance",
       "loss", "loss_low", "loss_high"]]"""),
    ("markdown", """The table at the costliest decision, as the player saw it, with every action's
chance (a reviewed decision draws itself in a notebook, as a `Game` does):"""),
    ("code", """ReviewedDecision(played, rows, int(worst.decision.iloc[0]))"""),
    ("markdown", """The game itself can be stepped from there with other moves: `Game.new` deals the
same game, and `g` alone in a cell draws it. Here the best action is played instead of the
expert's:"""),
    ("code", """g = Game.new(level=4, seed=3, game=0)
for action in played.actions[:int(worst.decision.iloc[0])]:
    g.step(action)
best = rows[(rows.decision == worst.decision.iloc[0]) & rows.best].action.iloc[0]
g.step(best)                         # the best action instead of the expert's
g"""),
]


NOTEBOOKS = {"cull_green_question.ipynb": CULL, "pirate_pairs.ipynb": PIRATES,
             "pirate_balance.ipynb": BALANCE, "review_a_game.ipynb": REVIEW}


def notebook(cells):
    return {"cells": [{"cell_type": kind, "id": f"cell-{i}", "metadata": {},
                       "source": src.splitlines(keepends=True),
                       **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                      for i, (kind, src) in enumerate(cells)],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def execute(nb: dict, timeout: int = 1800) -> dict:
    """Run every cell top to bottom in a fresh kernel (nbclient); returns the notebook with
    its outputs.  FRIDAY_NOTEBOOK_GAMES in the environment sets the number of games."""
    import nbclient
    import nbformat
    node = nbformat.reads(json.dumps(nb), as_version=4)
    nbclient.NotebookClient(node, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(HERE)}}).execute()
    return node


if __name__ == "__main__":
    import argparse
    import nbformat
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--execute", action="store_true",
                        help="run each notebook and keep its outputs (the committed run)")
    parser.add_argument("names", nargs="*", help="only these notebooks (default: all)")
    args = parser.parse_args()
    unknown = sorted(set(args.names) - set(NOTEBOOKS))
    if unknown:
        parser.error(f"unknown notebook {', '.join(unknown)}: choose from {', '.join(NOTEBOOKS)}")
    for name, cells in NOTEBOOKS.items():
        if args.names and name not in args.names:
            continue
        nb = notebook(cells)
        if args.execute:
            nbformat.write(execute(nb), HERE / name)
        else:
            (HERE / name).write_text(json.dumps(nb, indent=1) + "\n", encoding="utf-8")
        print("wrote", HERE / name)
