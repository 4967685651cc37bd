"""unfair-solver: an UNFAIR player that wins every deal that can be won at all (issue 42).

It breaks R1.4 on purpose: it reads the true order of every stack and the engine's true
stream, so every draw and every future shuffle is known, and the game is a one-player
deterministic tree.  Before its first decision it searches that tree exhaustively
(sim.fast.solver: limited-discrepancy search over ``base``, a transposition table on the full
state, a pirate-value bound) for a winning line and plays it; a deal with no winning line
(proven lost) or none found within ``budget`` steps (undecided) is played by ``base``.  So it
wins exactly the deals it proves winnable: the true upper bound where it decides every deal.
A base that fails (raises, or answers an illegal action) proves nothing (never a lost line):
failing in its own game, it is played on to fail where it fails, as it does alone; failing
only in the solver's tree or other play-outs, the game stops at the decision solved with an
error naming it, as in the search.
The three answers are counted apart by ``solve_deals`` (benchmarks/luck.py, results/luck.md).
Never a default and never a fair comparison: its name says "unfair" wherever it appears.

Parameters: ``budget`` (steps, i.e. decisions played in the tree and in the base policy's
play-outs, per deal; >= 1), ``base`` (a built-in policy name or file.py:function, at its
defaults: the first line tried, and the play-outs).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from policies.policy import Policy
from policies.search import base_policy, played_by
from sim.contract import params_copy
from sim.contract.player import Asked
from sim.errors import UsageError

NAME = "unfair-solver"
DESCRIPTION = ("UNFAIR exact bound: sees the true order of every stack and every future "
               "shuffle (breaks R1.4); searches the whole game tree for a winning line and "
               "plays it (deals it cannot decide within its budget: counted apart)")
PARAMS = {"budget": 10_000_000.0}
TEXT_PARAMS = {"base": "veteran"}
MAX_BUDGET = 1 << 40
decide = None       # the games run in sim.fast.solver; the Policy's decide is the base's


class SolverPolicy(Policy):
    """The solver as a player: a Policy whose games run in sim.fast.solver (the fast engine
    only), by its own runner (sim.contract.player)."""
    engines = ("fast",)
    searches = True
    sees_all = True          # UNFAIR: reads every hidden order (R1.4)
    text_defaults = TEXT_PARAMS

    def __init__(self, name, decide=None, params=None, description=DESCRIPTION, text=None):
        text = {**self.text_defaults, **(text or {})}
        base = base_policy(text["base"])
        super().__init__(name, base.decide, params if params is not None else PARAMS,
                         description)
        self.base_policy = base
        self.text_params = text
        budget = dict(zip(self.param_names, self.params))["budget"]
        if budget != math.floor(budget) or not 1 <= budget <= MAX_BUDGET:
            raise UsageError(f"unfair-solver parameter budget must be a whole number "
                             f"1..{MAX_BUDGET}, not {budget:g}", "budget")
        self.sv = solver_params(int(budget))

    def chunk_sizes(self, engine: str) -> tuple[int, int]:
        """Four games per thread (a deal takes from milliseconds to its whole budget)."""
        import numba
        return 4 * numba.get_num_threads(), 2 * numba.get_num_threads()

    def with_params(self, overrides: dict) -> "SolverPolicy":
        named, text = self.named_with(overrides)
        return type(self)(self.name, None, named, self.description, text)

    def choose(self, obs, legal, n_legal) -> int:
        raise UsageError("policy unfair-solver plays on the fast engine's state (it reads the "
                         "hidden orders): use engine='fast' (the reference engine cannot run it)")

    def record(self) -> dict:
        """The spec's record, and the base's own where the spec does not pin it (played_by)."""
        return {**super().record(), "solver": {**self.text_params,
                                               "budget": int(self.sv[0])},
                **played_by(base=(self.text_params["base"], self.base_policy))}

    def header(self) -> str:
        return super().header() + f" (base {self.text_params['base']})"

    def base_params(self) -> np.ndarray:
        return params_copy(self.base_policy)

    def runner(self):
        return SolverRunner(self)


def make_policy(name, decide, params, description, text=None):
    return SolverPolicy(name, decide, params, description, text=text)


def solver_params(budget: int) -> np.ndarray:
    """sim.fast.solver's ``sv``: the budget, the tree depth kept, the transposition table's
    size (2**bits slots, one per 64 steps of the budget, 2**12..2**20: it holds the tree's
    nodes and the play-outs' first states, not every step)."""
    from sim.fast import solver as V
    sv = np.zeros(V.N_SV, np.int64)
    bits = min(20, max(12, math.ceil(math.log2(max(1, budget) / 64))))
    sv[V.V_BUDGET], sv[V.V_MAX_DEPTH], sv[V.V_TT_BITS] = budget, V.MAX_DEPTH, bits
    return sv


# --- the runner (sim.contract.player.Runner) -------------------------------------------------
class SolverRunner:
    """The solver's entries, each the fast engine's of the same name with ``sv`` added."""

    def __init__(self, policy):
        self.policy = policy
        from sim.fast import solver as V
        self.entry_py = V._batch_py     # whose disk cache holds the solver's batch

    def entry(self, name: str):
        """``batch`` or ``single``, compiled (or loaded) now: not inside a timed decision."""
        from sim.fast import solver as V
        V.entry(name)
        run = {"batch": _batch, "single": _single}[name]
        return lambda *args: run(self.policy, *args)

    def decide(self, game, log: bool = False):
        """The first action of a winning line from the decision ``game`` waits for, else the
        base policy's, drawn from the game's policy stream as in the batch (an illegal one:
        ``Game.step`` says so); with ``log`` (action, {"status": ..., "steps": ...}).  A
        PolicyError where the base raised here, or failed off its own game (solve_game)."""
        answer = _solve_at(game, game.arrays, self.policy, self.policy.sv)
        action = answer["action"]
        return (action, {k: answer[k] for k in ("status", "steps")}) if log else action

    def asked(self) -> Asked:
        """The base policy with its parameters: asked at every decision (forced ones too)
        where no winning line is found."""
        p = self.policy
        return Asked(p.base_policy, p.base_params(), True, p.base_policy.name)


def _batch(policy, f, T, prm, level, seed, first_game, n_games, opts, out, aggs):
    """sim.fast.runner's batch entry (same arguments): rows into ``out``, or, when ``out`` has
    one column, their aggregate into ``aggs[0]``."""
    from sim.fast import solver as V
    from sim.fast.layout import N_ROW
    from sim.fast.summary import G_FIRST_ERROR, aggregate
    n = int(n_games)
    summary = out.shape[1] == 1
    rows = np.zeros((n, N_ROW), np.int64) if summary else out
    V.entry("batch")(f, T, policy.base_params(), policy.sv, level, seed, first_game, n, opts,
                     rows, np.zeros((n, V.N_INFO), np.int64))
    if summary:
        aggs[:] = 0
        aggs[:, G_FIRST_ERROR] = -1
        for r in rows:
            aggregate(r, aggs[0])


def _single(policy, f, g, D):
    """runner's single entry (sim.fast.api.play_fast): solved, then the line played on ``g``."""
    from sim.fast import solver as V
    V.entry("single")(f, g._replace(prm=policy.base_params()), D, policy.sv)


# --- the answers -------------------------------------------------------------------------------
def solve_game(game, budget: int | None = None, policy=None) -> dict:
    """Solve the position a ``sim.Game`` waits at (not changed): {"status": "won", "lost",
    "undecided" or "failed" (the base fails in its own game from here: raises or answers an
    illegal action, here or later), "line": the winning line's action ids (empty unless
    won), "action": its first action (else the base policy's answer here), "steps": steps
    spent}.  A PolicyError where the base raised here, or failed (raised, or answered an
    illegal action) in the search off its own game."""
    policy = policy or make_policy(NAME, None, dict(PARAMS), DESCRIPTION)
    sv = policy.sv if budget is None else solver_params(int(budget))
    return _solve_at(game, game.clone().arrays, policy, sv)


def _solve_at(game, arrays, policy, sv) -> dict:
    """solve_game's answer at ``game``'s decision, on the engine arrays ``arrays`` (the
    game's own, whose policy stream the base's answer then draws from, or a clone's)."""
    from sim.fast import solver as V
    from sim.fast.api import raise_decision_failure
    from sim.fast.ask import CONTINUATION_FAILED, RAISED, policy_function
    info = np.zeros((1, V.N_INFO), np.int64)
    line = np.zeros(V.LINE_CAP, np.int64)
    stream = arrays.PR.copy()                    # as it stood: the error replay's
    arrays = arrays._replace(prm=policy.base_params())
    a = int(V.entry("decide")(arrays, policy_function(policy), sv, info, line))
    if a in (RAISED, CONTINUATION_FAILED):
        raise_decision_failure(policy, arrays, stream, game.seed, game.game, a)
    status = V.STATUS_NAMES[int(info[0, V.I_STATUS])]
    return {"status": status, "action": a, "steps": int(info[0, V.I_STEPS]),
            "line": line[:int(info[0, V.I_LINE])].tolist() if status == "won" else []}


def solve_deals(level: int, seed: int, first_game: int, n_games: int, budget: int | None = None,
                base: str = "veteran", threads: int | None = None, options=None):
    """Deals first_game .. first_game+n_games-1 of ``seed`` at ``level``, each solved and
    played: (result columns as sim.fast.run_batch's, a DataFrame of the answers: game,
    status (won / lost / undecided), steps, deviations (the last LDS iteration), line).  A
    PolicyError naming the first deal where the base failed, as run_batch's."""
    from sim.fast import api
    from sim.fast import solver as V
    from sim.fast.ask import policy_function
    from sim.fast.layout import N_ROW
    from sim.rules import check_level
    level = check_level(level)
    policy = make_policy(NAME, None, {"budget": float(budget or PARAMS["budget"])}, DESCRIPTION,
                         text={"base": base})
    api._set_threads(threads)
    out = np.zeros((int(n_games), N_ROW), np.int64)
    info = np.zeros((int(n_games), V.N_INFO), np.int64)
    if n_games > 0:
        V.entry("batch")(policy_function(policy), api._table(None), policy.base_params(),
                         policy.sv, level, int(seed), int(first_game), int(n_games),
                         api._opts(options), out, info)
    rows = api.result_columns(out, level, int(seed), policy, options)
    answers = pd.DataFrame({
        "game": np.arange(first_game, first_game + n_games, dtype=np.int64),
        "status": [V.STATUS_NAMES[int(s)] for s in info[:, V.I_STATUS]],
        "steps": info[:, V.I_STEPS], "deviations": info[:, V.I_DEPTH],
        "line": info[:, V.I_LINE]})
    return rows, answers
