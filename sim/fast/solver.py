"""The UNFAIR solver's jitted core (policies.unfair_solver): can this deal be won at all when
every hidden order is known?

With every order and the engine's stream known (R1.4 broken on purpose) the game is a
one-player deterministic tree.  A win is proven by one winning line, a loss only by
exhausting the tree.  The search is a depth-first limited-discrepancy search (Harvey and
Ginsberg's LDS) over the base policy: iteration d = 0, 1, 2, ... tries every line that deviates
from the base policy's action at most d times (d = 0 is the base policy's own game, d = 1
every single deviation followed by the base policy, which is what unfair-clairvoyant tries).
A child reached with no deviation left is played out by the base policy (a rollout).  It
remembers, in a transposition table on a hash of the full state (sim.fast.solver_state), the
states proven lost (terminal, out of reach of a pirate's value, or every child lost) and, for
the others, the most deviations tried from them without a win, which it does not try again.
The deal is *won* when a line wins (the line is returned: its actions from the deal's first
decision), *lost* when an iteration ends with the root proven lost (no rollout cut short
a subtree), and *undecided* when ``budget`` steps (decisions played, in the tree and in the
rollouts) are spent first.  Same deal, same answer: no thread, clock or order of games enters.
Where the base policy fails (raises, or answers an action that is not legal) at a node or in
a rollout, the answer is *failed*, never a lost line: a base that fails is not evidence of a
lost deal.  Failed in iteration 0, the base's own game, the game is played on by the base,
which fails where it fails in its own games (the engine's error names that decision); failed
off its own line, the game stops at the decision solved (sim.fast.ask's CONTINUATION_FAILED).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange, types

from .ask import CONTINUATION_FAILED
from .game import fill_card_block, reset, stream_start, write_row
from .layout import (ARG_TYPES, A_I64, A_I64_2, ERR_ILLEGAL, G_L, G_OBS, G_S, G_T, L_SIZE,
                     MAX_DEBUG_DECISIONS, S_DEBUG, S_ENDED, S_ERR, S_NLEGAL, S_SORT_EV, S_TRACE,
                     S_WON)
from .machine import play_out, record, start as start_game, step
from .solver_state import (LOST, NONE, ROW_W, load, out_of_reach, save, state_key, tt_probe,
                           tt_store)
from .state import new_state
from sim.contract.numba_wall import address_of, field, lean_jit, signature_of

# --- answers (INFO[game, :]) -----------------------------------------------------------------
UNDECIDED, WON, PROVEN_LOST, FAILED = 0, 1, 2, 3
STATUS_NAMES = ("undecided", "won", "lost", "failed")
I_STATUS, I_STEPS, I_DEPTH, I_LINE, I_NODES = range(5)   # answer, steps spent, d, line length
N_INFO = 5
# --- solver parameters (sv, int64) ---------------------------------------------------------
V_BUDGET, V_MAX_DEPTH, V_TT_BITS = range(3)
N_SV = 3
MAX_DEPTH = 1024              # tree depth (decisions from the root) kept; deeper: cut
LINE_CAP = MAX_DEPTH + MAX_DEBUG_DECISIONS
# --- a node's bookkeeping (NODE[k, :]) -------------------------------------------------------
N_NCH, N_IDX, N_RD, N_FULL, N_K1, N_K2 = range(6)
N_NODE = 6
_CUT, _WIN, _LOST, _BUDGET, _FAILED = 0, 1, 2, 3, 4


@lean_jit
def rollout(gp, f, LINE, pos):
    """The base policy ``f`` plays the game behind ``gp`` to its end, its actions written to
    LINE[pos:] (as far as it holds them); returns (1 won, 0 lost, -1 the base failed: its
    answer was not legal; every decision was forced; steps; next free position)."""
    S = field(gp, G_S)
    forced = True
    steps = 0
    while S[S_ENDED] == 0:
        if S[S_NLEGAL] > 1:
            forced = False
        a = f(gp)
        if pos < LINE.shape[0]:
            LINE[pos] = a
        pos += 1
        steps += 1
        step(gp, a)
    won = np.int64(-1) if S[S_ERR] == ERR_ILLEGAL else np.int64(S[S_WON] != 0)
    return won, forced, steps, pos


@lean_jit
def order_children(gp, f, ACT, k):
    """The actions of node ``k`` (the decision behind ``gp``): the base policy's first, then
    the other legal ones ascending; returns how many, 0 when the base's answer is not legal."""
    S, L = field(gp, G_S), field(gp, G_L)
    n = S[S_NLEGAL]
    base = f(gp)
    m = 0
    for i in range(n):
        if L[i] == base:
            ACT[k, 0] = base
            m = 1
    if m == 0:
        return 0
    for i in range(n):
        if L[i] != base:
            ACT[k, m] = L[i]
            m += 1
    return m


@lean_jit
def push(gp, f, STK, STR, NODE, ACT, k, r, k1, k2):
    """Node ``k`` := the decision behind ``gp``, to be searched with ``r`` deviations left;
    False when the base failed there."""
    save(gp, STK, STR, k)
    N = NODE[k]
    N[N_NCH] = order_children(gp, f, ACT, k)
    N[N_IDX], N[N_RD], N[N_FULL], N[N_K1], N[N_K2] = 0, r, 1, k1, k2
    return N[N_NCH] > 0


@lean_jit
def iteration(wp, f, d, budget, max_depth, STK, STR, NODE, ACT, TT, LINE, CNT):
    """One LDS iteration from node 0 with ``d`` deviations (module docstring); CNT[0] counts
    the steps spent, CNT[1] the tree nodes, CNT[2] the winning line's length.  Returns
    _WIN, _LOST (the root proven lost), _CUT, _BUDGET or _FAILED (the base failed)."""
    load(STK, STR, 0, wp)
    if d == 0:
        won, forced, steps, pos = rollout(wp, f, LINE, 0)
        CNT[0] += steps
        CNT[2] = pos
        return _FAILED if won < 0 else (_WIN if won else (_LOST if forced else _CUT))
    k1, k2 = state_key(wp)
    if not push(wp, f, STK, STR, NODE, ACT, 0, d, k1, k2):
        return _FAILED
    k = 0
    while True:
        N = NODE[k]
        if N[N_IDX] >= N[N_NCH]:                       # every child tried
            res = _LOST if N[N_FULL] != 0 else _CUT
            tt_store(TT, N[N_K1], N[N_K2], LOST if res == _LOST else N[N_RD])
            if k == 0:
                return res
            k -= 1
            if res != _LOST:
                NODE[k, N_FULL] = 0
            NODE[k, N_IDX] += 1
            continue
        if CNT[0] >= budget:
            return _BUDGET
        i = N[N_IDX]
        r = N[N_RD] if i == 0 else N[N_RD] - 1
        load(STK, STR, k, wp)
        step(wp, ACT[k, i])
        CNT[0] += 1
        S = field(wp, G_S)
        if S[S_ENDED] != 0 or out_of_reach(wp):
            if S[S_ENDED] != 0 and S[S_WON] != 0:
                _line(ACT, NODE, k, LINE)
                CNT[2] = k + 1
                return _WIN
            N[N_IDX] += 1                              # lost: a proven child
            continue
        c1, c2 = state_key(wp)
        known = tt_probe(TT, c1, c2)
        if known == LOST or (known != NONE and known >= r):
            if known != LOST:
                N[N_FULL] = 0
            N[N_IDX] += 1
            continue
        if r == 0 or k + 1 >= max_depth:
            won, forced, steps, pos = rollout(wp, f, LINE, k + 1)
            CNT[0] += steps
            if won < 0:
                return _FAILED
            if won:
                _line(ACT, NODE, k, LINE)
                CNT[2] = pos
                return _WIN
            if not forced:
                N[N_FULL] = 0
            tt_store(TT, c1, c2, LOST if forced else 0)
            N[N_IDX] += 1
            continue
        if not push(wp, f, STK, STR, NODE, ACT, k + 1, r, c1, c2):
            return _FAILED
        CNT[1] += 1
        k += 1


@lean_jit
def _line(ACT, NODE, k, LINE):
    """LINE[0..k] := the actions taken at nodes 0..k."""
    for j in range(k + 1):
        LINE[j] = ACT[j, NODE[j, N_IDX]]


@lean_jit
def solve(rp, wp, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info):
    """Solve the game behind ``rp`` (waiting at a decision; not changed), with ``wp`` as the
    working state and CNT int64[3] as scratch: info[I_STATUS] WON (LINE[:info[I_LINE]]
    wins from ``rp``), PROVEN_LOST, UNDECIDED or FAILED (the base failed); info[I_STEPS] the
    steps spent, info[I_DEPTH] the last iteration's deviations, info[I_NODES] the tree nodes."""
    fill_card_block(field(wp, G_OBS), field(wp, G_T))    # the policy reads the card table
    save(rp, STK, STR, 0)
    STK[0, S_TRACE], STK[0, S_DEBUG], STK[0, S_SORT_EV] = 0, 0, -1   # copies neither trace
    budget, max_depth = sv[V_BUDGET], min(sv[V_MAX_DEPTH], STK.shape[0])
    info[I_STATUS], info[I_STEPS], info[I_LINE], info[I_NODES] = UNDECIDED, 0, 0, 0
    info[I_DEPTH] = 0
    if out_of_reach(rp):
        info[I_STATUS] = PROVEN_LOST
        return
    d = 0
    while True:
        info[I_DEPTH] = d
        CNT[0], CNT[1], CNT[2] = 0, 0, 0
        res = iteration(wp, f, d, budget - info[I_STEPS], max_depth, STK, STR, NODE, ACT, TT,
                        LINE, CNT)
        info[I_STEPS] += CNT[0]
        info[I_NODES] += CNT[1]
        if res == _WIN:
            info[I_STATUS] = WON
            info[I_LINE] = min(CNT[2], LINE.shape[0])
            return
        if res == _LOST or res == _FAILED:
            info[I_STATUS] = PROVEN_LOST if res == _LOST else FAILED
            return
        if res == _BUDGET or info[I_STEPS] >= budget or d >= max_depth:
            return
        d += 1


# The functions below allocate (reference counting on) and hand the arrays to a lean_jit
# function, which takes the states' pointers (numba_wall.address_of), as sim.fast.search does.

@njit(cache=True)
def _scratch(T, prm, sv):
    """The working state (its own copy of the parameters: a base that writes into them in the
    search leaves the game's as they were, and fails there too) and the search's arrays."""
    depth = sv[V_MAX_DEPTH]
    return (new_state(T, prm.copy()), np.empty((depth, ROW_W), np.int64),
            np.empty((depth, 2), np.uint64), np.zeros((depth, N_NODE), np.int64),
            np.zeros((depth, L_SIZE), np.int64), np.zeros((1 << sv[V_TT_BITS], 3), np.int64),
            np.zeros(LINE_CAP, np.int64), np.zeros(3, np.int64))


@njit(cache=True)
def _one_game(f, T, prm, sv, level, seed, game, opts, outrow, info):
    """Game ``game`` of ``seed``: solved, then played (the winning line, else the base
    policy); its result row into ``outrow``, the solver's answer into ``info``.  The game has
    its own copy of the parameters: a base that writes into them (an error) changes no other
    game's, whatever the threads."""
    w, STK, STR, NODE, ACT, TT, LINE, CNT = _scratch(T, prm, sv)
    _solve_game(new_state(T, prm.copy()), w, f, sv, level, seed, game, opts, outrow, info, STK, STR,
                NODE, ACT, TT, LINE, CNT, np.zeros((1, 1), np.int64))


@lean_jit
def _solve_game(g, w, f, sv, level, seed, game, opts, outrow, info, STK, STR, NODE, ACT, TT,
                LINE, CNT, D):
    reset(g.S, g.P, g.obs, level, opts, 0, 0)
    g.R[0] = stream_start(seed, game, np.int64(0))
    g.PR[0] = stream_start(seed, game, np.int64(1))
    gp, wp = address_of(g), address_of(w)
    start_game(gp, D)
    _solve_and_play(gp, wp, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info)
    write_row(g.S, g.P, outrow, game)


@lean_jit
def _solve_and_play(gp, wp, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info):
    """Solve the game behind ``gp``, then play it on: the winning line, else the base policy
    (where iteration 0 found the base failing in its own game, it fails here as there); where
    the base failed off its own game, the game stops with an error (CONTINUATION_FAILED)."""
    if field(gp, G_S)[S_ENDED] != 0:
        info[I_STATUS] = WON if field(gp, G_S)[S_WON] != 0 else PROVEN_LOST
        return
    solve(gp, wp, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info)
    S = field(gp, G_S)
    if info[I_STATUS] == FAILED and info[I_DEPTH] > 0:
        if S[S_DEBUG] != 0:
            record(gp, S[S_NLEGAL])                    # the decision the error names
        # sim.fast.api names the base; typed, as a literal would compile the engine again
        step(gp, np.int64(CONTINUATION_FAILED))
    elif info[I_STATUS] == WON:
        for j in range(info[I_LINE]):
            step(gp, LINE[j])
    play_out(gp, f)


def _batch_py(f, T, prm, sv, level, seed, first_game, n_games, opts, out, INFO):
    """Games first_game .. first_game+n_games-1 in parallel (one per iteration: the answers
    do not depend on the threads): rows into ``out``, the solver's answers into ``INFO``."""
    for i in prange(n_games):
        _one_game(f, T, prm, sv, level, seed, first_game + i, opts, out[i], INFO[i])


def _single_py(f, g, D, sv):
    """One game on a reset state whose streams are set (sim.fast.api.play_fast: the trace):
    solved, then the line played on ``g``."""
    w, STK, STR, NODE, ACT, TT, LINE, CNT = _scratch(g.T, g.prm, sv)
    _single_game(g, w, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, np.zeros(N_INFO, np.int64),
                 D)


@lean_jit
def _single_game(g, w, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info, D):
    gp, wp = address_of(g), address_of(w)
    start_game(gp, D)
    _solve_and_play(gp, wp, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info)


def _decide_py(g, f, sv, INFO, line):
    """The solver's action at the state's decision (sim.play.Game): the first of a winning
    line, else the base policy's (also where the base fails later in its own game;
    sim.fast.ask.RAISED where it raised here), CONTINUATION_FAILED where the base failed off
    its own game; its answer into INFO[0], the winning line into ``line`` (int64[LINE_CAP])."""
    w, STK, STR, NODE, ACT, TT, _, CNT = _scratch(g.T, g.prm, sv)
    return _decision(g, w, f, sv, STK, STR, NODE, ACT, TT, line, CNT, INFO[0])


@lean_jit
def _decision(g, w, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info):
    gp, wp = address_of(g), address_of(w)
    solve(gp, wp, f, sv, STK, STR, NODE, ACT, TT, LINE, CNT, info)
    if info[I_STATUS] == WON and info[I_LINE] > 0:
        return LINE[0]
    if info[I_STATUS] == FAILED and info[I_DEPTH] > 0:
        return CONTINUATION_FAILED
    return f(gp)


_TYPES = {**ARG_TYPES, "sv": A_I64, "INFO": A_I64_2, "line": A_I64}
_entries: dict = {}


def entry(name: str):
    """The compiled entry point ``batch``, ``single`` or ``decide`` (made on first use)."""
    if name not in _entries:
        py = {"batch": _batch_py, "single": _single_py, "decide": _decide_py}[name]
        sig = signature_of(py, _TYPES, types.int64 if name == "decide" else types.void)
        _entries[name] = njit(sig, cache=True, parallel=name == "batch")(py)
    return _entries[name]
