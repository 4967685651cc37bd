"""expert: a tunable heuristic, the default policy of the CLI.

Decisions, one rule each (policies.strategy; everything not listed follows policies.base):
* hazard (R3): scores each hazard ``knowledge_weight * (knowledge value + ability worth)
  + pirate_prep * pirate bonus - value_weight * expected shortfall`` where the shortfall is the
  hazard's value at this step minus its free cards times the deck's mean value; the last card
  of a step is skipped when its value exceeds ``skip_above``.
* fight, green step: loses on purpose (R4.8) once the free cards are out when the shortfall is
  at most ``cull_max_missing``, life stays >= ``cull_min_life`` and the budget would destroy
  at least one card (aging first, then cards worth <= ``destroy_max_value``).
* fight, paying (R4.3): pays for cards while the shortfall is at most
  ``pay_max_missing_<step>`` and life stays >= ``reserve_<step>``; against pirates always.
* destroy budget (R4.8): aging cards, then cards worth <= ``destroy_max_value``.
* pirate preparation (R2.4: both pirates are known from the start): ``pirate_prep`` weighs a
  bonus for knowledge that helps against them (draw abilities against the +1-per-card and
  2-life-per-card pirates, high values against the half-count pirate, destroy against the
  +2-per-aging pirate); ``hardest_pirate_first`` picks the pirate order (R9.1) by an estimate
  of each pirate's shortfall from the deck's mean value.

The defaults come from a coordinate search on levels 1 and 4 (10,000 seeded games each, see
README "Tuning the expert"); there, both pirate-preparation settings measured best at 0.
"""
from sim.contract.numba_wall import lean_jit

from policies import strategy
from policies.base import (cull_on_purpose, destroy_choice, draw_or_stop, hazard_choice,
                           helpful_ability, per_step, pirate_choice)
from policies.strategy import NO_ACTION
from sim.actions import A_END

NAME = "expert"
DESCRIPTION = "tunable heuristic: step-wise life reserves, green culling, pirate preparation"
PARAMS = {"reserve_green": 0.0, "reserve_yellow": 0.0, "reserve_red": 0.0,
          "cull_max_missing": 1.0, "cull_min_life": 12.0, "cull_yellow": 0.0,
          "value_weight": 0.5, "skip_above": 2.0, "destroy_max_value": 1.0, "pirate_prep": 0.0,
          "pay_max_missing_green": 1.0, "pay_max_missing_yellow": 12.0, "pay_max_missing_red": 14.0,
          "knowledge_weight": 1.0, "hardest_pirate_first": 0.0}
P = strategy.param_index(PARAMS)


@lean_jit
def hazard(obs, legal, n_legal, params):
    """R3: the best knowledge against the expected shortfall; skip a lone hard one."""
    return hazard_choice(obs, legal, n_legal, params[P.value_weight], params[P.skip_above],
                         params[P.knowledge_weight], params[P.pirate_prep])


@lean_jit
def pirate(obs, legal, n_legal, params):
    """R9.1: the easier pirate first (the harder with ``hardest_pirate_first``)."""
    return pirate_choice(obs, legal, n_legal, params[P.hardest_pirate_first] > 0)


@lean_jit
def culling(obs, legal, n_legal, params):
    """R4.8: whether to lose this fight on purpose (module docstring;
    policies.base.cull_on_purpose)."""
    return cull_on_purpose(obs, legal, n_legal, params[P.cull_yellow] > 0,
                           params[P.cull_max_missing], params[P.cull_min_life],
                           params[P.destroy_max_value])


@lean_jit
def ability(obs, legal, n_legal, params):
    """R4.4: none in a fight it loses on purpose; else policies.base.helpful_ability."""
    if culling(obs, legal, n_legal, params):
        return NO_ACTION
    return helpful_ability(obs, legal, n_legal)


@lean_jit
def fight(obs, legal, n_legal, params):
    """R4.8 end a fight it loses on purpose; R4.3 pay within the step's limits."""
    if culling(obs, legal, n_legal, params):
        return A_END
    return draw_or_stop(obs, legal, n_legal,
                        per_step(obs, params[P.reserve_green], params[P.reserve_yellow],
                                 params[P.reserve_red]),
                        per_step(obs, params[P.pay_max_missing_green],
                                 params[P.pay_max_missing_yellow], params[P.pay_max_missing_red]))


@lean_jit
def destroy(obs, legal, n_legal, params):
    """R4.8: aging cards first, then cards worth at most ``destroy_max_value``."""
    return destroy_choice(obs, legal, n_legal, params[P.destroy_max_value])


RULES = strategy.Rules(hazard, pirate, ability, strategy.target, fight, destroy, strategy.sort3)


@lean_jit
def decide(obs, legal, n_legal, params, rng):
    return strategy.by_rules(obs, legal, n_legal, params, RULES)
