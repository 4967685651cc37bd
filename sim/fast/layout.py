"""State layout of the fast engine: the state record, scalar indices, piles, event codes,
card-table rows.

A game's state is one record of preallocated arrays, ``GameArrays`` (below: each field and its
encoding), allocated in one place (``sim.fast.state.new_state``: once per game or thread) and
read by name (``g.S``, ``g._replace(prm=...)``) on the Python side.  Its observation's zones
and fight flags *are* the membership state of the discards, the fight rows and the fight flags
(R1.2).

Card tables travel as one int64 array ``T[row, card]`` (rows below), never as globals, so a
cached compilation can never see stale card data.

The engine is compiled without Numba's reference counting (``numba_wall.lean_jit``: it
allocates nothing, so an array use costs no incref/decref call), and its functions take one
pointer to the state record (``numba_wall.address_of``, read with ``numba_wall.field`` and the
``G_*`` field indices) instead of the record itself, which Numba would pass as ~90 flattened
words per call.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from sim.contract.decision import decide_args
from sim import cards as C
from sim.rules import RESULT_COLUMNS

# --- card table rows ---------------------------------------------------------------------
(T_KIND, T_VALUE, T_ABILITY, T_DCOST, T_HFREE, T_HV0, T_HV1, T_HV2, T_PFREE, T_PVALUE,
 T_PABILITY, T_AGING) = range(12)
N_T = 12


def card_table(cards=None) -> np.ndarray:
    """``T`` of a card table (sim.cardtable.CardTable; default the printed one, sim.cards)."""
    c = cards if cards is not None else C
    return np.array([c.KIND, c.FIGHT_VALUE, c.ABILITY, c.DESTROY_COST, c.HAZARD_FREE,
                     *c.HAZARD_VALUE.T, c.PIRATE_FREE, c.PIRATE_VALUE, c.PIRATE_ABILITY,
                     c.IS_AGING], dtype=np.int64)                   # the rows, in T_* order


# --- piles (rows of P) -------------------------------------------------------------------
(P_RSTACK, P_AGING, P_HSTACK, P_FIGHT, P_SORT, P_HDRAWN, P_BUDGET, P_PIRATES, P_BEATEN,
 P_RDISC, P_HDISC, P_REMOVED) = range(12)
# the next table shuffle a deal gives (sim.deal RESHUFFLE_KEYS) of the Robinson stack (R7.1)
# and of the hazard stack (R8.1): its cards top first (not a pile), for the shuffle number
# S[S_TABLE_R] - 1 (resp. S_TABLE_H; 0: none); sim.Game loads each in turn
P_TABLE_R, P_TABLE_H = 12, 13
N_PILES = 14            # P_RDISC.. are counts only: their members are read from obs zones
PILE_W = 72

# --- scalars -----------------------------------------------------------------------------
(S_LEVEL, S_STEP, S_LIFE, S_MAXLIFE, S_TURN, S_AGING_IN_GAME, S_KT, S_IN_FIGHT, S_OPP,
 S_IS_PIRATE, S_FVALUE, S_FREE_LEFT, S_FREE_CLOSED, S_STEP_MINUS, S_CARDS_DRAWN, S_PEND_CARD,
 S_PEND_AB, S_DBUDGET, S_OVER, S_CAUSE, S_WON, S_SCORE, S_ERR, S_ERR_ACTION, S_ERR_PHASE,
 S_TRACE, S_EPOS, S_DEBUG, S_NDEC, S_OPT_CONT, S_OPT_STACKS, S_OPT_COUNTS, S_FW, _1, _2, _3,
 S_FL, _5, _6, _7, S_DESTROYED, S_SORT_EV, S_ZERO0, S_ZERO1, S_ZERO2, S_ZERO3, S_NZERO,
 S_DECISIONS, S_SCRIPT_POS,
 # the state machine (sim.fast.machine): where the game waits and what it must remember there
 S_RESUME, S_NLEGAL, S_ENDED, S_KB, S_AB_SOURCE, S_AB_VIA, S_AB_K, S_SORT_N, S_ORD0, S_ORD1,
 S_ORD2, S_EF_TOTAL, S_EF_VALUE, S_EF_WON, S_EF_DEFICIT, S_PIRATE_NEXT) = range(65)
S_PIRATE_FIRST = 65     # the pirate fought first (R9.1), -1 before the choice
# kept up to date as fight cards move and turn (sim.fast.core fight_in / fight_out / fight_flag),
# so that a decision reads them instead of looping over the fight: the sum of the fight cards'
# values (face down 0, doubled twice, before R6.2 and R9.5), the face-up aging_highest_zero
# cards, the face-down cards, the face-up aging_stop cards on the left (R6.4), and the face-up
# cards with an unused ability of their own (R4.5)
S_FSUM, S_NZC, S_NDOWN, S_NSTOP, S_NABIL = range(66, 71)
# shuffles of the Robinson stack (R7.1) and of the hazard stack (R8.1) so far, and which one
# the table rows hold (P_TABLE_R, P_TABLE_H)
S_SHUF_R, S_SHUF_H, S_TABLE_R, S_TABLE_H = range(71, 75)
CNT = 75
N_S = CNT + N_PILES

ERR_ILLEGAL, ERR_TRACE_FULL, ERR_DEBUG_FULL, ERR_SHUFFLE = 1, 2, 3, 4

# --- resume points (S[S_RESUME]): which decision the game waits for ------------------------
(RP_NONE, RP_HAZARD, RP_PIRATE, RP_FIGHT, RP_COPY_SOURCE, RP_TARGET, RP_MORE_DRAW2,
 RP_MORE_BELOW, RP_SORT_TAKE, RP_SORT_DISCARD, RP_SORT_ORDER, RP_DESTROY) = range(12)
# --- continuations: what a step function leaves to do next (sim.fast.machine.step) --------
(K_DECISION, K_FIGHT, K_ABILITY_DONE, K_FIGHT_OVER, K_TURN) = range(5)

# --- trace events (E buffer): code, then fields (see decode.py) ----------------------------
(EV_SETUP, EV_STEP, EV_HAZ_DRAWN, EV_HAZ_CHOICE, EV_PIRATE_CHOICE, EV_FIGHT_START, EV_DRAW,
 EV_RESHUFFLE, EV_ABILITY, EV_LIFE, EV_FIGHT_END, EV_GAME_END) = range(1, 13)
(R_FREE, R_PAID, R_ABILITY, R_EXCHANGE, R_REPLACE) = range(5)
REASON_NAMES = ("free", "paid", "ability", "exchange", "replace")
(LR_PAID_DRAW, LR_LOST_FIGHT, LR_AGING, LR_ABILITY) = range(4)
LIFE_REASON_NAMES = ("paid_draw", "lost_fight", "aging", "ability")
ABILITY_EV_W = 15       # code card ability target via gained nseen s0 s1 s2 discarded norder o0 o1 o2

# --- sizes ---------------------------------------------------------------------------------
L_SIZE = 128
SCR_SIZE = 80
TRACE_SIZE = 1 << 18
MAX_DEBUG_DECISIONS = 4096

# --- batch result columns: the vocabulary's (sim.rules.RESULT_COLUMNS), a row's index each ---
COLUMNS = RESULT_COLUMNS
N_COLS = len(COLUMNS)
(K_LEVEL, K_GAME, K_WON, K_CAUSE, K_STEP, K_P1, K_P2, K_P1B, K_P2B, K_LIFE, K_SCORE, K_AGING,
 K_DESTROYED, K_FWG, K_FWY, K_FWR, K_FLG, K_FLY, K_FLR, K_TURNS, K_PFIRST) = (
    COLUMNS.index(name) for name in (
        "level", "game", "won", "cause", "step", "pirate_1", "pirate_2", "pirate_1_beaten",
        "pirate_2_beaten", "life", "score", "aging_taken", "destroyed", "fights_won_green",
        "fights_won_yellow", "fights_won_red", "fights_lost_green", "fights_lost_yellow",
        "fights_lost_red", "turns", "pirate_first"))
K_ERR, K_ERR_ACTION, K_ERR_PHASE = N_COLS, N_COLS + 1, N_COLS + 2
N_ROW = N_COLS + 3

# --- the state record and the policy signatures (one cached engine serves every policy) -----
A_I64 = types.Array(types.int64, 1, 'C')
A_I64_2 = types.Array(types.int64, 2, 'C')
A_F64 = types.Array(types.float64, 1, 'C')
A_U64 = types.Array(types.uint64, 1, 'C')
# a policy's decide(obs, legal, n_legal, params, rng) -> action, as policy files write it (the
# reference engine compiles a user's decide for the same arguments: sim.contract)
DECIDE_SIG = types.int64(*decide_args())


class GameArrays(NamedTuple):
    """The state of one game (sim.fast.state.new_state allocates it; the jitted side reads it
    through a pointer, ``field(gp, G_*)``, the ``G_*`` below in this order)."""
    S: np.ndarray       # int64[N_S]: the scalars at S_*; S[CNT + pile] = the cards in a pile
    P: np.ndarray       # int64[N_PILES, PILE_W]: piles, P[pile, i] bottom first (P_* rows)
    obs: np.ndarray     # int64[OBS_SIZE]: the observation (sim.observation), zones and flags
    L: np.ndarray       # int64[L_SIZE]: the legal actions L[:S[S_NLEGAL]], ascending
    E: np.ndarray       # int64[TRACE_SIZE], or [1] untraced: trace events (EV_*, decode.py)
    SCR: np.ndarray     # int64[SCR_SIZE]: scratch
    T: np.ndarray       # int64[N_T, N_CARDS]: the card table (T_* rows), shared, never written
    R: np.ndarray       # uint64[1]: the engine's random stream (sim.rng)
    PR: np.ndarray      # uint64[1]: the policy's random stream (sim.rng)
    prm: np.ndarray     # float64[n]: the policy's parameters (its ``params``)
    DOBS: np.ndarray    # int64[MAX_DEBUG_DECISIONS, OBS_SIZE], or [1, 1]: each decision's obs
    DLEG: np.ndarray    # int64[MAX_DEBUG_DECISIONS, L_SIZE + 1], or [1, 1]: count, legal ids


(G_S, G_P, G_OBS, G_L, G_E, G_SCR, G_T, G_R, G_PR, G_PRM, G_DOBS, G_DLEG) = range(12)
G_TYPE = types.NamedTuple((A_I64, A_I64_2, A_I64, A_I64, A_I64, A_I64, A_I64_2, A_U64, A_U64,
                           A_F64, A_I64_2, A_I64_2), GameArrays)
# the engine's functions take a pointer to it (one argument instead of ~90 flattened words)
G_PTR = types.CPointer(G_TYPE)
# ... and so does the policy as the engine calls it: decide inlined into an ``ask(gp)``
# (sim.fast.ask.policy_function), which reads the observation, the legal actions, the
# parameters and the policy stream from the state (a call passes one word, not ~30)
POLICY_SIG = types.int64(G_PTR)
POLICY_TYPE = types.FunctionType(POLICY_SIG)

# the type of each argument of the jitted entry points, by its name (numba_wall.signature_of)
_I = types.int64
ARG_TYPES = {"g": G_TYPE, "T": A_I64_2, "prm": A_F64, "D": A_I64_2, "f": POLICY_TYPE,
             "keep": POLICY_TYPE,
             "level": _I, "seed": _I, "first_game": _I, "n_games": _I, "start": _I, "stop": _I,
             "game": _I, "opts": A_I64, "out": A_I64_2, "row": A_I64, "agg": A_I64,
             "aggs": A_I64_2, "summary": types.boolean, "sp": A_F64, "sr0": types.uint64,
             "LOG": A_I64_2, "NLOG": A_I64}
