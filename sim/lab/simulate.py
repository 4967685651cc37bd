"""``simulate``: games of one policy as a DataFrame (the rows of ``friday simulate --out``)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.results import COLUMNS, reference_batch, to_frame
from sim.rules import Options, RuleError, check_seed, parse_options
from sim.rules import parse_levels as as_levels

CHUNK = 50_000


def as_options(options) -> Options:
    """None, an Options, a dict {name: value} or ["NAME=VALUE", ...] -> Options (§O)."""
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    if isinstance(options, dict):
        return parse_options(**options)
    return parse_options(list(options))


def check_games(games) -> int:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
        raise RuleError(f"games must be a positive whole number, got {games!r}")
    return int(games)


def batches(level, seed, games, policy, options, engine="fast", threads=None, first_game=0,
            chunk=CHUNK):
    """Result columns chunk by chunk (the same rows whatever the chunk size)."""
    if engine == "fast":
        from sim.fast import iter_batches
        yield from iter_batches(level, seed, games, policy, options, threads, chunk=chunk,
                                first_game=first_game)
    elif engine == "reference":
        step = min(chunk, 500)
        for first in range(first_game, first_game + games, step):
            yield reference_batch(level, seed, first, min(step, first_game + games - first),
                                  policy, options)
    else:
        raise RuleError(f"unknown engine {engine!r}: choose fast or reference")


def simulate(policy="expert", level="all", games: int = 100_000, seed: int = 1, options=None,
             *, params: dict | None = None, engine: str = "fast", threads: int | None = None,
             first_game: int = 0, cluster=None, chunk: int | None = None) -> pd.DataFrame:
    """Play ``games`` games per level with one policy: one row per game.

    ``policy``: a spec (``"expert"``, ``"expert[cull_max_missing=0]"``,
    ``"mine.py:brave[reserve=3]"``), a ``Policy`` or a Numba function with the policy
    signature; ``level``: 1-4, a list or ``"all"``; ``options``: rule options (§O) as
    ``Options``, a dict or ``["old_age=continue"]``.  Columns are those of the Parquet file of
    ``friday simulate --out`` (``sim.results.COLUMNS``); ``df.attrs`` records the policy (its
    exact spec, file hash and parameters), seed, options and engine.  Game g of seed s is dealt
    the same way for every policy (common random numbers).  ``cluster``: play chunks of
    ``chunk`` games on Dask (``"local:2"``, ``"tcp://host:8786"``, a ``distributed.Client``):
    the very same rows (sim.lab.cluster)."""
    from policies import load_policy
    pol = load_policy(policy, params)
    levels, games, seed = as_levels(level), check_games(games), check_seed(seed)
    opts = as_options(options)
    if cluster is not None:
        from . import cluster as K
        if engine != "fast":
            raise RuleError("cluster= runs the fast engine only")
        with K.connected(cluster) as dask:
            wire = K.policy_wire(pol)
            parts = [rows for lv in levels for _, rows in K.run_chunks(dask, K.split(
                lv, seed, games, wire, opts, chunk or K.DEFAULT_CHUNK, False, first_game))]
    else:
        parts = [chunk for lv in levels
                 for chunk in batches(lv, seed, games, pol, opts, engine, threads, first_game)]
    df = to_frame({c: np.concatenate([p[c] for p in parts]) for c in COLUMNS})
    df.attrs.update(run_record(pol, seed, opts, engine))
    return df


def run_record(policy, seed, options, engine="fast") -> dict:
    """What a run records (Parquet metadata, ``df.attrs``)."""
    return {**policy.record(), "engine": engine, "seed": int(seed),
            "options": options.as_dict()}
