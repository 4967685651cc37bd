"""Fast vs reference engine benchmark (run by hand); prints a markdown table.

    python benchmarks/bench_engines.py [--games 200000] [--ref-games 100] [--repeat 3]
        [--threads 1 2] [--levels 1 2 3 4] [--policies random expert] [--rows-games 1000000]
        [--summary-games 10000000] [--no-compile] [--no-memory]

* games/s of sim.fast.run_batch per level, policy and thread count (after warm-up; best of
  --repeat runs);
* ratio to the reference engine (sim.reference.play_game) on the first --ref-games games;
* JIT first compile (fresh NUMBA_CACHE_DIR in a temp dir) and cached start of a fresh process;
* peak memory (ru_maxrss of a fresh process) for --rows-games rows and --summary-games summary;
* where a game's time goes (--split-level, last policy, 1 thread): the same games with the
  policy asked twice per decision; the difference is the policy's share, the rest the engine's;
* with --base COMMIT: this engine against COMMIT's, in one run: COMMIT is checked out in a
  temporary git worktree (outside the repository, removed afterwards), each engine runs in its
  own long-lived process, and the timings alternate between the two (best of --repeat each),
  games/s per policy, level and thread count, results checked equal (first on min(1000,
  --games) games, warmed up on min(100, --games)); plus both cold compiles (not with
  --no-compile).
"""
from __future__ import annotations

import builtins
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402

_START = """
import time, resource; t = time.time()
from policies import load_policy
from sim.fast import warm_up
warm_up(load_policy({policy!r}))
print(time.time() - t)
"""
_MEMORY = """
import resource, time
from policies import load_policy
from sim.fast import run_batch, run_summary
pol = load_policy({policy!r})
run_batch(4, 1, 0, 10, pol, threads={threads})
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.time()
if {mode!r} == "rows":
    r = run_batch(4, 1, 0, {n}, pol, threads={threads})
else:
    r = run_summary(4, 1, {n}, pol, threads={threads})
dt = time.time() - t
print(base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, dt)
"""


_WORKER = """
import sys, time
from policies import load_policy
from sim.fast import run_batch
print("ready", flush=True)
for line in sys.stdin:
    name, level, threads, n = line.split()
    pol = load_policy(name)
    run_batch(int(level), 1, 0, min(100, int(n)), pol, threads=int(threads))
    t = time.perf_counter()
    r = run_batch(int(level), 1, 0, int(n), pol, threads=int(threads))
    dt = time.perf_counter() - t
    print(dt, int(r["won"].sum()), int(r["score"].sum()), flush=True)
"""


class _Worker:
    """One engine (a checkout at ``root``) in its own process, timing run_batch on request."""

    def __init__(self, root: Path):
        env = dict(os.environ, PYTHONPATH=str(root))
        self.p = subprocess.Popen([sys.executable, "-c", _WORKER], cwd=root, env=env, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.p.stdout.readline().strip() == "ready"

    def time(self, name, level, threads, n):
        self.p.stdin.write(f"{name} {level} {threads} {n}\n")
        self.p.stdin.flush()
        dt, wins, score = self.p.stdout.readline().split()
        return float(dt), (int(wins), int(score))

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def _cold_compile(root: Path, policy: str) -> float:
    """Seconds of warm_up(policy) in a fresh process with an empty Numba cache."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp, PYTHONPATH=str(root))
        out = subprocess.run([sys.executable, "-c", _START.format(policy=policy)], cwd=root,
                             env=env, capture_output=True, text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])


def _compare(a, names, print):
    """This engine against the one of commit ``a.base`` (module docstring)."""
    tmp = Path(tempfile.mkdtemp(prefix="friday-base-"))
    base_root = tmp / "base"
    subprocess.run(["git", "worktree", "add", "--detach", str(base_root), a.base], cwd=ROOT,
                   check=True, capture_output=True)
    try:
        print(f"\n## This engine against {a.base} (one run)\n")
        if a.no_compile:                # (benchmarks/compile_profile.py measures it too)
            print("JIT first compiles: skipped (--no-compile).\n")
        else:
            cold = {label: _cold_compile(root, names[-1])
                    for label, root in (("base", base_root), ("new", ROOT))}
            print(f"JIT first compile (empty cache, `warm_up({names[-1]!r})`, a fresh process "
                  f"each): {a.base} {cold['base']:.1f} s, this engine {cold['new']:.1f} s.\n")
        workers = {"base": _Worker(base_root), "new": _Worker(ROOT)}
        check = min(1000, a.games)      # (a search game takes seconds: --games 30 checks 30)
        for name in names:              # before any timing: a late disagreement loses the run
            for level in a.levels:
                sums = {label: w.time(name, level, 1, check)[1] for label, w in workers.items()}
                if sums["base"] != sums["new"]:
                    raise SystemExit(f"error: {name} plays other games at level {level} than at "
                                     f"{a.base} ({sums}): its policy file or the engine changed "
                                     "between the two; leave it out with --policies")
        print(f"{a.games:,} games per timing, best of {a.repeat}, the two engines alternating; "
              "the results of both are checked equal (wins and score sums).\n")
        print("| policy | level | threads | " + f"{a.base} games/s | this engine games/s | ratio |")
        print("|---|---|---|---|---|---|")
        for name in names:
            for level in a.levels:
                for th in a.threads:
                    best = {"base": float("inf"), "new": float("inf")}
                    sums = {}
                    for _ in range(a.repeat):
                        for label, w in workers.items():
                            dt, sums[label] = w.time(name, level, th, a.games)
                            best[label] = min(best[label], dt)
                    if sums["base"] != sums["new"]:
                        raise SystemExit(f"the engines disagree: {name} level {level}: {sums}")
                    rb, rn = a.games / best["base"], a.games / best["new"]
                    print(f"| {name} | {level} | {th} | {_rate(rb)} | {_rate(rn)} | "
                          f"{rn / rb:.2f}x |")
        for w in workers.values():
            w.close()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_root)], cwd=ROOT,
                       capture_output=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)


def _rate(games_per_s: float) -> str:
    """Games per second, to three figures below 100 (a search plays a game in seconds)."""
    return f"{games_per_s:,.0f}" if games_per_s >= 100 else f"{games_per_s:.3g}"


def _run(code: str, env=None) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def _asked_twice(decide):
    """The policy, asked twice per decision (the second answer counts; the first feeds a
    no-op into its arguments so that the compiler cannot merge or drop either call)."""
    from numba import njit

    def twice(obs, legal, n_legal, params, rng):
        first = decide(obs, legal, n_legal, params, rng)
        return decide(obs, legal, n_legal + (1 if first == -7 else 0), params, rng)
    return njit(_nrt=False)(twice)


def _time_split(pol, level, games, repeat):
    """(µs per game, policy µs per game, decisions per game), or None if asking the policy
    twice changes the games (a policy that draws from its random stream).  The two timings
    alternate, so that a slow spell of the machine falls on both."""
    import numpy as np
    from policies import Policy
    from sim.fast import play_fast, run_batch
    twice = Policy(pol.name + " (asked twice)", _asked_twice(pol.decide),
                   dict(zip(pol.param_names, pol.params)))
    once_rows = run_batch(level, 1, 0, 2000, pol, threads=1)
    twice_rows = run_batch(level, 1, 0, 2000, twice, threads=1)
    if not all(np.array_equal(once_rows[k], twice_rows[k]) for k in once_rows):
        return None
    once, doubled = [], []
    for _ in range(repeat):
        for p, times in ((pol, once), (twice, doubled)):
            times.append(_seconds(lambda: run_batch(level, 1, 0, games, p, threads=1)))
    per_game, per_game_doubled = min(once) / games, min(doubled) / games
    decisions = np.mean([len(play_fast(level, 1, g, pol, record=True)["legal"])
                         for g in range(500)])
    return per_game * 1e6, (per_game_doubled - per_game) * 1e6, decisions


def _seconds(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def _best_seconds(fn, repeat) -> float:
    """The fastest of ``repeat`` runs (other load on a shared machine only slows a run)."""
    return min(_seconds(fn) for _ in range(repeat))


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--ref-games", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3,
                    help="fast-engine timings are the best of this many runs (a shared or "
                         "virtual machine's other load only ever slows a run down)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--policies", nargs="+", default=None)
    ap.add_argument("--rows-games", type=int, default=1_000_000)
    ap.add_argument("--summary-games", type=int, default=10_000_000)
    ap.add_argument("--memory-policy", default=None,
                    help="policy of the memory runs (default: the last policy)")
    ap.add_argument("--out", default=None, help="also write the report to this markdown file")
    ap.add_argument("--split-level", type=int, default=4,
                    help="level of the engine/policy time split (0: skip it)")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--no-memory", action="store_true")
    ap.add_argument("--base", default=None,
                    help="also compare with the engine of this git commit (one run, alternating)")
    ap.add_argument("--base-only", action="store_true",
                    help="with --base: only the comparison (skip the tables below it)")
    a = ap.parse_args(argv)

    lines = []

    def print(text=""):                      # noqa: A001 - tee to the --out file
        lines.append(text)
        builtins.print(text, flush=True)

    print(f"# Engine benchmark\n\nMade by "
          f"`{command_line(argv, 'python benchmarks/bench_engines.py')}` on {os.cpu_count()} cores.\n")
    from policies import builtin_policies, load_policy
    from sim.fast import run_batch
    from sim.reference import play_game
    names = a.policies or list(builtin_policies())
    if a.base:
        _compare(a, names, print)
        if a.base_only:
            if a.out:
                Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
            return
        print("\n## This engine\n")
    print("| policy | level | " + " | ".join(f"fast games/s ({t} thr)" for t in a.threads)
          + " | reference games/s | ratio (1 thr) |")
    print("|---|---|" + "---|" * len(a.threads) + "---|---|")
    for name in names:
        pol = load_policy(name)
        run_batch(1, 0, 0, 50, pol)                 # compile / load
        for level in a.levels:
            rates = [a.games / _best_seconds(
                lambda: run_batch(level, 1, 0, a.games, pol, threads=th), a.repeat)
                for th in a.threads]
            ref = a.ref_games / _seconds(
                lambda: [play_game(level, 1, g, pol) for g in range(a.ref_games)])
            same = a.ref_games / _best_seconds(                           # the very same games
                lambda: run_batch(level, 1, 0, a.ref_games, pol, threads=1), a.repeat)
            print(f"| {name} | {level} | " + " | ".join(f"{r:,.0f}" for r in rates)
                  + f" | {ref:,.1f} | {rates[0] / ref:,.0f}x (same {a.ref_games} games: "
                  f"{same / ref:,.0f}x) |")
    pol_name = names[-1]
    split = _time_split(load_policy(pol_name), a.split_level, a.games, a.repeat) \
        if a.split_level else None
    if split:
        per_game, policy_us, decisions = split
        engine_us = per_game - policy_us
        print(f"\nWhere a game's time goes ({pol_name}, level {a.split_level}, 1 thread, best of "
              f"{a.repeat}): {per_game:.1f} µs per game, {decisions:.0f} decisions per game; "
              f"the policy {policy_us:.1f} µs ({policy_us / decisions * 1e3:.0f} ns per "
              f"decision, measured by asking it twice), the engine {engine_us:.1f} µs "
              f"({engine_us / decisions * 1e3:.0f} ns per decision). The engine alone, with a "
              f"policy that cost nothing, would play {1e6 / engine_us:,.0f} games/s per core.")
    elif a.split_level:
        print(f"\nNo engine/policy time split: asking {pol_name} twice changes its games "
              f"(it draws from its random stream).")
    if not a.no_compile:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
            first = float(_run(_START.format(policy=pol_name), env))
            cached = float(_run(_START.format(policy=pol_name), env))
            other = "random" if pol_name != "random" else names[0]
            other_t = float(_run(_START.format(policy=other), env))
            cli = _best_seconds(lambda: subprocess.run(
                [sys.executable, "-m", "sim.cli", "simulate", "--games", "1000", "--level", "4",
                 "--policy", pol_name], cwd=ROOT, env=env, capture_output=True, check=True),
                a.repeat)
        print(f"\nJIT first compile (empty cache, policy {pol_name}): {first:.1f} s; cached start "
              f"of a fresh process: {cached:.2f} s; another policy ({other}) on the same "
              f"cached engine: {other_t:.2f} s; `friday simulate --games 1000 --level 4` "
              f"(cached, whole command, best of {a.repeat}): {cli:.2f} s")
    if not a.no_memory:
        th = max(a.threads)
        mem_policy = a.memory_policy or pol_name
        print()
        for mode, n in (("rows", a.rows_games), ("summary", a.summary_games)):
            base, peak, dt = _run(_MEMORY.format(policy=mem_policy, threads=th, mode=mode,
                                                 n=n)).split()
            print(f"peak memory, level 4, {mem_policy}, {n:,} games, {mode}: "
                  f"{int(peak) / 1024:,.0f} MiB (after warm-up {int(base) / 1024:,.0f} MiB); "
                  f"{n / float(dt):,.0f} games/s at {th} threads")
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
