"""sim.lab: questions asked of many games, pandas in, pandas out.  The Python API:

    from sim.lab import simulate, compare, summarize

* ``simulate(policy, level, games, seed, options)`` -> DataFrame, one row per game (the
  columns of ``friday simulate --out``);
* ``compare(policies, level, games, seed, options)`` -> DataFrame, one row per level and
  pair, paired statistics on the same deals (``friday compare``);
* ``play_paired(...)`` -> the per-game outcomes of every policy side by side
  (``friday compare --out``), ``compare_paired(paired)`` the comparison of such a frame;
* ``summarize(df)`` -> win rates with 95% Wilson intervals, scores, causes per level (and
  policy); ``ranking(comparison)``; ``plot_paired_differences(comparison)``;
* ``stats``: the named statistical methods (Wilson, Newcombe, McNemar, paired t, Holm).

Policies are named by spec everywhere: ``"expert"``, ``"expert[cull_max_missing=0]"``,
``"path/mine.py:brave[reserve=3]"``, or passed as Policy objects / Numba functions.
"""
from . import stats
from .compare import (compare, compare_paired, long_frame, play_paired, ranking, summarize,
                      write_paired)
from .plots import plot_paired_differences
from .simulate import simulate

__all__ = ["simulate", "compare", "compare_paired", "play_paired", "summarize", "ranking",
           "long_frame", "write_paired", "plot_paired_differences", "stats"]
