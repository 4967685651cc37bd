"""How a policy is asked: the one place where a policy's mistakes become one clear error.

A policy's ``decide`` is a user's code run inside the engines.  Each mistake is one
``PolicyError`` (a RuleError: the command line prints it as one ``error:`` line, exit code 2)
naming the policy, its file and function (``where``), and the decision where it can be known:

* ``check_returns``: a compiled decide whose return type is no integer is refused before any
  game (Numba would cast 0.5 to action 0, "end"); ``compile_message``: one that does not compile;
* ``ask``: one decision asked from Python (the reference engine, sim.play.Game, and the fast
  engine's replay of a game in which decide raised, sim.fast.ask.RAISED): an exception inside
  decide, or an answer that is no integer, is named with its decision; the decision in flight
  is kept for the time limit;
* ``interruptible``: a call played by a worker thread while the main thread waits in short
  steps, so that Ctrl-C reaches a policy that loops forever in jitted code (which would hold the
  main thread), and a decision that has not returned within ``decision_seconds()`` ends with a
  PolicyError.  The call itself cannot be stopped: its thread is left to it (a daemon: the
  process can exit) and later calls get a new one.

The time limit holds for the decisions asked from Python and for a fast-engine game replayed on
its own (``replay --engine fast``: no decision finished within the limit), not for the fast
engine's batches, whose decisions run inside one jitted call: Ctrl-C stops those.  Which action
is legal is the engines' check (an illegal or unknown action id names the legal actions).
"""
from __future__ import annotations

import itertools
import os
import queue
import threading
import time
from concurrent.futures import Future, wait

import numpy as np

from sim.observation import O_LEVEL, O_PHASE, O_STEP, O_TURN, PHASE_NAMES
from sim.rules import STEP_NAMES, RuleError

# A decision of the built-in policies takes microseconds, a searching one milliseconds:
# 10 s is an endless loop, not a slow policy.  A policy that honestly thinks longer sets the
# environment variable (a limit for the process, not an option of every command).
DECISION_SECONDS = 10.0
LIMIT_ENV = "FRIDAY_DECISION_SECONDS"
DECIDE = "decide(obs, legal, n_legal, params, rng)"


class PolicyError(RuleError):
    """A policy's decide cannot be a policy (it does not compile, returns no integer) or failed
    at a decision: it raised, answered something that is no action id, or did not return
    within the time limit."""


def decision_seconds() -> float:
    """The time limit of one decision: ``FRIDAY_DECISION_SECONDS`` or DECISION_SECONDS."""
    text = os.environ.get(LIMIT_ENV)
    if text is None:
        return DECISION_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise RuleError(f"{LIMIT_ENV} must be a positive number of seconds, not {text!r}")
    return seconds


def decide_args():
    """The argument types of decide as the engines pass them (sim.fast.layout.DECIDE_SIG)."""
    from numba import types
    i64, f64, u64 = (types.Array(t, 1, "C") for t in (types.int64, types.float64, types.uint64))
    return i64, i64, types.int64, f64, u64


# --- names --------------------------------------------------------------------------------
def where(policy, py=None) -> str:
    """The policy as an error names it: ``'mine.py:brave' (/path/mine.py, function brave)``."""
    import inspect
    if py is None:
        decide = getattr(policy, "decide", policy)
        py = getattr(decide, "py_func", decide)
    fname = getattr(py, "__name__", "?")
    try:
        place = f"{inspect.getsourcefile(py)}, function {fname}"
    except TypeError:
        place = f"function {fname}"
    return f"{getattr(policy, 'name', fname)!r} ({place})"


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


def raised(policy, exc, obs, decision=None, game=None) -> PolicyError:
    """The error of an exception raised inside decide (Numba reports one raised in a batch as
    a SystemError whose cause is the policy's)."""
    if isinstance(exc, SystemError) and exc.__cause__ is not None:
        exc = exc.__cause__
    text = " ".join(str(exc).split())[:300]
    return PolicyError(f"policy {where(policy)} raised {type(exc).__name__}"
                       f"{': ' + text if text else ''} {at(obs, decision, game)}")


# --- compiling ------------------------------------------------------------------------------
def check_returns(policy, py, returns):
    """A PolicyError unless the compiled decide's return type ``returns`` is an integer."""
    from numba import types
    if not isinstance(returns, types.Integer):
        raise PolicyError(f"policy {where(policy, py)} returns {returns}, not an action id (int)")


def compile_message(policy, py, exc) -> str:
    """The first line of Numba's report that says why ``py`` does not compile."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    skip = ("During:", "File", "^", "Failed in", "<source")
    reason = next((ln for ln in lines if not ln.startswith(skip)), lines[0] if lines else "")
    return (f"policy {where(policy, py)} does not compile as {DECIDE} -> int64: "
            f"{reason[:300]}")


_callables: dict = {}


def callable_decide(policy):
    """The policy's decide as Python calls it (policies.Policy.choose), compiled now, before
    any decision is timed, for the engines' argument types, its return type checked.  A user's
    function is compiled releasing the GIL (``nogil``), so that the main thread can stop it
    (``interruptible``); the project's own policies, cached on disk, are called as they are."""
    decide = policy.decide
    py = getattr(decide, "py_func", None)
    if py is None:                       # plain Python (NUMBA_DISABLE_JIT): the GIL switches
        return decide
    hit = _callables.get(id(py))
    if hit is None:
        from numba import njit
        from numba.core.errors import NumbaError
        fn = decide
        if not (decide.targetoptions.get("nogil") or _is_project_policy(py)):
            keep = {k: v for k, v in decide.targetoptions.items()
                    if k in ("fastmath", "error_model", "boundscheck", "_nrt")}
            fn = njit(nogil=True, **keep)(py)
        args = decide_args()
        try:
            fn.compile(args)
        except NumbaError as exc:
            raise PolicyError(compile_message(policy, py, exc)) from None
        check_returns(policy, py, fn.overloads[args].signature.return_type)
        hit = _callables[id(py)] = (fn, py)       # keep py alive so that id() stays unique
    return hit[0]


def _is_project_policy(py) -> bool:
    """Whether ``py`` is a built-in policy's own function (a closure is a user's: the one
    policies.strategy.with_rules makes)."""
    import inspect
    from pathlib import Path
    if getattr(py, "__closure__", None):
        return False
    try:
        return Path(inspect.getsourcefile(py) or "").resolve().parent == Path(__file__).parent
    except TypeError:
        return False


# --- one decision -----------------------------------------------------------------------------
_in_flight: dict = {}   # thread id -> (key, policy, obs, decision, game): the decision asked
_keys = itertools.count()


def ask(policy, fn, obs, legal, n_legal, params, rng, decision=None, game=None) -> int:
    """``fn(obs, legal, n_legal, params, rng)``, the policy's decide, as an action id; an
    exception inside or an answer that is no integer is a PolicyError naming the decision
    (``decision``: its number in the game, ``game``: (seed, game index))."""
    me = threading.get_ident()
    _in_flight[me] = (next(_keys), policy, obs, decision, game)
    try:
        action = fn(obs, legal, n_legal, params, rng)
    except Exception as exc:    # a user's code: name it, no traceback
        raise raised(policy, exc, obs, decision, game) from None
    finally:
        _in_flight.pop(me, None)
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    from numba import typeof
    raise PolicyError(f"policy {where(policy)} returns {typeof(action)}, not an action id "
                      f"(int), {at(obs, decision, game)}")


# --- a call that Ctrl-C and the time limit can stop --------------------------------------------
class _Worker:
    """A daemon thread that plays the calls put on its queue."""

    def __init__(self):
        self.jobs = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, name="friday-games", daemon=True)
        self.thread.start()

    def _work(self):
        import numba
        while True:
            future, threads, fn, args = self.jobs.get()
            try:
                numba.set_num_threads(threads)              # thread-local in Numba
                future.set_result(fn(*args))
            except BaseException as exc:                    # raised again in the caller
                future.set_exception(exc)


_worker: _Worker | None = None


def interruptible(fn, *args, watch=None):
    """``fn(*args)`` played by a worker thread while the main thread waits in short steps, so
    that Python's signal handlers run meanwhile: Ctrl-C reaches sim.lab.progress.StopFlag (or
    raises KeyboardInterrupt) even while a policy loops forever in jitted code compiled
    ``nogil`` (the fast engine's batch, a user's decide: ``callable_decide``).

    The decision in flight is timed: the one ``ask`` keeps for the worker, or ``watch()``'s,
    which returns (key, policy, observation, decision number, game) or None, a new key for
    each decision; a decision that lasts more than ``decision_seconds()`` is a PolicyError.
    After a KeyboardInterrupt the call in flight is left to finish on its own (a daemon thread:
    the process can exit); the next call waits for it, unless a decision was in flight (a
    policy that may never return): then, as after a time-out, the next call gets a new thread.
    Elsewhere than in the main thread: a plain call.  Otherwise one thread for every call:
    Numba's thread pool (OpenMP's team) is made once."""
    global _worker
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    import numba
    limit, seen, since = decision_seconds(), None, 0.0
    worker = _worker = _worker or _Worker()
    future = Future()
    worker.jobs.put((future, numba.get_num_threads(), fn, args))
    look = watch or (lambda: _in_flight.get(worker.thread.ident))
    try:
        while not wait([future], 0.05).done:
            now, job = time.monotonic(), look()
            if job is None or seen is None or job[0] != seen[0]:
                seen, since = job, now
            elif now - since > limit:
                _, policy, obs, decision, game = job
                raise PolicyError(f"policy {where(policy)} did not return within {limit:g} s "
                                  f"{at(obs, decision, game)}: an endless loop? (the limit "
                                  f"of a decision: {LIMIT_ENV}, default {DECISION_SECONDS:g} s)")
    except BaseException:
        if seen is not None and _worker is worker:
            _worker = None          # its thread may never come back: the next call gets a new one
        raise
    return future.result()
