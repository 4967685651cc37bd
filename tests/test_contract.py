"""The contract floor (sim.contract) between the engines and the players: one compiled decide
for calls from Python, one decision asked from Python, the players' runners, the old names."""

import numpy as np
import pytest

from sim.contract import PolicyError, callable_decide, decide_args, decide_once
from sim.contract.player import runner_of
from sim.errors import FridayError, RuleError


def _first(obs, legal, n_legal, params, rng):
    return legal[0]


def _half(obs, legal, n_legal, params, rng):
    return 0.5


def _args():
    from sim.observation import OBS_SIZE
    return (np.zeros(OBS_SIZE, np.int64), np.array([3, 4], np.int64), 2, np.zeros(1),
            np.zeros(1, np.uint64))


def test_policy_error_is_a_friday_error_not_a_rule_error_and_the_signature_has_five_arguments():
    """A policy's mistake is the policy's (sim.errors), not a rules violation: the command line
    prints it as any FridayError."""
    assert issubclass(PolicyError, FridayError) and not issubclass(PolicyError, RuleError)
    assert len(decide_args()) == 5


def test_one_compiled_decide_serves_every_caller():
    from numba import njit
    from policies import load_policy
    policy = load_policy(njit(_first))
    fn = callable_decide(policy)
    assert fn is callable_decide(policy)
    assert decide_once(policy, fn, *_args()) == 3


def test_a_decide_returning_no_integer_is_refused_before_any_game():
    from numba import config, njit
    from policies import load_policy
    if config.DISABLE_JIT:
        pytest.skip("plain Python: the answer is checked at the decision")
    with pytest.raises(PolicyError, match="not an action id"):
        callable_decide(load_policy(njit(_half)))


def test_the_engines_run_plain_players_and_the_search_runs_itself():
    from policies import load_policy
    assert runner_of(load_policy("expert")) is None
    assert runner_of(_first) is None
    runner = runner_of(load_policy("search[rollouts=4,margin=1]"))
    assert callable(runner.decide) and runner.entry_py is not None


def test_the_old_names_work_with_a_warning_naming_the_new_place():
    import importlib
    guard = importlib.import_module("policies.guard")
    with pytest.warns(DeprecationWarning, match="sim.contract.decide_once"):
        assert guard.ask is decide_once
    with pytest.warns(DeprecationWarning, match="sim.contract.interruptible"):
        assert guard.interruptible.__module__ == "sim.contract.interrupt"
    import sim.fast.ask as ask
    with pytest.warns(DeprecationWarning, match="sim.contract.callable_decide"):
        assert ask.decide_function is callable_decide
    search_api = importlib.import_module("sim.fast.search_api")
    from policies.search_log import decision_log
    from policies.search_run import decide_at
    with pytest.warns(DeprecationWarning, match="policies.search_run.decide_at"):
        assert search_api.decide_at is decide_at
    with pytest.warns(DeprecationWarning, match="policies.search_log.decision_log"):
        assert search_api.decision_log is decision_log
