"""Policy decisions that are easy to get wrong, on hand-made observations, and the policy
arithmetic checked against the reference engine at every fight decision."""
import numpy as np
import pytest

import sim.cards as C
import sim.observation as O
from policies import builtin_policies, load_policy
from policies.arith import oracle_effective_value, oracle_fight_total
from sim.actions import A_DESTROY, A_DONE, A_DRAW, A_END, A_PAY, A_TARGET
from sim.reference import Game, IllegalAction
from sim.rules import Options, RuleError

from observations import (DISTRACTED, EXPLORING_WEAPON, FOCUSED, FURTHER_REPEAT, GENIUS,
                          STUPID, WEAK, decide, obs_with)


@pytest.mark.parametrize("name", ["cull-green", "expert", "always-fight"])
def test_destroy_budget_2_takes_the_aging_card_before_a_minus_one(name):
    """R4.8, R1.3: with budget 2, the aging card (cost 2) goes before a -1 (cost 1)."""
    obs = obs_with(O.PH_DESTROY, fight=(STUPID, DISTRACTED, WEAK))
    obs[O.O_DESTROY_BUDGET] = 2
    legal = [A_DONE, A_DESTROY + STUPID, A_DESTROY + DISTRACTED, A_DESTROY + WEAK]
    assert decide(name, obs, legal) == f"destroy:{STUPID}"


def test_cull_green_destroys_minus_one_before_zero_and_keeps_good_cards():
    obs = obs_with(O.PH_DESTROY, fight=(GENIUS, DISTRACTED, WEAK))
    obs[O.O_DESTROY_BUDGET] = 1
    legal = [A_DONE, A_DESTROY + GENIUS, A_DESTROY + DISTRACTED, A_DESTROY + WEAK]
    assert decide("cull-green", obs, legal) == f"destroy:{DISTRACTED}"
    obs[O.ZONE + DISTRACTED] = O.Z_REMOVED
    assert decide("cull-green", obs, [A_DONE, A_DESTROY + GENIUS, A_DESTROY + WEAK]) == f"destroy:{WEAK}"
    assert decide("cull-green", obs, [A_DONE, A_DESTROY + GENIUS]) == "done"


def test_cull_green_loses_a_weak_green_fight_on_purpose_but_always_fight_pays():
    """Green, exploring (value 1), free cards spent, total 0 with a -1 in the fight: cull-green
    ends (a deliberate loss, R4.8); always-fight pays for another card (R4.3)."""
    obs = obs_with(O.PH_FIGHT, life=15, fight=(DISTRACTED, FOCUSED))
    legal = [A_END, A_PAY]
    assert decide("cull-green", obs, legal) == "end"
    assert decide("always-fight", obs, legal) == "pay"


def test_nobody_pays_when_the_fight_is_already_won():
    obs = obs_with(O.PH_FIGHT, fight=(GENIUS,))
    for name in ("always-fight", "cull-green", "expert"):
        assert decide(name, obs, [A_END, A_DRAW, A_PAY]) == "end"


def test_double_targets_the_best_card_and_destroy_the_worst():
    obs = obs_with(O.PH_TARGET, fight=(FURTHER_REPEAT, GENIUS, FOCUSED, DISTRACTED))
    obs[O.O_PENDING_CARD], obs[O.O_PENDING_ABILITY] = FURTHER_REPEAT, C.AB_DOUBLE
    legal = [A_TARGET + c for c in (GENIUS, FOCUSED, DISTRACTED)]
    assert decide("expert", obs, legal) == f"target:{GENIUS}"
    obs[O.O_PENDING_ABILITY] = C.AB_DESTROY
    assert decide("expert", obs, legal) == f"target:{DISTRACTED}"


def test_fight_total_counts_doubles_face_down_and_highest_zero():
    """R5.3 (face down 0), R5.4 (doubled), R6.2 (scared zeroes the highest printed value, a
    non-doubled one on a tie)."""
    scared = C.NAME.index("scared")
    obs = obs_with(O.PH_FIGHT, step=1, fight=(GENIUS, FOCUSED, DISTRACTED), doubled=(FOCUSED,),
                   down=(DISTRACTED,))
    assert oracle_fight_total(obs) == 2 + 2 + 0
    obs[O.ZONE + scared] = O.Z_FIGHT_RIGHT
    O.fill_derived(obs, C.FIGHT_VALUE)
    assert oracle_fight_total(obs) == 0 + 2 + 0
    assert oracle_effective_value(obs) == C.HAZARD_VALUE[EXPLORING_WEAPON, 1]
    obs[O.O_STEP_MINUS] = 1
    assert oracle_effective_value(obs) == C.HAZARD_VALUE[EXPLORING_WEAPON, 0]


class _CheckingGame(Game):
    """At every fight decision, the policies' arithmetic must agree with the reference."""
    checked = 0

    def decide(self, phase, legal):
        if self.fight is not None and phase == O.PH_FIGHT:
            obs = self.observation(phase)
            assert oracle_fight_total(obs) == self.fight_total()[0]
            assert oracle_effective_value(obs) == self.effective_value()
            assert obs[O.O_EFFECTIVE_VALUE] == self.effective_value()
            _CheckingGame.checked += 1
        return super().decide(phase, legal)


HALF_COUNT_PIRATE = 65                                     # 9/22, half_cards_count


@pytest.mark.parametrize("doubled, down, expected", [
    ((), (), 1),        # 5 cards: 3 places; stupid (-2) counts, then genius 2 and focused 1
    ((GENIUS,), (), 3), # genius doubled: 4 + 1 - 2
    ((), (13,), 0),     # card 13 destroyed (0): 2 + 0 - 2
    ((), (19,), 3),     # destroyed aging no longer takes a place: 2 + 1 + 0
])
def test_half_count_pirate_total_by_r9_5(doubled, down, expected):
    """R9.5 half_cards_count, worked by hand: fight = genius 2, a 1 (card 13), weak 0,
    distracted -1 and stupid (aging, -2); ceil(5/2) = 3 places, the face-up aging card
    always counts, the best others fill the rest (after double and destroy)."""
    obs = obs_with(O.PH_FIGHT, step=2, opponent=HALF_COUNT_PIRATE,
                   fight=(GENIUS, 13, WEAK, DISTRACTED, STUPID), doubled=doubled, down=down)
    obs[O.O_OPPONENT_IS_PIRATE] = 1
    obs[O.O_FIGHT_VALUE] = 22
    assert oracle_fight_total(obs) == expected


def _allocating(obs, legal, n_legal, params, rng):
    """A user policy that allocates (it gets Numba's reference counting, see
    sim.fast.policy_function): the highest legal action id."""
    buf = np.empty(n_legal, dtype=np.int64)
    for i in range(n_legal):
        buf[i] = legal[i]
    return buf.max()


def test_a_policy_that_allocates_runs_on_both_engines_alike():
    from numba import njit
    from sim.fast import play_fast
    policy = load_policy(njit(_allocating))
    for game in range(5):
        ref = Game(2, 7, game, policy)
        ref.play()
        fast = play_fast(2, 7, game, policy)
        assert fast["trace"] == ref.trace and fast["score"] == ref.score


@pytest.mark.parametrize("level", [1, 4])
@pytest.mark.parametrize("name", ["expert", "random"])
def test_policy_arithmetic_matches_the_reference_engine(level, name):
    policy = load_policy(name)
    for game in range(60):
        _CheckingGame(level, 3, game, policy, Options(plus1_counts_destroyed=game % 2 == 0)).play()
    assert _CheckingGame.checked > 500


def _bad(obs, legal, n_legal, params, rng):
    return -1 if obs[O.O_PHASE] == O.PH_FIGHT else legal[0]


def test_illegal_action_stops_the_reference_engine_naming_policy_action_and_decision():
    from numba import njit
    policy = load_policy(njit(_bad))
    with pytest.raises(IllegalAction, match=r"policy '_bad' chose action id -1 .* fight decision"):
        Game(1, 1, 0, policy).play()


def test_illegal_action_stops_the_fast_engine_naming_policy_action_and_decision():
    from numba import njit
    from sim.fast import run_batch
    policy = load_policy(njit(_bad))
    with pytest.raises(RuleError, match=r"policy '_bad' chose .* fight decision"):
        run_batch(2, 1, 0, 50, policy)


def test_every_builtin_policy_has_a_docstring_and_description():
    import importlib
    from policies import BUILTIN
    for module in BUILTIN:
        mod = importlib.import_module(f"policies.{module}")
        assert len(mod.__doc__.strip().splitlines()) >= 2, module
    for p in builtin_policies().values():
        assert p.description
