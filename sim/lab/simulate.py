"""Many games of one policy: ``simulate`` (the Python API, a DataFrame) and
``run_simulation`` (``friday simulate``: header, progress, summary table, Parquet), both on
the one run pipeline (sim.lab.run)."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pandas as pd

from sim.cardtable import as_table
from sim.rng import MAX_SEED
from sim.errors import UsageError
from sim.rules import (RESULT_COLUMNS, as_options, check_seed, options_text,
                       parse_levels)
from .files import write_parquet
from .progress import SimulationInterrupted
from .run import Plan, Run, Setup, backend_for, concat_rows
from .summary import format_summary, summarize, summary_row, to_frame


def check_games(games, first_game=0) -> int:
    """A positive whole number of games whose indices first_game .. stay within 0..2**63-1."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
        raise UsageError(f"games must be a positive whole number, got {games!r}", "games")
    first_game = check_seed(first_game, "first_game")
    if first_game + int(games) - 1 > MAX_SEED:
        raise UsageError(f"games {games!r} from game {first_game} runs past the last game "
                         f"index {MAX_SEED}", "games")
    return int(games)


def check_threads(threads):
    """None (all cores) or 1 .. Numba's thread count."""
    import numba
    most = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (isinstance(threads, bool) or not isinstance(
            threads, (int, np.integer)) or not 1 <= threads <= most):
        raise UsageError(f"threads must be 1..{most}, not {threads!r}", "threads")
    return threads


def run_record(policy, seed, options, engine="fast", cards=None, interrupted=False) -> dict:
    """What a run records (Parquet metadata, ``df.attrs``)."""
    return {**policy.record(), "engine": engine, "seed": int(seed),
            "options": options.as_dict(), "cards": as_table(cards).meta(),
            "interrupted": interrupted}


def simulate(policy="expert", level="all", games: int = 100_000, seed: int = 1, options=None,
             *, params: dict | None = None, engine: str = "fast", threads: int | None = None,
             first_game: int = 0, cluster=None, chunk: int | None = None, cards=None,
             keep_on_interrupt: bool = False) -> pd.DataFrame:
    """Play ``games`` games per level with one policy: one row per game.

    ``policy``: a spec (``"expert"``, ``"expert[cull_max_missing=0]"``,
    ``"mine.py:brave[reserve=3]"``), a ``Policy`` or a Numba function with the policy
    signature; ``level``: 1-4, a list or ``"all"``; ``options``: rule options (§O) as
    ``Options``, a dict or ``["old_age=continue"]``; ``cards``: a what-if card table.
    Columns are those of the Parquet file of ``friday simulate --out``
    (``sim.rules.RESULT_COLUMNS``); ``df.attrs`` records the policy (its exact spec, file hash
    and parameters), seed, options, card table and engine.  Game g of seed s is dealt the
    same way for every policy (common random numbers).  ``cluster``: play chunks of ``chunk``
    games on Dask (``"local:2"``, ``"tcp://host:8786"``, a ``distributed.Client``): the very
    same rows (sim.lab.cluster).  Ctrl-C raises KeyboardInterrupt, or with
    ``keep_on_interrupt`` returns the finished games (``df.attrs["interrupted"]``)."""
    from policies import load_policy
    from .cluster import connected
    pol = load_policy(policy, params)
    levels, seed = parse_levels(level), check_seed(seed)
    games, threads = check_games(games, first_game), check_threads(threads)
    opts, table = as_options(options), as_table(cards)
    plan = Plan((Setup(pol, opts, table),), tuple(levels), games, seed, engine,
                first_game=first_game)
    with connected(cluster) as dask:
        with Run(plan, backend_for(dask, chunk, threads), quiet=True) as run:
            rows = [part.results[0] for part in run]           # level by level, in order
    if run.interrupted and not keep_on_interrupt:
        raise KeyboardInterrupt
    df = to_frame(concat_rows(rows) if rows else
                  {c: np.zeros(0, np.int64) for c in RESULT_COLUMNS})
    df.attrs.update(run_record(pol, seed, opts, engine, table, run.interrupted))
    return df


def header(policy, engine, seed, options, summary_only=False, cards=None) -> str:
    """The run's first lines: policy, engine, seed, options, and every policy parameter."""
    names = getattr(policy, "param_names", ())
    params = ", ".join(f"{n}={v:g}" for n, v in zip(names, policy.params)) or "none"
    return (f"friday-lab{' (summary mode)' if summary_only else ''}: policy "
            f"{policy.header()}, {engine} engine, seed {seed}, options "
            f"{options_text(options)}\n  policy parameters: {params}"
            + ("" if cards is None or cards.is_printed else
               f"\n  cards edited [{cards.hash}]: {cards.describe()}"))


def run_simulation(levels, games, seed, policy, options, engine, threads, out, summary_only,
                   echo=print, quiet=False, cards=None, cluster=None,
                   chunk=None, log_decisions=None, traces=None):
    """``friday simulate``: the header, then ``games`` games per level with a progress bar,
    the summary table, and the rows written to ``out`` (Parquet).  Ctrl-C stops after the
    current chunk: everything finished so far is reported and written, then
    SimulationInterrupted is raised.  ``cluster``: a connected sim.lab.cluster.Cluster;
    ``log_decisions``: a .parquet path for a search policy's decision log
    (``policy.with_log()``, policies.search_run); ``traces``: a .jsonl or .jsonl.gz path for
    the trace of every game (``traced_chunk``, ``write_traces``)."""
    from sim.fast.api import summary_from
    cards, threads = as_table(cards), check_threads(threads)     # bad input before the header
    plan = Plan((Setup(policy, options, cards),), tuple(levels), games, seed, engine, summary_only,
                work=traced_chunk if traces is not None else None)
    echo(header(policy, engine, seed, options, summary_only, cards))
    with Run(plan, backend_for(cluster, chunk, threads), quiet) as run:
        if getattr(policy, "log", None):       # the warm-up game is not one of the run's
            policy.log.clear()
        parts = list(run) if traces is None else write_traces(traces, run)
    done = run.games
    if done == 0:
        raise SimulationInterrupted(0)
    echo(f"{done:,} games in {run.seconds:.1f} s ({done / max(run.seconds, 1e-9):,.0f} "
         f"games/s, compile and start-up not counted)"
         + ("  [INTERRUPTED: partial results]" if run.interrupted else ""))
    record = run_record(policy, seed, options, engine, cards, run.interrupted)
    if summary_only:
        totals: dict = {}                       # level -> the sum of its ranges' aggregates
        for part in parts:
            totals[part.level] = totals.get(part.level, 0) + part.results[0]
        echo(format_summary(pd.DataFrame([summary_row(summary_from(lv, seed, 0, agg))
                                          for lv, agg in totals.items()])))
    else:
        df = to_frame(concat_rows([part.results[0] for part in parts]))
        echo(format_summary(summarize(df)))
        if out is not None:
            write_parquet(df, out, record)
            echo(f"wrote {len(df):,} rows to {out}")
        if log_decisions is not None:
            from policies.search_run import concat_log
            log = concat_log(policy.log)
            write_parquet(log, log_decisions, record)
            echo(f"wrote {len(log):,} searched decisions to {log_decisions}")
        if traces is not None:
            echo(f"wrote {len(df):,} game traces to {traces}")
    if run.interrupted:
        raise SimulationInterrupted(done)


def traced_chunk(chunk, threads=None):
    """``Plan.work`` of ``friday simulate --traces``: the chunk's result columns and the
    trace of each of its games as one JSON line, in game order (docs/TRACE.md, the traces of
    a batch): the line of game g is a function of (seed, g) alone, whatever the chunks and
    threads.  The fast engine plays the rows as a batch and each trace by itself
    (sim.fast.play_fast); each game's trace must end as its row does."""
    from sim.trace import batch_line, header as trace_header
    s = chunk.setup
    games = range(chunk.first_game, chunk.first_game + chunk.count)
    head = trace_header(chunk.engine, chunk.level, chunk.seed, chunk.first_game,
                        s.policy.name, s.options, s.cards)
    if chunk.engine == "reference":
        from sim.reference.game import play_game, result_row
        played = [play_game(chunk.level, chunk.seed, g, s.policy, s.options, cards=s.cards)
                  for g in games]
        table = [result_row(p) for p in played]
        rows = {c: np.array([r[c] for r in table], dtype=np.int64) for c in RESULT_COLUMNS}
        events = [p.trace for p in played]
    else:
        from sim.fast import api
        rows = api.run_batch(chunk.level, chunk.seed, chunk.first_game, chunk.count, s.policy,
                             s.options, threads, s.cards)
        from sim.contract import interruptible     # one hand-over to the games' thread

        def play():
            return [api.play_fast(chunk.level, chunk.seed, g, s.policy, s.options,
                                  cards=s.cards)["trace"] for g in games]
        events = interruptible(play)
        for k, trace in enumerate(events):
            end = trace[-1]
            if (end["score"], end["won"]) != (rows["score"][k], bool(rows["won"][k])):
                raise RuntimeError(f"fast engine: game {games[k]}'s trace ends with score "
                                   f"{end['score']}, its batch row with {rows['score'][k]}")
    return rows, [batch_line({**head, "game": g}, ev) for g, ev in zip(games, events)]


def write_traces(path, parts) -> list:
    """The lines of ``parts`` (a Run over ``traced_chunk``'s Parts) to ``path`` as they come,
    gzip-compressed if it ends in .gz (the same bytes for the same games: no name, no time in
    the gzip header), written atomically (sim.lab.files): a run stopped by Ctrl-C keeps the
    finished games (none: no file), an error leaves nothing.  A Ctrl-C while a range is
    written waits until it is whole, then acts as between ranges (a second one is handed to
    the run, which stops and keeps what it has).  Returns the Parts with their rows only."""
    import gzip
    from dataclasses import replace
    from .files import write_atomic
    kept, ranges = [], iter(parts)

    def write(tmp):
        with open(tmp, "wb") as raw:
            out = (gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0,
                                 compresslevel=6)
                   if str(path).lower().endswith(".gz") else raw)
            with out:
                for part in ranges:
                    rows, lines = part.results[0]
                    try:
                        with _whole():
                            out.write("".join(lines).encode("utf-8"))
                            kept.append(replace(part, results=[rows]))
                    except KeyboardInterrupt:
                        _stop(ranges)
                        break
        if not kept:                    # no game finished: no file (as no --out file)
            raise _NoGames
    try:
        write_atomic(path, write)
    except _NoGames:
        pass
    return kept


class _NoGames(Exception):
    """A run stopped before its first range: write_atomic leaves no file."""


@contextmanager
def _whole():
    """Ctrl-C held back until the block is done, then handled as it would have been (in the
    main thread; elsewhere Python delivers no signal)."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if came and callable(previous):
        previous(signal.SIGINT, None)


def _stop(ranges):
    """A Ctrl-C that came outside the run's own loop, handed to it (sim.lab.run.Run: it stops
    and keeps the ranges finished)."""
    if not hasattr(ranges, "throw"):            # not a run: nothing to stop but this
        raise KeyboardInterrupt
    try:
        ranges.throw(KeyboardInterrupt)
    except StopIteration:
        pass
