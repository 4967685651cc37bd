"""Abilities of start and knowledge cards (R4.5, R5), mirroring sim.reference.abilities.

``actor`` is the card that uses the ability (the copy card for a copy, R5.5), ``source`` the
card whose ability it is, ``via`` the copy card or -1.
"""
from __future__ import annotations

import numpy as np

from sim import cards as C
from sim import observation as O
from sim.actions import A_DONE, A_MORE, A_TARGET
from .core import can_draw, deck_in, draw_into_fight, fight_remove, fight_up_out, reshuffle, wait_for, wait_more
from .events import ev4, ev_ability
from .layout import (G_E, G_L, G_OBS, G_P, G_R, G_S, G_T, CNT, P_FIGHT, P_RSTACK,
                     P_RDISC, S_LIFE, S_MAXLIFE, S_OVER, S_PEND_AB, S_PEND_CARD, S_STEP_MINUS,
                     S_KB, S_AB_SOURCE, S_AB_VIA, S_AB_K, S_SORT_EV, S_SORT_N, S_NABIL, S_NDOWN,
                     S_FSUM, T_ABILITY, T_VALUE, EV_LIFE, LR_ABILITY, R_ABILITY, R_EXCHANGE, K_ABILITY_DONE,
                     RP_COPY_SOURCE, RP_TARGET, RP_MORE_DRAW2,
                     RP_MORE_BELOW)
from sim.contract.numba_wall import field, lean_jit
from .sort3 import sort_take_next

_ZONE = O.ZONE
_FLAGS = O.FLAGS
# np.int64, not int: Numba compiles a function once per distinct int literal argument
_0, _R_ABILITY, _R_EXCHANGE = np.int64(0), np.int64(R_ABILITY), np.int64(R_EXCHANGE)


@lean_jit(inline=True)
def copyable(ab):
    return C.AB_LIFE1 <= ab <= C.AB_BELOW_PILE and ab != C.AB_COPY


@lean_jit(inline=True)
def face_up(obs, c):
    return (obs[_FLAGS + c] & O.F_FACE_DOWN) == 0


@lean_jit
def leave_fight(S, P, obs, T, card):
    """Take a face-up card out of the fight (R5.8, R5.9); True if it was a left card.  Its
    doubled flag goes with it; the caller sets its new zone."""
    left = obs[_ZONE + card] == O.Z_FIGHT_LEFT
    fight_up_out(S, obs, T, card)
    fight_remove(S, P, obs, card)
    obs[_FLAGS + card] &= ~O.F_DOUBLED
    return left


@lean_jit(inline=True)
def target_kind(ab):
    """-1: the ability takes no target; 0: any other face-up card (destroy, exchange,
    below_pile); 1: another face-up card not doubled yet (double, R5.4)."""
    if ab == C.AB_DESTROY or ab == C.AB_EXCHANGE1 or ab == C.AB_EXCHANGE2 or ab == C.AB_BELOW_PILE:
        return 0
    if ab == C.AB_DOUBLE:
        return 1
    return -1


@lean_jit(inline=True)
def is_target(obs, c, actor, need_undoubled):
    """Card c may be targeted: another face-up card, not doubled yet if need_undoubled."""
    if c == actor or not face_up(obs, c):
        return False
    return not (need_undoubled and (obs[_FLAGS + c] & O.F_DOUBLED) != 0)


@lean_jit
def fill_targets(S, P, obs, L, ab, actor, start):
    """Write TARGET+c for the cards a (non-copy) ability may target into L[start:]; count.
    Without a target (life, draw, step, sort3) returns -1."""
    kind = target_kind(ab)
    if kind < 0:
        return -1
    need_undoubled = kind == 1
    n = 0
    for i in range(S[CNT + P_FIGHT]):
        c = P[P_FIGHT, i]
        if is_target(obs, c, actor, need_undoubled):
            L[start + n] = A_TARGET + c
            n += 1
    return n


@lean_jit(inline=True)
def has_target(S, P, obs, ab, actor):
    """Like fill_targets but only says whether there is one (-1: no target needed)."""
    kind = target_kind(ab)
    if kind < 0:
        return -1
    need_undoubled = kind == 1
    for i in range(S[CNT + P_FIGHT]):
        if is_target(obs, P[P_FIGHT, i], actor, need_undoubled):
            return 1
    return 0


@lean_jit(inline=True)
def available_basic(S, P, obs, ab, actor):
    """A non-copy ability can be carried out now by ``actor``."""
    if (ab == C.AB_DRAW1 or ab == C.AB_DRAW2 or ab == C.AB_BELOW_PILE) and not can_draw(S):
        return False                                                    # R7.3, R5.9
    return has_target(S, P, obs, ab, actor) != 0


@lean_jit
def fill_copy_targets(S, P, obs, T, L, actor, start, only_check):
    n = 0
    for i in range(S[CNT + P_FIGHT]):
        c = P[P_FIGHT, i]
        if c == actor or not face_up(obs, c):
            continue
        ab = T[T_ABILITY, c]
        if copyable(ab) and available_basic(S, P, obs, ab, actor):
            if only_check:
                return 1
            L[start + n] = A_TARGET + c
            n += 1
    return n


@lean_jit
def copy_usable(gp, card):
    """A copy card has an ability to copy (R5.5).  It takes the state pointer: the inlined
    fight decision then calls it without passing (and first loading) six arrays."""
    S, P, obs, L, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_T)
    return fill_copy_targets(S, P, obs, T, L, card, _0, np.bool_(True)) > 0


@lean_jit(inline=True)
def ability_usable(gp, S, P, obs, T, card):
    """R4.5: a face-up card's own (non-aging) ability, unused this fight, that can act."""
    ab = T[T_ABILITY, card]
    if ab == C.AB_NONE or ab >= C.FIRST_AGING_ABILITY:
        return False
    if obs[_FLAGS + card] != 0 and (obs[_FLAGS + card] & (O.F_USED | O.F_FACE_DOWN)) != 0:
        return False
    if ab == C.AB_COPY:
        return copy_usable(gp, card)
    return available_basic(S, P, obs, ab, card)


@lean_jit
def wait_target(gp, optional):
    """Wait for the target (TARGET+c) of the ability in use (S_PEND_AB, actor S_PEND_CARD),
    with ``done`` first when it is optional (exchange2's second card)."""
    S, P, obs, L, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_T)
    start = 0
    if optional:
        L[0] = A_DONE
        start = 1
    n = fill_targets(S, P, obs, L, S[S_PEND_AB], S[S_PEND_CARD], start)
    return wait_for(S, RP_TARGET, start + n)


@lean_jit
def use_start(gp, card):
    """``use:<card>``: carry out the card's ability (a copy first picks what to copy)."""
    S, P, obs, L, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L), \
        field(gp, G_T)
    obs[_FLAGS + card] |= O.F_USED
    S[S_NABIL] -= 1                     # legal: face up, unused, its own ability (R4.5)
    ab = T[T_ABILITY, card]
    if ab == C.AB_COPY:                                                  # R5.5
        S[S_PEND_CARD] = card
        S[S_PEND_AB] = ab
        n = fill_copy_targets(S, P, obs, T, L, card, _0, np.bool_(False))
        return wait_for(S, RP_COPY_SOURCE, n)
    return perform_start(gp, ab, card, card, np.int64(-1))


@lean_jit
def copy_act(gp, a):
    """The card whose ability the copy card carries out (R5.5)."""
    S, T = field(gp, G_S), field(gp, G_T)
    source = a - A_TARGET
    card = S[S_PEND_CARD]
    return perform_start(gp, T[T_ABILITY, source], card, source, card)


@lean_jit
def perform_start(gp, ab, actor, source, via):
    """R5.1-R5.9: the ability ``ab`` of ``source`` used by ``actor`` (via the copy card
    ``via`` or -1), up to its first decision (K_DECISION) or to its end (K_ABILITY_DONE)."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    E, T, R = field(gp, G_E), field(gp, G_T), field(gp, G_R)
    S[S_PEND_CARD] = actor
    S[S_PEND_AB] = ab
    S[S_AB_SOURCE] = source
    S[S_AB_VIA] = via
    if ab == C.AB_LIFE1 or ab == C.AB_LIFE2:                             # R5.1
        room = S[S_MAXLIFE] - S[S_LIFE]
        want = 1 if ab == C.AB_LIFE1 else 2
        gained = want if want < room else room
        S[S_LIFE] += gained
        ev_ability(S, E, source, ab, np.int64(-1), via, gained)
        if gained > 0:
            ev4(S, E, np.int64(EV_LIFE), gained, S[S_LIFE], np.int64(LR_ABILITY), np.int64(0))
    elif ab == C.AB_DRAW1 or ab == C.AB_DRAW2:                           # R5.2
        ev_ability(S, E, source, ab, np.int64(-1), via, np.int64(-1))
        if draw_into_fight(gp, np.bool_(False), _R_ABILITY, _0) < 0:
            return K_ABILITY_DONE
        if ab == C.AB_DRAW2 and can_draw(S):
            return wait_more(S, L, np.int64(RP_MORE_DRAW2))
    elif ab == C.AB_DESTROY or ab == C.AB_DOUBLE or ab == C.AB_BELOW_PILE:   # R5.3, R5.4, R5.9
        return wait_target(gp, np.bool_(False))
    elif ab == C.AB_STEP_MINUS1:                                         # R5.7
        ev_ability(S, E, source, ab, np.int64(-1), via, np.int64(-1))
        S[S_STEP_MINUS] += 1
    elif ab == C.AB_EXCHANGE1 or ab == C.AB_EXCHANGE2:                   # R5.8
        S[S_AB_K] = 0
        return wait_target(gp, np.bool_(False))
    elif ab == C.AB_SORT3:                                               # R5.6
        S[S_SORT_EV] = ev_ability(S, E, source, np.int64(C.AB_SORT3), np.int64(-1), via, np.int64(-1))
        S[S_SORT_N] = 0
        return sort_take_next(gp)
    return K_ABILITY_DONE


@lean_jit
def target_act(gp, a):
    """The target of destroy, double, exchange or below_pile (``done``: no second exchange)."""
    S, P, obs, L = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_L)
    E, T, R = field(gp, G_E), field(gp, G_T), field(gp, G_R)
    if a == A_DONE:
        return K_ABILITY_DONE
    ab, source, via = S[S_PEND_AB], S[S_AB_SOURCE], S[S_AB_VIA]
    t = a - A_TARGET
    ev_ability(S, E, source, ab, t, via, np.int64(-1))
    if ab == C.AB_DESTROY:                                               # R5.3
        fight_up_out(S, obs, T, t)
        S[S_NDOWN] += 1
        obs[_FLAGS + t] |= O.F_FACE_DOWN
    elif ab == C.AB_DOUBLE:                                              # R5.4
        S[S_FSUM] += T[T_VALUE, t]
        obs[_FLAGS + t] |= O.F_DOUBLED
    elif ab == C.AB_EXCHANGE1 or ab == C.AB_EXCHANGE2:                   # R5.8
        left = leave_fight(S, P, obs, T, t)
        obs[_ZONE + t] = O.Z_ROBINSON_DISCARD
        S[CNT + P_RDISC] += 1
        deck_in(obs, T, t, False)
        if draw_into_fight(gp, left, _R_EXCHANGE, _0) < 0:
            return K_ABILITY_DONE
        S[S_AB_K] += 1
        if ab == C.AB_EXCHANGE2 and S[S_AB_K] < 2:
            return wait_target(gp, np.bool_(True))
    else:                                                                # R5.9 below_pile
        if S[CNT + P_RSTACK] == 0:
            # reshuffle before the target leaves (as the reference): a loss by old age here
            # (R7.2) leaves it in the fight, Robinson's card for the score (R10.3)
            reshuffle(S, P, obs, E, R, T)
            if S[S_OVER] != 0:
                return K_ABILITY_DONE
        left = leave_fight(S, P, obs, T, t)
        n = S[CNT + P_RSTACK]
        for i in range(n, 0, -1):
            P[P_RSTACK, i] = P[P_RSTACK, i - 1]
        P[P_RSTACK, 0] = t
        S[CNT + P_RSTACK] = n + 1
        S[S_KB] += 1                          # the player knows the bottom card (R1.4)
        obs[_ZONE + t] = O.Z_ROBINSON_STACK
        deck_in(obs, T, t, True)
        if left:
            return wait_more(S, L, np.int64(RP_MORE_BELOW))
    return K_ABILITY_DONE


@lean_jit
def more_act(gp, a, left, reason):
    """``more``: the second draw_plus2 card (R5.2) / the below_pile replacement (R5.9)."""
    if a == A_MORE:
        S, P, obs, E = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E)
        draw_into_fight(gp, left, reason, _0)
    return K_ABILITY_DONE
