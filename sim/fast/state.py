"""The one place a game's state record (``layout.GameArrays``) is allocated, its shapes and
dtypes written: by Python (sim.fast.api.play_fast, sim.play.Game) and by jitted code (a batch
block's state, a search's scratch copies) alike."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim import observation as O
from .layout import (L_SIZE, MAX_DEBUG_DECISIONS, N_PILES, N_S, PILE_W, SCR_SIZE, TRACE_SIZE,
                     GameArrays)


@njit(cache=True)
def new_state(T, prm, trace=False, record=False):
    """A zeroed state on the card table ``T`` (shared, not copied) with the policy parameters
    ``prm`` (shared); ``trace``: room for the trace events (else one slot: untraced),
    ``record``: for each decision's observation and legal actions (play_fast(record=True))."""
    rows = MAX_DEBUG_DECISIONS if record else 1
    return GameArrays(np.zeros(N_S, np.int64), np.zeros((N_PILES, PILE_W), np.int64),
                      np.zeros(O.OBS_SIZE, np.int64), np.zeros(L_SIZE, np.int64),
                      np.zeros(TRACE_SIZE if trace else 1, np.int64),
                      np.zeros(SCR_SIZE, np.int64), T, np.zeros(1, np.uint64),
                      np.zeros(1, np.uint64), prm,
                      np.zeros((rows, O.OBS_SIZE if record else 1), np.int64),
                      np.zeros((rows, L_SIZE + 1 if record else 1), np.int64))
