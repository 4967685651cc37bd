"""Writes the notebooks of this folder from the cell sources below (keeps them reviewable).

    python notebooks/make_notebooks.py

Each notebook reads FRIDAY_NOTEBOOK_GAMES (default in the notebook) so the test-suite can run
every cell quickly (tests/test_notebooks.py).
"""
import json
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


def notebook(cells):
    return {"cells": [{"cell_type": kind, "metadata": {}, "source": src.splitlines(keepends=True),
                       **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                      for kind, src in cells],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


if __name__ == "__main__":
    for name, cells in (("cull_green_question.ipynb", CULL), ("pirate_pairs.ipynb", PIRATES)):
        (HERE / name).write_text(json.dumps(notebook(cells), indent=1) + "\n", encoding="utf-8")
        print("wrote", HERE / name)
