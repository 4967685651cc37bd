"""The one way to play many games: a plan, chunks, a backend, progress and Ctrl-C.

Every command that plays many games (``simulate``, ``compare``, ``report``, ``balance``,
``tune``, ``train``) and the Python API (sim.lab) go through ``Run``:

* a ``Plan`` says what to play: one or more ``Setup`` (a player, rule options, a card table),
  each played on the very same games (common random numbers: game g of seed s is dealt alike
  whatever the setup, sim.rng), on some levels, as result rows or as summary aggregates;
* the unit of work is a ``Chunk``: one setup on games ``first_game .. first_game+count-1`` of
  one level; ``play_chunk`` plays it on the fast engine (a search player included) or on the
  reference engine, and a Dask worker runs the very same function (sim.lab.cluster);
* a backend cuts each level into consecutive game ranges and plays every setup on each:
  ``InProcess`` sizes the ranges from the measured games/s (about ``CHUNK_SECONDS`` each, so
  that Ctrl-C stops within a fraction of a second), ``Processes`` and ``OnCluster`` send
  ranges of a fixed size to local worker processes or Dask workers, every level's at once, the
  players shipped as data (sim.lab.ship), and put the results back in game order (or hand
  them on as they finish: ``Plan.in_order``);
* a plan may do other work with its chunks than play them (``Plan.work``: ``friday train``
  gathers its records so) and skip the ranges finished before (``Plan.done``);
* ``Run`` compiles first (the compile notice), then iterates over the finished ranges with one
  progress bar; the first Ctrl-C stops after the current range, a second one at once, and
  everything finished is kept (``Run.interrupted`` says so).

Results never depend on the backend, the ranges, the threads or the workers: a game's
randomness comes from (seed, game index) alone, rows come back in game order and aggregates
are integer sums.
"""
from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field, replace

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
    work: object = None          # what each chunk does (Chunk.work); None: play its games
    done: tuple = ()             # (level, first game, count) finished before: not played again
    in_order: bool = True        # False: parts come as they finish, so a stop keeps them all

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
    work: object = None


def play_chunk(chunk: Chunk, threads=None):
    """Play one chunk: its result columns (dict of int64 arrays, sim.fast.COLUMNS) or its
    aggregate vector (sim.fast.summary.AGG_SIZE int64, summed over disjoint chunks); with a
    ``work`` (a picklable callable, as sim.lab.train's gathering), ``work(chunk, threads)``."""
    if chunk.work is not None:
        return chunk.work(chunk, threads)
    s = chunk.setup
    if chunk.engine == "reference":
        from sim.reference import play_batch
        return play_batch(chunk.level, chunk.seed, chunk.first_game, chunk.count, s.policy,
                          s.options, s.cards)
    from sim.fast import api
    play = api.summary_chunk if chunk.summary else api.run_batch
    return play(chunk.level, chunk.seed, chunk.first_game, chunk.count, s.policy, s.options,
                threads, s.cards)


_SHIPPED: dict = {}


def play_shipped(chunk: Chunk, threads=None):
    """Runs on a worker: ``play_chunk`` of a chunk whose policy travelled as data
    (sim.lab.ship.policy_wire), rebuilt once per worker process (compiled or loaded once)."""
    from .ship import policy_from_wire
    wire = chunk.setup.policy
    key = repr(wire)
    if key not in _SHIPPED:
        _SHIPPED[key] = policy_from_wire(wire)
    return play_chunk(replace(chunk, setup=replace(chunk.setup, policy=_SHIPPED[key])),
                      threads)


@dataclass(frozen=True)
class Part:
    """A finished range of games of one level: one result per setup, in the plan's order."""
    level: int
    first_game: int
    count: int
    results: list


class ByLevel:
    """A backend that plays one level after the other (``ranges`` of each in turn)."""

    def parts(self, plan: Plan, stop):
        """Yield the plan's Parts until done or ``stop()``."""
        for lv in plan.levels:
            if stop():
                return
            yield from self.ranges(plan, lv, stop)


@dataclass(frozen=True)
class InProcess(ByLevel):
    """Plays in this process, all threads on each range (Numba's parallel batch); ranges of
    ``chunk`` games, or by default about CHUNK_SECONDS each at the measured rate."""
    threads: int | None = None
    chunk: int | None = None

    def prepare(self, plan: Plan, quiet: bool):
        """Compile (or load) the engine and each player before any game is timed."""
        if plan.done:
            raise UsageError("a plan with finished ranges runs on fixed chunks: Processes or "
                             "OnCluster")
        for s in plan.setups:
            if plan.engine == "fast":
                prepare_engine(s.policy, quiet, self.threads)
            else:
                prepare_reference(s.policy, quiet)

    def ranges(self, plan: Plan, level: int, stop):
        """Yield Parts of ``level`` until done or ``stop()``; ranges follow the measured rate."""
        sizes = [s.policy.chunk_sizes(plan.engine) for s in plan.setups]
        least = max(m for _, m in sizes)     # the first range plays every setup: in all, one
        first = max(least, min(f for f, _ in sizes) // len(sizes))       # setup's first chunk
        sizer = ChunkSizer(first, smallest=least, fixed=self.chunk)
        done = 0
        while done < plan.games and not stop():
            k = sizer.take(plan.games - done)
            first = plan.first_game + done
            t = time.perf_counter()
            results = [play_chunk(Chunk(s, level, plan.seed, first, k, plan.summary,
                                        plan.engine, plan.work), self.threads)
                       for s in plan.setups]
            sizer.measured(k, time.perf_counter() - t)
            done += k
            yield Part(level, first, k, results)


def fixed_chunks(plan: Plan, size: int) -> list:
    """The plan's Chunks in ranges of ``size`` games, level by level, every setup on each
    range in turn; the ranges of ``plan.done`` left out."""
    done = {(lv, first) for lv, first, _ in plan.done}
    return [Chunk(s, lv, plan.seed, plan.first_game + a, min(size, plan.games - a),
                  plan.summary, plan.engine, plan.work)
            for lv in plan.levels for a in range(0, plan.games, size)
            if (lv, plan.first_game + a) not in done for s in plan.setups]


def grouped(plan: Plan, finished):
    """Parts from (chunk, result) pairs: a range's Part once every setup has played it."""
    waiting: dict = {}
    for ch, result in finished:
        key = (ch.level, ch.first_game)
        which = next(i for i, s in enumerate(plan.setups) if s is ch.setup)
        waiting.setdefault(key, []).append((which, result))
        if len(waiting[key]) == len(plan.setups):
            got = sorted(waiting.pop(key), key=lambda x: x[0])
            yield Part(ch.level, ch.first_game, ch.count, [r for _, r in got])


CLUSTER_CHUNK = 100_000          # rows: a few seconds of expert games on one thread
CLUSTER_SUMMARY_CHUNK = 200_000


@dataclass(frozen=True)
class OnCluster:
    """Plays on a connected sim.lab.cluster.Cluster in ranges of ``chunk`` games (default:
    CLUSTER_CHUNK, CLUSTER_SUMMARY_CHUNK in summary mode), every level's at once."""
    cluster: object
    chunk: int | None = None

    def prepare(self, plan: Plan, quiet: bool):
        if plan.engine != "fast":
            raise UsageError("cluster runs the fast engine only", "cluster")
        if plan.work is None:
            for s in plan.setups:
                self.cluster.warm_up(s)

    def parts(self, plan: Plan, stop):
        size = self.chunk or (CLUSTER_SUMMARY_CHUNK if plan.summary else CLUSTER_CHUNK)
        yield from grouped(plan, self.cluster.run_chunks(
            fixed_chunks(plan, size), should_stop=stop, in_order=plan.in_order))


@dataclass(frozen=True)
class Processes:
    """Plays on ``workers`` local worker processes in ranges of ``chunk`` games, every
    level's at once, the players shipped as data (sim.lab.ship).  The workers are started
    with SIGINT ignored (a Ctrl-C to the terminal's process group reaches this process only)
    and ended at once when the run stops: only the ranges in flight are lost."""
    workers: int
    chunk: int

    def prepare(self, plan: Plan, quiet: bool):
        """Nothing: each worker compiles (or loads) what it plays."""

    def parts(self, plan: Plan, stop):
        from .ship import policy_wire, to_wire
        wires = {id(s): policy_wire(s.policy) for s in plan.setups}
        chunks = fixed_chunks(plan, self.chunk)
        if not chunks:                  # every range finished before: no worker started
            return
        pool, pending = _worker_pool(min(self.workers, len(chunks))), {}
        try:
            for i, ch in enumerate(chunks):
                wired = to_wire(ch, wires[id(ch.setup)])
                pending[i] = (ch, pool.apply_async(play_shipped, (wired,)))
            yield from grouped(plan, _as_finished(pending, plan.in_order, stop))
        finally:
            pool.terminate()
            pool.join()
            pending.clear()     # the pool collected now: its semaphores released (the CLI
            del pool            # ends at once after Ctrl-C, without the interpreter's teardown)
            gc.collect()


def _worker_pool(n: int):
    """A pool of ``n`` spawned worker processes that ignore SIGINT (inherited)."""
    import signal
    import threading
    from multiprocessing import get_context
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        return get_context("spawn").Pool(n)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def _as_finished(pending: dict, in_order: bool, stop):
    """(chunk, result) of ``pending`` ({index: (chunk, AsyncResult)}) as they finish (in
    index order when ``in_order``), until all are in or ``stop()``."""
    finished, next_index = {}, 0
    while True:
        for i in [i for i, (_, r) in pending.items() if r.ready()]:
            ch, r = pending.pop(i)
            finished[i] = (ch, r.get())
        while finished and (not in_order or next_index in finished):
            i = next_index if in_order else min(finished)
            yield finished.pop(i)
            next_index = i + 1
        if not pending or stop():
            return
        time.sleep(0.05)


class Run:
    """One plan played on one backend, with the compile notice, a progress bar (standard
    error, not ``quiet``; off a terminal a line a minute) and Ctrl-C::

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
        kept = {lv: sum(c for lv2, _, c in plan.done if lv2 == lv) for lv in plan.levels}
        tasks = {lv: bar.add_task(f"level {lv}", total=plan.games, completed=kept[lv],
                                  start=False) for lv in plan.levels}
        self.games = sum(kept.values())
        start = time.perf_counter()
        parts = self.backend.parts(plan, lambda: flag.stop)
        try:
            for part in parts:
                bar.start_task(tasks[part.level])
                bar.advance(tasks[part.level], part.count)
                bar.refresh()
                self.games += part.count
                self.seconds = time.perf_counter() - start
                yield part
        except KeyboardInterrupt:       # a second Ctrl-C: only the ranges in flight are lost
            flag.stop = True
        finally:
            parts.close()
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
