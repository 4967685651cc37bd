"""The policy as the engine asks it: ``ask(gp)``, a policy's decide compiled for the state.

A policy file writes ``decide(obs, legal, n_legal, params, rng) -> action`` (layout.DECIDE_SIG);
the engine calls ``ask(gp)`` (layout.POLICY_SIG), a per-policy copy of ``_ask`` into which
decide is inlined, so that a decision costs no call with five arguments' ~30 words.  The
project's policies are cached on disk, each under its own name (numba_wall.ask_copy); a
user's function is compiled in each process (policies: why).
"""
from __future__ import annotations

import inspect

from numba import njit, types
from numba.core.errors import NumbaError

from sim.numba_cache import has_cached_code, is_project_source
from sim.rules import RuleError
from .layout import DECIDE_SIG, G_L, G_OBS, G_PR, G_PRM, G_S, POLICY_SIG, S_NLEGAL
from .numba_wall import ask_copy, field, lean_jit

_compiled: dict = {}
_decide = None      # each policy's copy of _ask has its own (ask_copy)


def _ask(gp):
    """The policy as the engine calls it (layout.POLICY_SIG): decide on the state's
    observation, legal actions, parameters and policy stream."""
    return _decide(field(gp, G_OBS), field(gp, G_L), field(gp, G_S)[S_NLEGAL], field(gp, G_PRM),
                   field(gp, G_PR))


def py_of(policy):
    """The plain Python function of a policy's decide (a Policy, a jitted or plain function)."""
    decide = getattr(policy, "decide", policy)
    return getattr(decide, "py_func", decide)


def policy_function(policy):
    """The policy's decide as the one cached engine calls it (``ask(gp)``, module docstring).

    It is compiled without Numba's reference counting (numba_wall.lean_jit, like the engine:
    about 2x faster games).  A policy that allocates arrays needs reference counting: its
    decide is then compiled apart (``decide_function``) and called by ``ask`` (a little
    slower).  A function that does not compile is a RuleError naming the policy."""
    py = py_of(policy)
    hit = _compiled.get(("ask", id(py)))
    if hit is None:
        cache = is_project_source(py)
        try:
            copy = ask_copy(_ask, py, _decide=njit(inline="always")(py))
            fn = _returns_action(policy, py, lean_jit(copy, sig=POLICY_SIG.args, cache=cache))
        except NumbaError:      # it allocates (or does not compile: then decide_function says)
            copy = ask_copy(_ask, py, _decide=decide_function(policy))
            fn = lean_jit(copy, sig=POLICY_SIG, cache=cache)
        if _signature(fn) not in (POLICY_SIG, None):   # another integer type: cast it
            fn = lean_jit(copy, sig=POLICY_SIG, cache=cache)
        hit = _compiled[("ask", id(py))] = (fn, py)     # keep py alive so id() stays unique
    return hit[0]


def _returns_action(policy, py, fn):
    """``fn`` (compiled for its arguments only) if it returns an integer, the type of an
    action id; else a RuleError: Numba would cast a float to an integer silently (0.5 would
    be action 0)."""
    returns = getattr(_signature(fn), "return_type", types.int64)
    if not isinstance(returns, types.Integer):
        raise RuleError(f"policy {_name(policy, py)} returns {returns}, not an action id (int)")
    return fn


def _signature(fn):
    """The signature ``fn`` was compiled for (None: plain Python, NUMBA_DISABLE_JIT)."""
    return fn.nopython_signatures[0] if hasattr(fn, "nopython_signatures") else None


def ask_cached(policy) -> bool:
    """Whether Numba's disk cache holds the policy's ``ask`` for the current sources."""
    return has_cached_code(ask_copy(_ask, py_of(policy)))


def decide_function(policy):
    """The policy's decide compiled on its own with layout.DECIDE_SIG, for calls from Python
    (sim.play.Game.policy_action: a first-class function argument would cost ~0.15 ms per
    call there) and for ``ask`` when decide allocates (then with reference counting)."""
    py = py_of(policy)
    hit = _compiled.get(("decide", id(py)))
    if hit is None:
        cache = is_project_source(py)
        try:
            fn = lean_jit(py, sig=DECIDE_SIG.args, cache=cache)
        except NumbaError:      # it allocates (or does not compile: then this raises again)
            try:
                fn = njit(DECIDE_SIG.args, cache=cache)(py)
            except NumbaError as exc:
                raise RuleError(_compile_message(policy, py, exc)) from None
        fn = _returns_action(policy, py, fn)
        hit = _compiled[("decide", id(py))] = (fn, py)
    return hit[0]


def _name(policy, py) -> str:
    """The policy as an error names it: its name, the file and the function."""
    try:
        where = f"{inspect.getsourcefile(py)}, function {py.__name__}"
    except TypeError:
        where = f"function {getattr(py, '__name__', '?')}"
    return f"{getattr(policy, 'name', getattr(py, '__name__', 'policy'))!r} ({where})"


def _compile_message(policy, py, exc) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    reason = next((ln for ln in lines if not ln.startswith(("During:", "File", "^", "Failed in",
                                                             "<source"))), lines[0] if lines else "")
    return (f"policy {_name(policy, py)} does not compile as decide(obs, legal, n_legal, "
            f"params, rng) -> int64: {reason[:300]}")
