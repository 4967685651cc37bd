"""The search player's decision log of many games (the log's rows: policies.search_run).

    from policies.search_log import decision_log
    rows, log = decision_log("search[rollouts=32]", level=1, games=20, seed=1)
"""
from __future__ import annotations

from policies import load_policy
from policies.search_run import SearchRunner, concat_log
from sim.contract.player import runner_of
from sim.fast.api import run_batch
from sim.errors import UsageError


def decision_log(policy, level=1, games=100, seed=1, options=None, threads=None,
                 first_game=0, cards=None):
    """Play ``games`` games of a search policy (a spec or SearchPolicy) at one level: (the
    result columns as sim.fast.run_batch gives them, the decision log DataFrame)."""
    pol = load_policy(policy)
    if not isinstance(runner_of(pol), SearchRunner):
        raise UsageError(f"the decision log records a search policy's decisions, not "
                         f"{pol.name!r}'s")
    pol = pol.with_log()
    rows = run_batch(level, seed, first_game, games, pol, options, threads, cards)
    return rows, concat_log(pol.log)
