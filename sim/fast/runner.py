"""Numba entry points: one traced/debug game, a batch of result rows, a batch summary.

The entry points are compiled with explicit signatures whose policy argument is
``layout.POLICY_TYPE`` (a first-class function type): one cached compilation serves every
policy compiled with ``layout.POLICY_SIG`` (see ``sim.fast.policy_function``).  They are made
on first use, so importing ``sim.fast`` compiles nothing.
"""
from __future__ import annotations

import contextlib

import numpy as np
from numba import njit, prange, types

from .cardblock import fill_card_block
from .game import alloc_state, reset, stream_start, write_row
from .machine import _play_out, _start, new_game, resample_hidden, step
from .layout import (address_of, A_F64, A_I64, A_I64_2, A_U64, L_SIZE, N_ROW, POLICY_TYPE,
                     SCR_SIZE, K_WON, K_CAUSE, K_STEP, K_P1, K_P2, K_P1B, K_P2B, K_LIFE, K_SCORE,
                     K_AGING, K_DESTROYED, K_FWG, K_FLG, K_TURNS, K_ERR, K_GAME)

# --- summary layout (flat int64 vector per block, summed) ------------------------------------
SCORE_MIN, SCORE_MAX = -250, 350            # fixed histogram bins of width 1, ends clamped
N_BINS = SCORE_MAX - SCORE_MIN + 1
(G_GAMES, G_WINS, G_ERRORS, G_FIRST_ERROR) = range(4)
G_CAUSE = 4                                  # 4 causes
G_STEP = 8                                   # 4 steps reached
G_SUM_SCORE, G_SUM_LIFE, G_SUM_TURNS, G_SUM_AGING, G_SUM_DESTROYED, G_SUM_BEATEN = range(12, 18)
G_FW = 18                                    # fights won green/yellow/red
G_FL = 21                                    # fights lost green/yellow/red
G_PIR_GAMES = 24                             # 10 pirates
G_PIR_WINS = 34
G_PIR_BEATEN = 44
G_PAIR_GAMES = 54                            # 10 x 10 (lower id first)
G_PAIR_WINS = 154
G_HIST = 254
AGG_SIZE = G_HIST + N_BINS
FIRST_PIRATE = 59


@njit(cache=True)
def keep_alive(*arrays):
    """A use of arrays after the last use of a pointer to them (Numba frees a variable's
    array right after the variable's last use, and ``address_of`` does not count)."""
    return None


@njit(cache=True, _nrt=False)
def _aggregate(row, agg):
    agg[G_GAMES] += 1
    won = row[K_WON]
    agg[G_WINS] += won
    if row[K_ERR] != 0:
        agg[G_ERRORS] += 1
        if agg[G_FIRST_ERROR] < 0 or row[K_GAME] < agg[G_FIRST_ERROR]:
            agg[G_FIRST_ERROR] = row[K_GAME]
    agg[G_CAUSE + row[K_CAUSE]] += 1
    agg[G_STEP + row[K_STEP]] += 1
    agg[G_SUM_SCORE] += row[K_SCORE]
    agg[G_SUM_LIFE] += row[K_LIFE]
    agg[G_SUM_TURNS] += row[K_TURNS]
    agg[G_SUM_AGING] += row[K_AGING]
    agg[G_SUM_DESTROYED] += row[K_DESTROYED]
    agg[G_SUM_BEATEN] += row[K_P1B] + row[K_P2B]
    for k in range(3):
        agg[G_FW + k] += row[K_FWG + k]
        agg[G_FL + k] += row[K_FLG + k]
    a = row[K_P1] - FIRST_PIRATE
    b = row[K_P2] - FIRST_PIRATE
    agg[G_PIR_GAMES + a] += 1
    agg[G_PIR_GAMES + b] += 1
    agg[G_PIR_WINS + a] += won
    agg[G_PIR_WINS + b] += won
    agg[G_PIR_BEATEN + a] += row[K_P1B]
    agg[G_PIR_BEATEN + b] += row[K_P2B]
    lo, hi = min(a, b), max(a, b)
    agg[G_PAIR_GAMES + 10 * lo + hi] += 1
    agg[G_PAIR_WINS + 10 * lo + hi] += won
    s = row[K_SCORE]
    if s < SCORE_MIN:
        s = SCORE_MIN
    if s > SCORE_MAX:
        s = SCORE_MAX
    agg[G_HIST + s - SCORE_MIN] += 1


def _single_py(f, S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG, D):
    """One game on a reset state whose streams are set (sim.fast.api.play_fast)."""
    gp = address_of((S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG))
    fill_card_block(obs, T)
    _start(gp, D)
    _play_out(gp, f)


def _block_py(f, T, prm, level, seed, first_game, start, stop, opts, out, agg, summary,
              S, P, obs, L, E, SCR, R, PR, DOBS, DLEG, D, row):
    """Games first_game+start .. first_game+stop-1 on one state (allocated by the caller,
    once per block: this function, compiled without reference counting, allocates
    nothing)."""
    gp = address_of((S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG))
    fill_card_block(obs, T)                     # once: reset keeps it
    for i in range(start, stop):
        game = first_game + i
        reset(S, P, obs, level, opts, 0, 0)
        R[0] = stream_start(seed, game, np.int64(0))
        PR[0] = stream_start(seed, game, np.int64(1))
        _start(gp, D)
        _play_out(gp, f)
        if summary:
            write_row(S, P, row, game)
            _aggregate(row, agg)
        else:
            write_row(S, P, out[i], game)


def _batch_py(block, f, T, prm, level, seed, first_game, n_games, opts, out, aggs):
    """prange over blocks of games; rows into ``out`` (n_games x N_ROW), or, when ``out`` has
    one column, aggregates per block into ``aggs[block]`` (summary mode).  ``block`` is
    ``_block_py`` compiled on its own (BLOCK_TYPE, called through its address): this parallel
    function and its outlined loop body then do not link in and re-optimize the engine.  Each
    block gets its own state and its own copy of the parameters."""
    n_blocks = aggs.shape[0]
    summary = out.shape[1] == 1
    for b in prange(n_blocks):
        start = b * n_games // n_blocks
        stop = (b + 1) * n_games // n_blocks
        aggs[b, :] = 0
        aggs[b, G_FIRST_ERROR] = -1
        S, P, obs = alloc_state()
        block(f, T, prm.copy(), level, seed, first_game, np.int64(start), np.int64(stop), opts,
              out, aggs[b], summary, S, P, obs, np.zeros(L_SIZE, np.int64),
              np.zeros(1, np.int64), np.zeros(SCR_SIZE, np.int64), np.zeros(1, np.uint64),
              np.zeros(1, np.uint64), np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64),
              np.zeros((1, 1), np.int64), np.zeros(N_ROW, np.int64))


def _new_py(S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG, D, level, seed, game, opts):
    """machine.new_game on one state (sim.game.Game); S_TRACE/S_DEBUG as set in S."""
    new_game(address_of((S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG)), level, seed, game,
             opts, D)
    keep_alive(S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG, D)


def _step_py(S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG, action):
    step(address_of((S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG)), action)
    keep_alive(S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG)


def _resample_py(S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG, rng):
    resample_hidden(address_of((S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG)), rng)
    keep_alive(S, P, obs, L, E, SCR, T, R, PR, prm, DOBS, DLEG)


_I = types.int64
_SINGLE_SIG = types.void(POLICY_TYPE, A_I64, A_I64_2, A_I64, A_I64, A_I64, A_I64, A_I64_2, A_U64,
                         A_U64, A_F64, A_I64_2, A_I64_2, A_I64_2)
_BLOCK_SIG = types.void(POLICY_TYPE, A_I64_2, A_F64, _I, _I, _I, _I, _I, A_I64, A_I64_2, A_I64,
                        types.boolean, A_I64, A_I64_2, A_I64, A_I64, A_I64, A_I64, A_U64, A_U64,
                        A_I64_2, A_I64_2, A_I64_2, A_I64)
BLOCK_TYPE = types.FunctionType(_BLOCK_SIG)
_BATCH_SIG = types.void(BLOCK_TYPE, POLICY_TYPE, A_I64_2, A_F64, _I, _I, _I, _I, A_I64, A_I64_2,
                        A_I64_2)
_entries: dict = {}


def entry(name: str, policy=None):
    """The compiled entry point ``single``, ``batch`` or, for sim.game.Game, ``new``, ``step``,
    ``resample`` (made on first use).  A cold compile of ``single`` or ``batch`` compiles half
    of the engine, and ``policy``, in a helper process meanwhile (sim.fast.compile_ahead)."""
    fn = _entries.get(name)
    if fn is None:
        if name == "single":
            with _split(_single_py, name, policy):
                fn = njit(_SINGLE_SIG, cache=True, _nrt=False)(_single_py)
        elif name in ("new", "step", "resample"):
            fn = njit(cache=True, _nrt=False)({"new": _new_py, "step": _step_py,
                                   "resample": _resample_py}[name])
        elif name == "batch":
            with _split(_block_py, name, policy):
                block = njit(_BLOCK_SIG, cache=True, _nrt=False)(_block_py)
            batch = njit(_BATCH_SIG, cache=True, parallel=True)(_batch_py)

            def fn(*args, _block=block, _batch=batch):
                return _batch(_block, *args)
        else:
            raise KeyError(name)
        _entries[name] = fn
    return fn


def _split(py, name, policy):
    """Around a cold compile of ``name``: two cores (sim.fast.compile_ahead)."""
    from sim.numba_cache import has_cached_code
    if has_cached_code(py):
        return contextlib.nullcontext()
    from .compile_ahead import split_compile
    return split_compile(name, policy)
