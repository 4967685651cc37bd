"""Per-game result rows and summary statistics (win rates with 95% intervals)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .rules import CAUSE_NAMES, STEP_NAMES

COLUMNS = ("level", "game", "won", "cause", "step", "pirate_1", "pirate_2", "pirate_1_beaten",
           "pirate_2_beaten", "life", "score", "aging_taken", "destroyed", "fights_won_green",
           "fights_won_yellow", "fights_won_red", "fights_lost_green", "fights_lost_yellow",
           "fights_lost_red", "turns", "pirate_first")


def reference_row(game) -> dict:
    """One result row from a finished reference Game (same columns as the fast engine)."""
    s = game.stats
    return {
        "level": game.level, "game": game.game_index, "won": int(game.won), "cause": game.cause,
        "step": game.step, "pirate_1": game.pirates[0], "pirate_2": game.pirates[1],
        "pirate_1_beaten": int(game.pirates[0] in game.pirates_beaten),
        "pirate_2_beaten": int(game.pirates[1] in game.pirates_beaten),
        "life": game.life, "score": game.score,
        "aging_taken": game.aging_in_game - len(game.aging_stack),
        "destroyed": s["destroyed"],
        "fights_won_green": s["fights_won"][0], "fights_won_yellow": s["fights_won"][1],
        "fights_won_red": s["fights_won"][2], "fights_lost_green": s["fights_lost"][0],
        "fights_lost_yellow": s["fights_lost"][1], "fights_lost_red": s["fights_lost"][2],
        "turns": game.turn, "pirate_first": game.pirate_first,
    }


def reference_batch(level, seed, first_game, n_games, policy, options=None, cards=None) -> dict:
    """Play games first_game.. with the reference engine; columns as arrays."""
    from .reference import play_game
    rows = [reference_row(play_game(level, seed, g, policy, options, cards=cards))
            for g in range(first_game, first_game + n_games)]
    return {c: np.array([r[c] for r in rows], dtype=np.int64) for c in COLUMNS}


def to_frame(columns: dict) -> pd.DataFrame:
    """Result arrays -> DataFrame with readable cause/step categories."""
    df = pd.DataFrame({c: np.asarray(columns[c]) for c in COLUMNS})
    df["won"] = df["won"].astype(bool)
    df["cause"] = pd.Categorical.from_codes(df["cause"], categories=list(CAUSE_NAMES))
    df["step"] = pd.Categorical.from_codes(df["step"], categories=list(STEP_NAMES))
    return df


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval for a binomial proportion (sim.lab.stats, scipy)."""
    from .lab.stats import wilson_interval
    return wilson_interval(wins, n)


def summarize(df: pd.DataFrame, by=("level",)) -> pd.DataFrame:
    """Win rate with its 95% Wilson interval, mean/median score, causes, per group."""
    rows = []
    for key, g in df.groupby(list(by), observed=True):
        key = key if isinstance(key, tuple) else (key,)
        n, wins = len(g), int(g["won"].sum())
        lo, hi = wilson(wins, n)
        row = dict(zip(by, key))
        row.update({"games": n, "win_rate": wins / n, "ci95_low": lo, "ci95_high": hi,
                    "mean_score": g["score"].mean(), "median_score": g["score"].median(),
                    "reached_pirates": float((g["step"] == "pirates").mean())})
        for cause in CAUSE_NAMES[1:]:
            row[f"lost_{cause}"] = float((g["cause"] == cause).mean())
        rows.append(row)
    return pd.DataFrame(rows)
