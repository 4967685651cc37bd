"""What a long command shows while it runs: the compile notice, a progress bar, Ctrl-C.

* ``compile_notice``: one line on standard error before the fast engine is compiled (a cold
  Numba cache), with the time the last compile took on this machine, or the benchmark's figure;
  ``still_compiling`` then shows it is alive: a line every ``TICK_SECONDS`` until it is done.
* ``progress_bar``: a rich progress bar on standard error, one line per level (games done,
  games/s, time left), drawn when standard error is a terminal and ``--quiet`` is not given;
  to a file or pipe (a batch job, ``nohup``), a plain line every ``LINE_SECONDS`` instead.
* ``StopFlag``: the first Ctrl-C asks the running loop to stop after its current chunk (chunks
  last about ``CHUNK_SECONDS``); a second one interrupts at once.
* ``ChunkSizer``: chunk sizes from the measured games/s, so that a chunk lasts about
  ``CHUNK_SECONDS`` whatever the engine, policy and machine.  Results do not depend on them.
"""
from __future__ import annotations

import signal
import sys
import threading
import time

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                           TimeRemainingColumn)
from rich.text import Text

CHUNK_SECONDS = 0.25
LINE_SECONDS = 60           # off a terminal: a progress line this often (none in a shorter run)


class SimulationInterrupted(Exception):
    """The run was stopped by Ctrl-C after ``games`` finished games (all reported)."""

    def __init__(self, games):
        super().__init__(f"interrupted after {games:,} games")
        self.games = games

# The engine's cold compile on an idle 2-core machine, as benchmarks/bench_cli.py measured it
# (results/benchmark_cli.md: 28.8 s, two processes, sim.fast.compile_ahead), shown until this
# machine has measured its own.
BENCHMARK_COMPILE_SECONDS = 30
TICK_SECONDS = 15


def compile_notice(policy, quiet=False) -> float | None:
    """Print the notice if the engine or the policy must be compiled; returns the time the
    caller should record after compiling (its start), or None when the cache is warm."""
    from sim.fast.api import engine_cached
    from sim.numba_cache import last_compile_seconds
    engine_warm, policy_warm = engine_cached(policy)
    if engine_warm:
        if not policy_warm and not quiet:
            _policy_notice(policy)
        return None
    if not quiet:
        here = last_compile_seconds()
        seconds = here or BENCHMARK_COMPILE_SECONDS
        where = "as it took here last time" if here else "on an idle 2-core machine"
        print(f"compiling the engine, first run only, about {seconds:.0f} s {where} (a busy "
              f"or slower machine takes longer)", file=sys.stderr, flush=True)
    return time.perf_counter()


class still_compiling:
    """While the engine compiles (``started``: its start, None: nothing to show), a line on
    standard error every ``TICK_SECONDS``: the seconds so far, so a long compile shows it is
    alive.  A daemon thread: the compile holds the interpreter in long stretches, so a line can
    come late, never wrong."""

    def __init__(self, started: float | None, every: float = TICK_SECONDS):
        self.started, self.every = started, every
        self.done = threading.Event()

    def __enter__(self):
        if self.started is not None:
            threading.Thread(target=self._tick, daemon=True, name="still-compiling").start()
        return self

    def _tick(self):
        while not self.done.wait(self.every):
            print(f"  still compiling: {time.perf_counter() - self.started:.0f} s so far",
                  file=sys.stderr, flush=True)

    def __exit__(self, *exc):
        self.done.set()


def _policy_notice(policy):
    """Say that the policy is compiled: the project's policies are cached on disk, a user's
    function is compiled in every process (sim.numba_cache.is_project_source)."""
    from sim.numba_cache import is_project_source
    decide = getattr(policy, "decide", policy)
    note = ("first run only, a few seconds" if is_project_source(getattr(decide, "py_func", decide))
            else "a few seconds (a policy file is compiled in every run)")
    print(f"compiling policy {policy.name}, {note}", file=sys.stderr, flush=True)


def prepare_engine(policy, quiet=False, threads=None):
    """Compile or load the fast engine and the policy before the games are timed."""
    from sim.fast.api import _set_threads, prepare
    from sim.numba_cache import record_compile_seconds
    _set_threads(threads)                # a bad --threads is an error before any compile notice
    started = compile_notice(policy, quiet)
    with still_compiling(started if not quiet else None):
        prepare(policy, threads)
    if started is not None:
        record_compile_seconds(time.perf_counter() - started)


def prepare_reference(policy, quiet=False):
    """Compile or load the policy for the reference engine before the games are timed (and
    before a decision is timed: sim.contract.callable_decide); a decide that does not
    compile or returns no action id is an error here, before any game."""
    from sim.contract import callable_decide
    from sim.numba_cache import has_cached_code
    py = getattr(getattr(policy, "decide", None), "py_func", None)
    if py is not None and not has_cached_code(py) and not quiet:
        _policy_notice(policy)
    if py is not None:
        callable_decide(policy)


class ChunkSizer:
    """The next chunk's size: ``CHUNK_SECONDS`` worth of games at the last measured rate
    (growing at most 8x per chunk, so that one fast measurement cannot make a long chunk), or
    always ``fixed`` games when given."""

    def __init__(self, first: int, largest: int = 4_000_000, smallest: int = 1, fixed=None):
        self.size = max(1, int(first)) if fixed is None else int(fixed)
        self.largest, self.smallest, self.fixed = largest, max(1, int(smallest)), fixed

    def take(self, remaining: int) -> int:
        return max(1, min(self.size, remaining))

    def measured(self, games: int, seconds: float):
        if self.fixed is not None:
            return
        rate = games / max(seconds, 1e-6)
        self.size = int(max(self.smallest, min(rate * CHUNK_SECONDS, 8 * games, self.largest)))


class StopFlag:
    """First Ctrl-C: ``stop`` is set and the loop ends after its current chunk; a second
    one raises KeyboardInterrupt at once."""

    def __init__(self):
        self.stop, self.previous = False, None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        self.stop = True
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("\nstopping after the current chunk (Ctrl-C again to abort)", file=sys.stderr,
              flush=True)

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def progress_bar(quiet=False, unit: str = "games") -> Progress:
    """A rich progress bar on standard error, one task per level (or policy and level), redrawn
    by ``refresh()`` only, after each finished range.  Unless standard error is a terminal it
    draws nothing (rich's ``disable``: it counts) and writes a plain line every
    ``LINE_SECONDS`` instead, so a long batch run's log shows it is alive; ``quiet``: nothing."""
    console = Console(stderr=True)
    return _Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                     TextColumn(unit), _RateColumn(unit), TextColumn("left"),
                     TimeRemainingColumn(), console=console, auto_refresh=False,
                     transient=False, disable=quiet or not console.is_terminal,
                     lines=not quiet and not console.is_terminal, unit=unit)


class _Progress(Progress):
    """rich's Progress; with ``lines``, ``refresh()`` also writes each running task's count and,
    from the second line on, its rate and time left over the time since the line before, as
    one plain line, at most every ``LINE_SECONDS``."""

    def __init__(self, *columns, lines: bool = False, unit: str = "games", **kwargs):
        self.lines, self.unit, self.last_line, self.seen = lines, unit, time.monotonic(), {}
        super().__init__(*columns, **kwargs)

    def refresh(self):
        super().refresh()
        if not self.lines:
            return
        now = time.monotonic()
        running = [t for t in self.tasks if t.started and not t.finished]
        for task in running:
            self.seen.setdefault(task.id, (now, task.completed))
        if now - self.last_line < LINE_SECONDS:
            return
        self.last_line = now
        for task in running:
            then, done = self.seen[task.id]
            rate = (task.completed - done) / (now - then) if now > then else 0.0
            self.seen[task.id] = (now, task.completed)
            print(f"  {task.description}: {_line(task.completed, task.total, rate, self.unit)}",
                  file=sys.stderr, flush=True)


def _line(done, total, rate: float, unit: str) -> str:
    """'12,000 of 1,000,000 games, 2,100 games/s, about 8 min left' (the total, rate and time
    left when known; the time for this task, e.g. one level)."""
    text = f"{done:,.0f}" + (f" of {total:,.0f}" if total is not None else "") + f" {unit}"
    if rate > 0:
        text += ", " + _rate_text(rate, unit)
        if total is not None:
            left = max(total - done, 0) / rate
            text += (f", about {left / 3600:,.1f} h left" if left >= 5400 else
                     f", about {left / 60:,.0f} min left" if left >= 90 else
                     f", about {left:,.0f} s left")
    return text


class _RateColumn(ProgressColumn):
    """games/s (or ``unit``/s) of a task (rich's estimate over its last seconds)."""

    def __init__(self, unit: str = "games"):
        super().__init__()
        self.unit = unit

    def render(self, task):
        speed = task.finished_speed or task.speed
        return Text(_rate_text(speed, self.unit) if speed else "", style="progress.data.speed")


def _rate_text(rate: float, unit: str) -> str:
    """'2,100 games/s', or '0.5 decisions/s' under 10 a second."""
    return f"{rate:,.1f} {unit}/s" if rate < 10 else f"{rate:,.0f} {unit}/s"
