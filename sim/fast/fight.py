"""The fight (R4, R6, R9.3-R9.5): totals, legal actions, each fight decision and the end."""
from __future__ import annotations

import numpy as np

from sim import cards as C
from sim import observation as O
from sim.actions import A_DESTROY, A_DONE, A_DRAW, A_END, A_PAY, A_USE
from sim.rules import CAUSE_NO_CARDS, CAUSE_NO_LIFE, RED
from .abilities import ability_usable, use_start
from .core import (sync_now, can_draw, deck_in, draw_into_fight, fight_clear, fight_counts_clear,
                   free_open, in_pile, paid_cost, pay_life, push, wait_for)
from .events import ev4, ev_ability, ev_room
from .layout import (G_E, G_L, G_OBS, G_P, G_R, G_S, G_SCR, G_T, CNT, P_BEATEN, P_BUDGET,
                     K_DECISION, K_FIGHT, K_FIGHT_OVER, RP_DESTROY, RP_FIGHT, S_EF_TOTAL,
                     S_EF_VALUE, S_EF_WON, S_EF_DEFICIT, S_TRACE, P_FIGHT, P_HDISC, P_AGING,
                     P_RDISC, P_REMOVED, S_CARDS_DRAWN, S_CAUSE, S_DBUDGET, S_DESTROYED, S_EPOS,
                     S_NABIL, S_NZC, S_FL, S_FREE_CLOSED, S_FREE_LEFT, S_FVALUE, S_FW, S_IN_FIGHT,
                     S_IS_PIRATE, S_LIFE, S_NZERO, S_OPP, S_OVER, S_STEP, S_STEP_MINUS,
                     S_ZERO0, S_AGING_IN_GAME, T_ABILITY, T_DCOST, T_HFREE, T_HV0,
                     T_PABILITY, T_PFREE, T_PVALUE, EV_FIGHT_END, EV_FIGHT_START, LR_AGING, LR_LOST_FIGHT, LR_PAID_DRAW,
                     R_FREE, R_PAID)
from .fight_total import total_now, sync_total, effective_value
from sim.contract.numba_wall import field, lean_jit

_ZONE = O.ZONE
_FLAGS = O.FLAGS
# np.int64, not int: Numba compiles a function once per distinct int literal argument
_0, _R_FREE, _R_PAID = np.int64(0), np.int64(R_FREE), np.int64(R_PAID)


@lean_jit(inline=True)
def fight_actions(gp, S, P, obs, T, L):
    """Legal actions in a fight (R4.3-R4.6, R9.3), ascending, into L; their number."""
    n = 0
    cd = can_draw(S)
    if S[S_CARDS_DRAWN] > 0 or not cd:                                   # R4.4
        if S[S_IS_PIRATE] == 0 or total_now(gp, S, T) >= S[S_FVALUE]:    # R9.3
            L[n] = A_END
            n += 1
    if cd and free_open(S, P, obs, T):
        L[n] = A_DRAW
        n += 1
    if cd and S[S_LIFE] > 0:            # R4.3; R9.5: 1 life may buy a 2-life card (R4.10)
        L[n] = A_PAY
        n += 1
    m = S[S_NABIL]                      # face-up cards with an unused ability of their own
    nf = S[CNT + P_FIGHT]
    i = 0
    while m > 0 and i < nf:             # (stops after the last of them)
        c = P[P_FIGHT, i]
        i += 1
        ab = T[T_ABILITY, c]
        if ab == C.AB_NONE or ab >= C.FIRST_AGING_ABILITY or \
                (obs[_FLAGS + c] & (O.F_USED | O.F_FACE_DOWN)) != 0:
            continue
        m -= 1
        if ability_usable(gp, S, P, obs, T, c):
            L[n] = A_USE + c
            n += 1
    return n


@lean_jit
def opponent_value_and_free(S, P, obs, T, opp, is_pirate):
    """R4.1 hazard value at this step; R9.2/R9.5 pirate value and free cards."""
    if not is_pirate:
        return T[T_HV0 + S[S_STEP], opp], T[T_HFREE, opp]
    ab = T[T_PABILITY, opp]
    if ab == C.PA_REMAINING_HAZARDS:
        v = 0
        fr = 0
        for c in range(C.N_CARDS):
            z = obs[_ZONE + c]
            if z == O.Z_HAZARD_DISCARD or z == O.Z_HAZARD_STACK:
                v += T[T_HV0 + RED, c]
                fr += T[T_HFREE, c]
        return v, fr
    if ab == C.PA_PLUS2_PER_AGING:
        return 2 * (S[S_AGING_IN_GAME] - S[CNT + P_AGING]), T[T_PFREE, opp]
    return T[T_PVALUE, opp], T[T_PFREE, opp]


@lean_jit
def fight_begin(gp, opp, is_pirate):
    """R4.1: the fight against ``opp`` starts (its first decision follows, K_FIGHT)."""
    S, P, obs, E, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E), \
        field(gp, G_T)
    value, free = opponent_value_and_free(S, P, obs, T, opp, is_pirate)
    S[S_IN_FIGHT] = 1
    S[S_OPP] = opp
    S[S_IS_PIRATE] = 1 if is_pirate else 0
    S[S_FVALUE] = value
    S[S_FREE_LEFT] = free
    S[S_FREE_CLOSED] = 0
    S[S_STEP_MINUS] = 0
    S[S_CARDS_DRAWN] = 0
    fight_clear(S, obs)
    S[CNT + P_BUDGET] = 0
    fight_counts_clear(S)
    obs[_ZONE + opp] = O.Z_OPPONENT
    if S[S_TRACE] != 0:
        ev4(S, E, np.int64(EV_FIGHT_START), opp, 1 if is_pirate else 0, free, value)
    return K_FIGHT


@lean_jit(inline=True)
def fight_decision(gp):
    """R4.2-R4.6: wait for the next fight action; none legal (R9.4) ends the game."""
    S, P, obs, L, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_T)
    n = fight_actions(gp, S, P, obs, T, L)
    if n == 0:                                                           # R9.4
        sync_now(gp, O.PH_FIGHT)                    # the last observation, as at a decision
        sync_total(gp, S, obs, T)
        S[S_OVER] = 1
        S[S_CAUSE] = CAUSE_NO_LIFE if (can_draw(S) and S[S_LIFE] < paid_cost(S, T)) \
            else CAUSE_NO_CARDS
        return K_DECISION
    return wait_for(S, RP_FIGHT, n)


@lean_jit(inline=True)
def fight_act(gp, a):
    """A fight action (R4.2, R4.3, R4.5, R4.6).  Inlined into machine._step (the most
    frequent decision)."""
    if a == A_END:
        return end_fight_start(gp)
    S, P, obs, E, R, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E), \
        field(gp, G_R), field(gp, G_T)
    if a == A_DRAW:
        S[S_FREE_LEFT] -= 1
        draw_into_fight(gp, np.bool_(True), _R_FREE, _0)
    elif a == A_PAY:
        if free_open(S, P, obs, T):
            S[S_FREE_CLOSED] = 1                                         # R4.3 by choice
        cost = paid_cost(S, T)
        if draw_into_fight(gp, np.bool_(False), _R_PAID, cost) >= 0:
            pay_life(S, E, cost, np.int64(LR_PAID_DRAW))
    else:
        return use_start(gp, a - A_USE)
    return K_FIGHT


@lean_jit
def destroy_decision(gp):
    """R4.8: spend the destroy budget on face-up fight cards (1 or 2 each, R1.3); wait for
    the next choice, or go on with the fight's end when none is left."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    T = field(gp, G_T)
    L[0] = A_DONE
    n = 1
    for i in range(S[CNT + P_FIGHT]):
        c = P[P_FIGHT, i]
        if ((obs[_FLAGS + c] & O.F_FACE_DOWN) == 0 and T[T_DCOST, c] <= S[S_DBUDGET]
                and not in_pile(S, P, P_BUDGET, c)):
            L[n] = A_DESTROY + c
            n += 1
    if n == 1:
        S[S_DBUDGET] = 0
        return end_fight_finish(gp)
    return wait_for(S, RP_DESTROY, n)


@lean_jit
def destroy_act(gp, a):
    S, P, T = field(gp, G_S), field(gp, G_P), field(gp, G_T)
    if a == A_DONE:
        S[S_DBUDGET] = 0
        return end_fight_finish(gp)
    c = a - A_DESTROY
    P[P_BUDGET, S[CNT + P_BUDGET]] = c
    S[CNT + P_BUDGET] += 1
    S[S_DBUDGET] -= T[T_DCOST, c]
    return destroy_decision(gp)


@lean_jit
def end_fight_start(gp):
    """R4.6-R4.8: compare; after a loss that life can pay, the destroy choices first."""
    S, P, obs = field(gp, G_S), field(gp, G_P), field(gp, G_OBS)
    E, SCR, T = field(gp, G_E), field(gp, G_SCR), field(gp, G_T)
    total = total_now(gp, S, T)
    for k in range(S[S_NZERO] if S[S_NZC] != 0 else 0):     # (S_NZERO: set by fight_total)
        # the zeroing cards are the face-up highest_zero cards in id order
        m = 0
        for i in range(S[CNT + P_FIGHT]):
            c = P[P_FIGHT, i]
            if T[T_ABILITY, c] == C.AB_AGING_HIGHEST_ZERO and not (obs[_FLAGS + c] & O.F_FACE_DOWN):
                if m == k:
                    ev_ability(S, E, c, np.int64(C.AB_AGING_HIGHEST_ZERO), S[S_ZERO0 + k], np.int64(-1), np.int64(-1))
                m += 1
    value = effective_value(S, T)
    won = total >= value
    deficit = 0 if won else value - total
    S[S_EF_TOTAL] = total
    S[S_EF_VALUE] = value
    S[S_EF_WON] = 1 if won else 0
    S[S_EF_DEFICIT] = deficit
    if deficit > 0 and deficit <= S[S_LIFE]:                             # R4.8 budget
        S[S_DBUDGET] = deficit
        return destroy_decision(gp)
    return end_fight_finish(gp)


@lean_jit
def end_fight_finish(gp):
    """R4.8-R4.9: the fight_end event, pay the loss, age, clear up (K_FIGHT_OVER)."""
    S, P, obs = field(gp, G_S), field(gp, G_P), field(gp, G_OBS)
    E, T = field(gp, G_E), field(gp, G_T)
    total = S[S_EF_TOTAL]
    value = S[S_EF_VALUE]
    won = S[S_EF_WON] != 0
    deficit = S[S_EF_DEFICIT]
    nf = S[CNT + P_FIGHT]
    nb = S[CNT + P_BUDGET]
    if ev_room(S, E, 8 + nb + nf):
        p = S[S_EPOS]
        E[p] = EV_FIGHT_END
        E[p + 1] = total
        E[p + 2] = value
        E[p + 3] = 1 if won else 0
        E[p + 4] = deficit if deficit < S[S_LIFE] else S[S_LIFE]
        E[p + 5] = nb
        q = p + 6
        for i in range(nb):
            E[q] = P[P_BUDGET, i]
            q += 1
        cnt = q
        q += 1
        m = 0
        for i in range(nf):
            c = P[P_FIGHT, i]
            if obs[_FLAGS + c] & O.F_FACE_DOWN:
                E[q] = c
                q += 1
                m += 1
        E[cnt] = m
        S[S_EPOS] = q
    if deficit > 0:
        pay_life(S, E, deficit, np.int64(LR_LOST_FIGHT))
        if S[S_OVER]:
            return K_FIGHT_OVER
    for i in range(nf):                                                  # R4.9, R6.1
        c = P[P_FIGHT, i]
        ab = T[T_ABILITY, c]
        if (ab == C.AB_AGING_LIFE1 or ab == C.AB_AGING_LIFE2) and \
                not (obs[_FLAGS + c] & O.F_FACE_DOWN) and not in_pile(S, P, P_BUDGET, c):
            ev_ability(S, E, c, ab, np.int64(-1), np.int64(-1), np.int64(-1))
            pay_life(S, E, 1 if ab == C.AB_AGING_LIFE1 else 2, np.int64(LR_AGING))
            if S[S_OVER]:
                return K_FIGHT_OVER
    # the fight is over: move the cards (R4.7, R4.8)
    for i in range(nf):
        c = P[P_FIGHT, i]
        if (obs[_FLAGS + c] & O.F_FACE_DOWN) or in_pile(S, P, P_BUDGET, c):
            obs[_ZONE + c] = O.Z_REMOVED
            S[CNT + P_REMOVED] += 1
            S[S_DESTROYED] += 1
        else:
            obs[_ZONE + c] = O.Z_ROBINSON_DISCARD
            S[CNT + P_RDISC] += 1
            deck_in(obs, T, c, False)
    opp = S[S_OPP]
    step = S[S_STEP]
    if won:
        S[S_FW + step] += 1
        if S[S_IS_PIRATE]:
            push(S, P, obs, P_BEATEN, opp, O.Z_PIRATE_BEATEN)
        else:
            obs[_ZONE + opp] = O.Z_ROBINSON_DISCARD                     # knowledge now
            S[CNT + P_RDISC] += 1
            deck_in(obs, T, opp, False)
    else:
        S[S_FL + step] += 1
        obs[_ZONE + opp] = O.Z_HAZARD_DISCARD
        S[CNT + P_HDISC] += 1
    for c in range(59):
        obs[_FLAGS + c] = 0
    fight_clear(S, obs)
    S[CNT + P_BUDGET] = 0
    fight_counts_clear(S)
    S[S_IN_FIGHT] = 0
    return K_FIGHT_OVER
