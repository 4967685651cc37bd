"""The trace buffer E (TRACE.md events as int64 words, decoded by sim.fast.decode): room
checks and the writers of events shared by the engine's modules."""
from __future__ import annotations

from .layout import (ABILITY_EV_W, CNT, ERR_TRACE_FULL, EV_ABILITY, S_EPOS, S_ERR, S_OVER, S_STEP,
                     S_TRACE)
from sim.contract.numba_wall import lean_jit


@lean_jit(inline=True)
def ev_room(S, E, need):
    """True if the trace is on and has room for ``need`` more slots."""
    if S[S_TRACE] == 0:
        return False
    if S[S_EPOS] + need >= E.shape[0]:
        S[S_ERR] = ERR_TRACE_FULL
        S[S_OVER] = 1
        return False
    return True


@lean_jit
def ev4(S, E, code, a, b, c, d):
    if ev_room(S, E, 5):
        p = S[S_EPOS]
        E[p] = code
        E[p + 1] = a
        E[p + 2] = b
        E[p + 3] = c
        E[p + 4] = d
        S[S_EPOS] = p + 5


@lean_jit
def ev_ability(S, E, card, ability, target, via, gained):
    """An ``ability`` event; returns its position (sort3 fills its detail later)."""
    if not ev_room(S, E, ABILITY_EV_W):
        return -1
    p = S[S_EPOS]
    E[p] = EV_ABILITY
    E[p + 1] = card
    E[p + 2] = ability
    E[p + 3] = target
    E[p + 4] = via
    E[p + 5] = gained
    E[p + 6] = 0
    E[p + 10] = -1
    E[p + 11] = 0
    S[S_EPOS] = p + ABILITY_EV_W
    return p


@lean_jit
def ev_pile(S, P, E, pile):
    """Append count then the pile's cards, top first."""
    p = S[S_EPOS]
    n = S[CNT + pile]
    E[p] = n
    for i in range(n):
        E[p + 1 + i] = P[pile, n - 1 - i]
    S[S_EPOS] = p + 1 + n


@lean_jit
def ev_position(S, E, D):
    """After the setup event's fields, a position's (docs/TRACE.md's extension, decoded by
    sim.fast.decode): its discards and removed cards as the deal gives them (deal rows 4-6:
    count, ids top first), then its step."""
    p = S[S_EPOS]
    for k in range(4, 7):
        n = D[k, 0]
        E[p] = n
        for i in range(n):
            E[p + 1 + i] = D[k, 1 + i]
        p += 1 + n
    E[p] = S[S_STEP]
    S[S_EPOS] = p + 1
