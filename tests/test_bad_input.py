"""Bad input gives a clear error: a UsageError for a level, an option, a file, a name; a
RuleError for a deal or an action the rules forbid (sim.errors)."""
import json

import pytest

from helpers import make_deal, new_game, play
from policies.scripted import ScriptedPolicy
from sim.deal import check_deal, load_deal
from sim.reference import Game, IllegalAction
from sim.errors import FridayError, RuleError, UsageError
from sim.rules import check_level, parse_options


@pytest.mark.parametrize("level", [0, 5, -1, "1", 1.0, True, None])
def test_unknown_level(level):
    with pytest.raises(UsageError, match="unknown level"):
        check_level(level)
    with pytest.raises(UsageError, match="unknown level"):
        Game(level, 0, 0, ScriptedPolicy([]))


@pytest.mark.parametrize("pairs,match", [
    (["old_age=maybe"], "old_age must be one of"),
    (["colour=red"], "unknown rule option 'colour'"),
    (["step_minus1_stacks=yes"], "must be true or false"),
    (["plus1_counts_destroyed"], "must look like NAME=VALUE"),
])
def test_bad_option_strings(pairs, match):
    with pytest.raises(UsageError, match=match):
        parse_options(pairs)


def test_bad_option_keywords():
    with pytest.raises(UsageError):
        parse_options(old_age=True)
    with pytest.raises(UsageError):
        parse_options(step_minus1_stacks=1)
    with pytest.raises(UsageError, match="unknown rule option"):
        parse_options(old_ages="lose")
    assert parse_options(["step_minus1_stacks=FALSE"]).step_minus1_stacks is False


@pytest.mark.parametrize("level,deal,match", [
    # wrong card counts
    (1, lambda d: {**d, "robinson_stack": d["robinson_stack"][:-1]}, "missing"),
    (2, lambda d: {**d, "robinson_stack": d["robinson_stack"][:-1],
                   "aging_stack": d["aging_stack"] + [d["robinson_stack"][-1]]}, "19 cards"),
    (1, lambda d: {**d, "hazard_stack": d["hazard_stack"][:-1]}, "30 hazard"),
    # unknown card
    (1, lambda d: {**d, "robinson_stack": d["robinson_stack"][:-1] + [99]}, "unknown card ids"),
    (1, lambda d: {**d, "pirates": [59, -1]}, "unknown card ids"),
    # duplicate card
    (1, lambda d: {**d, "robinson_stack": d["robinson_stack"][:-1] + [0]}, "more than once"),
    (1, lambda d: {**d, "hazard_stack": d["hazard_stack"][:-1] + [29]}, "duplicates"),
    (1, lambda d: {**d, "pirates": [59, 59]}, "two different pirate"),
    # wrong kinds / level
    (1, lambda d: {**d, "pirates": [59, 29]}, "pirate"),
    (1, lambda d: {**d, "aging_stack": d["aging_stack"] + [21]}, "not allowed"),
    (1, lambda d: {**d, "robinson_stack": [True] + d["robinson_stack"][1:]}, "list of card ids"),
    (1, lambda d: {**d, "shuffle": []}, "unknown deal keys"),
    # R2.1: the difficult aging cards (26-28) lie below the normal ones
    (1, lambda d: {**d, "aging_stack": [26, 18, 19, 20, 22, 23, 24, 25, 27, 28]}, "breaks R2.1"),
    (3, lambda d: {**d, "aging_stack": [c for c in d["aging_stack"] if c != 28][:3] + [28]
                   + [c for c in d["aging_stack"] if c != 28][3:]}, r"\[28\] are above normal"),
])
def test_malformed_deal(level, deal, match):
    d = deal(make_deal(level))
    with pytest.raises(FridayError, match=match):      # RuleError, UsageError for the format
        new_game([], level, d).set_up()


def test_deal_json_errors(tmp_path):
    with pytest.raises(UsageError, match="not valid JSON"):
        load_deal("{nope")
    with pytest.raises(UsageError, match="not found"):
        load_deal(str(tmp_path / "missing.json"))
    f = tmp_path / "deal.json"
    f.write_text('{"pirates": [60, 61]}')
    assert load_deal(str(f)) == {"pirates": [60, 61]}


def test_a_card_id_of_thousands_of_digits_is_cut_short_in_its_error():
    for deal in ({"pirates": [59, 10 ** 3999]}, {"robinson_reshuffles": [[17, 10 ** 3999]]}):
        with pytest.raises(RuleError, match=r"unknown card ids \[10+\.\.\.0+\]") as err:
            check_deal(1, json.dumps(deal))
        assert len(str(err.value)) < 200
    from helpers import make_deal
    from sim.deal import check_position
    for deal, said in (({"life": 10 ** 3999}, r"got 10+\.\.\.0+$"),
                       ({"step": "x" * 5000}, r"got 'x+\.\.\.x+'$")):
        with pytest.raises(RuleError, match=said) as err:
            check_position(1, {**make_deal(1), **deal})
        assert len(str(err.value)) < 300


def test_illegal_scripted_action_names_action_and_legal_ones():
    """An action that is not legal: IllegalAction (a RuleError) naming the action, the
    decision and every legal action."""
    with pytest.raises(IllegalAction) as err:
        play(["fight:40"], hazards=[29, 31])
    msg = str(err.value)
    assert "'fight:40'" in msg and "hazard decision" in msg
    assert "legal: fight:29, fight:31" in msg
    assert isinstance(err.value, RuleError)
    with pytest.raises(IllegalAction, match=r"'end'.*legal: draw, pay"):
        play(["fight:29", "end"], hazards=[29, 31])


def test_unknown_action_name():
    with pytest.raises(UsageError, match="unknown action 'fite:29'"):
        ScriptedPolicy(["fite:29"])
    with pytest.raises(UsageError, match="unknown action"):
        ScriptedPolicy(["use:69"])


def test_script_running_out_is_a_clear_error():
    g = new_game(["fight:29"], 1, make_deal(1, hazards=[29, 31]))
    with pytest.raises(UsageError, match="ran out after 1 actions at a fight decision; "
                                         "legal: draw, pay"):
        g.play()


def test_r2_1_aging_order_accepted_when_difficult_cards_are_below():
    """R2.1: any order of the normal cards above any order of the difficult ones is a set-up."""
    d = make_deal(1, aging=[25, 24, 23, 22, 20, 19, 18, 28, 27, 26])
    g = new_game([], 1, d)
    g.set_up()
    assert list(reversed(g.aging_stack)) == [25, 24, 23, 22, 20, 19, 18, 28, 27, 26]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", float("nan"), float("inf"), "1e999"])
def test_policy_parameters_must_be_finite(value):
    """Policy.with_params (the CLI's --param and the Python API): NaN and infinities are
    refused with a UsageError naming the parameter."""
    from policies import load_policy
    with pytest.raises(UsageError,
                       match="cull_min_life of policy 'expert' must be a finite number"):
        load_policy("expert", {"cull_min_life": value})
    assert load_policy("expert", {"cull_min_life": "10"}).params[
        load_policy("expert").param_names.index("cull_min_life")] == 10.0


def test_illegal_action_on_the_fast_engine_lists_the_legal_actions_like_the_reference():
    """Both engines name the policy, the action, the decision and the legal actions."""
    from numba import njit
    from policies import Policy
    from sim.fast import play_fast, run_batch, run_summary

    @njit
    def always_pay(obs, legal, n_legal, params, rng):
        return 2                     # 'pay': never legal at a hazard decision
    pol = Policy("payer", always_pay)
    with pytest.raises(IllegalAction) as ref:
        Game(1, 5, 3, pol).play()
    legal = ref.value.args[0].split("legal: ")[1]
    for call in (lambda: play_fast(1, 5, 3, pol), lambda: run_batch(1, 5, 3, 2, pol),
                 lambda: run_summary(1, 5, 2, pol, first_game=3)):
        with pytest.raises(RuleError) as fast:
            call()
        assert "policy 'payer' chose 'pay' at a hazard decision (game 3, level 1, seed 5)" \
            in str(fast.value)
        assert str(fast.value).endswith(f"; legal: {legal}")


def test_a_numpy_level_is_a_level_and_a_bad_one_names_the_argument():
    """R2: levels 1..4, whatever integer type holds them (np.int64 from a DataFrame)."""
    import numpy as np
    from sim.rules import check_level
    assert check_level(np.int64(4)) == 4 and type(check_level(np.int64(4))) is int
    with pytest.raises(UsageError, match="unknown level") as caught:
        check_level(np.int64(5))
    assert caught.value.argument == "level"
