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


# --- a user's code (sim.contract.user_code) ----------------------------------------------------
def _far(a):
    return a[10 ** 9]


def _reads_far(obs, legal, n_legal, params, rng):
    return _far_jit(legal)


def _copies(obs, legal, n_legal, params, rng):
    obs = obs.copy()            # its own array now: no write into the input
    obs[0] = 1
    return legal[0]


def _hides_a_write(obs, legal, n_legal, params, rng):
    mine = legal
    mine[0] = 999
    return legal[0]


_far_jit = None


def test_a_users_decide_is_bounds_checked_and_guarded_a_built_in_one_is_left_alone():
    """Issue 41: a user's function (this test file is no project source) is compiled with
    bounds checking, its jitted helpers too, and guarded against writes into its inputs; the
    built-in policies keep their decide (their speed and compiled form)."""
    global _far_jit
    from numba import njit
    from policies import expert, load_policy
    _far_jit = njit(_far)
    assert load_policy("expert").decide is expert.decide
    user = load_policy(_reads_far)
    assert user.decide.friday_guarded and user.decide is load_policy(user).decide
    helper = user.decide.py_func.user_py.__globals__["_far_jit"]
    assert helper is not _far_jit and helper.targetoptions["boundscheck"] is True
    with pytest.raises(PolicyError, match=r"'_reads_far' \(\S*test_contract.py:\d+, function "
                                        r"_far\) raised IndexError: index 1000000000 is out of "
                                        r"bounds"):
        decide_once(user, callable_decide(user), *_args())


def test_a_write_into_legal_through_another_name_is_named_at_its_line():
    from policies import load_policy
    user = load_policy(_hides_a_write)
    obs, legal, n, params, rng = _args()
    with pytest.raises(PolicyError, match=r"\S*test_contract.py:\d+, function _hides_a_write\) "
                                        r"wrote into legal at a none decision .*legal\[0\] was 3, "
                                        r"now 999; your rule must not change its inputs"):
        decide_once(user, callable_decide(user), obs, legal, n, params, rng)
    assert legal[0] == 999          # the engine's array: the error says so, the game stops
    assert decide_once(load_policy(_copies), callable_decide(load_policy(_copies)),
                       *_args()) == 3      # a copy of its own is no write


def test_a_compile_report_is_one_line_without_colours():
    from sim.contract.user_code import reason
    report = ("Failed in nopython mode pipeline (step: nopython frontend)\n\x1b[1m\x1b[1mUnknown "
              "attribute 'nosuch' of type P(int64 x 2)\n\x1b[1m\nFile \"x.py\", line 24:\x1b[0m\n")
    assert reason(report) == "Unknown attribute 'nosuch' of type P(int64 x 2)"
