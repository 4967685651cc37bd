"""The review's jitted core: every legal action of one decision scored on the same K fair
continuations, none dropped (``friday review``, sim.lab.review).

Continuation k is the search's (sim.fast.search): a clone of the game whose every hidden order
is redrawn (``resample_hidden``, R1.4) from the stream (seed0, k), the candidate played, then
the rollout policy to the end.  Unlike the search, no candidate is pruned and nothing is
chosen: ``OUT[k, i]`` is 1 when candidate ``L[i]`` won continuation k, so that each action's
winning chance and the paired difference between two actions can be estimated.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .layout import A_I64_2, ARG_TYPES, G_L, G_S, S_NLEGAL
from sim.contract.numba_wall import address_of, field, lean_jit, signature_of
from .search import determinize, rollout
from .state import new_state


@lean_jit
def evaluate(gp, dp, tp, f, seed0, rk, OUT):
    """OUT[k, i] for k < OUT.shape[0] and the legal actions i of the decision ``gp`` waits
    for (module docstring); ``dp``, ``tp`` scratch states, ``rk`` uint64[1]."""
    n, L = field(gp, G_S)[S_NLEGAL], field(gp, G_L)
    for k in range(OUT.shape[0]):
        determinize(gp, dp, rk, seed0, k, True)
        for i in range(n):
            OUT[k, i] = rollout(dp, tp, f, L[i])


def _evaluate_py(g, f, sr0, OUT):
    """The outcomes of the decision the state ``g`` of a ``sim.Game`` waits for
    (``evaluate``)."""
    _evaluate(g, new_state(g.T, g.prm), new_state(g.T, g.prm), f, sr0, np.zeros(1, np.uint64),
              OUT)


@lean_jit
def _evaluate(g, d, t, f, sr0, rk, OUT):
    evaluate(address_of(g), address_of(d), address_of(t), f, sr0, rk, OUT)


_entry: list = []


def entry():
    """The compiled entry point (made on first use)."""
    if not _entry:
        sig = signature_of(_evaluate_py, {**ARG_TYPES, "OUT": A_I64_2})
        _entry.append(njit(sig, cache=True)(_evaluate_py))
    return _entry[0]

