"""The search player's jitted core: fair-information rollout search on the state machine.

At a searched decision every legal candidate action is scored on the same K continuations
(common random numbers): continuation k starts from ``resample_hidden`` of a clone of the
game (a determinization: every order the player cannot know redrawn, R1.4, from a stream of
(seed, game, decision, k)), the candidate is played, and the base policy plays the game out;
the candidate scores 1 if the game is won.  The kept policy's choice (``keep``: the base
policy's unless the player names another, policies.search) is replaced only by a candidate
that wins at least ``margin`` more of the K continuations (the most such wins; ties to the
lower action id).  The true hidden order is never read: the rollouts see only
the resampled copies, and the decision streams derive from (seed, game, decision index).

Pruning (``_prune``): a candidate that can no longer reach ``margin`` over the base choice
even if it won every remaining continuation that the base loses is dropped (exact: the
decision is the one all K rollouts would give); with ``prune = z > 0`` also one whose
estimated rate of such wins leaves it ``z`` standard deviations short (inexact, cheaper).

Search parameters (``sp``, float64, indices SP_*): rollouts K, margin, the decision kinds
searched (a bit mask over KIND_NAMES), a rollout budget per decision (0: none), prune z, and
``SP_SEES_ALL``: 1 only for the UNFAIR player policies.unfair_clairvoyant, whose continuations
are plain copies of the game (the true hidden orders and the true engine stream: it knows every
draw and future shuffle), an upper bound on what any player can win; 0 for the search.
Scratch: two states (the determinization ``dp`` and the rollout ``tp``) allocated once per
game, so a rollout allocates nothing.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from sim import observation as O
from sim.actions import A_END
from sim.deprecation import moved
from sim.rng import continuation_start, nb_next, search_decision_start, search_stream_start
from .ask import CONTINUATION_FAILED
from .game import finish, reset, stream_start, write_row
from .layout import (ARG_TYPES, ERR_DEBUG_FULL, ERR_ILLEGAL, G_L, G_OBS, G_PR, G_S, L_SIZE,
                     S_DEBUG, S_DECISIONS, S_ENDED, S_ERR, S_NLEGAL, S_OVER, S_SORT_EV, S_TRACE, S_WON)
from .machine import (clone_into, play_out, record, resample_hidden, start as start_game,
                      step)
from sim.contract.numba_wall import address_of, field, lean_jit, signature_of
from .state import new_state

# --- search parameters (sp) and decision kinds ---------------------------------------------
SP_ROLLOUTS, SP_MARGIN, SP_KINDS, SP_BUDGET, SP_PRUNE, SP_SEES_ALL = range(6)
N_SP = 6
KIND_NAMES = ("hazard", "pirate", "fight", "target", "more", "sort", "destroy", "short")
(KB_HAZARD, KB_PIRATE, KB_FIGHT, KB_TARGET, KB_MORE, KB_SORT, KB_DESTROY, KB_SHORT) = range(8)
# "fight": a fight decision where ending the fight is legal; "short": one where it is not (a
# pirate fight below the pirate's value, R9.3: only drawing, paying or an ability are legal)
MIN_STAT_K = 8          # rollouts before the statistical prune may drop a candidate

# --- decision log rows (LOG[row, :]) ---------------------------------------------------------
(LG_GAME, LG_DECISION, LG_PHASE, LG_BASE, LG_CHOSEN, LG_N, LG_ROLLOUTS) = range(7)
MAX_LOG_CANDIDATES = 64
LG_CAND = 8
LG_WINS = LG_CAND + MAX_LOG_CANDIDATES
LG_TRIED = LG_WINS + MAX_LOG_CANDIDATES
LG_OBS = LG_TRIED + MAX_LOG_CANDIDATES
N_LOG_OBS = O.CT                  # the observation without its static card-table block
LOG_W = LG_OBS + N_LOG_OBS
LOG_CAP = 400                     # searched decisions logged per game at most


@lean_jit(inline=True)
def kind_bit(phase, L):
    """The decision kind (KIND_NAMES index) of an observation phase; ``L`` the legal actions
    (ascending: ending the fight, action 0, is legal when it is the first)."""
    if phase == O.PH_HAZARD:
        return KB_HAZARD
    if phase == O.PH_PIRATE:
        return KB_PIRATE
    if phase == O.PH_FIGHT:
        return KB_FIGHT if L[0] == A_END else KB_SHORT
    if phase == O.PH_TARGET:
        return KB_TARGET
    if phase == O.PH_MORE:
        return KB_MORE
    if phase == O.PH_DESTROY:
        return KB_DESTROY
    return KB_SORT


@lean_jit
def search_stream(seed, game):
    """The search's stream of game ``game``: salted from its engine stream's start (sim.rng)."""
    return search_stream_start(stream_start(seed, game, np.int64(0)))


@lean_jit(inline=True)
def determinize(gp, dp, rk, seed0, k, fair):
    """Continuation ``k`` of the decision ``gp`` waits for: ``dp`` a copy of the game that
    neither traces nor records; with ``fair`` every hidden order redrawn (``resample_hidden``,
    R1.4) and the engine's stream restarted, from the stream (seed0, k) kept in ``rk``."""
    rk[0] = continuation_start(seed0, k)
    clone_into(gp, dp)
    dS = field(dp, G_S)
    dS[S_TRACE] = 0
    dS[S_DEBUG] = 0
    dS[S_SORT_EV] = -1                             # nor fills a pending sort3 event
    if fair:
        resample_hidden(dp, rk)
        field(dp, G_PR)[0] = nb_next(rk)


@lean_jit(inline=True)
def rollout(dp, tp, f, action):
    """Play ``action`` on a copy of the determinization, then the base policy to the end:
    whether it won, or -1 if the base failed there (raised, or chose an illegal action: the
    candidates are legal).  Another error of a plain copy (the UNFAIR player's: a deal's table
    shuffle that the candidate made impossible) is a lost continuation."""
    clone_into(dp, tp)
    step(tp, action)
    play_out(tp, f)
    S = field(tp, G_S)
    return np.int64(-1) if S[S_ERR] == ERR_ILLEGAL else S[S_WON]


@lean_jit
def _prune(k, K, bi, n, wins, up, alive, margin, z):
    """Drop candidates that cannot (or, with z > 0, are unlikely to) end ``margin`` wins
    above the base choice ``bi`` after the K - k - 1 continuations left; returns how many
    non-base candidates stay and the last of them (-1: none)."""
    r = K - k - 1
    best = -1                                      # a candidate sure to qualify, most wins
    for i in range(n):
        if i == bi or alive[i] == 0:
            continue
        diff = wins[i] - wins[bi]
        if diff + r < margin:
            alive[i] = 0
            continue
        if z > 0 and k + 1 >= MIN_STAT_K and diff < margin:
            p = (up[i] + 1.0) / (k + 3.0)
            if diff + r * p + z * np.sqrt(r * p * (1.0 - p)) < margin:
                alive[i] = 0
                continue
        if diff - r >= margin and (best < 0 or wins[i] > wins[best]):
            best = i
    left, last = 0, -1
    for i in range(n):
        if i == bi or alive[i] == 0:
            continue
        if best >= 0 and i != best and wins[best] - wins[i] > r:
            alive[i] = 0
            continue
        left += 1
        last = i
    if left != 1 or wins[last] - wins[bi] - r < margin:
        last = -1                                  # not yet decided: go on
    return left, last


@lean_jit
def search_decision(gp, dp, tp, f, keep, sp, seed0, W, rk, LOG, row):
    """The searched action at the decision ``gp`` waits for (module docstring): ``keep``'s
    action unless another wins ``margin`` more continuations played by ``f``.  ``W``:
    int64[5, L_SIZE] scratch (candidates, wins, rollouts, alive, wins where the base lost);
    ``rk`` uint64[1], the continuations' stream; ``seed0`` the decision's stream start; the log
    row ``LOG[row]`` is written when ``row >= 0``.  A failure is answered instead, and no row
    written: keep's answer when it is not legal (sim.fast.ask.RAISED included), or
    CONTINUATION_FAILED when the base failed in a continuation; ``step`` reports it."""
    S, obs, L = field(gp, G_S), field(gp, G_OBS), field(gp, G_L)
    n = S[S_NLEGAL]
    base = keep(gp)
    cand, wins, tried, alive = W[0], W[1], W[2], W[3]
    up = W[4]
    bi = -1
    for i in range(n):
        cand[i] = L[i]
        wins[i] = 0
        tried[i] = 0
        up[i] = 0
        alive[i] = 1
        if L[i] == base:
            bi = i
    if bi < 0:
        return base                                # illegal: step reports it
    K = np.int64(sp[SP_ROLLOUTS])
    if sp[SP_BUDGET] > 0:
        K = max(1, min(K, np.int64(sp[SP_BUDGET]) // n))
    margin = np.int64(sp[SP_MARGIN])
    z = sp[SP_PRUNE]
    total = 0
    for k in range(K):
        determinize(gp, dp, rk, seed0, k, sp[SP_SEES_ALL] == 0)   # plain copies: UNFAIR
        bw = rollout(dp, tp, f, cand[bi])
        if bw < 0:
            return CONTINUATION_FAILED             # step reports it: sim.fast.api names it
        wins[bi] += bw
        tried[bi] += 1
        total += 1
        for i in range(n):
            if i == bi or alive[i] == 0:
                continue
            w = rollout(dp, tp, f, cand[i])
            if w < 0:
                return CONTINUATION_FAILED
            wins[i] += w
            tried[i] += 1
            total += 1
            if w > bw:
                up[i] += 1
        left, last = _prune(k, K, bi, n, wins, up, alive, margin, z)
        if left == 0 or last >= 0:
            break
    chosen = bi
    for i in range(n):
        if i != bi and wins[i] - wins[bi] >= margin and \
                (chosen == bi or wins[i] > wins[chosen]):
            chosen = i
    if row >= 0:
        R = LOG[row]
        R[LG_DECISION] = S[S_DECISIONS]
        R[LG_PHASE] = obs[O.O_PHASE]
        R[LG_BASE] = base
        R[LG_CHOSEN] = cand[chosen]
        R[LG_N] = n
        R[LG_ROLLOUTS] = total
        for i in range(min(n, MAX_LOG_CANDIDATES)):
            R[LG_CAND + i] = cand[i]
            R[LG_WINS + i] = wins[i]
            R[LG_TRIED + i] = tried[i]
        for i in range(N_LOG_OBS):
            R[LG_OBS + i] = obs[i]
    return cand[chosen]


@lean_jit
def choose(gp, dp, tp, f, keep, sp, sr0, W, rk, LOG, row):
    """The search player's action at the current decision: the only legal one, the kept
    policy's (``keep``: the base or the player's ``keep``) where the kind is not searched, else
    ``search_decision``'s (or its failure).  Returns (action, whether it was searched)."""
    S, obs, L = field(gp, G_S), field(gp, G_OBS), field(gp, G_L)
    n = S[S_NLEGAL]
    if n == 1:
        return L[0], False
    kinds = np.int64(sp[SP_KINDS])
    if (kinds >> kind_bit(obs[O.O_PHASE], L)) & 1 == 0:
        return keep(gp), False
    seed0 = search_decision_start(sr0, S[S_DECISIONS])
    return search_decision(gp, dp, tp, f, keep, sp, seed0, W, rk, LOG, row), True


@lean_jit
def search_play(gp, dp, tp, f, keep, sp, sr0, W, rk, LOG, NLOG, slot, cap, game):
    """Play the game behind ``gp`` to its end with the search player; searched decisions
    are logged to LOG[slot * cap + j] (j < cap; NLOG[slot] counts them, also past cap)
    when ``cap > 0``."""
    S = field(gp, G_S)
    while S[S_ENDED] == 0:
        row = -1
        if cap > 0 and NLOG[slot] < cap:
            row = slot * cap + NLOG[slot]
        a, searched = choose(gp, dp, tp, f, keep, sp, sr0, W, rk, LOG, row)
        if searched and cap > 0:
            if row >= 0:
                LOG[row, LG_GAME] = game
            NLOG[slot] += 1
        step(gp, a)


# The functions below allocate (reference counting on) and hand the states to a lean_jit
# function, which takes their pointers (numba_wall.address_of): the states are its arguments,
# alive until it returns.

@njit(cache=True)
def _one_game(f, keep, T, prm, sp, level, seed, game, opts, outrow, LOG, NLOG, slot, cap):
    """Game ``game`` of ``seed`` with the search player; its result row into ``outrow``.  The
    game has its own copy of the parameters: a policy that writes into them (an error) changes
    no other game's, whatever the threads."""
    prm = prm.copy()
    _search_game(new_state(T, prm), new_state(T, prm), new_state(T, prm), f, keep, sp, level,
                 seed, game, opts, outrow, np.zeros((5, L_SIZE), np.int64),
                 np.zeros(1, np.uint64), LOG, NLOG, slot, cap, np.zeros((1, 1), np.int64))


@lean_jit
def _search_game(g, d, t, f, keep, sp, level, seed, game, opts, outrow, W, rk, LOG, NLOG, slot,
                 cap, D):
    reset(g.S, g.P, g.obs, level, opts, 0, 0)
    g.R[0] = stream_start(seed, game, np.int64(0))
    g.PR[0] = stream_start(seed, game, np.int64(1))
    gp, dp, tp = address_of(g), address_of(d), address_of(t)
    start_game(gp, D)
    search_play(gp, dp, tp, f, keep, sp, search_stream(seed, game), W, rk, LOG, NLOG, slot, cap,
                game)
    write_row(g.S, g.P, outrow, game)


def _batch_py(f, keep, T, prm, sp, level, seed, first_game, n_games, opts, out, LOG, NLOG):
    """Games first_game .. first_game+n_games-1 in parallel (one per iteration: results do
    not depend on the threads); rows into ``out``; the decision log when LOG has rows."""
    cap = LOG.shape[0] // n_games if LOG.shape[0] > 1 else 0
    for i in prange(n_games):
        _one_game(f, keep, T, prm, sp, level, seed, first_game + i, opts, out[i], LOG, NLOG, i,
                  cap)


def _single_py(f, keep, g, D, sp, sr0):
    """One game on a reset state whose streams are set (sim.fast.api.play_fast: trace,
    decision record)."""
    _single_game(g, new_state(g.T, g.prm), new_state(g.T, g.prm), f, keep, sp, sr0,
                 np.zeros((5, L_SIZE), np.int64), np.zeros(1, np.uint64),
                 np.zeros((1, 1), np.int64), D)


@lean_jit
def _single_game(g, d, t, f, keep, sp, sr0, W, rk, LOG, D):
    S = g.S
    gp, dp, tp = address_of(g), address_of(d), address_of(t)
    start_game(gp, D)
    while S[S_ENDED] == 0:
        if S[S_DEBUG] != 0 and not record(gp, S[S_NLEGAL]):   # play_fast(record=True)
            S[S_ERR] = ERR_DEBUG_FULL
            S[S_OVER] = 1
            finish(gp)
            break
        a, _ = choose(gp, dp, tp, f, keep, sp, sr0, W, rk, LOG, -1)
        step(gp, a)


def _decide_py(g, f, keep, sp, sr0, LOG):
    """The search player's action at the state's decision (sim.play.Game), or a failure
    (sim.fast.ask: RAISED, CONTINUATION_FAILED); LOG (1 x LOG_W) receives the log row of a
    searched decision (LG_N 0: not searched)."""
    return _decision(g, new_state(g.T, g.prm), new_state(g.T, g.prm), f, keep, sp, sr0,
                     np.zeros((5, L_SIZE), np.int64), np.zeros(1, np.uint64), LOG)


@lean_jit
def _decision(g, d, t, f, keep, sp, sr0, W, rk, LOG):
    gp, dp, tp = address_of(g), address_of(d), address_of(t)
    return choose(gp, dp, tp, f, keep, sp, sr0, W, rk, LOG, 0)[0]


_entries: dict = {}


def entry(name: str):
    """The compiled entry point ``batch``, ``single`` or ``decide`` (made on first use)."""
    if name not in _entries:
        py = {"batch": _batch_py, "single": _single_py, "decide": _decide_py}[name]
        sig = signature_of(py, ARG_TYPES, types.int64 if name == "decide" else types.void)
        _entries[name] = njit(sig, cache=True, parallel=name == "batch")(py)
    return _entries[name]


__getattr__ = moved(__name__, {"SEARCH_SALT": "sim.rng:SEARCH_SALT"})
