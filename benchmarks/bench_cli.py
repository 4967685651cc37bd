"""The command line against its own engine (run by hand); prints a markdown report.

    python benchmarks/bench_cli.py [--games 100000] [--repeat 3] [--threads 2] [--level 4]
        [--policy expert] [--out results/benchmark_cli.md] [--no-compile]

* cold first run: ``friday simulate --games 1000 --level 4`` in a fresh process with an empty
  Numba cache (a temporary NUMBA_CACHE_DIR: the project's own cache is left alone), the whole
  command's wall time, and the compile time the command itself measured and recorded;
* warm start: the same command again on that cache (best of --repeat);
* throughput for --games games (>= 10^5), one level, one policy, --threads threads: the engine
  called directly (``sim.fast.run_batch``, ``sim.fast.run_summary`` in one chunk) against the
  command (``friday simulate --level L --games N``, rows and ``--summary-only``) in a fresh
  process.  Wall time: the games/s the command prints (the games alone, compile and start-up
  not counted).  CPU time (all threads): the command's CPU time minus that of the same command
  playing 1 game (its start-up), against the engine call's.  Each round runs the four timings
  back to back (engine rows, command rows, engine summary, command summary), so that the
  ratios of one round share the machine's load; a fifth timing runs the command's own code
  (``sim.lab.simulate.run_simulation``) in this process, without the fresh process.  The report
  gives the median ratio over the rounds and every round's figures.
"""
from __future__ import annotations

import builtins
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402


def friday(args, env=None) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout + stderr) of ``python -m sim.cli ARGS`` in a fresh
    process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, out.stdout + out.stderr


def engine(fn) -> tuple[float, float]:
    """(wall seconds, CPU seconds of all threads) of fn()."""
    t, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - t, time.process_time() - c


def printed_rate(output: str) -> float:
    """The games/s the command printed ("N games in X s (R games/s, ...")."""
    return float(re.search(r"games in [\d.]+ s \(([\d,]+) games/s", output).group(1)
                 .replace(",", ""))


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--out", default=None, help="also write the report to this markdown file")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold-compile run")
    a = ap.parse_args(argv)
    lines = []

    def print(text=""):                      # noqa: A001 - tee to the --out file
        lines.append(text)
        builtins.print(text, flush=True)

    print(f"# Command line benchmark\n\nMade by "
          f"`{command_line(argv, 'python benchmarks/bench_cli.py')}` on {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f} at the start).\n")
    small = ["simulate", "--games", "1000", "--level", "4", "--policy", a.policy, "--quiet"]
    if not a.no_compile:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
            env.pop("FRIDAY_KEEP_NUMBA_CACHE", None)
            cold = friday(small, env)[0]
            from sim.numba_cache import COMPILE_RECORD
            records = list(Path(tmp).rglob(COMPILE_RECORD))
            recorded = float(records[0].read_text()) if records else float("nan")
            warm = min(friday(small, env)[0] for _ in range(a.repeat))
        print(f"* cold first run, `friday simulate --games 1000 --level 4 --policy {a.policy}` "
              f"with an empty Numba cache: {cold:.1f} s for the whole command, of which the "
              f"compile (as the command measured and recorded it): {recorded:.1f} s")
        print(f"* the same command with the cache warm, a fresh process: {warm:.2f} s "
              f"(best of {a.repeat})\n")

    from policies import load_policy
    from sim.fast import run_batch, run_summary
    from sim.fast.api import prepare
    from sim.rules import Options
    from sim.lab.simulate import run_simulation
    pol = load_policy(a.policy)
    prepare(pol, a.threads)
    n, lv, th = a.games, a.level, a.threads
    cli = ["simulate", "--level", str(lv), "--policy", a.policy, "--threads", str(th), "--quiet"]
    rounds = []
    for _ in range(a.repeat):
        r = {}
        start_cpu = friday(cli + ["--games", "1"])[1]
        for mode, extra, call in (
                ("rows", [], lambda: run_batch(lv, 1, 0, n, pol, threads=th)),
                ("summary", ["--summary-only"],
                 lambda: run_summary(lv, 1, n, pol, threads=th, chunk=n))):
            wall, cpu = engine(call)
            r[f"engine {mode}"], r[f"engine {mode} cpu"] = n / wall, cpu
            wall, cpu, out = friday(cli + ["--games", str(n)] + extra)
            r[f"cli {mode}"], r[f"cli {mode} cpu"] = printed_rate(out), cpu - start_cpu
            r[f"cli {mode} wall"] = wall
            printed = []                 # the command's own code path, in this process
            run_simulation([lv], n, 1, pol, Options(), "fast", th, None, mode == "summary",
                           echo=printed.append, quiet=True)
            r[f"inproc {mode}"] = printed_rate("\n".join(printed))
        rounds.append(r)

    def median(key):
        return statistics.median(key(r) for r in rounds)
    print(f"Throughput, {a.policy}, level {lv}, {n:,} games, {th} threads, {a.repeat} rounds; "
          f"median over the rounds:\n")
    print("| path | engine games/s | `friday simulate` games/s (printed) | command / engine, "
          "wall | command / engine, CPU time | whole command | `sim.lab.simulate.run_simulation` "
          "in this process / engine |")
    print("|---|---|---|---|---|---|---|")
    for mode, flag in (("rows", ""), ("summary", " --summary-only")):
        api = "run_batch" if mode == "rows" else "run_summary"
        print(f"| {mode}: `sim.fast.{api}` vs `friday simulate{flag}` | "
              f"{median(lambda r: r[f'engine {mode}']):,.0f} | "
              f"{median(lambda r: r[f'cli {mode}']):,.0f} | "
              f"{median(lambda r: r[f'cli {mode}'] / r[f'engine {mode}']):.3f} | "
              f"{median(lambda r: r[f'engine {mode} cpu'] / r[f'cli {mode} cpu']):.3f} | "
              f"{median(lambda r: r[f'cli {mode} wall']):.2f} s | "
              f"{median(lambda r: r[f'inproc {mode}'] / r[f'engine {mode}']):.3f} |")
    print("\nEvery round (games/s, engine vs command; CPU seconds, engine vs command):\n")
    for i, r in enumerate(rounds, 1):
        print(f"{i}. rows {r['engine rows']:,.0f} vs {r['cli rows']:,.0f} "
              f"({r['engine rows cpu']:.2f} vs {r['cli rows cpu']:.2f} s CPU), in this process "
              f"{r['inproc rows']:,.0f}; summary {r['engine summary']:,.0f} vs "
              f"{r['cli summary']:,.0f} ({r['engine summary cpu']:.2f} vs "
              f"{r['cli summary cpu']:.2f} s CPU), in this process {r['inproc summary']:,.0f}")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
