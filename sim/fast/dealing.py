"""A deal (sim.deal) on the fast engine's state: its piles at set-up, and the table's later
shuffles (RESHUFFLE_KEYS: sim.fast.layout P_TABLE_R, P_TABLE_H), put on top of the seed's."""
from __future__ import annotations

from .layout import CNT, ERR_SHUFFLE, S_ERR, S_ERR_ACTION, S_ERR_PHASE, S_OVER
from sim.contract.numba_wall import lean_jit


@lean_jit
def override_pile(S, P, D, k, pile):
    """Deal row k (count, ids top first; count -1 = not given) replaces a pile (sim.deal)."""
    n = D[k, 0]
    if n < 0:
        return
    for i in range(n):
        P[pile, n - 1 - i] = D[k, 1 + i]
    S[CNT + pile] = n


@lean_jit
def table_row(S, P, D, k, row, held):
    """Deal row k (count, ids top first; -1 = not given): the first table shuffle of a stack
    (sim.deal RESHUFFLE_KEYS; sim.Game loads the later ones) into ``row``."""
    n = D[k, 0]
    if n < 0:
        return
    for i in range(n):
        P[row, i] = D[k, 1 + i]
    S[CNT + row] = n
    S[held] = 1


@lean_jit
def table_shuffle(S, P, pile, row, done, held):
    """After the seed's shuffle of ``pile`` (drawn in any case: the same stream), the table's
    (sim.deal arrange): if row ``row`` holds this shuffle's cards (``S[held]`` is 1 + the
    number of shuffles so far, ``S[done]``), they go on top in their order, the other cards
    keep their order below.  False (and S_ERR = ERR_SHUFFLE, the game over) if the pile does
    not hold one of them."""
    k = S[done]
    S[done] = k + 1
    if S[held] != k + 1:
        return True
    S[held] = 0
    n = S[CNT + pile]
    for j in range(S[CNT + row]):
        card = P[row, j]
        t = n - 1 - j
        i = t
        while i >= 0 and P[pile, i] != card:
            i -= 1
        if i < 0:
            S[S_ERR] = ERR_SHUFFLE
            S[S_ERR_ACTION] = card
            S[S_ERR_PHASE] = row
            S[S_OVER] = 1
            return False
        for m in range(i, t):
            P[pile, m] = P[pile, m + 1]
        P[pile, t] = card
    return True
