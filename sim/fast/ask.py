"""The policy as the engine asks it: ``ask(gp)``, a policy's decide compiled for the state.

A policy file writes ``decide(obs, legal, n_legal, params, rng) -> action`` (layout.DECIDE_SIG);
the engine calls ``ask(gp)`` (layout.POLICY_SIG), a per-policy copy of ``_ask`` calling a copy
of ``_decide_at`` into which decide is inlined, so that a decision costs no call with five
arguments' ~30 words (one with the state's pointer at most), and an exception inside decide is
an answer (RAISED) at which the engine stops the game.  The project's policies are cached on
disk, each under its own names (numba_wall.ask_copy); a user's function is compiled in each
process (policies: why).
"""
from __future__ import annotations

from numba import njit, types
from numba.core.errors import NumbaError

from sim.contract.decision import callable_decide, check_returns, py_of
from sim.contract.numba_wall import ask_copy, field, lean_jit
from sim.deprecation import moved
from sim.numba_cache import has_cached_code, is_project_source
from .layout import G_L, G_OBS, G_PR, G_PRM, G_S, POLICY_SIG, S_NLEGAL

_compiled: dict = {}
_decide = None      # each policy's copy of _decide_at has its own (ask_copy) ...
_decide_at = None   # ... and so has each copy of _ask
# What ``ask`` answers when decide raised: no action id, so the engine ends the game as after an
# illegal action, and sim.fast.api names the exception and its decision.  (An exception must
# not leave ``ask``: the engine calls it as a first-class function, whose exceptions Numba
# reports after the batch at best, and loses in its worker threads: the game would go on with a
# made-up action.)
RAISED = -2
# What a player that plays continuations (the search, sim.fast.search; the solver,
# sim.fast.solver) answers when its policy failed in one (raised, or chose an illegal action):
# a continuation is a copy played ahead, not replayed, so sim.fast.api says where it happened
# and names the policy, not the exception.
CONTINUATION_FAILED = -3


def _ask(gp):
    """The policy as the engine calls it (layout.POLICY_SIG): its decision, RAISED if decide
    raised.  (A try around decide inlined would not catch: Numba inlines the raise outside.)"""
    try:
        return _decide_at(gp)
    except Exception:       # Numba catches every exception or none
        return RAISED


def _decide_at(gp):
    """decide on the state's observation, legal actions, parameters and policy stream."""
    return _decide(field(gp, G_OBS), field(gp, G_L), field(gp, G_S)[S_NLEGAL], field(gp, G_PRM),
                   field(gp, G_PR))


def policy_function(policy):
    """The policy's decide as the one cached engine calls it (``ask(gp)``, module docstring).

    It is compiled without Numba's reference counting (numba_wall.lean_jit, like the engine:
    about 2x faster games).  A policy that allocates arrays needs reference counting: its
    decide is then compiled apart (sim.contract.callable_decide) and called by ``ask`` (a little
    slower).  A function that does not compile is a PolicyError naming the policy."""
    py = py_of(policy)
    hit = _compiled.get(("ask", id(py)))
    if hit is None:
        cache = is_project_source(py)
        try:
            at = ask_copy(_decide_at, py, "decide_at", _decide=njit(inline="always")(py))
            at = _returns_action(policy, py, lean_jit(at, sig=POLICY_SIG.args, cache=cache,
                                                      boundscheck=not cache))   # decide's type
            copy = ask_copy(_ask, py, _decide_at=at)
            fn = lean_jit(copy, sig=POLICY_SIG.args, cache=cache)
        except NumbaError:      # it allocates (or does not compile: then callable_decide says)
            at = ask_copy(_decide_at, py, "decide_at", _decide=callable_decide(policy))
            copy = ask_copy(_ask, py, _decide_at=lean_jit(at, sig=POLICY_SIG, cache=cache))
            fn = lean_jit(copy, sig=POLICY_SIG, cache=cache)
        if _signature(fn) not in (POLICY_SIG, None):   # another integer type: cast it
            fn = lean_jit(copy, sig=POLICY_SIG, cache=cache)
        hit = _compiled[("ask", id(py))] = (fn, py)     # keep py alive so id() stays unique
    return hit[0]


def _returns_action(policy, py, fn):
    """``fn`` (compiled for its arguments only) if it returns an integer, the type of an
    action id; else a PolicyError (sim.contract.decision.check_returns): Numba would cast a float to
    an integer silently (0.5 would be action 0)."""
    check_returns(policy, py, getattr(_signature(fn), "return_type", types.int64))
    return fn


def _signature(fn):
    """The signature ``fn`` was compiled for (None: plain Python, NUMBA_DISABLE_JIT)."""
    return fn.nopython_signatures[0] if hasattr(fn, "nopython_signatures") else None


def ask_cached(policy) -> bool:
    """Whether Numba's disk cache holds the policy's ``ask`` for the current sources."""
    return has_cached_code(ask_copy(_ask, py_of(policy)))


__getattr__ = moved(__name__, {"decide_function": "sim.contract:callable_decide"})
