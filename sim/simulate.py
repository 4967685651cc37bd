"""Batch simulation behind ``friday simulate``: chunks, progress, interruption, Parquet."""
from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd

from .results import COLUMNS, reference_batch, summarize, to_frame

REFERENCE_CHUNK = 500
FAST_CHUNK = 50_000


class _StopFlag:
    """First Ctrl-C: finish the running chunk, then stop; a second one interrupts at once."""

    def __init__(self):
        self.stop = False
        self.previous = None

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum, frame):
        self.stop = True
        signal.signal(signal.SIGINT, self.previous or signal.default_int_handler)
        print("\nstopping after the current chunk (Ctrl-C again to abort)", file=sys.stderr)

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def _chunks(level, games, seed, policy, options, engine, threads, cards=None):
    if engine == "fast":
        from .fast import iter_batches
        yield from iter_batches(level, seed, games, policy, options, threads, chunk=FAST_CHUNK,
                                cards=cards)
    else:
        for first in range(0, games, REFERENCE_CHUNK):
            yield reference_batch(level, seed, first, min(REFERENCE_CHUNK, games - first),
                                  policy, options, cards)


def run_simulation(levels, games, seed, policy, options, engine, threads, out, summary_only,
                   echo=print, cards=None):
    """Play ``games`` games per level; print the summary; write rows to ``out`` (Parquet).
    Ctrl-C stops after the current chunk: everything finished so far is kept and reported.
    ``cards``: the card table (sim.cardtable; default the printed one)."""
    from .cardtable import as_table
    cards = as_table(cards)
    if summary_only:
        return _run_summary(levels, games, seed, policy, options, threads, echo, cards)
    parts, done, interrupted = [], 0, False
    start = time.perf_counter()
    total = games * len(levels)
    with _StopFlag() as flag:
        try:
            for level in levels:
                for chunk in _chunks(level, games, seed, policy, options, engine, threads, cards):
                    parts.append(chunk)
                    done += len(chunk["game"])
                    if sys.stderr.isatty():
                        print(f"\r{done:,}/{total:,} games", end="", file=sys.stderr, flush=True)
                    if flag.stop:
                        raise KeyboardInterrupt
        except KeyboardInterrupt:
            interrupted = True
    elapsed = time.perf_counter() - start
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if not parts:
        echo("interrupted before any game finished: nothing to report")
        raise SimulationInterrupted(0)
    columns = {c: np.concatenate([p[c] for p in parts]) for c in COLUMNS}
    df = to_frame(columns)
    table = summarize(df)
    echo(f"friday-lab: policy {policy.name}, {engine} engine, seed {seed}, "
         f"options {options.as_dict()}" + _cards_note(cards))
    echo(f"{len(df):,} games in {elapsed:.1f} s ({len(df) / max(elapsed, 1e-9):,.0f} games/s)"
         + ("  [INTERRUPTED: partial results]" if interrupted else ""))
    echo(format_summary(table))
    if out is not None:
        write_parquet(df, out, {"policy": policy.name, "params": dict(zip(policy.param_names,
                                                                          policy.params.tolist())),
                                "engine": engine, "seed": seed, "options": options.as_dict(),
                                "cards": cards.meta(), "interrupted": interrupted})
        echo(f"wrote {len(df):,} rows to {out}")
    if interrupted:
        raise SimulationInterrupted(done)
    return df


class SimulationInterrupted(Exception):
    """The run was stopped by Ctrl-C after ``games`` finished games (all reported)."""

    def __init__(self, games):
        super().__init__(f"interrupted after {games:,} games")
        self.games = games


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
    """Write atomically (temporary file, then rename): an interrupted write loses nothing."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"friday_lab": json.dumps(meta).encode()})
    tmp = Path(str(out) + ".partial")
    pq.write_table(table, tmp)
    os.replace(tmp, out)


def _cards_note(cards) -> str:
    return "" if cards.is_printed else f", cards edited [{cards.hash}]: {cards.describe()}"


def _run_summary(levels, games, seed, policy, options, threads, echo, cards):
    from .fast import run_summary
    from .report import summary_row
    start = time.perf_counter()
    rows = []
    for level in levels:
        s = run_summary(level, seed, games, policy, options, threads, cards=cards)
        row = summary_row(policy.name, level, s)
        row["lost_no_life"] = s["causes"]["no_life"] / s["games"]
        row["lost_old_age"] = s["causes"]["old_age"] / s["games"]
        rows.append(row)
    elapsed = time.perf_counter() - start
    echo(f"friday-lab (summary mode): policy {policy.name}, seed {seed}, options {options.as_dict()}"
         + _cards_note(cards))
    echo(f"{games * len(levels):,} games in {elapsed:.1f} s "
         f"({games * len(levels) / max(elapsed, 1e-9):,.0f} games/s)")
    echo(format_summary(pd.DataFrame(rows)))
