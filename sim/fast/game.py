"""Set-up (R2), steps (R8), turns (R3), pirates (R9.1), the end and score (R10)."""
from __future__ import annotations

import numpy as np

from sim import cards as C
from sim import observation as O
from sim.actions import A_FIGHT, A_PIRATE, A_SKIP
from sim.cards import N_CARDS
from sim.rng import nb_mix64
from sim.rules import CAUSE_WON, PIRATES, RED
from .core import deck_in, pop, push, shuffle_slice, wait_for
from .dealing import override_pile, table_row, table_shuffle
from .events import ev4, ev_pile, ev_position, ev_room
from .fight import fight_begin
from .layout import (K_DECISION, K_TURN, RP_HAZARD, RP_NONE, RP_PIRATE, S_ENDED, S_NLEGAL,
                     S_PIRATE_FIRST, S_PIRATE_NEXT, S_RESUME, G_E, G_L, G_OBS, G_P, G_R, G_S,
                     G_SCR, G_T, CNT,
                     P_AGING, P_BEATEN, P_HDISC, P_HDRAWN, P_HSTACK, P_PIRATES, P_RSTACK, P_BUDGET,
                     P_RDISC, P_REMOVED, P_TABLE_H, P_TABLE_R, S_SHUF_H, S_TABLE_H, S_TABLE_R,
                     S_AGING_IN_GAME, S_CAUSE, S_DEBUG, S_EPOS, S_IN_FIGHT, S_IS_PIRATE, S_LEVEL,
                     S_LIFE, S_MAXLIFE, S_OPP, S_OPT_CONT, S_OPT_COUNTS, S_OPT_STACKS, S_OVER,
                     S_PEND_AB, S_PEND_CARD, S_SCORE, S_STEP, S_TRACE, S_TURN, S_WON, S_FW, S_FL,
                     S_DESTROYED, S_ERR, S_ERR_ACTION, S_ERR_PHASE, N_T, T_AGING, T_VALUE, EV_SETUP,
                     EV_STEP, EV_HAZ_DRAWN, EV_HAZ_CHOICE, EV_PIRATE_CHOICE, EV_GAME_END, K_LEVEL,
                     K_GAME, K_WON, K_CAUSE, K_STEP, K_P1, K_P2, K_P1B, K_P2B, K_LIFE, K_SCORE,
                     K_AGING, K_DESTROYED, K_FWG, K_FLG, K_TURNS, K_PFIRST, K_ERR, K_ERR_ACTION, K_ERR_PHASE)
from sim.contract.numba_wall import field, lean_jit

_ZONE = O.ZONE
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
FIRST_HAZARD, FIRST_PIRATE = C.HAZARD_IDS[0], C.PIRATE_IDS[0]
VERY_STUPID = C.VERY_STUPID
FIRST_DIFFICULT = C.AGING_DIFFICULT_IDS[0]


@lean_jit
def stream_start(seed, game, which):
    """sim.rng engine (which=0) / policy (which=1) stream of game ``game``."""
    return nb_mix64(nb_mix64(np.uint64(seed)) + np.uint64(2 * game + which))


@lean_jit
def reset(S, P, obs, level, opts, trace, debug):
    """A state ready for set_up.  The observation's card-table block (obs[CT:]) is kept: it
    depends on the table only, and is filled once per state (fill_card_block)."""
    S[:] = 0
    obs[:O.CT] = 0
    S[S_LEVEL] = level
    S[S_OPT_CONT], S[S_OPT_STACKS], S[S_OPT_COUNTS] = opts[0], opts[1], opts[2]
    S[S_TRACE] = trace
    S[S_DEBUG] = debug
    S[S_OPP] = -1
    S[S_PEND_CARD] = -1
    S[S_PEND_AB] = -1
    S[S_PIRATE_FIRST] = -1
    obs[O.O_LEVEL] = level
    obs[O.O_OPT_OLD_AGE_CONTINUE] = opts[0]
    obs[O.O_OPT_STEP_MINUS1_STACKS] = opts[1]
    obs[O.O_OPT_PLUS1_COUNTS_DESTROYED] = opts[2]
    obs[O.FIGHT_LIST:O.FIGHT_LIST + O.N_FIGHTING] = -1


@lean_jit
def fill_card_block(obs, T):
    """obs[CT + k * N_CARDS + card] = T[T_VALUE + k, card]: the game's table, as the player
    reads it (R1.4); the policies take card data from here (sim.observation CT_*).  Once per
    state (game.reset keeps it): by new_game and the runner's entry points."""
    n = T.shape[1]              # = N_CARDS, a run-time bound: LLVM does not unroll 759 stores
    for k in range(N_T - T_VALUE):
        for c in range(n):
            obs[O.CT + k * N_CARDS + c] = T[T_VALUE + k, c]


@lean_jit
def _position(S, obs, T, D):
    """A position's discards, removed cards, life and step (sim.deal); the aging cards among
    its discard and removed cards (the piles are counts, their members obs zones)."""
    a = 0
    for k, pile, z in ((4, P_RDISC, O.Z_ROBINSON_DISCARD), (5, P_HDISC, O.Z_HAZARD_DISCARD),
                       (6, P_REMOVED, O.Z_REMOVED)):
        n = D[k, 0]
        for i in range(n):
            c = D[k, 1 + i]
            obs[_ZONE + c] = z
            a += T[T_AGING, c]
            if k == 4:
                deck_in(obs, T, c, False)
        S[CNT + pile] = n
    S[S_LIFE] = D[7, 1]
    S[S_STEP] = D[7, 2]
    return a


@lean_jit
def set_up(gp, D):
    """R2, shuffles always in this order; then the deal (if any) overrides stacks/pirates."""
    S, P, obs = field(gp, G_S), field(gp, G_P), field(gp, G_OBS)
    E, SCR, T, R = field(gp, G_E), field(gp, G_SCR), field(gp, G_T), field(gp, G_R)
    level = S[S_LEVEL]
    n = 0
    for c in range(FIRST_DIFFICULT, FIRST_DIFFICULT + 3):                # R2.1
        P[P_AGING, n] = c
        n += 1
    shuffle_slice(R, P[P_AGING], np.int64(0), np.int64(3))
    for c in range(18, FIRST_DIFFICULT):
        if level >= 3 or c != VERY_STUPID:
            P[P_AGING, n] = c
            n += 1
    shuffle_slice(R, P[P_AGING], np.int64(3), n - 3)
    S[CNT + P_AGING] = n
    for c in range(18):
        P[P_RSTACK, c] = c
    m = 18
    if level >= 2:                                                        # R2.2
        P[P_RSTACK, 18] = pop(S, P, P_AGING)       # an aging id is above every start id
        m = 19
    S[CNT + P_RSTACK] = m
    shuffle_slice(R, P[P_RSTACK], np.int64(0), m)
    for i in range(30):                                                   # R2.3
        P[P_HSTACK, i] = FIRST_HAZARD + i
    S[CNT + P_HSTACK] = 30
    shuffle_slice(R, P[P_HSTACK], np.int64(0), np.int64(30))
    for i in range(10):                                                   # R2.4
        SCR[i] = FIRST_PIRATE + i
    shuffle_slice(R, SCR, np.int64(0), np.int64(10))
    P[P_PIRATES, 0] = SCR[9]
    P[P_PIRATES, 1] = SCR[8]
    S[CNT + P_PIRATES] = 2
    if D.shape[0] >= 4:
        override_pile(S, P, D, np.int64(0), np.int64(P_RSTACK))
        override_pile(S, P, D, np.int64(1), np.int64(P_AGING))
        override_pile(S, P, D, np.int64(2), np.int64(P_HSTACK))
        if D[3, 0] >= 0:
            P[P_PIRATES, 0] = D[3, 1]
            P[P_PIRATES, 1] = D[3, 2]
    a = S[CNT + P_AGING]
    for i in range(S[CNT + P_RSTACK]):
        a += T[T_AGING, P[P_RSTACK, i]]
    S[S_LIFE] = 18 if level == 4 else 20                                  # R2.5
    S[S_MAXLIFE] = 20 if level == 4 else 22
    if D.shape[0] >= 8 and D[7, 0] >= 0:
        a += _position(S, obs, T, D)
    if D.shape[0] >= 10:
        table_row(S, P, D, np.int64(8), np.int64(P_TABLE_R), np.int64(S_TABLE_R))
        table_row(S, P, D, np.int64(9), np.int64(P_TABLE_H), np.int64(S_TABLE_H))
    S[S_AGING_IN_GAME] = a
    for pile, z in ((P_RSTACK, O.Z_ROBINSON_STACK), (P_AGING, O.Z_AGING_STACK),
                    (P_HSTACK, O.Z_HAZARD_STACK), (P_PIRATES, O.Z_PIRATE)):
        for i in range(S[CNT + pile]):
            obs[_ZONE + P[pile, i]] = z
    for i in range(S[CNT + P_RSTACK]):
        deck_in(obs, T, P[P_RSTACK, i], True)
    obs[O.O_PIRATE_1] = P[P_PIRATES, 0]
    obs[O.O_PIRATE_2] = P[P_PIRATES, 1]
    if ev_room(S, E, 100):
        p = S[S_EPOS]
        E[p] = EV_SETUP
        S[S_EPOS] = p + 1
        ev_pile(S, P, E, np.int64(P_RSTACK))
        ev_pile(S, P, E, np.int64(P_HSTACK))
        ev_pile(S, P, E, np.int64(P_AGING))
        position = D.shape[0] >= 8 and D[7, 0] >= 0
        ev4(S, E, P[P_PIRATES, 0], P[P_PIRATES, 1], S[S_LIFE], S[S_MAXLIFE],
            np.int64(1 if position else 0))    # code=p1 + 4 fields: the 5th, a position's flag
        if position:
            ev_position(S, E, D)
    _step_event(S, P, E)


@lean_jit
def _step_event(S, P, E):
    if ev_room(S, E, 40):
        p = S[S_EPOS]
        E[p] = EV_STEP
        E[p + 1] = S[S_STEP]
        S[S_EPOS] = p + 2
        ev_pile(S, P, E, np.int64(P_HSTACK))


@lean_jit
def start_step(gp, step):
    """R8.1: yellow and red shuffle the hazard discard into a new stack; R8.2 pirates."""
    S, P, obs, E = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E)
    R = field(gp, G_R)
    S[S_STEP] = step
    if step != PIRATES:
        n = 0
        for c in range(FIRST_HAZARD, FIRST_HAZARD + 30):
            if obs[_ZONE + c] == O.Z_HAZARD_DISCARD:
                P[P_HSTACK, n] = c
                obs[_ZONE + c] = O.Z_HAZARD_STACK
                n += 1
        S[CNT + P_HSTACK] = n
        S[CNT + P_HDISC] = 0
        shuffle_slice(R, P[P_HSTACK], np.int64(0), n)
        if not table_shuffle(S, P, np.int64(P_HSTACK), np.int64(P_TABLE_H), np.int64(S_SHUF_H),
                             np.int64(S_TABLE_H)):
            return
    _step_event(S, P, E)


@lean_jit
def next_turn(gp):
    """R3.3 / R8.1: the next turn, starting the next step when the hazard stack is empty;
    after red, R8.2 the pirates.  Waits for the hazard (R3.1, R3.2) or pirate (R9.1) choice."""
    S = field(gp, G_S)
    while S[CNT + P_HSTACK] == 0:
        if S[S_STEP] == RED:
            start_step(gp, np.int64(PIRATES))
            return pirate_decision(gp)
        start_step(gp, S[S_STEP] + 1)
        if S[S_OVER] != 0:                    # a table shuffle that cannot have happened
            return np.int64(K_DECISION)
    return hazard_turn(gp)


@lean_jit
def hazard_turn(gp):
    """R3.1 / R3.2: draw two hazards and wait for the choice of one, or of the last one (or
    skipping it)."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    E = field(gp, G_E)
    S[S_TURN] += 1
    n = 2 if S[CNT + P_HSTACK] >= 2 else 1
    S[CNT + P_HDRAWN] = 0
    for i in range(n):
        push(S, P, obs, P_HDRAWN, pop(S, P, P_HSTACK), O.Z_HAZARD_DRAWN)
    c0 = P[P_HDRAWN, 0]
    c1 = P[P_HDRAWN, 1] if n == 2 else -1
    if ev_room(S, E, 4):
        ev4(S, E, np.int64(EV_HAZ_DRAWN), n, c0, c1, np.int64(0))
        S[S_EPOS] -= 1 if n == 2 else 2
    if n == 1:
        L[0] = A_SKIP
        L[1] = A_FIGHT + c0
    else:
        L[0] = A_FIGHT + min(c0, c1)
        L[1] = A_FIGHT + max(c0, c1)
    return wait_for(S, RP_HAZARD, 2)


@lean_jit
def hazard_act(gp, a):
    """The hazard chosen (or skip): the other goes to the hazard discard, the fight starts."""
    S, P, obs, E = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E)
    n = S[CNT + P_HDRAWN]
    c0 = P[P_HDRAWN, 0]
    c1 = P[P_HDRAWN, 1] if n == 2 else -1
    chosen = -1 if a == A_SKIP else a - A_FIGHT
    S[CNT + P_HDRAWN] = 0
    nd = 0
    d = -1
    for c in (c0, c1):
        if c >= 0 and c != chosen:
            obs[_ZONE + c] = O.Z_HAZARD_DISCARD
            S[CNT + P_HDISC] += 1
            nd += 1
            d = c
    if ev_room(S, E, 5):
        ev4(S, E, np.int64(EV_HAZ_CHOICE), chosen, nd, d if nd else 0, np.int64(0))
        S[S_EPOS] -= 1 if nd else 2
    if chosen >= 0:
        return fight_begin(gp, chosen, S[S_STEP] == PIRATES)
    return K_TURN


@lean_jit
def pirate_decision(gp):
    """R9.1: wait for the choice of the first pirate."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    p1, p2 = P[P_PIRATES, 0], P[P_PIRATES, 1]
    L[0] = A_PIRATE + min(p1, p2)
    L[1] = A_PIRATE + max(p1, p2)
    return wait_for(S, RP_PIRATE, 2)


@lean_jit
def pirate_fight(gp, pirate, then):
    """The fight against ``pirate``; ``then`` is fought next (-1: none, R9.1)."""
    S, E = field(gp, G_S), field(gp, G_E)
    S[S_PIRATE_NEXT] = then
    if ev_room(S, E, 2):
        p = S[S_EPOS]
        E[p] = EV_PIRATE_CHOICE
        E[p + 1] = pirate
        S[S_EPOS] = p + 2
    return fight_begin(gp, pirate, S[S_STEP] == PIRATES)


@lean_jit
def pirate_act(gp, a):
    P = field(gp, G_P)
    p1, p2 = P[P_PIRATES, 0], P[P_PIRATES, 1]
    first = a - A_PIRATE
    field(gp, G_S)[S_PIRATE_FIRST] = first
    return pirate_fight(gp, first, p2 if first == p1 else p1)


@lean_jit
def after_fight(gp):
    """After a fight: the second pirate, or the game is won (R10.1), or the next turn."""
    S = field(gp, G_S)
    if S[S_IS_PIRATE]:
        nxt = S[S_PIRATE_NEXT]
        if nxt >= 0:
            return pirate_fight(gp, nxt, np.int64(-1))
        S[S_WON] = 1
        S[S_CAUSE] = CAUSE_WON                                          # R10.1
        S[S_OVER] = 1
        return K_DECISION
    return K_TURN


@lean_jit
def compute_score(S, P, obs, T):
    """R10.3 (the fight's cards still count, except destroyed ones, R4.10)."""
    score = 0
    for c in range(59):
        z = obs[_ZONE + c]
        mine = z == O.Z_ROBINSON_STACK or z == O.Z_ROBINSON_DISCARD or z == O.Z_SORT
        if S[S_IN_FIGHT] and (z == O.Z_FIGHT_LEFT or z == O.Z_FIGHT_RIGHT):
            mine = (obs[O.FLAGS + c] & O.F_FACE_DOWN) == 0
            for i in range(S[CNT + P_BUDGET]):
                if P[P_BUDGET, i] == c:
                    mine = False
        if mine:
            score += -5 if T[T_AGING, c] else T[T_VALUE, c]
    score += 15 * S[CNT + P_BEATEN]
    if S[S_WON]:
        score += 5 * S[S_LIFE]
    score -= 3 * (S[CNT + P_HSTACK] + S[CNT + P_HDISC])
    return score


@lean_jit
def finish(gp):
    """The game is over (won, R10.1, or lost): R4.10 an undefeated hazard, R10.3 the score,
    the game_end event; no decision is left."""
    S, P, obs, E = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E)
    if S[S_WON] == 0 and S[S_IN_FIGHT] and S[S_IS_PIRATE] == 0:
        obs[_ZONE + S[S_OPP]] = O.Z_HAZARD_DISCARD                      # R4.10: undefeated
        S[CNT + P_HDISC] += 1
    S[S_PEND_CARD] = -1
    S[S_PEND_AB] = -1
    S[S_SCORE] = compute_score(S, P, obs, field(gp, G_T))
    if ev_room(S, E, 6):
        ev4(S, E, np.int64(EV_GAME_END), S[S_WON], S[S_CAUSE], S[S_LIFE], S[S_SCORE])
        p = S[S_EPOS]
        E[p] = S[S_STEP]
        S[S_EPOS] = p + 1
    S[S_OVER] = 1
    S[S_ENDED] = 1
    S[S_RESUME] = RP_NONE
    S[S_NLEGAL] = 0
    obs[O.O_PHASE] = O.PH_NONE


@lean_jit
def write_row(S, P, row, game):
    row[K_LEVEL] = S[S_LEVEL]
    row[K_GAME] = game
    row[K_WON] = S[S_WON]
    row[K_CAUSE] = S[S_CAUSE]
    row[K_STEP] = S[S_STEP]
    row[K_P1] = P[P_PIRATES, 0]
    row[K_P2] = P[P_PIRATES, 1]
    b1 = 0
    b2 = 0
    for i in range(S[CNT + P_BEATEN]):
        if P[P_BEATEN, i] == P[P_PIRATES, 0]:
            b1 = 1
        if P[P_BEATEN, i] == P[P_PIRATES, 1]:
            b2 = 1
    row[K_P1B] = b1
    row[K_P2B] = b2
    row[K_LIFE] = S[S_LIFE]
    row[K_SCORE] = S[S_SCORE]
    row[K_AGING] = S[S_AGING_IN_GAME] - S[CNT + P_AGING]
    row[K_DESTROYED] = S[S_DESTROYED]
    for k in range(3):
        row[K_FWG + k] = S[S_FW + k]
        row[K_FLG + k] = S[S_FL + k]
    row[K_TURNS] = S[S_TURN]
    row[K_PFIRST] = S[S_PIRATE_FIRST]
    row[K_ERR] = S[S_ERR]
    row[K_ERR_ACTION] = S[S_ERR_ACTION]
    row[K_ERR_PHASE] = S[S_ERR_PHASE]
