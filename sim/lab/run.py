"""The one way to play many games: a plan, chunks, a backend, progress and Ctrl-C.

Every command that plays many games (``simulate``, ``compare``, ``report``, ``balance``) and
the Python API (sim.lab) go through ``Run``:

* a ``Plan`` says what to play: one or more ``Setup`` (a player, rule options, a card table),
  each played on the very same games (common random numbers: game g of seed s is dealt alike
  whatever the setup, sim.rng), on some levels, as result rows or as summary aggregates;
* the unit of work is a ``Chunk``: one setup on games ``first_game .. first_game+count-1`` of
  one level; ``play_chunk`` plays it on the fast engine (a search player included) or on the
  reference engine, and a Dask worker runs the very same function (sim.lab.cluster);
* a backend cuts each level into consecutive game ranges and plays every setup on each:
  ``InProcess`` sizes the ranges from the measured games/s (about ``CHUNK_SECONDS`` each, so
  that Ctrl-C stops within a fraction of a second), ``OnCluster`` sends ranges of a fixed size
  to Dask workers and puts the results back in game order;
* ``Run`` compiles first (the compile notice), then iterates over the finished ranges with one
  progress bar; the first Ctrl-C stops after the current range, a second one at once, and
  everything finished is kept (``Run.interrupted`` says so).

Results never depend on the backend, the ranges, the threads or the workers: a game's
randomness comes from (seed, game index) alone, rows come back in game order and aggregates
are integer sums.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from sim.errors import UsageError
from sim.rules import Options
from .progress import ChunkSizer, StopFlag, prepare_engine, prepare_reference, progress_bar


@dataclass(frozen=True)
class Setup:
    """What one column of results is played with: a player (policies.Policy), the rule
    options (§O) and the card table (sim.cardtable)."""
    policy: object
    options: Options = field(default_factory=Options)
    cards: object = None


@dataclass(frozen=True)
class Plan:
    """``games`` games per level (indices ``first_game`` ..) of every setup, on one engine;
    ``summary``: an aggregate vector per range (flat memory) instead of result rows."""
    setups: tuple
    levels: tuple
    games: int
    seed: int
    engine: str = "fast"
    summary: bool = False
    first_game: int = 0

    def __post_init__(self):
        if self.engine not in ("fast", "reference"):
            raise UsageError(f"engine {self.engine!r} is unknown: choose fast or reference",
                             "engine")
        if self.summary and self.engine != "fast":
            raise UsageError("summary runs on the fast engine only: drop engine='reference', "
                             "or drop the summary to play the reference engine", "summary")
        for s in self.setups:
            s.policy.check_engine(self.engine)


@dataclass(frozen=True)
class Chunk:
    """The unit of work: games first_game .. first_game+count-1 of (level, seed), played
    with one setup; ``summary``: the aggregate vector instead of rows."""
    setup: Setup
    level: int
    seed: int
    first_game: int
    count: int
    summary: bool = False
    engine: str = "fast"


def play_chunk(chunk: Chunk, threads=None):
    """Play one chunk: its result columns (dict of int64 arrays, sim.fast.COLUMNS) or its
    aggregate vector (sim.fast.summary.AGG_SIZE int64, summed over disjoint chunks)."""
    s = chunk.setup
    if chunk.engine == "reference":
        from sim.reference import play_batch
        return play_batch(chunk.level, chunk.seed, chunk.first_game, chunk.count, s.policy,
                          s.options, s.cards)
    from sim.fast import api
    play = api.summary_chunk if chunk.summary else api.run_batch
    return play(chunk.level, chunk.seed, chunk.first_game, chunk.count, s.policy, s.options,
                threads, s.cards)


@dataclass(frozen=True)
class Part:
    """A finished range of games of one level: one result per setup, in the plan's order."""
    level: int
    first_game: int
    count: int
    results: list


@dataclass(frozen=True)
class InProcess:
    """Plays in this process, all threads on each range (Numba's parallel batch); ranges of
    ``chunk`` games, or by default about CHUNK_SECONDS each at the measured rate."""
    threads: int | None = None
    chunk: int | None = None

    def prepare(self, plan: Plan, quiet: bool):
        """Compile (or load) the engine and each player before any game is timed."""
        for s in plan.setups:
            if plan.engine == "fast":
                prepare_engine(s.policy, quiet, self.threads)
            else:
                prepare_reference(s.policy, quiet)

    def ranges(self, plan: Plan, level: int, stop):
        """Yield Parts of ``level`` until done or ``stop()``; ranges follow the measured rate."""
        sizes = [s.policy.chunk_sizes(plan.engine) for s in plan.setups]
        sizer = ChunkSizer(min(f for f, _ in sizes), smallest=max(m for _, m in sizes),
                           fixed=self.chunk)
        done = 0
        while done < plan.games and not stop():
            k = sizer.take(plan.games - done)
            first = plan.first_game + done
            t = time.perf_counter()
            results = [play_chunk(Chunk(s, level, plan.seed, first, k, plan.summary,
                                        plan.engine), self.threads) for s in plan.setups]
            sizer.measured(k, time.perf_counter() - t)
            done += k
            yield Part(level, first, k, results)


CLUSTER_CHUNK = 100_000          # rows: a few seconds of expert games on one thread
CLUSTER_SUMMARY_CHUNK = 200_000


@dataclass(frozen=True)
class OnCluster:
    """Plays on a connected sim.lab.cluster.Cluster in ranges of ``chunk`` games (default:
    CLUSTER_CHUNK, CLUSTER_SUMMARY_CHUNK in summary mode)."""
    cluster: object
    chunk: int | None = None

    def prepare(self, plan: Plan, quiet: bool):
        if plan.engine != "fast":
            raise UsageError("cluster runs the fast engine only", "cluster")
        for s in plan.setups:
            self.cluster.warm_up(s)

    def ranges(self, plan: Plan, level: int, stop):
        size = self.chunk or (CLUSTER_SUMMARY_CHUNK if plan.summary else CLUSTER_CHUNK)
        chunks = [Chunk(s, level, plan.seed, plan.first_game + a, min(size, plan.games - a),
                        plan.summary, plan.engine)
                  for a in range(0, plan.games, size) for s in plan.setups]
        group = []
        for ch, result in self.cluster.run_chunks(chunks, should_stop=stop):
            group.append(result)
            if len(group) == len(plan.setups):
                yield Part(level, ch.first_game, ch.count, group)
                group = []


class Run:
    """One plan played on one backend, with the compile notice, a progress bar (standard
    error, a terminal only, not ``quiet``) and Ctrl-C::

        with Run(plan) as run:
            for part in run: ...
        run.interrupted, run.games, run.seconds
    """

    def __init__(self, plan: Plan, backend=None, quiet: bool = False):
        self.plan, self.quiet = plan, quiet
        self.backend = backend or InProcess()
        self.games = 0                   # games finished by each setup, all levels together
        self.interrupted = False
        self.seconds = 0.0

    def __enter__(self) -> "Run":
        # compile before the clock and before the Ctrl-C handler: Ctrl-C while compiling
        # interrupts at once (nothing was played)
        self.backend.prepare(self.plan, self.quiet)
        self._flag = StopFlag().__enter__()
        self._bar = progress_bar(self.quiet).__enter__()
        return self

    def __exit__(self, *exc):
        self._bar.__exit__(*exc)
        self._flag.__exit__(*exc)

    def __iter__(self):
        plan, flag, bar = self.plan, self._flag, self._bar
        tasks = {lv: bar.add_task(f"level {lv}", total=plan.games, start=False)
                 for lv in plan.levels}
        start = time.perf_counter()
        for lv in plan.levels:
            if flag.stop:
                break
            bar.start_task(tasks[lv])
            bar.refresh()
            try:
                for part in self.backend.ranges(plan, lv, lambda: flag.stop):
                    bar.advance(tasks[lv], part.count)
                    bar.refresh()
                    self.games += part.count
                    self.seconds = time.perf_counter() - start
                    yield part
            except KeyboardInterrupt:       # a second Ctrl-C: only the range in flight is lost
                flag.stop = True
        self.seconds = time.perf_counter() - start
        self.interrupted = self.games < plan.games * len(plan.levels)


def backend_for(cluster=None, chunk=None, threads=None):
    """``OnCluster`` for a connected cluster, else ``InProcess``; ``chunk``: games per range
    (default: by the measured rate in process, CLUSTER_CHUNK on a cluster)."""
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int)
                              or chunk < 1):
        raise UsageError(f"chunk must be a positive whole number of games, got {chunk!r}",
                         "chunk")
    return InProcess(threads, chunk) if cluster is None else OnCluster(cluster, chunk)


def concat_rows(chunks: list) -> dict:
    """Result columns of consecutive ranges as one dict of arrays."""
    return {c: np.concatenate([ch[c] for ch in chunks]) for c in chunks[0]}
