"""In-process vs Dask LocalCluster games/s, and the cost of one chunk, in one run.

    python benchmarks/bench_cluster.py --games 200000 --out results/benchmark_cluster.md

Rows: the fast engine in this process (1 and 2 threads), ``local:1`` and ``local:2`` (worker
processes of one thread each), all on the same games (summary mode: the chunks' aggregates are
merged); each timing is the best of ``--repeat`` runs, the cluster's start-up excluded (it is
timed on its own).  The per-chunk overhead is measured with chunks of ``--tiny`` games: (time
per tiny chunk) - (its games at the measured games/s).  The results are checked identical.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from sim.lab.files import command_line
from sim.lab.script import ArgumentParser


def best(fn, repeat):
    out, times = None, []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--policy", default="expert")
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--tiny", type=int, default=100, help="games per chunk for the overhead")
    ap.add_argument("--tiny-chunks", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()

    from policies import load_policy
    from sim.fast.api import summary_chunk
    from sim.lab import cluster as K
    from sim.lab.run import Chunk, Setup
    pol = load_policy(a.policy)
    setup = Setup(pol)

    def split(games, size):
        return [Chunk(setup, a.level, 1, first, min(size, games - first), summary=True)
                for first in range(0, games, size)]

    def aggregate(c, chunks):
        from sim.fast.summary import G_FIRST_ERROR
        total = sum(agg for _, agg in c.run_chunks(chunks))
        total[G_FIRST_ERROR] = -1                  # as one summary_chunk call gives it
        return total
    summary_chunk(a.level, 1, 0, 100, pol)                     # compile / load before timing
    rows, ref = [], None
    for threads in (1, 2):
        s, agg = best(lambda: summary_chunk(a.level, 1, 0, a.games, pol, threads=threads), a.repeat)
        ref = agg if ref is None else ref
        assert np.array_equal(agg, ref)
        rows.append((f"in process, {threads} thread{'s' * (threads > 1)}", a.games / s, ""))
    for n in (1, 2):
        t = time.perf_counter()
        with K.Cluster(f"local:{n}") as c:
            started = time.perf_counter() - t
            parts = split(a.games, a.chunk)
            c.warm_up(setup)                                     # workers load the engine
            s, agg = best(lambda: aggregate(c, parts), a.repeat)
            assert np.array_equal(agg, ref), "cluster result differs"
            rate = a.games / s
            note = f"start-up {started:.1f} s"
            if n == 2:
                tiny = split(a.tiny * a.tiny_chunks, a.tiny)
                ts, _ = best(lambda: aggregate(c, tiny), a.repeat)
                per_chunk = ts / a.tiny_chunks - a.tiny / rate
                note += f"; overhead per chunk {per_chunk * 1e3:.1f} ms"
                overhead_ms = per_chunk * 1e3
            rows.append((f"local:{n} (1 thread per worker)", rate, note))
    command = command_line(["--games", a.games, "--level", a.level, "--policy", a.policy,
                            "--chunk", a.chunk, "--repeat", a.repeat,
                            *(["--out", a.out.as_posix()] if a.out else [])],
                           "python benchmarks/bench_cluster.py")
    lines = [f"# Dask benchmark\n", f"Made by `{command}` "
             f"(summary mode, best of {a.repeat}; results checked identical)\n",
             "| run | games/s | vs in process (2 threads) | note |", "|---|---|---|---|"]
    base = rows[1][1]
    for name, rate, note in rows:
        lines.append(f"| {name} | {rate:,.0f} | {rate / base:.2f}x | {note} |")
    lines.append(f"\nChunks of {a.chunk:,} games take {a.chunk / rows[0][1]:.1f} s on one "
                 f"thread; at {overhead_ms:.1f} ms of overhead each, a chunk costs "
                 f"{overhead_ms / 1e3 / (a.chunk / rows[0][1]):.2%} extra.")
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        a.out.write_text(text)


if __name__ == "__main__":
    main()
