"""The command line against its own engine (run by hand); prints a markdown report.

    python benchmarks/bench_cli.py [--games 100000] [--repeat 3] [--threads 2] [--level 4]
        [--policy expert] [--out results/benchmark_cli.md] [--no-compile]

* cold first run: ``friday simulate --games 1000 --level 4`` in a fresh process with an empty
  Numba cache (a temporary NUMBA_CACHE_DIR: the project's own cache is left alone), the whole
  command's wall time, and the compile time the command itself measured and recorded;
* warm start: the same command again on that cache (best of --repeat);
* throughput for --games games (>= 10^5), one level, one policy, --threads threads: the engine
  called directly (``sim.fast.run_batch``, ``sim.fast.run_summary`` in one chunk) against the
  command (``friday simulate --level L --games N``, rows and ``--summary-only``, games/s as it
  prints it: the games alone, compile and start-up not counted) and the whole command's wall
  time.  The four timings alternate within each of the --repeat rounds (a slow spell of the
  shared machine falls on all of them); each figure is the best of its rounds.
"""
from __future__ import annotations

import argparse
import builtins
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def friday(args, env=None) -> tuple[float, str]:
    """(wall seconds, stdout + stderr) of ``python -m sim.cli ARGS`` in a fresh process."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "sim.cli", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    return time.perf_counter() - t, out.stdout + out.stderr


def printed_rate(output: str) -> float:
    """The games/s the command printed ("N games in X s (R games/s, ...")."""
    return float(re.search(r"games in [\d.]+ s \(([\d,]+) games/s", output).group(1)
                 .replace(",", ""))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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

    print(f"# Command line benchmark\n\nMade by `python benchmarks/bench_cli.py "
          f"{' '.join(argv if argv is not None else sys.argv[1:])}` on {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f} at the start).\n")
    small = ["simulate", "--games", "1000", "--level", "4", "--policy", a.policy, "--quiet"]
    if not a.no_compile:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
            env.pop("FRIDAY_KEEP_NUMBA_CACHE", None)
            cold, _ = friday(small, env)
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
    pol = load_policy(a.policy)
    prepare(pol, a.threads)
    n, lv, th = a.games, a.level, a.threads
    cli = ["simulate", "--level", str(lv), "--games", str(n), "--policy", a.policy, "--threads",
           str(th), "--quiet"]
    best = {k: [] for k in ("engine rows", "cli rows", "engine summary", "cli summary",
                            "cli rows wall", "cli summary wall")}
    for _ in range(a.repeat):
        t = time.perf_counter()
        run_batch(lv, 1, 0, n, pol, threads=th)
        best["engine rows"].append(n / (time.perf_counter() - t))
        wall, out = friday(cli)
        best["cli rows"].append(printed_rate(out))
        best["cli rows wall"].append(wall)
        t = time.perf_counter()
        run_summary(lv, 1, n, pol, threads=th, chunk=n)
        best["engine summary"].append(n / (time.perf_counter() - t))
        wall, out = friday(cli + ["--summary-only"])
        best["cli summary"].append(printed_rate(out))
        best["cli summary wall"].append(wall)
    r = {k: (max(v) if "wall" not in k else min(v)) for k, v in best.items()}
    print(f"Throughput, {a.policy}, level {lv}, {n:,} games, {th} threads, best of {a.repeat} "
          f"alternating rounds:\n")
    print("| path | engine games/s | `friday simulate` games/s (printed) | command / engine | "
          "whole command |")
    print("|---|---|---|---|---|")
    for mode, flag in (("rows", ""), ("summary", " --summary-only")):
        e, c = r[f"engine {mode}"], r[f"cli {mode}"]
        api = "run_batch" if mode == "rows" else "run_summary"
        print(f"| {mode}: `sim.fast.{api}` vs `friday simulate{flag}` | {e:,.0f} | {c:,.0f} | "
              f"{c / e:.3f} | {r[f'cli {mode} wall']:.2f} s |")
    print(f"\nEvery round's figures (games/s): "
          + "; ".join(f"{k}: " + ", ".join(f"{x:,.0f}" for x in v)
                      for k, v in best.items() if "wall" not in k))
    if a.out:
        Path(a.out).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
