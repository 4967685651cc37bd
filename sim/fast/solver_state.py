"""The UNFAIR solver's memory (sim.fast.solver): flat copies of a game's state, its hash, the
transposition table, and the one bound it prunes with.

* A node of the search is one row of ``STK`` (int64, ``ROW_W``: the scalars, the piles, the
  observation without its static card-table block, the legal actions) and one of ``STR``
  (uint64[2]: the engine's and the policy's streams).  With every stream copied, a copy holds
  every hidden order *and* every future shuffle (R1.4 broken on purpose: the solver is
  unfair).
* ``state_key``: two 64-bit hashes of everything that decides what can still happen: the
  scalars but for pure counters (turn, decisions, statistics, score, trace positions), each
  pile up to its count, the zones and fight flags of every card, the engine's stream.
* ``TT``: int64[size, 3] (key 1, key 2, value), size a power of two, linear probing over
  ``PROBES`` slots; value ``LOST`` (no line from this state wins: proven) or r >= 0 (no win
  with at most r deviations from the base policy was found from here).
* ``out_of_reach``: no line can win because a pirate still to beat has a value that no fight
  can reach with the cards Robinson has or can still win (R4.6, R5.4, R5.5, R9.5; below).
"""
from __future__ import annotations

import numpy as np

from sim import cards as C
from sim import observation as O
from sim.rules import PIRATES
from .fight import opponent_value_and_free
from .layout import (CNT, G_L, G_OBS, G_P, G_PR, G_R, G_S, G_SCR, G_T, L_SIZE, N_PILES,
                     N_S, P_RDISC, P_TABLE_H, P_TABLE_R, PILE_W, S_DEBUG, S_DECISIONS,
                     S_DESTROYED, S_EPOS, S_FL, S_FVALUE, S_FW, S_IN_FIGHT, S_IS_PIRATE,
                     S_NDEC, S_NLEGAL, S_SCORE, S_SCRIPT_POS, S_SORT_EV, S_STEP, S_TABLE_H,
                     S_TABLE_R, S_TRACE, S_TURN, T_ABILITY, T_PABILITY, T_VALUE)
from sim.contract.numba_wall import field, lean_jit

N_OBS_ROW = O.CT                              # the observation but its static card table
OFF_P = N_S
OFF_OBS = OFF_P + N_PILES * PILE_W
OFF_L = OFF_OBS + N_OBS_ROW
ROW_W = OFF_L + L_SIZE
LOST = -1                                     # TT value: proven lost
NONE = -2                                     # TT probe: not there
PROBES = 4

# scalars that never change what can happen next: counters, statistics, the score, the trace
# and decision-record positions, the scripted policy's position
HASHED_S = np.ones(N_S, np.int64)
for _i in (S_TURN, S_DECISIONS, S_NDEC, S_EPOS, S_TRACE, S_DEBUG, S_SCORE, S_DESTROYED,
           S_SORT_EV, S_SCRIPT_POS, *range(S_FW, S_FW + 4), *range(S_FL, S_FL + 4)):
    HASHED_S[_i] = 0
HASHED_S[CNT + P_TABLE_R] = 0                 # table rows: hashed below when they are in use
HASHED_S[CNT + P_TABLE_H] = 0
_M1 = np.int64(0x100000001B3)
_M2 = np.int64(-7046029254386353131)          # 0x9E3779B97F4A7C15 as int64
_ZONE, _FLAGS = O.ZONE, O.FLAGS
FIRST_PIRATE = C.N_CARDS - 10
FIRST_HAZARD = O.N_FIGHTING - 30


@lean_jit
def save(gp, STK, STR, k):
    """Node ``k`` := the game behind ``gp``."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    row = STK[k]
    for i in range(N_S):
        row[i] = S[i]
    for p in range(N_PILES):
        for i in range(PILE_W):
            row[OFF_P + p * PILE_W + i] = P[p, i]
    for i in range(N_OBS_ROW):
        row[OFF_OBS + i] = obs[i]
    for i in range(S[S_NLEGAL]):
        row[OFF_L + i] = L[i]
    STR[k, 0] = field(gp, G_R)[0]
    STR[k, 1] = field(gp, G_PR)[0]


@lean_jit
def load(STK, STR, k, gp):
    """The game behind ``gp`` := node ``k`` (its card table and parameters are kept)."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    row = STK[k]
    for i in range(N_S):
        S[i] = row[i]
    for p in range(N_PILES):
        for i in range(PILE_W):
            P[p, i] = row[OFF_P + p * PILE_W + i]
    for i in range(N_OBS_ROW):
        obs[i] = row[OFF_OBS + i]
    for i in range(S[S_NLEGAL]):
        L[i] = row[OFF_L + i]
    field(gp, G_R)[0] = STR[k, 0]
    field(gp, G_PR)[0] = STR[k, 1]


@lean_jit(inline=True)
def _mix(h, x, m):
    h = (h ^ x) * m
    return h ^ (h >> 29)


@lean_jit
def state_key(gp):
    """Two independent 64-bit hashes of the state (module docstring), each nonzero."""
    S, P, obs = field(gp, G_S), field(gp, G_P), field(gp, G_OBS)
    h1, h2 = np.int64(0x2545F4914F6CDD1D), np.int64(0x1D8E4E27C47D124F)
    for i in range(N_S):
        if HASHED_S[i] != 0:
            h1 = _mix(h1, S[i], _M1)
            h2 = _mix(h2, S[i], _M2)
    for p in range(P_RDISC):                  # the ordered piles; the others are zones
        for i in range(S[CNT + p]):
            h1 = _mix(h1, P[p, i] + 97 * p, _M1)
            h2 = _mix(h2, P[p, i] + 89 * p, _M2)
    for p, used in ((P_TABLE_R, S_TABLE_R), (P_TABLE_H, S_TABLE_H)):
        if S[used] != 0:
            for i in range(PILE_W):
                h1 = _mix(h1, P[p, i], _M1)
                h2 = _mix(h2, P[p, i], _M2)
    for i in range(_ZONE, _FLAGS + C.N_CARDS):
        h1 = _mix(h1, obs[i], _M1)
        h2 = _mix(h2, obs[i], _M2)
    for i in range(O.N_SCALARS):
        if i != O.O_TURN:
            h1 = _mix(h1, obs[i], _M1)
            h2 = _mix(h2, obs[i], _M2)
    r = np.int64(field(gp, G_R)[0])
    h1 = _mix(h1, r, _M1)
    h2 = _mix(h2, r, _M2)
    return h1 | 1, h2 | 1


@lean_jit
def tt_probe(TT, k1, k2):
    """The value stored for the key, ``NONE`` if absent."""
    mask = TT.shape[0] - 1
    for j in range(PROBES):
        e = TT[(k1 + j) & mask]
        if e[0] == k1 and e[1] == k2:
            return e[2]
        if e[0] == 0 and e[1] == 0:
            return NONE
    return NONE


@lean_jit
def tt_store(TT, k1, k2, value):
    """Store ``value`` (LOST wins over a failure; a failure keeps its largest r); when the
    probed slots are full, the last one is replaced."""
    mask = TT.shape[0] - 1
    for j in range(PROBES):
        e = TT[(k1 + j) & mask]
        if (e[0] == 0 and e[1] == 0) or (e[0] == k1 and e[1] == k2):
            if e[0] == k1 and e[1] == k2 and (e[2] == LOST or (value != LOST and e[2] > value)):
                return
            e[0], e[1], e[2] = k1, k2, value
            return
    e = TT[(k1 + PROBES - 1) & mask]
    e[0], e[1], e[2] = k1, k2, value


@lean_jit
def out_of_reach(gp):
    """True when a pirate still to beat has a value above any total a fight can reach, so the
    game can no longer be won (R10.1).  The bound: a fight's total (R4.6) is at most the sum
    of the positive values of the cards that are or can still become Robinson's (his stack,
    discard, sort3 hand, face-up fight cards; before the pirates also every hazard card not
    yet won, as knowledge, R4.7), plus one more such value per double or copy card among them
    (R5.4: each doubling doubles another card once; R5.5: a copy can double once more), plus
    one per card for the +1-per-card pirate (R9.5); aging cards (R6) and the other pirates'
    abilities only lower a total.  A pirate's value is its printed one, the value fixed in
    its fight (R9.2), the remaining hazards' red values once the hazards are over (R8.2), or
    a lower bound for +2 per aging card (aging cards only ever leave the aging stack)."""
    S, obs, T, H = field(gp, G_S), field(gp, G_OBS), field(gp, G_T), field(gp, G_SCR)
    hazards_live = S[S_STEP] < PIRATES
    for v in range(O.MAX_VALUE + 1):
        H[v] = 0
    total, mult, n = 0, 0, 0
    for c in range(O.N_FIGHTING):
        z = obs[_ZONE + c]
        fight = z == O.Z_FIGHT_LEFT or z == O.Z_FIGHT_RIGHT
        mine = z == O.Z_ROBINSON_STACK or z == O.Z_ROBINSON_DISCARD or z == O.Z_SORT or \
            z == O.Z_AGING_STACK or fight
        won_later = c >= FIRST_HAZARD and hazards_live and (
            z == O.Z_HAZARD_STACK or z == O.Z_HAZARD_DISCARD or z == O.Z_HAZARD_DRAWN or
            z == O.Z_OPPONENT)
        if not mine and not won_later:
            continue
        n += 1
        if fight and (obs[_FLAGS + c] & O.F_FACE_DOWN) != 0:
            continue                               # destroyed (R5.3): 0, no ability
        ab = T[T_ABILITY, c]
        if ab == C.AB_DOUBLE or ab == C.AB_COPY:
            mult += 1
        v = T[T_VALUE, c]
        if v > 0:
            total += v
            H[min(v, O.MAX_VALUE)] += 1
    v = O.MAX_VALUE
    while mult > 0 and v > 0:
        if H[v] > 0:
            H[v] -= 1
            total += v
            mult -= 1
        else:
            v -= 1
    for p in range(FIRST_PIRATE, C.N_CARDS):
        z = obs[_ZONE + p]
        ab = T[T_PABILITY, p]
        if z == O.Z_OPPONENT and S[S_IN_FIGHT] != 0 and S[S_IS_PIRATE] != 0:
            value = S[S_FVALUE]
        elif z == O.Z_PIRATE:
            if ab == C.PA_REMAINING_HAZARDS and hazards_live:
                continue
            value = opponent_value_and_free(S, field(gp, G_P), obs, T, p, True)[0]
        else:
            continue
        if total + (n if ab == C.PA_PLUS1_PER_CARD else 0) < value:
            return True
    return False
