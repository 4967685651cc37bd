"""The fight's total and value (R4.6, R5.7, R9.5), counted as the fight's cards move: what
the observation shows and what the end of the fight compares."""
from __future__ import annotations


from sim import cards as C
from sim import observation as O
from .core import in_slots
from .layout import (G_OBS, G_P, G_S, G_SCR, G_T, CNT, P_FIGHT, S_FSUM, S_NDOWN, S_NZC, S_FVALUE,
                     S_IN_FIGHT, S_IS_PIRATE, S_NZERO, S_OPP, S_OPT_COUNTS, S_OPT_STACKS,
                     S_STEP, S_STEP_MINUS, S_ZERO0, T_ABILITY, T_AGING, T_HV0, T_PABILITY,
                     T_VALUE)
from sim.contract.numba_wall import field, lean_jit

_FLAGS = O.FLAGS


@lean_jit
def zeroing(S, P, obs, T):
    """R6.2: each face-up aging_highest_zero card (by id) zeroes the face-up card with the
    highest positive printed value not zeroed yet; ties: a non-doubled one, then lowest id.
    Targets go to S[S_ZERO0 + k] (-1 for none), S[S_NZERO] = number of such aging cards."""
    k = 0
    n = S[CNT + P_FIGHT]
    for i in range(n):
        card = P[P_FIGHT, i]
        if T[T_ABILITY, card] != C.AB_AGING_HIGHEST_ZERO or (obs[_FLAGS + card] & O.F_FACE_DOWN):
            continue
        best = -1
        best_v = 0
        best_d = 0
        for j in range(n):
            c = P[P_FIGHT, j]
            v = T[T_VALUE, c]
            fl = obs[_FLAGS + c]
            if v <= 0 or (fl & O.F_FACE_DOWN) or in_slots(S, S_ZERO0, k, c):
                continue
            d = 1 if (fl & O.F_DOUBLED) else 0
            if best < 0 or v > best_v or (v == best_v and d < best_d):
                best, best_v, best_d = c, v, d
        S[S_ZERO0 + k] = best
        k += 1
    S[S_NZERO] = k


@lean_jit
def fight_total(S, P, obs, T, SCR):
    """R4.6 with R5.3, R5.4, R6.2 and the pirate rules of R9.5."""
    zeroing(S, P, obs, T)
    k = S[S_NZERO]
    n = S[CNT + P_FIGHT]
    ability = T[T_PABILITY, S[S_OPP]] if S[S_IS_PIRATE] else C.PA_NONE
    total = 0
    n_down = 0
    n_aging = 0
    n_others = 0
    for i in range(n):
        c = P[P_FIGHT, i]
        fl = obs[_FLAGS + c]
        down = (fl & O.F_FACE_DOWN) != 0
        if down:
            n_down += 1
        v = 0 if (down or in_slots(S, S_ZERO0, k, c)) else T[T_VALUE, c]
        if fl & O.F_DOUBLED:
            v *= 2
        if ability == C.PA_HALF_COUNT:
            if T[T_AGING, c] and not down:
                total += v
                n_aging += 1
            else:
                j = n_others                      # insertion, descending
                while j > 0 and SCR[j - 1] < v:
                    SCR[j] = SCR[j - 1]
                    j -= 1
                SCR[j] = v
                n_others += 1
        else:
            total += v
    if ability == C.PA_HALF_COUNT:
        places = (n + 1) // 2 - n_aging
        for j in range(min(places, n_others)):
            total += SCR[j]
    elif ability == C.PA_PLUS1_PER_CARD:
        total += n if S[S_OPT_COUNTS] else n - n_down
    return total


@lean_jit
def fight_total_at(gp):
    """``fight_total`` of the game behind ``gp`` (a cheap call from inlined code: one pointer
    instead of five arrays, which the caller would load and keep first)."""
    return fight_total(field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_T),
                       field(gp, G_SCR))


@lean_jit(inline=True)
def total_now(gp, S, T):
    """``fight_total`` from the running counts (layout S_FSUM ..) when no card zeroes another
    (R6.2) and the pirate does not count half the cards (R9.5); else counted afresh."""
    pa = T[T_PABILITY, S[S_OPP]] if S[S_IS_PIRATE] else C.PA_NONE
    if S[S_NZC] != 0 or pa == C.PA_HALF_COUNT:
        return fight_total_at(gp)
    total = S[S_FSUM]
    if pa == C.PA_PLUS1_PER_CARD:
        n = S[CNT + P_FIGHT]
        total += n if S[S_OPT_COUNTS] else n - S[S_NDOWN]
    return total


@lean_jit(inline=True)
def effective_value(S, T):
    """R5.7: step_minus1 lowers a hazard's step at the comparison, never below green."""
    if S[S_IS_PIRATE]:
        return S[S_FVALUE]
    sm = S[S_STEP_MINUS]
    if S[S_OPT_STACKS] == 0 and sm > 1:
        sm = 1
    st = S[S_STEP] - sm
    if st < 0:
        st = 0
    return T[T_HV0 + st, S[S_OPP]]


@lean_jit(inline=True)
def sync_total(gp, S, obs, T):
    """The observation's fight total and the value it is compared with (sim.observation
    O_FIGHT_TOTAL, O_EFFECTIVE_VALUE; 0 outside a fight)."""
    in_fight = S[S_IN_FIGHT] != 0
    obs[O.O_FIGHT_TOTAL] = total_now(gp, S, T) if in_fight else 0
    obs[O.O_EFFECTIVE_VALUE] = effective_value(S, T) if in_fight else 0
