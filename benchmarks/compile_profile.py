"""Where the fast engine's cold compile goes (run by hand); prints a plain-text table.

    python benchmarks/compile_profile.py [--policy expert] [--top 30] [--warm-up]

In a fresh process with an empty Numba cache (a temporary NUMBA_CACHE_DIR), compile what
``run_batch`` needs (or, with --warm-up, every entry point, ``sim.fast.warm_up``) and report,
from ``numba.core.event`` listeners: the wall and CPU time, the time spent holding LLVM's lock,
the number of compilations, each function's own compile time (its callees' compiles
subtracted) and the functions compiled more than once (one compilation per distinct argument
type, a Numba int literal being a type of its own).
"""
from __future__ import annotations

import collections
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from sim.lab.script import ArgumentParser

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import sys, time
from numba.core import event as ev
stack, rows, llvm = [], [], [0.0, 0]

class Compiles(ev.Listener):
    def on_start(self, e):
        stack.append([e.data["dispatcher"].py_func.__qualname__, time.perf_counter(), 0.0])

    def on_end(self, e):
        name, t0, child = stack.pop()
        dt = time.perf_counter() - t0
        if stack:
            stack[-1][2] += dt
        rows.append((dt - child, dt, name))

class Llvm(ev.Listener):
    def on_start(self, e):
        self.t = time.perf_counter()

    def on_end(self, e):
        llvm[0] += time.perf_counter() - self.t
        llvm[1] += 1

ev.register("numba:compile", Compiles())
ev.register("numba:llvm_lock", Llvm())
t, c = time.perf_counter(), time.process_time()
from policies import load_policy
pol = load_policy({policy!r})
if {warm_up!r}:
    from sim.fast import warm_up
    warm_up(pol)
else:
    from sim.fast import run_batch
    run_batch(1, 0, 0, 4, pol, threads=None)
print("TOTAL", time.perf_counter() - t, time.process_time() - c, llvm[0], len(rows))
for own, incl, name in rows:
    print("ROW", own, incl, name)
"""


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--warm-up", action="store_true",
                    help="every entry point (sim.fast.warm_up), not only run_batch's")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", _CHILD.format(policy=a.policy,
                                                                   warm_up=a.warm_up)],
                             cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    rows = []
    for line in out.stdout.splitlines():
        kind, *f = line.split(" ", 4 if line.startswith("TOTAL") else 3)
        if kind == "TOTAL":
            wall, cpu, llvm, n = float(f[0]), float(f[1]), float(f[2]), int(f[3])
        elif kind == "ROW":
            rows.append((float(f[0]), float(f[1]), f[2]))
    load = os.getloadavg()[0]
    what = "warm_up (every entry point)" if a.warm_up else "run_batch"
    print(f"cold compile of {what}, policy {a.policy}: wall {wall:.1f} s, CPU {cpu:.1f} s, "
          f"holding LLVM's lock {llvm:.1f} s, {n} compilations (load average {load:.1f})")
    print(f"\n{'own s':>7} {'with callees s':>14}  function")
    for own, incl, name in sorted(rows, reverse=True)[:a.top]:
        print(f"{own:7.2f} {incl:14.2f}  {name}")
    again = collections.Counter(name for _, _, name in rows)
    print("\ncompiled more than once: " + (", ".join(f"{k} ({v}x)" for k, v in again.items()
                                                    if v > 1) or "none"))


if __name__ == "__main__":
    main()
