"""Piles, shuffles, trace events, decisions, life, drawing and reshuffling (R4.2, R4.10, R7).

Small helpers take the arrays they need.  A rule step that reaches a decision writes the legal
actions into L and calls ``wait_for`` (the game then waits there; sim.fast.machine syncs the
observation once it stops).  Nothing raises: anything that can end the game sets ``S[S_OVER]``
and the caller returns at once.
"""
from __future__ import annotations

import numpy as np

from sim import observation as O
from sim.actions import A_DONE, A_MORE
from sim.cards import AB_AGING_HIGHEST_ZERO, AB_AGING_STOP, AB_NONE, FIRST_AGING_ABILITY
from sim.rng import nb_below
from sim.rules import CAUSE_NO_LIFE, CAUSE_OLD_AGE
from sim.cards import PA_EXTRA_COSTS_2
from .layout import (K_DECISION, RP_COPY_SOURCE, RP_DESTROY, RP_FIGHT, RP_HAZARD,
                     RP_MORE_BELOW, RP_MORE_DRAW2, RP_SORT_DISCARD, RP_SORT_ORDER, RP_SORT_TAKE,
                     RP_TARGET, S_RESUME, S_NLEGAL, S_KB, CNT,
                     P_RSTACK, P_AGING, P_HSTACK, P_FIGHT, P_BEATEN, P_RDISC, P_HDISC, S_LIFE,
                     S_MAXLIFE, S_OVER, S_CAUSE, S_TRACE, S_EPOS, S_KT, S_IN_FIGHT, S_OPP, S_IS_PIRATE, S_FVALUE, S_FREE_LEFT, S_FREE_CLOSED,
                     S_STEP_MINUS, S_CARDS_DRAWN, S_PEND_CARD, S_PEND_AB, S_DBUDGET, S_STEP,
                     S_TURN, S_AGING_IN_GAME, S_OPT_CONT, T_ABILITY, S_FSUM, S_NZC, S_NDOWN,
                     S_NSTOP, S_NABIL, T_PABILITY,
                     T_VALUE, EV_DRAW, EV_RESHUFFLE, EV_LIFE, G_E, G_OBS, G_P,
                     G_R, G_S, G_T, P_TABLE_R, S_SHUF_R, S_TABLE_R)
from .dealing import table_shuffle
from .events import ev4, ev_ability, ev_pile, ev_room
from sim.contract.numba_wall import field, lean_jit

_ZONE = O.ZONE
_FLAGS = O.FLAGS
N_FIGHTING = 59


# --- piles ---------------------------------------------------------------------------------
@lean_jit
def shuffle_slice(R, a, start, n):
    """sim.rng shuffle of a[start:start+n] (already sorted by id), bottom first."""
    for i in range(n - 1, 0, -1):
        j = nb_below(R, i + 1)
        t = a[start + i]
        a[start + i] = a[start + j]
        a[start + j] = t


@lean_jit(inline=True)
def push(S, P, obs, pile, card, zone):
    n = S[CNT + pile]
    P[pile, n] = card
    S[CNT + pile] = n + 1
    obs[_ZONE + card] = zone


@lean_jit(inline=True)
def pop(S, P, pile):
    n = S[CNT + pile] - 1
    S[CNT + pile] = n
    return P[pile, n]


@lean_jit
def remove_at(S, P, pile, i):
    """Remove P[pile, i] keeping the order of the others."""
    n = S[CNT + pile]
    for k in range(i, n - 1):
        P[pile, k] = P[pile, k + 1]
    S[CNT + pile] = n - 1


# The fight pile is kept sorted by id (R4.5 lists, legal actions ascending), and the
# observation's copy of it (FIGHT_LIST, padded with -1, and O_N_FIGHT) with it.
@lean_jit(inline=True)
def fight_insert(S, P, obs, card):
    n = S[CNT + P_FIGHT]
    i = n
    while i > 0 and P[P_FIGHT, i - 1] > card:
        P[P_FIGHT, i] = P[P_FIGHT, i - 1]
        obs[O.FIGHT_LIST + i] = P[P_FIGHT, i]
        i -= 1
    P[P_FIGHT, i] = card
    obs[O.FIGHT_LIST + i] = card
    S[CNT + P_FIGHT] = n + 1
    obs[O.O_N_FIGHT] = n + 1


@lean_jit
def fight_remove(S, P, obs, card):
    n = S[CNT + P_FIGHT]
    for i in range(n):
        if P[P_FIGHT, i] == card:
            remove_at(S, P, np.int64(P_FIGHT), i)
            for k in range(i, n - 1):
                obs[O.FIGHT_LIST + k] = P[P_FIGHT, k]
            obs[O.FIGHT_LIST + n - 1] = -1
            obs[O.O_N_FIGHT] = n - 1
            return


@lean_jit(inline=True)
def fight_clear(S, obs):
    """The fight's cards have all left it."""
    for i in range(S[CNT + P_FIGHT]):
        obs[O.FIGHT_LIST + i] = -1
    S[CNT + P_FIGHT] = 0
    obs[O.O_N_FIGHT] = 0


# --- the fight's running counts (layout S_FSUM .. S_NABIL), kept as its cards move and turn ---
@lean_jit(inline=True)
def fight_in(S, obs, T, card, left):
    """``card`` joins the fight face up, not doubled (its used flag may be set, R4.5)."""
    S[S_FSUM] += T[T_VALUE, card]
    ab = T[T_ABILITY, card]
    if ab == AB_AGING_HIGHEST_ZERO:
        S[S_NZC] += 1
    elif ab == AB_AGING_STOP:
        if left:
            S[S_NSTOP] += 1
    elif ab != AB_NONE and ab < FIRST_AGING_ABILITY and (obs[_FLAGS + card] & O.F_USED) == 0:
        S[S_NABIL] += 1


@lean_jit(inline=True)
def fight_up_out(S, obs, T, card):
    """Face-up ``card`` leaves the fight or turns face down (called before its flags and zone
    change)."""
    fl = obs[_FLAGS + card]
    v = T[T_VALUE, card]
    S[S_FSUM] -= 2 * v if (fl & O.F_DOUBLED) else v
    ab = T[T_ABILITY, card]
    if ab == AB_AGING_HIGHEST_ZERO:
        S[S_NZC] -= 1
    elif ab == AB_AGING_STOP:
        if obs[_ZONE + card] == O.Z_FIGHT_LEFT:
            S[S_NSTOP] -= 1
    elif ab != AB_NONE and ab < FIRST_AGING_ABILITY and (fl & O.F_USED) == 0:
        S[S_NABIL] -= 1


@lean_jit(inline=True)
def fight_counts_clear(S):
    S[S_FSUM] = 0
    S[S_NZC] = 0
    S[S_NDOWN] = 0
    S[S_NSTOP] = 0
    S[S_NABIL] = 0


@lean_jit(inline=True)
def in_slots(S, start, n, card):
    """Whether ``card`` is among S[start:start + n] (the zeroed cards, sort3's order)."""
    for i in range(n):
        if S[start + i] == card:
            return True
    return False


@lean_jit(inline=True)
def in_pile(S, P, pile, card):
    for i in range(S[CNT + pile]):
        if P[pile, i] == card:
            return True
    return False


# --- Robinson's deck: the derived counts of the observation (sim.observation) ---------------
@lean_jit(inline=True)
def deck_in(obs, T, card, stack):
    """``card`` joins robinson_stack (``stack``) or robinson_discard."""
    v = T[T_VALUE, card]
    obs[O.O_DECK_N] += 1
    obs[O.O_DECK_SUM] += v
    if stack and v > 0:
        obs[O.O_STACK_VALUE + v - 1] += 1


@lean_jit(inline=True)
def stack_out(obs, T, card):
    """``card`` leaves robinson_stack (and the deck)."""
    v = T[T_VALUE, card]
    obs[O.O_DECK_N] -= 1
    obs[O.O_DECK_SUM] -= v
    if v > 0:
        obs[O.O_STACK_VALUE + v - 1] -= 1


# --- observation and decisions ---------------------------------------------------------------
@lean_jit(inline=True)
def free_open(S, P, obs, T):
    """R4.2/R4.3/R6.4: a free card may be drawn now."""
    return (S[S_IN_FIGHT] != 0 and S[S_FREE_LEFT] > 0 and S[S_FREE_CLOSED] == 0
            and S[S_NSTOP] == 0)                     # no face-up aging_stop on the left


@lean_jit(inline=True)
def paid_cost(S, T):
    """R4.3, R9.5 extra_card_costs_2."""
    if S[S_IN_FIGHT] != 0 and S[S_IS_PIRATE] != 0 and T[T_PABILITY, S[S_OPP]] == PA_EXTRA_COSTS_2:
        return 2
    return 1


@lean_jit(inline=True)
def sync_obs(S, P, obs, T, phase):
    """The scalars of the observation (zones, flags and the fight list are kept up to date
    as things move).
    Inlined where the game stops at a decision (sim.fast.machine.carry_on); ``sync_now`` is
    the same, called."""
    obs[O.O_PHASE] = phase
    obs[O.O_STEP] = S[S_STEP]
    obs[O.O_LIFE] = S[S_LIFE]
    obs[O.O_MAX_LIFE] = S[S_MAXLIFE]
    f = S[S_IN_FIGHT] != 0
    obs[O.O_OPPONENT] = S[S_OPP] if f else -1
    obs[O.O_OPPONENT_IS_PIRATE] = S[S_IS_PIRATE] if f else 0
    obs[O.O_FIGHT_VALUE] = S[S_FVALUE] if f else -1
    obs[O.O_FREE_LEFT] = S[S_FREE_LEFT] if f else 0
    obs[O.O_FREE_OPEN] = 1 if free_open(S, P, obs, T) else 0
    obs[O.O_PAID_COST] = paid_cost(S, T)
    obs[O.O_CARDS_DRAWN] = S[S_CARDS_DRAWN] if f else 0
    obs[O.O_STEP_MINUS] = S[S_STEP_MINUS] if f else 0
    obs[O.O_PENDING_CARD] = S[S_PEND_CARD]
    obs[O.O_PENDING_ABILITY] = S[S_PEND_AB]
    obs[O.O_DESTROY_BUDGET] = S[S_DBUDGET]
    obs[O.O_N_ROBINSON_STACK] = S[CNT + P_RSTACK]
    obs[O.O_N_ROBINSON_DISCARD] = S[CNT + P_RDISC]
    obs[O.O_N_AGING_STACK] = S[CNT + P_AGING]
    obs[O.O_N_HAZARD_STACK] = S[CNT + P_HSTACK]
    obs[O.O_N_HAZARD_DISCARD] = S[CNT + P_HDISC]
    obs[O.O_AGING_TAKEN] = S[S_AGING_IN_GAME] - S[CNT + P_AGING]
    obs[O.O_PIRATES_BEATEN] = S[CNT + P_BEATEN]
    kt = S[S_KT]
    n = S[CNT + P_RSTACK]
    obs[O.O_KNOWN_TOP_N] = kt
    for i in range(3):
        obs[O.O_KNOWN_TOP_0 + i] = P[P_RSTACK, n - 1 - i] if i < kt else -1
    obs[O.O_TURN] = S[S_TURN]


@lean_jit
def sync_now(gp, phase):
    sync_obs(field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_T), phase)


@lean_jit(inline=True)
def wait_for(S, resume, n):
    """Stop at a decision: the legal actions are L[:n] (already written); ``step`` resumes at
    ``resume`` (layout RP_*).  The observation is synced once the game stops there
    (sim.fast.machine.carry_on, ``sync_obs`` for the phase of ``resume``)."""
    S[S_RESUME] = resume
    S[S_NLEGAL] = n
    return K_DECISION


@lean_jit
def phase_of(resume):
    """The observation phase (sim.observation PH_*) of the decision at a resume point."""
    if resume == RP_FIGHT:
        return O.PH_FIGHT
    if resume == RP_HAZARD:
        return O.PH_HAZARD
    if resume == RP_TARGET or resume == RP_COPY_SOURCE:
        return O.PH_TARGET
    if resume == RP_MORE_DRAW2 or resume == RP_MORE_BELOW:
        return O.PH_MORE
    if resume == RP_DESTROY:
        return O.PH_DESTROY
    if resume == RP_SORT_TAKE:
        return O.PH_SORT_TAKE
    if resume == RP_SORT_DISCARD:
        return O.PH_SORT_DISCARD
    if resume == RP_SORT_ORDER:
        return O.PH_SORT_ORDER
    return O.PH_PIRATE                                                   # RP_PIRATE


@lean_jit
def wait_more(S, L, resume):
    """A done/more decision (R5.2, R5.6, R5.9)."""
    L[0] = A_DONE
    L[1] = A_MORE
    return wait_for(S, resume, 2)


# --- life (R4.10, R5.1) ----------------------------------------------------------------------
@lean_jit
def pay_life(S, E, amount, reason):
    """Pay life to the reserve; without enough, pay what there is and lose (R4.10)."""
    life = S[S_LIFE]
    paid = amount if amount < life else life
    S[S_LIFE] = life - paid
    if paid > 0:
        if S[S_TRACE] != 0:                  # (no call when not tracing: a hot path)
            ev4(S, E, np.int64(EV_LIFE), -paid, S[S_LIFE], reason, np.int64(0))
    if paid < amount:
        S[S_OVER] = 1
        S[S_CAUSE] = CAUSE_NO_LIFE


# --- drawing (R4.2, R4.3, R7) ----------------------------------------------------------------
@lean_jit(inline=True)
def can_draw(S):
    """A card can be drawn, or trying reaches old age (R7.2, R7.3)."""
    return (S[CNT + P_RSTACK] > 0 or S[S_OPT_CONT] == 0 or S[CNT + P_RDISC] > 0
            or S[CNT + P_AGING] > 0)


@lean_jit
def reshuffle(S, P, obs, E, R, T):
    """R7.1/R7.2: top aging card (unseen) + robinson_discard become the new stack."""
    if S[CNT + P_AGING] > 0:
        aging = pop(S, P, P_AGING)
    elif S[S_OPT_CONT] == 0:
        S[S_OVER] = 1
        S[S_CAUSE] = CAUSE_OLD_AGE
        return
    else:
        aging = -1
    n = 0
    for c in range(N_FIGHTING):          # members by id = sorted (sim.rng)
        if c == aging or obs[_ZONE + c] == O.Z_ROBINSON_DISCARD:
            if c == aging:
                deck_in(obs, T, c, True)
            else:
                v = T[T_VALUE, c]
                if v > 0:
                    obs[O.O_STACK_VALUE + v - 1] += 1
            P[P_RSTACK, n] = c
            obs[_ZONE + c] = O.Z_ROBINSON_STACK
            n += 1
    S[CNT + P_RSTACK] = n
    S[CNT + P_RDISC] = 0
    shuffle_slice(R, P[P_RSTACK], np.int64(0), n)
    if not table_shuffle(S, P, np.int64(P_RSTACK), np.int64(P_TABLE_R), np.int64(S_SHUF_R),
                         np.int64(S_TABLE_R)):
        return
    S[S_KT] = 0
    S[S_KB] = 0
    if ev_room(S, E, 4 + n):
        p = S[S_EPOS]
        E[p] = EV_RESHUFFLE
        E[p + 1] = aging
        S[S_EPOS] = p + 2
        ev_pile(S, P, E, np.int64(P_RSTACK))


@lean_jit(inline=True)
def take_top(S, P, obs, E, R, T):
    """Take the top Robinson card, reshuffling first if the stack is empty (R7.1); -1 if the
    game ended."""
    if S[CNT + P_RSTACK] == 0:
        reshuffle(S, P, obs, E, R, T)
        if S[S_OVER] != 0:
            return -1
    card = pop(S, P, P_RSTACK)
    stack_out(obs, T, card)
    if S[S_KT] > 0:
        S[S_KT] -= 1
    elif S[S_KB] > S[CNT + P_RSTACK]:       # a card put under with below_pile came up
        S[S_KB] = S[CNT + P_RSTACK]
    obs[_ZONE + card] = O.Z_OUT
    return card


@lean_jit
def draw_into_fight(gp, left, reason, cost):
    """Draw a card face up into the fight and write its events (R4.2, R5.2, R5.8-R5.10).
    (It takes the state pointer: a hot call, cheap with one argument instead of six arrays.)"""
    S, P, obs, E, R, T = field(gp, G_S), field(gp, G_P), field(gp, G_OBS), field(gp, G_E), \
        field(gp, G_R), field(gp, G_T)
    card = take_top(S, P, obs, E, R, T)
    if card < 0:
        return -1
    fight_insert(S, P, obs, card)
    fight_in(S, obs, T, card, left)
    obs[_ZONE + card] = O.Z_FIGHT_LEFT if left else O.Z_FIGHT_RIGHT
    S[S_CARDS_DRAWN] += 1
    if S[S_TRACE] != 0:                      # (no call when not tracing: a hot path)
        ev4(S, E, np.int64(EV_DRAW), card, 0 if left else 1, cost, reason)
        if left and T[T_ABILITY, card] == AB_AGING_STOP:                  # R6.4
            ev_ability(S, E, card, np.int64(AB_AGING_STOP), np.int64(-1), np.int64(-1), np.int64(-1))
    return card
