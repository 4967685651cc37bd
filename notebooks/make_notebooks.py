"""Writes the notebooks of this folder from the cell sources below (keeps them reviewable).

    python notebooks/make_notebooks.py
    python notebooks/make_notebooks.py --execute pirate_balance.ipynb   # + outputs (nbclient)

Each notebook reads FRIDAY_NOTEBOOK_GAMES (default in the notebook) so the test-suite can run
every cell quickly (tests/test_notebooks.py).
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent

CULL = [
    ("markdown", """# Does losing green fights on purpose pay?

The classic advice for *Friday* is to lose weak fights in the green step on purpose, paying
life to destroy bad start cards (R4.8). Here we compare, on the same seeded deals (common random
numbers), the `expert` policy with and without deliberate green losses, and the two simpler
policies `cull-green` and `always-fight`."""),
    ("code", """import os
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
from policies import load_policy
from sim.fast import run_batch
from sim.results import to_frame, summarize
from sim.report import compare

GAMES = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 200_000))
SEED = 2024"""),
    ("code", """variants = {
    "expert (culls in green)": load_policy("expert"),
    "expert, never culls": load_policy("expert", {"cull_max_missing": 0}),
    "cull-green": load_policy("cull-green"),
    "always-fight": load_policy("always-fight"),
}
frames = []
for name, policy in variants.items():
    for level in (1, 2, 3, 4):
        df = to_frame(run_batch(level, SEED, 0, GAMES, policy))
        df["variant"] = name
        frames.append(df)
games = pd.concat(frames, ignore_index=True)
table = summarize(games, by=("variant", "level"))
table[["variant", "level", "games", "win_rate", "ci95_low", "ci95_high", "mean_score"]]"""),
    ("code", """by = {(r.variant, r.level): r for r in table.itertuples()}
for level in (1, 2, 3, 4):
    a = table[(table.variant == "expert (culls in green)") & (table.level == level)].iloc[0]
    b = table[(table.variant == "expert, never culls") & (table.level == level)].iloc[0]
    print(f"level {level}: culling vs not: {compare(a, b)}")"""),
    ("code", """fig, ax = plt.subplots(figsize=(8, 4))
for i, (name, t) in enumerate(table.groupby("variant", sort=False)):
    x = t["level"] + (i - 1.5) * 0.2
    ax.errorbar(x, 100 * t["win_rate"], yerr=[100 * (t["win_rate"] - t["ci95_low"]),
                100 * (t["ci95_high"] - t["win_rate"])], fmt="o", capsize=3, label=name)
ax.set_xticks([1, 2, 3, 4]); ax.set_xlabel("level"); ax.set_ylabel("games won (%)")
ax.legend(); plt.show()"""),
    ("markdown", """The destroyed-card and green-loss columns show *how* the variants differ:"""),
    ("code", """games.groupby(["variant", "level"], observed=True)[["destroyed", "fights_lost_green", "aging_taken"]].mean().round(2)"""),
]

PIRATES = [
    ("markdown", """# Which pirate pair is hardest?

Both pirates are drawn at set-up (R2.4) and known from the start. With the fast engine's
summary mode we count, for every pair, games and wins of the `expert` policy."""),
    ("code", """import os
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
from policies import load_policy
from sim import cards
from sim.fast import run_summary
from sim.results import wilson

GAMES = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 1_000_000))
LEVEL = 4"""),
    ("code", """s = run_summary(LEVEL, 7, GAMES, load_policy("expert"))
names = [cards.NAME[p] for p in cards.PIRATE_IDS]
games = s["pair_games"] + s["pair_games"].T
wins = s["pair_wins"] + s["pair_wins"].T
rows = []
for i in range(10):
    for j in range(i + 1, 10):
        lo, hi = wilson(int(wins[i, j]), int(games[i, j]))
        rows.append({"pair": f"{names[i]} + {names[j]}", "games": int(games[i, j]),
                     "win_rate": wins[i, j] / max(games[i, j], 1), "ci95_low": lo, "ci95_high": hi})
pairs = pd.DataFrame(rows).sort_values("win_rate")
pairs.head(10)"""),
    ("code", """rate = np.where(games > 0, wins / np.maximum(games, 1), np.nan)
fig, ax = plt.subplots(figsize=(7, 6))
im = ax.imshow(100 * rate)
short = [n.replace("pirate ", "").split(" (")[0] for n in names]
ax.set_xticks(range(10), short, rotation=60); ax.set_yticks(range(10), short)
fig.colorbar(im, label="games won (%)"); ax.set_title(f"level {LEVEL}"); plt.show()"""),
]

BALANCE = [
    ("markdown", """# Pirate balance: which pirate is hardest, and what value would make it fair?

The ten pirates (R9) are not equally hard. Here, through the Python API, we count for the
`expert` policy how often each pirate is beaten when it is faced (first, second, overall, R9.1),
rank them with 95% Wilson intervals and Holm-adjusted tests, and then ask a designer's
question: at which value would the hardest pirate be beaten as often as the median one? The
card table is data (`sim.cardtable`): an edited table needs no recompilation, and both engines
and the policies play with it. `results/pirates.md` is the same study on 1,000,000 games per
level (`friday balance pirates`)."""),
    ("code", """import os
import matplotlib.pyplot as plt
import numpy as np
from scipy import stats
from policies import load_policy
from sim.cardtable import build
from sim.fast import run_batch
from sim.lab import balance as B
from sim.lab.balance_report import pair_heatmap, ranking_figure, sweep_figure

GAMES = int(os.environ.get("FRIDAY_NOTEBOOK_GAMES", 20_000))
SEED = 1
expert = load_policy("expert")"""),
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


def notebook(cells):
    return {"cells": [{"cell_type": kind, "metadata": {}, "source": src.splitlines(keepends=True),
                       **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                      for kind, src in cells],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


if __name__ == "__main__":
    for name, cells in (("cull_green_question.ipynb", CULL), ("pirate_pairs.ipynb", PIRATES),
                        ("pirate_balance.ipynb", BALANCE)):
        (HERE / name).write_text(json.dumps(notebook(cells), indent=1) + "\n", encoding="utf-8")
        print("wrote", HERE / name)
    if "--execute" in sys.argv:                 # store outputs (needs nbclient and ipykernel)
        import nbclient
        import nbformat
        for name in sys.argv[sys.argv.index("--execute") + 1:]:
            nb = nbformat.read(HERE / name, as_version=4)
            nbclient.NotebookClient(nb, timeout=1200, kernel_name="python3",
                                    resources={"metadata": {"path": str(HERE.parent)}}).execute()
            nbformat.write(nb, HERE / name)
            print("executed", HERE / name)
