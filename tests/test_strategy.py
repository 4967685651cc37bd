"""The strategy API (policies.strategy): parameters by name, the observation by name, one rule
per decision; a policy that changes one rule plays the base's games wherever that rule agrees,
in fresh processes; its mistakes are one error line when the file loads."""
import textwrap

import numpy as np
import pytest
from typer.testing import CliRunner

from policies import always_fight, cull_green, expert, load_policy, strategy, veteran
from sim import Game
from sim.cli import app
from sim.lab import simulate
from sim.contract import PolicyError

from helpers import run_cli

RULE_BASED = (always_fight, cull_green, expert, veteran)
# the README's careful.py; ``floor`` 0 asks for nothing the veteran does not do already
CAREFUL = textwrap.dedent('''
    from numba import njit
    from policies import strategy, veteran
    from policies.strategy import A_END, A_PAY, against_pirate, life, paid_cost
    PARAMS = {**veteran.PARAMS, "floor": 5.0}
    P = strategy.param_index(PARAMS)

    @njit
    def fight(obs, legal, n_legal, params):
        """Ends a hazard fight rather than pay life below `floor`."""
        action = veteran.fight(obs, legal, n_legal, params)
        if action == A_PAY and not against_pirate(obs) and life(obs) - paid_cost(obs) < params[P.floor]:
            return A_END
        return action
    careful = strategy.with_rules(veteran, fight=fight)
''')


def test_param_index_names_each_parameter_by_its_position():
    P = strategy.param_index(veteran.PARAMS)
    assert [getattr(P, name) for name in veteran.PARAMS] == list(range(len(veteran.PARAMS)))
    # the veteran extends the expert: the expert's rules read their parameters in place
    assert list(veteran.PARAMS)[:len(expert.PARAMS)] == list(expert.PARAMS)
    assert veteran.P.reach_cards == 22 and expert.P.hardest_pirate_first == 14


@pytest.mark.parametrize("module", RULE_BASED, ids=lambda m: m.NAME)
def test_every_rule_based_policy_exports_its_seven_rules(module):
    assert module.RULES._fields == ("hazard", "pirate", "ability", "target", "fight", "destroy",
                                    "sort3")
    for rule in module.RULES:
        assert rule.py_func.__doc__, "each rule says what it does"
        assert list(__import__("inspect").signature(rule.py_func).parameters) == \
            ["obs", "legal", "n_legal", "params"]


def test_the_observation_by_name_reads_the_game():
    g = Game.new(level=4, seed=1, game=0)
    obs = g.observation
    assert strategy.life(obs) == 18 and strategy.level(obs) == 4        # R2.5
    assert strategy.step(obs) == strategy.GREEN and strategy.phase(obs) == strategy.PH_HAZARD
    g.step(g.legal_action_names()[0])
    obs = g.observation
    assert strategy.phase(obs) == strategy.PH_FIGHT and not strategy.against_pirate(obs)
    assert strategy.points_missing(obs) == strategy.effective_value(obs) - strategy.fight_total(obs)
    assert strategy.free_cards_left(obs) > 0 and strategy.paid_cost(obs) == 1


def test_a_policy_with_the_bases_own_rule_plays_the_bases_games():
    same = strategy.with_rules(veteran, fight=veteran.fight, hazard=veteran.hazard)
    a = simulate("veteran", level=4, games=500, seed=3)
    b = simulate(same, level=4, games=500, seed=3)
    assert b.attrs["policy"] != "veteran"
    assert (a[["won", "score", "turns", "life"]].to_numpy() ==
            b[["won", "score", "turns", "life"]].to_numpy()).all()


def test_one_rule_changed_changes_only_that_decision(tmp_path):
    (tmp_path / "careful.py").write_text(CAREFUL)
    base = simulate("veteran", level=4, games=1000, seed=3)
    same = simulate(f"{tmp_path}/careful.py:careful[floor=0]", level=4, games=1000, seed=3)
    other = simulate(f"{tmp_path}/careful.py:careful", level=4, games=1000, seed=3)
    assert (base.score.to_numpy() == same.score.to_numpy()).all()
    assert (base.score.to_numpy() != other.score.to_numpy()).any()
    pol = load_policy(f"{tmp_path}/careful.py:careful")
    assert list(pol.param_names)[-1] == "floor" and pol.params[-1] == 5.0
    assert "veteran with fight: Ends a hazard fight" in pol.description


def test_the_readme_policy_twice_in_fresh_processes(tmp_path):
    """Compiled in each process (a closure is never cached on disk), the same games."""
    (tmp_path / "careful.py").write_text(CAREFUL)
    args = ["simulate", "--policy", "careful.py:careful[floor=4]", "--level", "4", "--games",
            "300"]
    runs = [run_cli(*args, cwd=tmp_path) for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    tables = [[ln for ln in r.stdout.splitlines() if "%" in ln and "[" in ln] for r in runs]
    assert tables[0] == tables[1] and len(tables[0]) == 1


def test_a_rule_policy_without_params_gets_the_bases():
    fn = strategy.with_rules(expert)
    pol = load_policy(fn)
    assert list(pol.param_names) == list(expert.PARAMS)
    assert np.array_equal(pol.params, np.array(list(expert.PARAMS.values())))


@pytest.mark.parametrize("body,message", [
    ("PARAMS = {'floor': 5.0}\ncareful = strategy.with_rules(veteran, fight=veteran.fight)",
     "plays veteran's rules, so its PARAMS must start with veteran's 23 parameters in their "
     "order: PARAMS = {**veteran.PARAMS, ...}"),
    ("from policies import learned\ncareful = strategy.with_rules(learned)",
     "with_rules: 'policies.learned' has no RULES: the rule-based policies are always_fight"),
    ("careful = strategy.with_rules(veteran, fihgt=veteran.fight)",
     "failed to load: TypeError: with_rules: no decision 'fihgt': the rules are hazard, pirate, "
     "ability, target, fight, destroy, sort3"),
    ("def fight(obs, legal, params):\n    return legal[0]\n"
     "careful = strategy.with_rules(veteran, fight=fight)",
     "with_rules: the fight rule fight(obs, legal, params) must take the 4 arguments "
     "(obs, legal, n_legal, params)"),
])
def test_rule_mistakes_are_one_error_line_when_the_file_loads(tmp_path, body, message):
    (tmp_path / "bad.py").write_text("from policies import strategy, veteran\n" + body + "\n")
    result = CliRunner().invoke(app, ["simulate", "--policy", f"{tmp_path}/bad.py:careful",
                                      "--level", "1", "--games", "20"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], lines
    assert "bad.py" in lines[0]


def test_a_rule_that_returns_no_action_id_is_named():
    from numba import njit

    @njit
    def hazard(obs, legal, n_legal, params):
        return 0.5
    with pytest.raises(PolicyError, match=r"\(\S*test_strategy.py, veteran's rules with "
                                        r"hazard=hazard\) returns float64, not an action id"):
        simulate(strategy.with_rules(veteran, hazard=hazard), level=1, games=5)


def test_a_users_rule_is_bounds_checked_and_named_at_its_line_a_built_in_one_is_kept():
    """Issue 41: the error of a rule names the user's file, rule and line, never the decide
    with_rules generates (policies/strategy.py); an index out of range is an IndexError, not a
    crash; a built-in rule given as an override stays the built-in's compiled function."""
    from numba import njit

    @njit
    def hazard(obs, legal, n_legal, params):
        return legal[n_legal + 10 ** 8]
    decide = strategy.with_rules(veteran, hazard=hazard, fight=veteran.fight)
    assert decide.py_func.rules_given.keys() == {"hazard"}
    with pytest.raises(PolicyError, match=r"\(\S*test_strategy.py:\d+, function hazard\) "
                                        r"raised IndexError: index \d+ is out of bounds"):
        simulate(decide, level=1, games=5, engine="reference")
