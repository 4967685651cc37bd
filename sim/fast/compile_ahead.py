"""The cold compile on two cores: a helper process compiles half of the engine meanwhile.

Numba compiles in one thread, and a cold compile of an entry point that plays whole games
(sim.fast.runner: ``batch``, ``single``) types, lowers and optimizes the whole engine.  Most
of it splits in two independent halves: the game's course (``OURS``: ``set_up``, ``carry_on``
and the rule steps they call, the row writers, the batch's parallel loop), compiled in this
process, and the handlers of the actions a decision takes (``THEIRS``: ``fight_act``'s draw,
use and end, the hazard, target, sort3, copy, destroy and pirate handlers), compiled by a
helper process into the same disk cache.  ``split_compile`` runs both at once; when both are
done, the entry point compiles its own body, finding the rest compiled here or in the cache,
while the helper compiles the policy (a project's policy: cached on disk), which this process
then loads.  Same machine code, same cache files; only the first run's wall time changes
(benchmarks/bench_cli.py measures it; README, Speed).

Two processes writing one Numba cache need ``sim.numba_cache.lock_cache_files`` (installed
when ``sim`` is imported).  Off where it cannot help or is not safe: the JIT disabled, one
CPU, no file locks (no ``fcntl``), the helper's half already cached, ``FRIDAY_COMPILE_AHEAD=0``.
"""
from __future__ import annotations

import contextlib
import importlib
import os
import select
import subprocess
import sys

from numba import config, types

from sim.numba_cache import ROOT, is_project_source
from . import abilities, core, fight, game, machine, sort3, summary
from .ask import policy_function, py_of
from .layout import A_I64, A_I64_2, G_PTR
from sim.contract.numba_wall import cache_lock_installed, has_cached_code

_I, _B = types.int64, types.boolean
# (function, argument types): the types the engine calls them with (a test checks that an
# entry point compiled after both halves compiles none of them again).
OURS = ((game.set_up, (G_PTR, A_I64_2)),
        (machine.carry_on, (G_PTR, _I)),
        (game.write_row, (A_I64, A_I64_2, A_I64, _I)),
        (summary.aggregate, (A_I64, A_I64)))
THEIRS = ((fight.end_fight_start, (G_PTR,)),
          (abilities.use_start, (G_PTR, _I)),
          (core.draw_into_fight, (G_PTR, _B, _I, _I)),
          (game.hazard_act, (G_PTR, _I)),
          (abilities.target_act, (G_PTR, _I)),
          (fight.destroy_act, (G_PTR, _I)),
          (sort3.sort_take_act, (G_PTR, _I)),
          (sort3.sort_discard_act, (G_PTR, _I)),
          (sort3.sort_order_act, (G_PTR, _I)),
          (abilities.copy_act, (G_PTR, _I)),
          (abilities.more_act, (G_PTR, _I, _B, _I)),
          (game.pirate_act, (G_PTR, _I)))

WAIT_SECONDS = 300


def compile_half(half):
    """Compile the functions of ``half`` (OURS or THEIRS) with their argument types."""
    for fn, args in half:
        fn.compile(args)


def helper_main(ref: str | None):
    """The helper process: THEIRS, a line ``ready`` on standard output, then the policy
    (``module:function``, or None)."""
    compile_half(THEIRS)
    print("ready", flush=True)
    if ref:
        module, _, qualname = ref.partition(":")
        policy_function(getattr(importlib.import_module(module), qualname))


def policy_ref(policy) -> str | None:
    """``module:function`` of a project policy's decide (cached on disk, so the helper can
    compile it for this process); None for a user's function (compiled in each process)."""
    py = py_of(policy)                  # None when policy is None
    return f"{py.__module__}:{py.__qualname__}" if callable(py) and is_project_source(py) else None


def _useful() -> bool:
    cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)
    return (not config.DISABLE_JIT and cpus >= 2 and cache_lock_installed()
            and os.environ.get("FRIDAY_COMPILE_AHEAD", "1") != "0"
            and not has_cached_code(THEIRS[0][0].py_func))


def _helper(ref: str | None) -> subprocess.Popen | None:
    path = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    code = f"from sim.fast.compile_ahead import helper_main; helper_main({ref!r})"
    try:
        return subprocess.Popen([sys.executable, "-c", code], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                start_new_session=True)   # a Ctrl-C is this process's to handle
    except OSError:
        return None


@contextlib.contextmanager
def split_compile(policy=None, also=None, py=None):
    """Around the cold compile of an entry point ``py`` (sim.fast.runner ``batch`` or
    ``single``): first OURS (and ``also()``, the batch's parallel loop) here and THEIRS in a
    helper process at once; when both are done, the body (the entry point, which finds them
    compiled); then wait for the helper to compile the policy, if it is a project's (else the
    caller compiles it).  Does nothing where it would not help (``py`` cached, say).  The
    helper is stopped on an error or a Ctrl-C; if it fails, the entry point compiles what is
    missing itself."""
    cold = py is None or not has_cached_code(py)
    proc = _helper(policy_ref(policy)) if cold and _useful() else None
    if proc is None:
        yield
        return
    try:
        compile_half(OURS)
        if also is not None:
            also()
        if select.select([proc.stdout], [], [], WAIT_SECONDS)[0]:   # wait for its "ready"
            proc.stdout.readline()
        yield
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=WAIT_SECONDS)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        proc.stdout.close()
