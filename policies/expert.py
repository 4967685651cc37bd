"""expert: a tunable heuristic, the default policy of the CLI.

Decisions (everything not listed follows policies.base):
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
from numba import njit

from policies.base import cull_count, default_decide, effective_value, fight_total, has
from sim import observation as O
from sim.actions import A_DRAW, A_END

NAME = "expert"
DESCRIPTION = "tunable heuristic: step-wise life reserves, green culling, pirate preparation"
PARAMS = {"reserve_green": 0.0, "reserve_yellow": 0.0, "reserve_red": 0.0,
          "cull_max_missing": 1.0, "cull_min_life": 12.0, "cull_yellow": 0.0,
          "value_weight": 0.5, "skip_above": 2.0, "destroy_max_value": 1.0, "pirate_prep": 0.0,
          "pay_max_missing_green": 1.0, "pay_max_missing_yellow": 12.0, "pay_max_missing_red": 14.0,
          "knowledge_weight": 1.0, "hardest_pirate_first": 0.0}
(P_RESERVE_GREEN, P_RESERVE_YELLOW, P_RESERVE_RED, P_CULL_MAX_MISSING, P_CULL_MIN_LIFE,
 P_CULL_YELLOW, P_VALUE_WEIGHT, P_SKIP_ABOVE, P_DESTROY_MAX_VALUE, P_PIRATE_PREP,
 P_PAY_MAX_GREEN, P_PAY_MAX_YELLOW, P_PAY_MAX_RED, P_KNOWLEDGE_WEIGHT,
 P_HARDEST_PIRATE_FIRST) = range(15)


@njit(cache=True, _nrt=False)
def decide(obs, legal, n_legal, params, rng):
    step = obs[O.O_STEP]
    cull_steps = 2 if params[P_CULL_YELLOW] > 0 else 1
    if obs[O.O_PHASE] == O.PH_FIGHT and step < cull_steps and not obs[O.O_OPPONENT_IS_PIRATE] \
            and has(legal, n_legal, A_END) and not has(legal, n_legal, A_DRAW):
        missing = effective_value(obs) - fight_total(obs)
        if 0 < missing <= params[P_CULL_MAX_MISSING] and \
                obs[O.O_LIFE] - missing >= params[P_CULL_MIN_LIFE] and \
                cull_count(obs, missing, params[P_DESTROY_MAX_VALUE]) > 0:
            return A_END
    if step == 0:
        reserve, pay_max = params[P_RESERVE_GREEN], params[P_PAY_MAX_GREEN]
    elif step == 1:
        reserve, pay_max = params[P_RESERVE_YELLOW], params[P_PAY_MAX_YELLOW]
    else:
        reserve, pay_max = params[P_RESERVE_RED], params[P_PAY_MAX_RED]
    return default_decide(obs, legal, n_legal, reserve, pay_max, params[P_DESTROY_MAX_VALUE],
                          params[P_VALUE_WEIGHT], params[P_SKIP_ABOVE], params[P_KNOWLEDGE_WEIGHT],
                          params[P_HARDEST_PIRATE_FIRST] > 0, params[P_PIRATE_PREP])
