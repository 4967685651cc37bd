"""Batch simulation behind ``friday simulate`` (and ``friday report``): time-bounded chunks,
progress, Ctrl-C, Parquet.

Games are played in chunks of about ``sim.progress.CHUNK_SECONDS`` each (sized from the
measured games/s), so that Ctrl-C stops within a fraction of a second and everything finished
is still reported (and written); the results never depend on the chunks (game g's randomness
comes from (seed, g) alone, and summary aggregates are sums).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .progress import (Bar, ChunkSizer, SimulationInterrupted, StopFlag, prepare_engine,
                       prepare_reference)
from .results import COLUMNS, reference_batch, summarize, to_frame
from .rules import RuleError

FIRST_CHUNK = {"fast": 1024, "reference": 2}      # games; later chunks follow the measured rate


def first_chunk(policy, engine) -> tuple[int, int]:
    """(first chunk, smallest chunk) in games: a search policy (about a second per game)
    plays chunks of at least two games per thread, so that every thread has work."""
    if getattr(policy, "kind", None) == "search":
        import numba
        k = 2 * numba.get_num_threads()
        return k, k
    return FIRST_CHUNK[engine], 1


def header(policy, engine, seed, options, summary_only=False, cards=None) -> str:
    """The run's first lines: policy, engine, seed, options, and every policy parameter."""
    names = getattr(policy, "param_names", ())
    params = ", ".join(f"{n}={v:g}" for n, v in zip(names, policy.params)) or "none"
    opts = ", ".join(f"{k}={str(v).lower()}" for k, v in options.as_dict().items())
    label = policy.header() if hasattr(policy, "header") else policy.name
    return (f"friday-lab{' (summary mode)' if summary_only else ''}: policy {label}, "
            f"{engine} engine, seed {seed}, options {opts}\n  policy parameters: {params}"
            + ("" if cards is None or cards.is_printed else
               f"\n  cards edited [{cards.hash}]: {cards.describe()}"))


def play_chunks(games, play, first, bar, task, flag, smallest=1):
    """Yield ``play(first_game, n)`` for consecutive chunks of games 0..games-1 until done or
    ``flag.stop``, as (games in the chunk, result); chunk sizes follow the measured rate
    (at least ``smallest`` games)."""
    sizer = ChunkSizer(first, smallest=smallest)
    done = 0
    bar.start(task)
    while done < games and not flag.stop:
        k = sizer.take(games - done)
        t = time.perf_counter()
        part = play(done, k)
        sizer.measured(k, time.perf_counter() - t)
        done += k
        bar.advance(task, k)
        yield k, part


def level_summary(level, games, seed, policy, options, threads, bar, task, flag,
                  cards=None, cluster=None, chunk=None) -> dict:
    """Aggregates of games 0..games-1 of one level on the fast engine (fewer if ``flag.stop``
    was set): sim.fast.run_summary's dict of the games played.  ``cluster``: on Dask
    (sim.lab.cluster), in chunks of ``chunk`` games, summed as they finish."""
    from .fast.api import summary_chunk, summary_from
    from .fast.runner import AGG_SIZE
    if cluster is not None:
        from .lab import cluster as K
        bar.start(task)
        parts = K.split(level, seed, games, K.policy_wire(policy), options,
                        chunk or K.DEFAULT_SUMMARY_CHUNK, summary=True, cards=cards)
        total = K.aggregate(cluster, parts, lambda ch: bar.advance(task, ch.count),
                            lambda: flag.stop)
        return summary_from(level, seed, 0, total)
    total = np.zeros(AGG_SIZE, np.int64)
    first, smallest = first_chunk(policy, "fast")
    for _, agg in play_chunks(games, lambda first, k: summary_chunk(
            level, seed, first, k, policy, options, threads, cards), first, bar, task, flag,
            smallest):
        total += agg
    return summary_from(level, seed, 0, total)


def run_simulation(levels, games, seed, policy, options, engine, threads, out, summary_only,
                   echo=print, quiet=False, cards=None, cluster=None,
                   chunk=None, log_decisions=None):
    """Play ``games`` games per level; print the summary; write rows to ``out`` (Parquet).
    Ctrl-C stops after the current chunk: everything finished so far is kept, reported and
    written, then SimulationInterrupted is raised.  ``cards``: the card table (sim.cardtable;
    default the printed one); ``cluster``: a connected sim.lab.cluster.Cluster (chunks of
    ``chunk`` games on Dask); ``log_decisions``: a .parquet path for a search policy's
    decision log (``policy.with_log()``, sim.fast.search_api)."""
    from .cardtable import as_table
    cards = as_table(cards)
    if cluster is not None:                    # the workers compile or load the engine now
        from .lab.cluster import policy_wire
        cluster.warm_up(policy_wire(policy), cards=cards)
    elif engine == "fast":                     # compile before the clock starts, and before
        prepare_engine(policy, quiet, threads)  # StopFlag: Ctrl-C while compiling interrupts
    else:                                      # at once
        prepare_reference(policy, quiet)
    if getattr(policy, "log", None):           # the warm-up game is not one of the run's
        policy.log.clear()
    with StopFlag() as flag:
        echo(header(policy, engine, seed, options, summary_only, cards))
        with Bar(quiet) as bar:
            tasks = {level: bar.task(f"level {level}", games) for level in levels}
            start = time.perf_counter()
            if summary_only:
                summaries, done = _summaries(levels, games, seed, policy, options, threads,
                                             bar, tasks, flag, cards, cluster, chunk)
            else:
                columns, done = _rows(levels, games, seed, policy, options, engine, threads,
                                      bar, tasks, flag, cards, cluster, chunk)
            elapsed = time.perf_counter() - start
        interrupted = flag.stop
        if done == 0:
            echo("interrupted before any game finished: nothing to report")
            raise SimulationInterrupted(0)
        echo(f"{done:,} games in {elapsed:.1f} s ({done / max(elapsed, 1e-9):,.0f} games/s, "
             f"compile and start-up not counted)"
             + ("  [INTERRUPTED: partial results]" if interrupted else ""))
        if summary_only:                       # (the intervals' imports: off the clock)
            echo(format_summary(pd.DataFrame(_summary_rows(policy, summaries))))
            df = None
        else:
            df = to_frame(columns)
            echo(format_summary(summarize(df)))
            if out is not None:
                write_parquet(df, out, {**policy.record(), "engine": engine, "seed": seed,
                                        "options": options.as_dict(), "cards": cards.meta(),
                                        "interrupted": interrupted})
                echo(f"wrote {len(df):,} rows to {out}")
            if log_decisions is not None:
                from .fast.search_api import concat_log
                log = concat_log(policy.log)
                write_parquet(log, log_decisions, {**policy.record(), "engine": engine,
                                                   "seed": seed, "options": options.as_dict(),
                                                   "cards": cards.meta(),
                                                   "interrupted": interrupted})
                echo(f"wrote {len(log):,} searched decisions to {log_decisions}")
    if interrupted:
        raise SimulationInterrupted(done)
    return df


def _cluster_parts(level, games, seed, policy, options, cluster, chunk, bar, task, flag,
                   cards=None):
    """(games, rows) of the chunks of one level played on Dask, in game order, until done or
    ``flag.stop`` (sim.lab.cluster)."""
    from .lab import cluster as K
    bar.start(task)
    parts = K.split(level, seed, games, K.policy_wire(policy), options,
                    chunk or K.DEFAULT_CHUNK, summary=False, cards=cards)
    for ch, rows in K.run_chunks(cluster, parts, should_stop=lambda: flag.stop):
        bar.advance(task, ch.count)
        yield ch.count, rows


def _rows(levels, games, seed, policy, options, engine, threads, bar, tasks, flag, cards=None,
          cluster=None, chunk=None):
    """The result columns of every game played (fewer if stopped), and their number."""
    if engine == "fast":
        from .fast import run_batch

        def play(level):
            return lambda first, k: run_batch(level, seed, first, k, policy, options, threads,
                                              cards)
    else:
        def play(level):
            return lambda first, k: reference_batch(level, seed, first, k, policy, options,
                                                    cards)
    parts, done = [], 0
    for level in levels:
        if flag.stop:
            break
        if cluster is not None:
            chunks = _cluster_parts(level, games, seed, policy, options, cluster, chunk, bar,
                                    tasks[level], flag, cards)
        else:
            first, smallest = first_chunk(policy, engine)
            chunks = play_chunks(games, play(level), first, bar, tasks[level], flag, smallest)
        for k, part in chunks:
            parts.append(part)
            done += k
    if not parts:
        return {}, 0
    return {c: np.concatenate([p[c] for p in parts]) for c in COLUMNS}, done


def _summaries(levels, games, seed, policy, options, threads, bar, tasks, flag, cards=None,
               cluster=None, chunk=None):
    """The level summaries (sim.fast.run_summary's dicts) of the levels played (fewer if
    stopped), and the number of games."""
    summaries, done = [], 0
    for level in levels:
        if flag.stop:
            break
        s = level_summary(level, games, seed, policy, options, threads, bar, tasks[level], flag,
                          cards, cluster, chunk)
        if s["games"] == 0:
            break
        summaries.append(s)
        done += s["games"]
    return summaries, done


def _summary_rows(policy, summaries) -> list[dict]:
    """The summary table's rows of the level summaries (win rates with intervals)."""
    from .report import summary_row
    rows = []
    for s in summaries:
        row = summary_row(policy.name, s["level"], s)
        row["lost_no_life"] = s["causes"]["no_life"] / s["games"]
        row["lost_old_age"] = s["causes"]["old_age"] / s["games"]
        rows.append(row)
    return rows


def format_summary(table: pd.DataFrame) -> str:
    show = pd.DataFrame({
        "level": table["level"], "games": table["games"].map("{:,}".format),
        "win rate": [f"{w:6.2%} [{lo:.2%}, {hi:.2%}]" for w, lo, hi in
                     zip(table["win_rate"], table["ci95_low"], table["ci95_high"])],
        "mean score": table["mean_score"].map("{:.2f}".format),
        "median score": table["median_score"].map("{:.1f}".format),
        "reached pirates": table["reached_pirates"].map("{:.1%}".format),
        "lost: no life": table["lost_no_life"].map("{:.1%}".format),
        "old age": table["lost_old_age"].map("{:.1%}".format),
    })
    return show.to_string(index=False)


def write_parquet(df: pd.DataFrame, out: Path, meta: dict):
    """Write atomically (temporary file, then rename): an interrupted or failed write loses
    nothing and leaves nothing behind."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"friday_lab": json.dumps(meta).encode()})
    tmp = Path(str(out) + ".partial")
    try:
        pq.write_table(table, tmp)
        os.replace(tmp, out)
    except OSError as exc:
        raise RuleError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        if tmp.is_file():
            tmp.unlink()
