"""Moved to sim.contract.numba_wall (the one lean-jit decorator of engines and players, below
both); this shim goes in 0.3.0 (CHANGELOG.md)."""
from sim.deprecation import module_moved

module_moved(__name__, "sim.contract.numba_wall", globals())
