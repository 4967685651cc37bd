"""Numba entry points: one traced/debug game, a batch of result rows, a batch summary.

The entry points are compiled with explicit signatures whose policy argument is
``layout.POLICY_TYPE`` (a first-class function type): one cached compilation serves every
policy compiled with ``layout.POLICY_SIG`` (see ``sim.fast.ask``).  They are made
on first use, so importing ``sim.fast`` compiles nothing.
"""
from __future__ import annotations

import functools

import numpy as np
from numba import njit, prange, types

from sim.contract.interrupt import interruptible
from .compile_ahead import split_compile
from .game import fill_card_block, reset, stream_start, write_row
from .layout import ARG_TYPES, N_ROW
from .machine import _play_out, _start, new_game, resample_hidden, step
from sim.contract.numba_wall import address_of, lean_jit, signature_of
from .state import new_state
from .summary import G_FIRST_ERROR, aggregate


def _single_py(f, g, D):
    """One game on a reset state whose streams are set (sim.fast.api.play_fast)."""
    gp = address_of(g)
    fill_card_block(g.obs, g.T)
    _start(gp, D)
    _play_out(gp, f)


def _block_py(f, g, level, seed, first_game, start, stop, opts, out, agg, summary, D, row):
    """Games first_game+start .. first_game+stop-1 on one state ``g`` (allocated by the
    caller, once per block: this function, compiled without reference counting, allocates
    nothing)."""
    gp = address_of(g)
    S, P, obs, R, PR = g.S, g.P, g.obs, g.R, g.PR
    fill_card_block(obs, g.T)                   # once: reset keeps it
    for i in range(start, stop):
        game = first_game + i
        reset(S, P, obs, level, opts, 0, 0)
        R[0] = stream_start(seed, game, np.int64(0))
        PR[0] = stream_start(seed, game, np.int64(1))
        _start(gp, D)
        _play_out(gp, f)
        if summary:
            write_row(S, P, row, game)
            aggregate(row, agg)
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
        block(f, new_state(T, prm.copy()), level, seed, first_game,
              np.int64(start), np.int64(stop), opts, out, aggs[b], summary,
              np.zeros((1, 1), np.int64), np.zeros(N_ROW, np.int64))


def _new_py(g, D, level, seed, game, opts):
    """machine.new_game on one state (sim.play.Game); S_TRACE/S_DEBUG as set in g.S."""
    new_game(address_of(g), level, seed, game, opts, D)


def _step_py(g, action):
    step(address_of(g), action)


def _resample_py(g, rng):
    resample_hidden(address_of(g), rng)


_BLOCK_SIG = signature_of(_block_py, ARG_TYPES)
BLOCK_TYPE = types.FunctionType(_BLOCK_SIG)
_BATCH_SIG = signature_of(_batch_py, dict(ARG_TYPES, block=BLOCK_TYPE))
_entries: dict = {}


def entry(name: str, policy=None):
    """The compiled entry point ``single``, ``batch`` or, for sim.play.Game, ``new``, ``step``,
    ``resample`` (made on first use).  A cold compile of ``single`` or ``batch`` compiles half
    of the engine, and ``policy``, in a helper process meanwhile (sim.fast.compile_ahead)."""
    fn = _entries.get(name)
    if fn is None:
        if name == "single":
            with split_compile(policy, py=_single_py):
                fn = lean_jit(_single_py, sig=signature_of(_single_py, ARG_TYPES), nogil=True)
        elif name == "batch":
            with split_compile(policy, _batch_jit, _block_py):
                block = lean_jit(_block_py, sig=_BLOCK_SIG)
            fn = functools.partial(interruptible, _batch_jit(), block)
        else:                                   # a KeyError for an unknown name
            fn = lean_jit({"new": _new_py, "step": _step_py, "resample": _resample_py}[name])
        _entries[name] = fn
    return fn


def _batch_jit():
    """The batch's parallel loop (it does not depend on the rest: compiled beside it)."""
    return njit(_BATCH_SIG, cache=True, parallel=True, nogil=True)(_batch_py)
