"""Python wrappers of the fast engine (see sim.fast)."""
from __future__ import annotations

import numpy as np
import numba

from sim import observation as O
from sim.contract import PolicyError, callable_decide, decide_once, interruptible, params_copy
from sim.contract.decision import at, failed_in_a_continuation
from sim.contract.player import Asked, runner_of
from sim.actions import action_name, shown_action
from sim.rng import engine_stream_start, policy_stream_start
from sim.errors import RuleError, UsageError
from sim.rules import CAUSE_NAMES, STEP_NAMES, Options, check_level
from . import runner
from . import summary
from .ask import CONTINUATION_FAILED, ask_cached, policy_function
from .decode import decode_events
from .game import reset
from .state import new_state
from .layout import (COLUMNS, ERR_DEBUG_FULL, ERR_ILLEGAL, ERR_TRACE_FULL, K_ERR, K_GAME,
                     N_ROW, S_CAUSE, S_DECISIONS, S_DESTROYED, S_EPOS, S_ERR, S_ERR_ACTION,
                     S_ERR_PHASE, S_FL, S_FW, S_LIFE, S_NDEC, S_NLEGAL, S_SCORE, S_STEP, S_TURN,
                     S_WON,
                     card_table, CNT, ERR_SHUFFLE, P_HSTACK, P_RSTACK, P_TABLE_R, S_SHUF_H,
                     S_SHUF_R)
from sim.numba_cache import has_cached_code

_T = card_table()
_TABLES: dict = {}


def _table(cards) -> np.ndarray:
    """``T`` of the game's card table: None is the printed one; else a sim.cardtable.CardTable
    or a cards.csv path.  Only data: an edited table needs no recompilation."""
    if cards is None:
        return _T
    from sim.cardtable import as_table
    table = as_table(cards)
    if table.hash not in _TABLES:
        _TABLES[table.hash] = card_table(table)
    return _TABLES[table.hash]


def _opts(options) -> np.ndarray:
    return (options or Options()).as_array().astype(np.int64)


def _set_threads(threads):
    if threads is not None:
        n = int(threads)
        if n < 1 or n > numba.config.NUMBA_NUM_THREADS:
            raise UsageError(f"threads must be 1..{numba.config.NUMBA_NUM_THREADS}, not {threads}")
        numba.set_num_threads(n)


def _deal_array(level, deal) -> np.ndarray:
    """The deal as rows (count or -1, ids top first), checked by sim.deal (R2); a position's
    piles follow, then its row (1, life, step) (sim.fast.game.set_up)."""
    from sim.deal import DEAL_KEYS, POSITION_PILES, RESHUFFLE_KEYS, check_deal
    deal = check_deal(level, deal)
    D = np.full((10, 72), -1, dtype=np.int64)
    for k, key in enumerate(DEAL_KEYS + POSITION_PILES):
        if key in deal:
            D[k, 0] = len(deal[key])
            D[k, 1:1 + len(deal[key])] = deal[key]
    if "step" in deal:
        D[7, :3] = 1, deal["life"], STEP_NAMES.index(deal["step"])
    for k, key in enumerate(RESHUFFLE_KEYS, start=8):    # the first table shuffle of each
        if deal.get(key):
            D[k, 0] = len(deal[key][0])
            D[k, 1:1 + len(deal[key][0])] = deal[key][0]
    return D


def shuffle_error(S, P) -> str:
    """The line of a table shuffle that cannot have happened (S_ERR = ERR_SHUFFLE: the engine
    left the shuffled pile as it was), as the reference engine words it (sim.deal)."""
    from sim.deal import impossible_shuffle
    robinson = S[S_ERR_PHASE] == P_TABLE_R
    pile, done = (P_RSTACK, S_SHUF_R) if robinson else (P_HSTACK, S_SHUF_H)
    return impossible_shuffle("robinson_reshuffles" if robinson else "hazard_reshuffles",
                              int(S[done]) - 1, int(S[S_ERR_ACTION]),
                              sorted(int(c) for c in P[pile, :S[CNT + pile]]), int(S[S_TURN]))


def _error_message(policy_name, action, phase, game, level, seed, legal):
    """The illegal-action message, with the legal actions as the reference engine lists them."""
    return (f"policy {policy_name!r} chose {shown_action(action)} at a {O.PHASE_NAMES[int(phase)]} decision "
            f"(game {game}, level {level}, seed {seed}): not a legal action; legal: "
            f"{', '.join(action_name(int(a)) for a in legal)}")


def raise_policy_failure(policy, prm, rng, seed, game, DOBS, DLEG, action, first=1):
    """The PolicyError of a policy that failed inside the engine at the last of the decisions
    ``DOBS`` (observations) and ``DLEG`` (rows: count, legal ids), numbered from ``first``:
    it raised (sim.fast.ask.RAISED) or wrote into its inputs.  It is asked again, from Python,
    at each of them in turn with the policy stream ``rng`` (sim.contract.decide_once names the
    exception or the write and the decision).  A player with its own runner (the search, the
    solver) is asked through the policy it asks at the game's decisions (``Runner.asked``:
    keep's or the base's), with its parameters, at the decisions it asks (forced ones or
    not), and the error names the player too; if its base failed in a continuation
    (``action`` CONTINUATION_FAILED), the error says so.  Returns otherwise."""
    own = runner_of(policy)
    if own is None:                             # the engine asks it at every decision
        asked = Asked(policy, prm, True, None)
    elif hasattr(own, "asked"):
        asked = own.asked()
    else:                                       # a runner without asked(): its own decide
        asked = Asked(policy, prm, False, None)
    fn, answer = callable_decide(asked.policy), None
    try:
        for k in range(len(DOBS)):
            if not asked.forced and DLEG[k, 0] == 1:
                continue                    # played without asking
            legal = np.ascontiguousarray(DLEG[k, 1:1 + DLEG[k, 0]])
            answer = decide_once(asked.policy, fn, DOBS[k].copy(), legal, len(legal),
                                 asked.params, rng, first + k, (seed, game))
    except PolicyError as exc:
        if asked.policy is policy:
            raise
        raise PolicyError(f"in policy {policy.name!r}: {exc}") from None
    if own is not None and action == CONTINUATION_FAILED != answer:
        its = f"its base policy {asked.base!r}" if asked.base else "its base policy"
        raise failed_in_a_continuation(f"policy {policy.name!r}: {its}", "the base", DOBS[-1],
                                       first + len(DOBS) - 1, (seed, game))


def raise_decision_failure(policy, arrays, stream, seed, game, action):
    """The PolicyError of a runner's failure ``action`` (sim.fast.ask: RAISED,
    CONTINUATION_FAILED) at the decision the state ``arrays`` waits for (a ``sim.Game``'s),
    the policy asked again with its stream as it stood there (``stream``)."""
    S = arrays.S
    n = int(S[S_NLEGAL])
    legal = np.concatenate([[n], arrays.L[:n]]).astype(np.int64)[None]   # a DLEG row
    raise_policy_failure(policy, None, stream, seed, game, arrays.obs[None], legal, action,
                         int(S[S_DECISIONS]) + 1)
    raise PolicyError(f"policy {policy.name!r}: the policy it asks failed {at(arrays.obs)}, "
                      f"and not when asked again from Python")


def _raise_game_error(level, seed, game, policy, options, cards=None):
    """Replay a batch game that failed, recording its decisions: raises the error of
    ``play_fast``, whose illegal-action message lists the legal actions."""
    play_fast(level, seed, game, policy, options, record=True, cards=cards)
    raise RuntimeError(f"fast engine: game {game} failed in a batch but not when replayed")


def _scripted_decide(obs, legal, n_legal, params, rng):
    """Plays params[1:] as action ids in order; rng[0] counts the actions used."""
    i = int(rng[0])
    if i + 1 >= params.shape[0]:
        return -1
    rng[0] = rng[0] + np.uint64(1)
    return np.int64(params[i + 1])


def play_fast(level, seed, game, policy, options=None, deal=None, actions=None,
              record=False, cards=None, stop_when_out=False) -> dict:
    """One game with the fast engine: trace (as the reference's Game.trace), won, cause,
    score, life, turn, stats, stopped.  ``actions``: a list of action ids (or names) played
    instead of the policy; by default a list that runs out before the game ends is a
    UsageError.  ``stop_when_out`` (with ``actions``): return the game so far instead, with
    ``stopped`` True and the trace up to the decision where the list ran out (no game_end
    event); with ``record`` the observations and legal actions include that decision's (the
    last ones).  The results other than the trace describe no finished game then.
    ``record``: also return the observation and legal actions of every decision."""
    from sim.deal import load_deal, shuffles_after_the_first
    level = check_level(level)
    single = _entry(policy if actions is None else None, "single")   # the engine first: see
    if actions is not None:                                          # sim.fast.compile_ahead
        from sim.actions import action_id
        prm = np.array([0] + [a if isinstance(a, (int, np.integer)) else action_id(a)
                              for a in actions], dtype=np.float64)
        name, fn = "scripted", policy_function(_scripted_decide)
    else:
        prm = params_copy(policy)
        name, fn = getattr(policy, "name", "policy"), policy_function(policy)
    g = new_state(_table(cards), prm, True, record)
    S, P, obs = g.S, g.P, g.obs
    reset(S, P, obs, level, _opts(options), 1, 1 if record else 0)
    g.R[0] = engine_stream_start(seed, game)
    g.PR[0] = 0 if actions is not None else policy_stream_start(seed, game)
    D = _deal_array(level, deal) if deal else np.zeros((1, 1), np.int64)
    if deal and shuffles_after_the_first(load_deal(deal)):     # _deal_array checked it
        raise UsageError("a deal with more than one table shuffle of a stack is played by "
                         "sim.Game or the reference engine (friday replay and friday review do "
                         "so), not in one call of the fast engine")
    # in a worker thread: Ctrl-C, and the time limit (no decision finished), stop a policy
    # that never returns (sim.contract.interrupt)
    interruptible(single, fn, g, D,
                  watch=lambda: (int(S[S_DECISIONS]), policy, obs, int(S[S_DECISIONS]) + 1,
                                 (seed, game)))
    err = int(S[S_ERR])
    ran_out = err == ERR_ILLEGAL and actions is not None and int(S[S_ERR_ACTION]) == -1
    if ran_out and not stop_when_out:
        raise UsageError(f"scripted: the action list ran out after {len(prm) - 1} actions at "
                         f"a {O.PHASE_NAMES[int(S[S_ERR_PHASE])]} decision")
    if err == ERR_ILLEGAL and not ran_out:
        if not record:                   # replay it recording decisions: the legal actions
            return play_fast(level, seed, game, policy, options, deal, actions, record=True,
                             cards=cards)
        last = int(S[S_NDEC]) - 1            # the failing decision is the last one recorded
        if actions is None:     # decide raised, or wrote into its inputs: a PolicyError
            stream = np.array([policy_stream_start(seed, game)], dtype=np.uint64)
            raise_policy_failure(policy, params_copy(policy), stream, seed, game,
                                 g.DOBS[:last + 1], g.DLEG[:last + 1], int(S[S_ERR_ACTION]))
        raise RuleError(_error_message(name, S[S_ERR_ACTION], S[S_ERR_PHASE], game, level, seed,
                                       g.DLEG[last, 1:1 + g.DLEG[last, 0]]))
    if err == ERR_SHUFFLE:
        raise RuleError(shuffle_error(S, P))
    if err == ERR_TRACE_FULL:
        raise RuntimeError("fast engine: trace buffer full")
    if err == ERR_DEBUG_FULL:
        raise RuntimeError("fast engine: decision record buffer full")
    trace = decode_events(g.E, int(S[S_EPOS]))
    if ran_out:             # the engine ended the game on the missing action: not a game_end
        trace = trace[:-1] if trace and trace[-1]["e"] == "game_end" else trace
    out = {
        "trace": trace, "stopped": ran_out,
        "won": bool(S[S_WON]), "cause": int(S[S_CAUSE]), "score": int(S[S_SCORE]),
        "life": int(S[S_LIFE]), "turn": int(S[S_TURN]), "step": int(S[S_STEP]),
        "stats": {"fights_won": [int(x) for x in S[S_FW:S_FW + 4]],
                  "fights_lost": [int(x) for x in S[S_FL:S_FL + 4]],
                  "destroyed": int(S[S_DESTROYED])},
    }
    if record:
        k = int(S[S_NDEC])
        out["observations"] = g.DOBS[:k].copy()
        out["legal"] = [g.DLEG[i, 1:1 + g.DLEG[i, 0]].tolist() for i in range(k)]
    return out


def _entry(policy, name: str):
    """The runner's entry point ``name``, or the player's own runner's (sim.contract.player:
    the search, policies.search_run), which takes the same arguments."""
    own = runner_of(policy)
    return own.entry(name) if own is not None else runner.entry(name, policy)


def _batch(level, seed, first_game, n_games: int, policy, options, cards, out) -> np.ndarray:
    """Games first_game .. first_game+n_games-1 by the batch entry point, in blocks of games:
    rows into ``out`` (n_games x N_ROW), or, when ``out`` has one column, the aggregate vector
    of each block (summary.AGG_SIZE), returned."""
    blocks = max(1, min(numba.get_num_threads() * 16, n_games // 64))
    aggs = np.zeros((blocks, summary.AGG_SIZE), np.int64)
    _entry(policy, "batch")(policy_function(policy), _table(cards),
                            params_copy(policy), level,
                            int(seed), int(first_game), n_games, _opts(options), out, aggs)
    return aggs


def run_batch(level, seed, first_game, n_games, policy, options=None, threads=None,
              cards=None) -> dict:
    """Games first_game .. first_game+n_games-1 in parallel: one row of results per game."""
    level = check_level(level)
    _set_threads(threads)
    out = np.zeros((int(n_games), N_ROW), np.int64)
    if n_games > 0:
        _batch(level, seed, first_game, int(n_games), policy, options, cards, out)
    return result_columns(out, level, seed, policy, options, cards)


def result_columns(out, level, seed, policy, options=None, cards=None) -> dict:
    """The result rows ``out`` of a batch as columns; a game that ended on an error raises
    it (the first: a policy's failure named by replaying the game)."""
    bad = np.flatnonzero(out[:, K_ERR])
    if len(bad):
        r = out[bad[0]]
        if r[K_ERR] == ERR_ILLEGAL:
            _raise_game_error(level, seed, int(r[K_GAME]), policy, options, cards)
        raise RuntimeError(f"fast engine error {int(r[K_ERR])} in game {int(r[K_GAME])}")
    return {name: out[:, k].copy() for k, name in enumerate(COLUMNS)}


def summary_chunk(level, seed, first_game, n_games, policy, options=None, threads=None,
                  cards=None):
    """The summed aggregate vector (summary.AGG_SIZE) of games first_game ..
    first_game+n_games-1; vectors of disjoint chunks add up (``summary_from``)."""
    level = check_level(level)
    _set_threads(threads)
    aggs = _batch(level, seed, first_game, int(n_games), policy, options, cards,
                  np.zeros((1, 1), np.int64))
    fe = aggs[:, summary.G_FIRST_ERROR]
    if (fe >= 0).any():
        _raise_game_error(level, seed, int(fe[fe >= 0].min()), policy, options, cards)
    total = aggs.sum(axis=0)
    total[summary.G_FIRST_ERROR] = -1
    return total


def run_summary(level, seed, n_games, policy, options=None, threads=None, chunk=1_000_000,
                first_game=0, cards=None) -> dict:
    """Aggregates of n_games games computed on the fly (flat memory, any n_games)."""
    total = np.zeros(summary.AGG_SIZE, np.int64)
    for done in range(0, n_games, int(chunk)):
        total += summary_chunk(level, seed, first_game + done, min(int(chunk), n_games - done),
                               policy, options, threads, cards)
    return summary_from(level, seed, first_game, total)


def summary_from(level, seed, first_game, t) -> dict:
    """The summary dict of an aggregate vector (the sum of ``summary_chunk`` vectors)."""
    return {
        "level": level, "seed": seed, "first_game": first_game, "games": int(t[summary.G_GAMES]),
        "wins": int(t[summary.G_WINS]),
        "causes": {CAUSE_NAMES[i]: int(t[summary.G_CAUSE + i]) for i in range(4)},
        "step_reached": {STEP_NAMES[i]: int(t[summary.G_STEP + i]) for i in range(4)},
        "sum_score": int(t[summary.G_SUM_SCORE]), "sum_life": int(t[summary.G_SUM_LIFE]),
        "sum_turns": int(t[summary.G_SUM_TURNS]), "sum_aging_taken": int(t[summary.G_SUM_AGING]),
        "sum_destroyed": int(t[summary.G_SUM_DESTROYED]),
        "sum_pirates_beaten": int(t[summary.G_SUM_BEATEN]),
        "fights_won": [int(x) for x in t[summary.G_FW:summary.G_FW + 3]],
        "fights_lost": [int(x) for x in t[summary.G_FL:summary.G_FL + 3]],
        "pirate_ids": np.arange(59, 69),
        "pirate_games": t[summary.G_PIR_GAMES:summary.G_PIR_GAMES + 10].copy(),
        "pirate_wins": t[summary.G_PIR_WINS:summary.G_PIR_WINS + 10].copy(),
        "pirate_beaten": t[summary.G_PIR_BEATEN:summary.G_PIR_BEATEN + 10].copy(),
        "pair_games": t[summary.G_PAIR_GAMES:summary.G_PAIR_GAMES + 100].reshape(10, 10).copy(),
        "pair_wins": t[summary.G_PAIR_WINS:summary.G_PAIR_WINS + 100].reshape(10, 10).copy(),
        "score_bins": np.arange(summary.SCORE_MIN, summary.SCORE_MAX + 1),
        "score_hist": t[summary.G_HIST:summary.G_HIST + summary.N_BINS].copy(),
    }


def engine_cached(policy) -> tuple[bool, bool]:
    """(engine, policy): whether Numba's disk cache holds compiled code for the batch entry
    point and for the policy's ``ask`` (policy_function), i.e. whether their index files
    (``*.nbi``) exist with an entry for the current sources.  ``sim.numba_cache`` has already
    deleted stale files."""
    own = runner_of(policy)
    pys = (own.entry_py,) if own is not None else (runner._batch_py, runner._block_py)
    return all(map(has_cached_code, pys)), ask_cached(policy)


def prepare(policy, threads=None):
    """Compile (or load from the cache) what a batch of games needs: the batch entry point,
    the policy, and Numba's threads (one game, whose result and errors are ignored: the
    real games report their own)."""
    _set_threads(threads)
    _batch(1, 0, 0, 1, policy, None, None, np.zeros((1, 1), np.int64))


class _FirstLegal:
    """The player ``warm_up`` plays when given none: the first legal action."""
    name = "first legal"
    params = np.zeros(1)

    @staticmethod
    def decide(obs, legal, n_legal, params, rng):
        return legal[0]


def warm_up(policy=None):
    """Compile (or load from the cache) every entry point (with ``policy``, for it)."""
    policy = _FirstLegal() if policy is None else policy
    play_fast(1, 0, 0, policy)
    run_batch(1, 0, 0, 4, policy)
    run_summary(1, 0, 4, policy)
