"""The sort3 ability (R5.6), as the reference engine plays it: take up to 3 cards, discard at
most 1, put the rest back in the chosen order."""
from __future__ import annotations

import numpy as np

from sim import observation as O
from sim.actions import A_DISCARD, A_DONE, A_MORE, A_PUT
from .core import can_draw, deck_in, in_slots, push, remove_at, take_top, wait_for
from .layout import (G_E, G_L, G_OBS, G_P, G_R, G_S, G_T, CNT, P_RSTACK, P_RDISC,
                     P_SORT, S_KT, S_SORT_EV, S_SORT_N, S_ORD0, K_ABILITY_DONE, RP_SORT_TAKE,
                     RP_SORT_DISCARD, RP_SORT_ORDER)
from sim.contract.numba_wall import field, lean_jit

_ZONE = O.ZONE


# The event is written first (S_SORT_EV) and its detail filled in as choices are made.
@lean_jit
def sort_take_next(gp):
    S, P, obs, L, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_T)
    if S[CNT + P_SORT] < 3 and can_draw(S):
        L[0] = A_DONE
        L[1] = A_MORE
        return wait_for(S, RP_SORT_TAKE, 2)
    return sort_discard_next(gp)


@lean_jit
def sort_take_act(gp, a):
    if a != A_MORE:
        return sort_discard_next(gp)
    S, P, obs, E = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E)
    c = take_top(S, P, obs, E, field(gp, G_R), field(gp, G_T))
    if c < 0:
        return K_ABILITY_DONE
    push(S, P, obs, P_SORT, c, O.Z_SORT)
    p = S[S_SORT_EV]
    if p >= 0:
        E[p + 7 + E[p + 6]] = c
        E[p + 6] += 1
    return sort_take_next(gp)


@lean_jit
def sort_discard_next(gp):
    S, P, obs, L, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_T)
    nh = S[CNT + P_SORT]
    if nh > 0:
        L[0] = A_DONE
        _sorted_hand(S, P, L, A_DISCARD)
        return wait_for(S, RP_SORT_DISCARD, 1 + nh)
    return sort_order_next(gp)


@lean_jit
def sort_discard_act(gp, a):
    if a != A_DONE:
        S, P, obs, E, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E), \
            field(gp, G_T)
        d = a - A_DISCARD
        for i in range(S[CNT + P_SORT]):
            if P[P_SORT, i] == d:
                remove_at(S, P, np.int64(P_SORT), i)
                break
        obs[_ZONE + d] = O.Z_ROBINSON_DISCARD
        S[CNT + P_RDISC] += 1
        deck_in(obs, T, d, False)
        p = S[S_SORT_EV]
        if p >= 0:
            E[p + 10] = d
    return sort_order_next(gp)


@lean_jit
def sort_order_next(gp):
    """Every card stays in the hand (zone sort3_hand) until the whole order is chosen
    (S[S_ORD0 + k], k < S[S_SORT_N]); the last one needs no choice."""
    S, P, obs, L, E, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_E), field(gp, G_T)
    nh = S[CNT + P_SORT]
    while S[S_SORT_N] < nh:
        norder = S[S_SORT_N]
        if norder < nh - 1:
            m = _sorted_rest(S, P, L, norder)
            return wait_for(S, RP_SORT_ORDER, m)
        for i in range(nh):
            if not in_slots(S, S_ORD0, norder, P[P_SORT, i]):
                S[S_ORD0 + norder] = P[P_SORT, i]
        S[S_SORT_N] = norder + 1
    norder = S[S_SORT_N]
    S[CNT + P_SORT] = 0
    for k in range(norder - 1, -1, -1):
        push(S, P, obs, P_RSTACK, S[S_ORD0 + k], O.Z_ROBINSON_STACK)
        deck_in(obs, T, S[S_ORD0 + k], True)
    S[S_KT] += norder
    p = S[S_SORT_EV]
    if p >= 0:
        E[p + 11] = norder
        for k in range(norder):
            E[p + 12 + k] = S[S_ORD0 + k]
    return K_ABILITY_DONE


@lean_jit
def sort_order_act(gp, a):
    S = field(gp, G_S)
    S[S_ORD0 + S[S_SORT_N]] = a - A_PUT
    S[S_SORT_N] += 1
    return sort_order_next(gp)


@lean_jit
def _sorted_hand(S, P, L, base):
    """L[1:1+n] = base + hand cards in ascending id order (n <= 3)."""
    n = S[CNT + P_SORT]
    for i in range(n):
        c = P[P_SORT, i]
        j = i
        while j > 0 and L[j] > base + c:
            L[j + 1] = L[j]
            j -= 1
        L[j + 1] = base + c


@lean_jit
def _sorted_rest(S, P, L, norder):
    """L[:m] = A_PUT + the hand cards not yet ordered (S[S_ORD0:S_ORD0 + norder]), ascending."""
    m = 0
    for i in range(S[CNT + P_SORT]):
        c = P[P_SORT, i]
        if in_slots(S, S_ORD0, norder, c):
            continue
        j = m
        while j > 0 and L[j - 1] > A_PUT + c:
            L[j] = L[j - 1]
            j -= 1
        L[j] = A_PUT + c
        m += 1
    return m
