"""The fast engine as a state machine (Pgx / OpenSpiel style): ``new_game``, ``observe``,
``step``, ``clone_into``, ``resample_hidden``.

The whole game lives in the state record ``g`` (layout.GameArrays: ``S``, ``P``, ``obs``,
...), including where in a turn, a fight, an ability, a sort3 or a destroy sequence
it waits (``S[S_RESUME]``).  Between two calls the game always waits at a decision (or has
ended, ``S[S_ENDED]``): ``observe`` gives the observation and the legal actions ``L[:n]``,
``step(gp, action)`` plays the action and carries the game on to the next decision, resolving
chance (draws, reshuffles) from the game's own stream ``R`` inside.  Every function takes ``gp =
address_of(g)`` and allocates nothing, so jitted code (a search) can call them in a loop.

Compile time: Numba re-optimizes every function together with all its callees (linked in),
and inlines an ``inline='always'`` function anew (slowly) at each call site.  So the engine
is not built in layers that each link it again, and only the hot small helpers of the decision
loop are inlined (LLVM does not inline Numba functions that take arrays), each at one or a few
sites: ``carry_on`` holds the fight decision and the observation sync once, and the bodies of
``start``, ``step`` and ``play_out`` (``_start``, ``_step``, ``_play_out``) are inlined into
the batch and single-game entry points (sim.fast.runner), which link the engine once.  Those
bodies are for callers compiled without reference counting (``numba_wall.lean_jit``), like
the rest of the engine.
"""
from __future__ import annotations

import numpy as np

from sim import observation as O
from sim.cards import AGING_DIFFICULT_IDS, HAZARD_IDS
from sim.rng import nb_next
from .abilities import copy_act, more_act, target_act
from .fight import destroy_act, fight_act, fight_decision
from .fight_total import sync_total
from .sort3 import sort_discard_act, sort_order_act, sort_take_act
from .game import (after_fight, fill_card_block, finish, hazard_act, next_turn, pirate_act,
                   reset, set_up, stream_start)
from .layout import (CNT, ERR_DEBUG_FULL, ERR_ILLEGAL, G_DLEG, G_DOBS, G_L, G_T, G_E, G_OBS, G_P, G_PR, G_R, G_S, G_SCR, K_ABILITY_DONE,
                     K_DECISION, K_FIGHT, K_FIGHT_OVER, K_TURN, P_AGING, P_HSTACK,
                     P_RSTACK, RP_COPY_SOURCE, RP_DESTROY, RP_FIGHT, RP_HAZARD, RP_MORE_BELOW,
                     RP_MORE_DRAW2, RP_PIRATE, RP_SORT_DISCARD, RP_SORT_ORDER, RP_SORT_TAKE,
                     RP_TARGET, R_ABILITY, R_REPLACE, S_DECISIONS, S_ENDED, S_EPOS, S_ERR,
                     S_DEBUG, S_ERR_ACTION, S_ERR_PHASE, S_KB, S_KT, S_NDEC, S_NLEGAL, S_OVER, S_PEND_AB,
                     S_PEND_CARD, S_RESUME, S_SORT_EV, S_TABLE_H, S_TABLE_R, S_TRACE)
from .core import phase_of, shuffle_slice, sync_obs
from sim.contract.numba_wall import field, lean_jit

_ZONE = O.ZONE
FIRST_DIFFICULT = AGING_DIFFICULT_IDS[0]
FIRST_HAZARD = HAZARD_IDS[0]


@lean_jit
def carry_on(gp, k):
    """Follow the continuation ``k`` of a rule step to the next decision (and sync the
    observation for it, once) or to the game's end."""
    S = field(gp, G_S)
    while True:
        if S[S_OVER] != 0:
            finish(gp)
            return
        if k == K_DECISION:
            P, obs, T = field(gp, G_P), field(gp, G_OBS), field(gp, G_T)
            sync_obs(S, P, obs, T, phase_of(S[S_RESUME]))
            sync_total(gp, S, obs, T)
            return
        if k == K_ABILITY_DONE:
            S[S_PEND_CARD] = -1
            S[S_PEND_AB] = -1
            k = K_FIGHT
        k = fight_decision(gp) if k == K_FIGHT else between_fights(gp, k)


@lean_jit
def between_fights(gp, k):
    """K_FIGHT_OVER or K_TURN: after_fight or next_turn, and the continuation they return (one
    call site in carry_on for both: each call site costs carry_on a return slot to clear at
    every entry)."""
    return after_fight(gp) if k == K_FIGHT_OVER else next_turn(gp)


@lean_jit(inline=True)
def _start(gp, D):
    set_up(gp, D)
    carry_on(gp, np.int64(K_TURN))          # a plain int64: one compiled carry_on


@lean_jit
def start(gp, D):
    """R2 on a reset state whose streams are set: set up and wait at the first decision (the
    observation's card-table block is filled here too; the batch runner, playing many games
    on one state, fills it once and calls ``_start``)."""
    fill_card_block(field(gp, G_OBS), field(gp, G_T))
    _start(gp, D)


@lean_jit
def new_game(gp, level, seed, game, opts, D):
    """R2: set up game ``game`` of master seed ``seed`` (sim.rng streams; ``D`` a deal as in
    sim.fast.api, or a 1x1 array for none) and carry it to its first decision.  The trace
    (``S_TRACE``) and decision record (``S_DEBUG``) flags are kept from the state."""
    S, P, obs = field(gp, G_S), field(gp, G_P), field(gp, G_OBS)
    reset(S, P, obs, level, opts, S[S_TRACE], S[S_DEBUG])
    fill_card_block(obs, field(gp, G_T))
    field(gp, G_R)[0] = stream_start(seed, game, np.int64(0))
    field(gp, G_PR)[0] = stream_start(seed, game, np.int64(1))
    _start(gp, D)


@lean_jit
def observe(gp):
    """(observation, legal actions, their number): the legal actions are ``L[:n]``, ascending;
    ``n`` is 0 once the game has ended."""
    return field(gp, G_OBS), field(gp, G_L), field(gp, G_S)[S_NLEGAL]


@lean_jit(inline=True)
def is_legal(gp, action):
    S, L = field(gp, G_S), field(gp, G_L)
    for i in range(S[S_NLEGAL]):
        if L[i] == action:
            return True
    return False


@lean_jit
def step(gp, action):
    """Play ``action`` at the decision the game waits for and carry the game on to the next
    decision (or its end).  An illegal action ends the game with an error (S_ERR); a step
    after the end does nothing."""
    _step(gp, action)


@lean_jit(inline=True)
def _step(gp, action):
    S = field(gp, G_S)
    if S[S_ENDED] != 0:
        return
    S[S_DECISIONS] += 1
    if not is_legal(gp, action):
        S[S_ERR] = ERR_ILLEGAL
        S[S_ERR_ACTION] = action
        S[S_ERR_PHASE] = field(gp, G_OBS)[O.O_PHASE]
        S[S_OVER] = 1
        finish(gp)
        return
    rp = S[S_RESUME]
    if rp == RP_FIGHT:
        k = fight_act(gp, action)
    elif rp == RP_HAZARD:
        k = hazard_act(gp, action)
    elif rp == RP_TARGET:
        k = target_act(gp, action)
    elif rp == RP_DESTROY:
        k = destroy_act(gp, action)
    elif rp == RP_SORT_TAKE:
        k = sort_take_act(gp, action)
    elif rp == RP_SORT_DISCARD:
        k = sort_discard_act(gp, action)
    elif rp == RP_SORT_ORDER:
        k = sort_order_act(gp, action)
    elif rp == RP_COPY_SOURCE:
        k = copy_act(gp, action)
    elif rp == RP_MORE_DRAW2 or rp == RP_MORE_BELOW:
        below = rp == RP_MORE_BELOW
        k = more_act(gp, action, below, R_REPLACE if below else R_ABILITY)
    else:                                                                # RP_PIRATE
        k = pirate_act(gp, action)
    carry_on(gp, k)


@lean_jit
def play_out(gp, f):
    """The batch loop: observe, ask the policy ``f`` (layout.POLICY_SIG), step, to the end.
    With S_DEBUG every decision's observation and legal actions are recorded (DOBS, DLEG)."""
    _play_out(gp, f)


@lean_jit(inline=True)
def _play_out(gp, f):
    S = field(gp, G_S)
    while S[S_ENDED] == 0:
        if S[S_DEBUG] != 0 and not record(gp, S[S_NLEGAL]):
            S[S_ERR] = ERR_DEBUG_FULL
            S[S_OVER] = 1
            finish(gp)
            return
        _step(gp, f(gp))


@lean_jit
def record(gp, n):
    """Append the observation and the legal actions to DOBS/DLEG; False when full."""
    S, obs, L = field(gp, G_S), field(gp, G_OBS), field(gp, G_L)
    DOBS, DLEG = field(gp, G_DOBS), field(gp, G_DLEG)
    k = S[S_NDEC]
    if k >= DOBS.shape[0] or n + 1 > DLEG.shape[1]:
        return False
    for i in range(obs.shape[0]):
        DOBS[k, i] = obs[i]
    DLEG[k, 0] = n
    for i in range(n):
        DLEG[k, 1 + i] = L[i]
    S[S_NDEC] = k + 1
    return True


# --- copies (R1.4) ------------------------------------------------------------------------------
@lean_jit
def clone_into(src, dst):
    """Copy the game behind ``src`` into the (allocated) state behind ``dst``: scalars, piles,
    observation, legal actions, both random streams, and the trace written so far when the
    source traces.  The card table and the policy parameters are not copied (dst keeps its own,
    usually the same arrays)."""
    S0, S1 = field(src, G_S), field(dst, G_S)
    for i in range(S0.shape[0]):
        S1[i] = S0[i]
    P0, P1 = field(src, G_P), field(dst, G_P)
    for k in range(P0.shape[0]):
        for i in range(P0.shape[1]):
            P1[k, i] = P0[k, i]
    o0, o1 = field(src, G_OBS), field(dst, G_OBS)
    for i in range(o0.shape[0]):
        o1[i] = o0[i]
    L0, L1 = field(src, G_L), field(dst, G_L)
    for i in range(S0[S_NLEGAL]):
        L1[i] = L0[i]
    field(dst, G_R)[0] = field(src, G_R)[0]
    field(dst, G_PR)[0] = field(src, G_PR)[0]
    E0, E1 = field(src, G_E), field(dst, G_E)
    if S0[S_TRACE] != 0:
        if E1.shape[0] < S0[S_EPOS] + 1:
            S1[S_TRACE] = 0                         # no room: the copy does not trace,
            S1[S_SORT_EV] = -1                      # nor fills a pending sort3 event
        else:
            for i in range(S0[S_EPOS]):
                E1[i] = E0[i]


@lean_jit
def resample_hidden(gp, rng):
    """Redraw, in place, every order the player cannot know (R1.4), uniformly and consistent
    with what it can know; then restart the engine's stream from ``rng`` (future reshuffles are
    unknown too).  Use on a clone (``clone_into``).  Hidden: the robinson_stack below the cards
    the player put on top with sort3 (S_KT) and above those it put under with below_pile
    (S_KB); the hazard stack; the aging stack within its normal and difficult parts (R2.1).
    Only the zones (the observation), the known positions and, for the aging stack, which
    positions hold difficult cards are read; never which hidden card lies where."""
    S, P, obs = field(gp, G_S), field(gp, G_P), field(gp, G_OBS)
    SCR = field(gp, G_SCR)
    # robinson_stack: P[P_RSTACK, kb:n - kt] are hidden
    n = S[CNT + P_RSTACK]
    kt, kb = S[S_KT], S[S_KB]
    m = 0
    for c in range(59):
        if obs[_ZONE + c] == O.Z_ROBINSON_STACK:
            known = False
            for i in range(kb):
                if P[P_RSTACK, i] == c:
                    known = True
            for i in range(n - kt, n):
                if P[P_RSTACK, i] == c:
                    known = True
            if not known:
                SCR[m] = c
                m += 1
    shuffle_slice(rng, SCR, np.int64(0), m)
    for i in range(m):
        P[P_RSTACK, kb + i] = SCR[i]
    # hazard stack: all hidden
    m = 0
    for c in range(FIRST_HAZARD, FIRST_HAZARD + 30):
        if obs[_ZONE + c] == O.Z_HAZARD_STACK:
            P[P_HSTACK, m] = c
            m += 1
    shuffle_slice(rng, P[P_HSTACK], np.int64(0), m)
    # aging stack: normal and difficult cards each shuffled over their own positions
    for difficult in (False, True):
        m = 0
        for c in range(18, 29):
            if obs[_ZONE + c] == O.Z_AGING_STACK and (c >= FIRST_DIFFICULT) == difficult:
                SCR[m] = c
                m += 1
        shuffle_slice(rng, SCR, np.int64(0), m)
        j = 0
        for i in range(S[CNT + P_AGING]):
            if (P[P_AGING, i] >= FIRST_DIFFICULT) == difficult:
                P[P_AGING, i] = SCR[j]
                j += 1
    S[S_TABLE_R] = 0                  # the table's later shuffles are unknown too (sim.deal)
    S[S_TABLE_H] = 0
    field(gp, G_R)[0] = nb_next(rng)
