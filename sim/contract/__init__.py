"""The contract between the engines and the players: the floor both stand on.

Below both engines (sim.reference, sim.fast) and every player (policies), above the game's
vocabulary only, so that neither engine imports a player nor a player an engine:

* ``decision``: the decision's signature (``DECIDE``, ``decide_args``), ``PolicyError``, the
  one compiled decide for calls from Python (``callable_decide``), one decision asked from
  Python (``decide_once``), the parameters as engines hand them (``params_copy``);
* ``interrupt``: the time limit of a decision (``decision_seconds``) and ``interruptible``;
* ``player``: what the engines ask of a player (``Player``, ``Runner``: a player that runs
  its own games, as the search does);
* ``numba_wall``: the one lean-jit decorator (``lean_jit``) of engines and players alike, and
  every other dependence on Numba's internals.
"""
from .decision import (DECIDE, PolicyError, callable_decide, decide_args, decide_once,
                       params_copy, py_of, where)
from .interrupt import DECISION_SECONDS, LIMIT_ENV, decision_seconds, interruptible

__all__ = ["DECIDE", "DECISION_SECONDS", "LIMIT_ENV", "PolicyError", "callable_decide",
           "decide_args", "decide_once", "decision_seconds", "interruptible", "params_copy",
           "py_of", "where"]
