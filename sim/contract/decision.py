"""The decision: what a player's ``decide`` is, how it is compiled for calls from Python, one
decision asked from Python, and the one error of a player's mistakes.

A player writes ``decide(obs, legal, n_legal, params, rng) -> action`` (``DECIDE``; the types
the engines pass: ``decide_args``).  Each mistake is one ``PolicyError`` naming the policy,
its file and function (``where``) and the decision where it can be known (``at``):

* ``callable_decide``: decide compiled now for the engines' argument types; a return type
  that is no integer is refused before any game (Numba would cast 0.5 to action 0, "end"), a
  function that does not compile is named with Numba's reason (``compile_message``);
* ``decide_once``: one decision asked from Python (the reference engine, sim.play.Game, the
  fast engine's replay of a game in which decide raised or chose an illegal action): an
  exception inside decide, a write into its inputs, or an answer that is no integer, is named
  with its decision and, for a user's code, its file, function and line (user_code); the
  decision in flight is kept for the time limit (sim.contract.interrupt);
* ``params_copy``: the parameters as every engine hands them to decide, a copy.

Which action is legal is the engines' check (an illegal action id names the legal actions).
"""
from __future__ import annotations

import itertools
import threading

import numpy as np

from sim.errors import FridayError
from sim.observation import O_LEVEL, O_PHASE, O_STEP, O_TURN, PHASE_NAMES
from sim.rules import STEP_NAMES

DECIDE = "decide(obs, legal, n_legal, params, rng)"


class PolicyError(FridayError):
    """A policy's decide cannot be a policy (it does not compile, returns no integer) or failed
    at a decision: it raised, answered something that is no action id, or did not return
    within the time limit."""


def decide_args():
    """The argument types of decide as the engines pass them (``DECIDE``): int64[:] obs,
    int64[:] legal, int64 n_legal, float64[:] params, uint64[:] rng (sim.fast.layout)."""
    from numba import types
    i64, f64, u64 = (types.Array(t, 1, "C") for t in (types.int64, types.float64, types.uint64))
    return i64, i64, types.int64, f64, u64


def params_copy(policy) -> np.ndarray:
    """The parameters an engine hands ``policy``'s decide: a float64 copy of its own, so a
    decide that writes into them (a mistake that stops the game: user_code) never changes the
    policy's, which its next game, or the error's replay, would otherwise play unseen."""
    return np.array(policy.params, dtype=np.float64)


def py_of(policy):
    """The plain Python function of a policy's decide (a Policy, a jitted or plain function)."""
    decide = getattr(policy, "decide", policy)
    return getattr(decide, "py_func", decide)


# --- names --------------------------------------------------------------------------------
def where(policy, py=None, place=None) -> str:
    """The policy as an error names it: ``'mine.py:brave' (/path/mine.py, function brave)``;
    with ``place`` (user_code.Place) the line of the mistake: ``(/path/mine.py:12, function
    fight)``.  A decide that policies.strategy.with_rules made names the user's file and rules
    (its ``written_in``), not the library's code."""
    import inspect

    from .user_code import user_py
    py = user_py(py_of(policy) if py is None else py)
    fname = getattr(py, "__name__", "?")
    if place is not None:
        return f"{getattr(policy, 'name', fname)!r} ({place})"
    written = getattr(py, "written_in", None)
    try:
        text = (f"{written[0]}, {written[1]}" if written else
                f"{inspect.getsourcefile(py)}, function {fname}")
    except TypeError:
        text = f"function {fname}"
    return f"{getattr(policy, 'name', fname)!r} ({text})"


def failed_in_a_continuation(who: str, it: str, obs, decision, game) -> PolicyError:
    """The error of a policy (``who``) that raised, answered an illegal action or wrote into
    its inputs in a continuation of the decision ``obs``: a copy of the game played on ahead,
    which no replay reaches, so the error says where, not the exception."""
    where = at(obs, decision, game)[len("at "):]
    return PolicyError(f"{who} raised, or chose an illegal action, in a continuation (a copy "
                       f"of the game played on ahead, not replayed here) of {where}; play {it} "
                       f"alone to see where it fails")


def at(obs, decision=None, game=None) -> str:
    """The decision: ``at a fight decision (decision 7 of game 0; level 1, seed 1, step green,
    turn 2)``; ``game`` is (seed, game index)."""
    phase, step = int(obs[O_PHASE]), int(obs[O_STEP])
    kind = PHASE_NAMES[phase] if 0 <= phase < len(PHASE_NAMES) else f"phase {phase}"
    which = [] if decision is None else [f"decision {decision}"
                                         + ("" if game is None else f" of game {game[1]}")]
    state = ([f"level {int(obs[O_LEVEL])}"] + ([] if game is None else [f"seed {game[0]}"])
             + [f"step {STEP_NAMES[step] if 0 <= step < len(STEP_NAMES) else step}",
                f"turn {int(obs[O_TURN])}"])
    return f"at a {kind} decision ({'; '.join(which + [', '.join(state)])})"


def raised(policy, exc, obs, decision=None, game=None, place=None) -> PolicyError:
    """The error of an exception raised inside decide (Numba reports one raised in a batch as
    a SystemError whose cause is the policy's); ``place``: where in the user's code."""
    if isinstance(exc, SystemError) and exc.__cause__ is not None:
        exc = exc.__cause__
    text = " ".join(str(exc).split())[:300]
    return PolicyError(f"policy {where(policy, place=place)} raised {type(exc).__name__}"
                       f"{': ' + text if text else ''} {at(obs, decision, game)}")


# --- compiling ------------------------------------------------------------------------------
def check_returns(policy, py, returns):
    """A PolicyError unless the compiled decide's return type ``returns`` is an integer."""
    from numba import types
    if not isinstance(returns, types.Integer):
        why = (": no path returns a value (each one raises, or ends without return)"
               if returns == types.none else
               ": some path returns None (one that ends without return?)"
               if isinstance(returns, types.Optional) else "")
        raise PolicyError(f"policy {where(policy, py)} returns {returns}, not an action id "
                          f"(int){why}")


def compile_message(policy, py, exc) -> str:
    """One line: the policy, the place in the user's code Numba's report names (file, line,
    function) and the line of the report that says why ``py`` does not compile."""
    from .user_code import compiled_at, named_at, reason, user_py
    report = str(exc)
    why = reason(report)
    place = compiled_at(report) or named_at(user_py(py), why)
    return f"policy {where(policy, py, place)} does not compile as {DECIDE} -> int64: {why}"


_compiled: dict = {}


def callable_decide(policy):
    """The policy's decide as Python calls it (the reference engine, sim.play.Game, the fast
    engine's ``ask`` when decide allocates): compiled now, before any decision is timed, for
    ``decide_args``, its return type checked.  It is compiled releasing the GIL (``nogil``),
    so that the main thread can stop it (sim.contract.interrupt), and without reference
    counting where it allocates nothing (numba_wall.lean_jit), else with it; cached on disk
    for the project's own sources only (sim.numba_cache.is_project_source).  Under
    NUMBA_DISABLE_JIT decide is called as plain Python."""
    import numba
    from numba.core.errors import NumbaError
    py = py_of(policy)
    if numba.config.DISABLE_JIT:
        return py
    hit = _compiled.get(id(py))
    if hit is None:
        from numba import njit

        from sim.numba_cache import is_project_source
        from .numba_wall import lean_jit
        cache, args = is_project_source(py), decide_args()
        try:        # a user's code is bounds-checked (sim.contract.user_code)
            fn = lean_jit(py, sig=args, cache=cache, nogil=True, boundscheck=not cache)
        except NumbaError:      # it allocates (or does not compile: then this raises again)
            try:
                fn = njit(args, cache=cache, nogil=True, boundscheck=not cache)(py)
            except NumbaError as exc:
                raise PolicyError(compile_message(policy, py, exc)) from None
        check_returns(policy, py, fn.nopython_signatures[0].return_type)
        hit = _compiled[id(py)] = (fn, py)      # keep py alive so that id() stays unique
    return hit[0]


# --- one decision -----------------------------------------------------------------------------
_in_flight: dict = {}   # thread id -> (key, policy, obs, decision, game): the decision asked
_keys = itertools.count()


def in_flight(thread_id):
    """(key, policy, obs, decision, game) of the decision ``decide_once`` asks in thread
    ``thread_id``, a new key for each decision; None between decisions."""
    return _in_flight.get(thread_id)


def decide_once(policy, fn, obs, legal, n_legal, params, rng, decision=None, game=None) -> int:
    """``fn(obs, legal, n_legal, params, rng)``, the policy's decide (``callable_decide``), as
    an action id; an exception inside, a write into ``obs``, ``legal`` or ``params`` (a user's
    policy) or an answer that is no integer is a PolicyError naming the decision
    (``decision``: its number in the game, ``game``: (seed, game index)) and, where it can,
    the user's file, function and line (sim.contract.user_code)."""
    from . import user_code
    me, py = threading.get_ident(), py_of(policy)
    before = (user_code.inputs(obs, legal, params), rng.copy()) if _is_user(py) else None
    _in_flight[me] = (next(_keys), policy, obs, decision, game)
    try:
        try:
            action = fn(obs, legal, n_legal, params, rng)
        except Exception as exc:    # a user's code: name it, no traceback
            if isinstance(exc, SystemError) and exc.__cause__ is not None:
                exc = exc.__cause__
            if before is not None:      # a write first (user_code.checked raises after it)
                _check_inputs(policy, py, before, obs, legal, n_legal, params, decision, game)
            place, again = None, None
            if before is not None:      # the same exception in plain Python: its line, its words
                place, again = user_code.asked_again(
                    py, [a.copy() for a in before[0][:2]] + [n_legal, before[0][2].copy(),
                                                             before[1].copy()], type(exc))
            said = again if type(again) is type(exc) else exc
            raise raised(policy, said, before[0][0] if before else obs, decision, game,
                         place) from None
        if before is not None:
            _check_inputs(policy, py, before, obs, legal, n_legal, params, decision, game)
    finally:
        _in_flight.pop(me, None)
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    from numba import typeof
    raise PolicyError(f"policy {where(policy)} returns {typeof(action)}, not an action id "
                      f"(int), {at(obs, decision, game)}")


def _is_user(py) -> bool:
    hit = _users.get(id(py))
    if hit is None:
        from .user_code import is_user
        hit = _users[id(py)] = (is_user(py), py)
    return hit[0]


_users: dict = {}


def _check_inputs(policy, py, before, obs, legal, n_legal, params, decision, game):
    """A PolicyError if decide wrote into ``obs``, ``legal`` or ``params``: where, asked
    again in plain Python with that input read-only (numpy then raises at the write)."""
    from .user_code import INPUTS, asked_again, changed
    what = changed(before[0], obs, legal, params)
    if what is None:
        return
    name, detail = what
    args = [a.copy() for a in before[0]]
    args[INPUTS.index(name)].flags.writeable = False
    place, _ = asked_again(py, args[:2] + [n_legal, args[2], before[1].copy()], ValueError)
    raise PolicyError(f"policy {where(policy, place=place)} wrote into {name} "
                      f"{at(before[0][0], decision, game)}: {detail}; your rule must not change "
                      f"its inputs (obs, legal, params), only rng: copy one to change it "
                      f"({name}.copy())")
