"""A batch summary: one flat int64 vector per block of games, summed (sim.fast.api run_summary)."""
from __future__ import annotations

from .layout import (K_AGING, K_CAUSE, K_DESTROYED, K_ERR, K_FLG, K_FWG, K_GAME, K_LIFE, K_P1,
                     K_P1B, K_P2, K_P2B, K_SCORE, K_STEP, K_TURNS, K_WON)
from sim.contract.numba_wall import lean_jit

SCORE_MIN, SCORE_MAX = -250, 350            # fixed histogram bins of width 1, ends clamped
N_BINS = SCORE_MAX - SCORE_MIN + 1
(G_GAMES, G_WINS, G_ERRORS, G_FIRST_ERROR) = range(4)
G_CAUSE, G_STEP = 4, 8                       # 4 causes, 4 steps reached
G_SUM_SCORE, G_SUM_LIFE, G_SUM_TURNS, G_SUM_AGING, G_SUM_DESTROYED, G_SUM_BEATEN = range(12, 18)
G_FW, G_FL = 18, 21                          # fights won, lost: green/yellow/red
G_PIR_GAMES, G_PIR_WINS, G_PIR_BEATEN = 24, 34, 44      # 10 pirates each
G_PAIR_GAMES, G_PAIR_WINS = 54, 154          # 10 x 10 each (lower id first)
G_HIST = 254
AGG_SIZE = G_HIST + N_BINS
FIRST_PIRATE = 59


@lean_jit
def aggregate(row, agg):
    """Add a result row (layout K_*) to the summary vector ``agg``."""
    agg[G_GAMES] += 1
    won = row[K_WON]
    agg[G_WINS] += won
    if row[K_ERR] != 0:
        agg[G_ERRORS] += 1
        if agg[G_FIRST_ERROR] < 0 or row[K_GAME] < agg[G_FIRST_ERROR]:
            agg[G_FIRST_ERROR] = row[K_GAME]
    agg[G_CAUSE + row[K_CAUSE]] += 1
    agg[G_STEP + row[K_STEP]] += 1
    agg[G_SUM_SCORE] += row[K_SCORE]
    agg[G_SUM_LIFE] += row[K_LIFE]
    agg[G_SUM_TURNS] += row[K_TURNS]
    agg[G_SUM_AGING] += row[K_AGING]
    agg[G_SUM_DESTROYED] += row[K_DESTROYED]
    agg[G_SUM_BEATEN] += row[K_P1B] + row[K_P2B]
    for k in range(3):
        agg[G_FW + k] += row[K_FWG + k]
        agg[G_FL + k] += row[K_FLG + k]
    a = row[K_P1] - FIRST_PIRATE
    b = row[K_P2] - FIRST_PIRATE
    for p, beaten in ((a, row[K_P1B]), (b, row[K_P2B])):
        agg[G_PIR_GAMES + p] += 1
        agg[G_PIR_WINS + p] += won
        agg[G_PIR_BEATEN + p] += beaten
    lo, hi = min(a, b), max(a, b)
    agg[G_PAIR_GAMES + 10 * lo + hi] += 1
    agg[G_PAIR_WINS + 10 * lo + hi] += won
    agg[G_HIST + min(max(row[K_SCORE], SCORE_MIN), SCORE_MAX) - SCORE_MIN] += 1
