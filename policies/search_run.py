"""The search player's runner (policies.search on sim.fast.search): the batch and single-game
entries the fast engine calls in place of its own (sim.contract.player.Runner), one decision on
a ``sim.Game``, and the decision log's frames (its games: policies.search_log).

The log has one row per searched decision (``LOG_COLUMNS``): level, game, decision index,
kind of decision (phase), the action that would stand (the base's, or ``keep``'s), the action
chosen, whether it differs, the rollouts spent, the candidates with their rollouts and wins,
and the observation (without its static card-table block, ``sim.observation`` indices below
``CT``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim import observation as O
from sim.actions import action_name
from sim.rng import engine_stream_start, search_stream_start
from sim.fast import search as X
from sim.contract.player import Asked
from sim.fast.api import raise_decision_failure
from sim.fast.ask import CONTINUATION_FAILED, RAISED, policy_function
from sim.fast.layout import N_ROW
from sim.fast.summary import G_FIRST_ERROR, aggregate

LOG_GAMES = 16          # games per jitted call while logging (the log buffer's size)
LOG_COLUMNS = {"level": "int8", "game": "int64", "decision": "int32", "phase": "category",
               "base_action": "str", "action": "str", "switched": "bool", "rollouts": "int64",
               "n_candidates": "int16", "candidates": "list<str>", "candidate_rollouts":
               "list<int32>", "wins": "list<int32>", "life": "int8", "step": "int8",
               "turn": "int16", "observation": "list<int16>"}


class SearchRunner:
    """The search player's entries (sim.contract.player.Runner), each the fast engine's of
    the same name with the player's search parameters added."""

    def __init__(self, policy):
        self.policy = policy
        self.entry_py = X._batch_py     # whose disk cache holds the search's batch

    def entry(self, name: str):
        """``batch`` or ``single``, compiled (or loaded) now: not inside a timed decision."""
        X.entry(name)
        run = {"batch": batch, "single": single}[name]
        return lambda *args: run(self.policy, *args)

    def decide(self, game, log: bool = False):
        """The search's action at the decision ``game`` waits for (``decide_at``)."""
        return decide_at(self.policy, game, log)

    def asked(self) -> Asked:
        """keep's policy, or the base's, with the state's parameters: asked at the game's own
        decisions that are not forced (the base also in the continuations, which no error
        report replays)."""
        p = self.policy
        return Asked(p.keep_policy or p.base_policy, p.base_params(), False, p.base_policy.name)


def batch(policy, f, T, prm, level, seed, first_game, n_games, opts, out, aggs):
    """sim.fast.runner's batch entry for a search policy (same arguments): rows into ``out``, or,
    when ``out`` has one column, their aggregate into ``aggs[0]`` (the others zeroed)."""
    n = int(n_games)
    summary = out.shape[1] == 1
    rows = np.zeros((n, N_ROW), np.int64) if summary else out
    base, keep = policy.base_params(), policy.keep_function(f)
    if policy.log is None:
        X.entry("batch")(f, keep, T, base, policy.sp, level, seed, first_game, n, opts, rows,
                         np.zeros((1, 1), np.int64), np.zeros(1, np.int64))
    else:
        for a in range(0, n, LOG_GAMES):
            b = min(n, a + LOG_GAMES)
            LOG = np.zeros(((b - a) * X.LOG_CAP, X.LOG_W), np.int64)
            NLOG = np.zeros(b - a, np.int64)
            X.entry("batch")(f, keep, T, base, policy.sp, level, seed, first_game + a, b - a,
                             opts, rows[a:b], LOG, NLOG)
            policy.log.append(log_frame(level, LOG, NLOG, X.LOG_CAP))
    if summary:
        aggs[:] = 0
        aggs[:, G_FIRST_ERROR] = -1
        for r in rows:
            aggregate(r, aggs[0])


def single(policy, f, g, D):
    """runner's single entry for a search policy (sim.fast.api.play_fast): ``g.R`` holds the
    engine stream's start, from which the search stream derives as in the batch (sim.rng)."""
    X.entry("single")(f, policy.keep_function(f), g._replace(prm=policy.base_params()), D,
                      policy.sp, np.uint64(search_stream_start(g.R[0])))


def decide_at(policy, game, log: bool = False):
    """The search player's action at the decision a ``sim.Game`` waits for (the batch's
    decision there: same streams); with ``log`` also that decision's log row (a dict, None
    when the decision was not searched).  A PolicyError where its kept policy or base failed
    (sim.fast.api.raise_policy_failure)."""
    LOG = np.zeros((1, X.LOG_W), np.int64)
    sr0 = np.uint64(search_stream_start(np.uint64(engine_stream_start(game.seed, game.game))))
    f = policy_function(policy)
    arrays, stream = game.arrays._replace(prm=policy.base_params()), game.arrays.PR.copy()
    action = int(X.entry("decide")(arrays, f, policy.keep_function(f), policy.sp, sr0, LOG))
    if action in (RAISED, CONTINUATION_FAILED):   # another answer not legal: Game.step says so
        raise_decision_failure(policy, arrays, stream, game.seed, game.game, action)
    searched = LOG[0, X.LG_N] > 0
    if not log or not searched:
        return (action, None) if log else action
    LOG[0, X.LG_GAME] = game.game
    return action, log_frame(game.level, LOG, np.ones(1, np.int64), 1).iloc[0].to_dict()


def log_frame(level, LOG, NLOG, cap) -> pd.DataFrame:
    """The rows of a log buffer (sim.fast.search LG_* layout), in game then decision order."""
    if (NLOG > cap).any():
        raise RuntimeError(f"search decision log: a game has more than {cap} searched "
                           "decisions (sim.fast.search.LOG_CAP)")
    idx = np.concatenate([np.arange(i * cap, i * cap + int(k)) for i, k in enumerate(NLOG)]
                         or [np.zeros(0, np.int64)]).astype(np.int64)
    R = LOG[idx]
    n = R[:, X.LG_N]
    m = np.minimum(n, X.MAX_LOG_CANDIDATES)
    obs = R[:, X.LG_OBS:X.LG_OBS + X.N_LOG_OBS]
    return pd.DataFrame({
        "level": np.full(len(R), level, np.int8),
        "game": R[:, X.LG_GAME].astype(np.int64),
        "decision": R[:, X.LG_DECISION].astype(np.int32),
        "phase": pd.Categorical([O.PHASE_NAMES[int(p)] for p in R[:, X.LG_PHASE]],
                                categories=list(O.PHASE_NAMES[1:])),
        "base_action": [action_name(a) for a in R[:, X.LG_BASE]],
        "action": [action_name(a) for a in R[:, X.LG_CHOSEN]],
        "switched": R[:, X.LG_BASE] != R[:, X.LG_CHOSEN],
        "rollouts": R[:, X.LG_ROLLOUTS].astype(np.int64),
        "n_candidates": n.astype(np.int16),
        "candidates": [[action_name(a) for a in r[X.LG_CAND:X.LG_CAND + k]] for r, k in zip(R, m)],
        "candidate_rollouts": [r[X.LG_TRIED:X.LG_TRIED + k].astype(np.int32)
                               for r, k in zip(R, m)],
        "wins": [r[X.LG_WINS:X.LG_WINS + k].astype(np.int32) for r, k in zip(R, m)],
        "life": obs[:, O.O_LIFE].astype(np.int8),
        "step": obs[:, O.O_STEP].astype(np.int8),
        "turn": obs[:, O.O_TURN].astype(np.int16),
        "observation": [o.astype(np.int16) for o in obs],
    })


def concat_log(frames) -> pd.DataFrame:
    frames = [f for f in frames if len(f)]
    if not frames:
        return log_frame(1, np.zeros((1, X.LOG_W), np.int64), np.zeros(1, np.int64), 1)
    df = pd.concat(frames, ignore_index=True)
    df["phase"] = pd.Categorical(df["phase"].astype(str), categories=list(O.PHASE_NAMES[1:]))
    return df
