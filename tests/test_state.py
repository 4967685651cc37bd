"""The fast engine's state record (sim.fast.layout.GameArrays, sim.fast.state.new_state)."""
from __future__ import annotations

import numpy as np
from numba import typeof

from sim import Game
from sim import observation as O
from sim.fast import layout as Y
from sim.fast.state import new_state


def _state(**kw):
    return new_state(Y.card_table(), np.zeros(3, np.float64), **kw)


def test_the_record_is_the_type_the_engine_is_compiled_for():
    """A record allocated by Python is typed exactly as the entry points' ``g`` (G_TYPE),
    and its fields are in the order of the G_* indices the engine reads them by."""
    g = _state()
    assert isinstance(g, Y.GameArrays) and typeof(g) == Y.G_TYPE
    names = ("S", "P", "obs", "L", "E", "SCR", "T", "R", "PR", "prm", "DOBS", "DLEG")
    assert Y.GameArrays._fields == names
    assert [getattr(Y, "G_" + n.upper()) for n in names] == list(range(len(names)))


def test_shapes_of_an_untraced_a_traced_and_a_recording_state():
    T, prm = Y.card_table(), np.zeros(3, np.float64)
    g = new_state(T, prm)
    assert g.T is T and g.prm is prm                     # shared, not copied
    assert g.S.shape == (Y.N_S,) and g.P.shape == (Y.N_PILES, Y.PILE_W)
    assert g.obs.shape == (O.OBS_SIZE,) and g.L.shape == (Y.L_SIZE,)
    assert g.E.shape == (1,) and g.DOBS.shape == g.DLEG.shape == (1, 1)
    assert g.R.dtype == g.PR.dtype == np.uint64 and not g.S.any()
    h = new_state(T, prm, True, True)
    assert h.E.shape == (Y.TRACE_SIZE,)
    assert h.DOBS.shape == (Y.MAX_DEBUG_DECISIONS, O.OBS_SIZE)
    assert h.DLEG.shape == (Y.MAX_DEBUG_DECISIONS, Y.L_SIZE + 1)


def test_a_game_holds_one_record_and_replace_sets_a_field_by_name():
    g = Game.new(level=2, seed=1, game=0)
    assert g.arrays.S is g._S and g.arrays.obs is g._obs
    prm = np.ones(4, np.float64)
    h = g.arrays._replace(prm=prm)
    assert h.prm is prm and h.S is g.arrays.S and g.arrays.prm is not prm
