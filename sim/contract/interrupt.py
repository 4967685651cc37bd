"""A call that Ctrl-C and the time limit of a decision can stop.

``interruptible``: a call played by a worker thread while the main thread waits in short
steps, so that Ctrl-C reaches a policy that loops forever in jitted code (which would hold the
main thread), and a decision that has not returned within ``decision_seconds()`` ends with a
PolicyError.  The call itself cannot be stopped: its thread is left to it (a daemon: the
process can exit) and later calls get a new one.

The time limit holds for the decisions asked from Python (sim.contract.decision.decide_once)
and for a fast-engine game replayed on its own (``replay --engine fast``: no decision finished
within the limit), not for the fast engine's batches, whose decisions run inside one jitted
call: Ctrl-C stops those.
"""
from __future__ import annotations

import os
import queue
import threading
import time
from concurrent.futures import Future, wait

from sim.errors import UsageError
from .decision import PolicyError, at, in_flight, where

# A decision of the built-in policies takes microseconds, a searching one milliseconds:
# 10 s is an endless loop, not a slow policy.  A policy that honestly thinks longer sets the
# environment variable (a limit for the process, not an option of every command).
DECISION_SECONDS = 10.0
LIMIT_ENV = "FRIDAY_DECISION_SECONDS"


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
        raise UsageError(f"{LIMIT_ENV} must be a positive number of seconds, not {text!r}")
    return seconds


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

    The decision in flight is timed: the one ``decide_once`` keeps for the worker, or
    ``watch()``'s, which returns (key, policy, observation, decision number, game) or None, a
    new key for each decision; a decision that lasts more than ``decision_seconds()`` is a
    PolicyError.  After a KeyboardInterrupt the call in flight is left to finish on its own
    (a daemon thread: the process can exit); the next call waits for it, unless a decision was
    in flight (a policy that may never return): then, as after a time-out, the next call gets
    a new thread.  Elsewhere than in the main thread: a plain call.  Otherwise one thread for
    every call: Numba's thread pool (OpenMP's team) is made once."""
    global _worker
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    import numba
    limit, seen, since = decision_seconds(), None, 0.0
    worker = _worker = _worker or _Worker()
    future = Future()
    worker.jobs.put((future, numba.get_num_threads(), fn, args))
    look = watch or (lambda: in_flight(worker.thread.ident))
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
