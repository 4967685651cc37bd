"""expert: a tunable heuristic, the default policy of the CLI.

Parameters (``friday policies`` lists them; ``--param NAME=VALUE`` sets them):
* ``reserve_green``, ``reserve_yellow``, ``reserve_red``: life it keeps when paying for cards
  in each step (pirates: it always pays, R9.3).
* ``cull_max_missing``, ``cull_min_life``: in the green step it loses on purpose (R4.8) when
  the free cards fall short by at most ``cull_max_missing`` points, a bad card (aging or worth
  <= 0) is in the fight and life stays >= ``cull_min_life``.
* ``cull_yellow``: 1 to cull in the yellow step too (with the same thresholds).
* ``value_weight``: hazard choice scores ``knowledge worth - value_weight * value``.
* ``skip_above``: the last hazard of a step is skipped when its value exceeds this.
* ``destroy_max_value``: after a loss, destroy aging cards and cards worth <= this.
* ``pay_max_missing_green/yellow/red``: it pays for cards only while the shortfall is at most
  this many points (otherwise it takes the loss, R4.8).
* ``pirate_prep``: 1 to prepare for the two known pirates (R2.4): against the
  ``plus2_per_aging`` or ``half_cards_count`` pirate it culls in yellow too, against
  ``extra_card_costs_2`` it keeps 2 more life in red.
Ability use follows policies.base (life when not full, then draw/double/exchange/destroy...).
"""
from numba import njit

from policies.base import (PIRATE_ABILITY, default_decide, effective_value, fight_total, has,
                           worst_fight_card)
from sim import cards as C
from sim import observation as O
from sim.actions import A_DRAW, A_END

NAME = "expert"
DESCRIPTION = "tunable heuristic: step-wise life reserves, green culling, pirate preparation"
PARAMS = {"reserve_green": 6.0, "reserve_yellow": 4.0, "reserve_red": 2.0,
          "cull_max_missing": 3.0, "cull_min_life": 10.0, "cull_yellow": 0.0,
          "value_weight": 1.0, "skip_above": 6.0, "destroy_max_value": 0.0, "pirate_prep": 1.0,
          "pay_max_missing_green": 1.0, "pay_max_missing_yellow": 3.0, "pay_max_missing_red": 5.0}
(P_RESERVE_GREEN, P_RESERVE_YELLOW, P_RESERVE_RED, P_CULL_MAX_MISSING, P_CULL_MIN_LIFE,
 P_CULL_YELLOW, P_VALUE_WEIGHT, P_SKIP_ABOVE, P_DESTROY_MAX_VALUE, P_PIRATE_PREP,
 P_PAY_MAX_GREEN, P_PAY_MAX_YELLOW, P_PAY_MAX_RED) = range(13)


@njit(cache=True)
def _faces(obs, ability):
    return PIRATE_ABILITY[obs[O.O_PIRATE_1]] == ability or PIRATE_ABILITY[obs[O.O_PIRATE_2]] == ability


@njit(cache=True)
def decide(obs, legal, n_legal, params, rng):
    step = obs[O.O_STEP]
    prep = params[P_PIRATE_PREP] > 0
    cull_steps = 1
    if params[P_CULL_YELLOW] > 0 or (prep and (_faces(obs, C.PA_PLUS2_PER_AGING)
                                                or _faces(obs, C.PA_HALF_COUNT))):
        cull_steps = 2
    if obs[O.O_PHASE] == O.PH_FIGHT and step < cull_steps and not obs[O.O_OPPONENT_IS_PIRATE] \
            and has(legal, n_legal, A_END) and not has(legal, n_legal, A_DRAW):
        missing = effective_value(obs) - fight_total(obs)
        if 0 < missing <= params[P_CULL_MAX_MISSING] and \
                obs[O.O_LIFE] - missing >= params[P_CULL_MIN_LIFE] and \
                worst_fight_card(obs, -1, params[P_DESTROY_MAX_VALUE]) >= 0:
            return A_END
    if step == 0:
        reserve, pay_max = params[P_RESERVE_GREEN], params[P_PAY_MAX_GREEN]
    elif step == 1:
        reserve, pay_max = params[P_RESERVE_YELLOW], params[P_PAY_MAX_YELLOW]
    else:
        reserve, pay_max = params[P_RESERVE_RED], params[P_PAY_MAX_RED]
        if prep and step == 2 and _faces(obs, C.PA_EXTRA_COSTS_2):
            reserve += 2.0
    return default_decide(obs, legal, n_legal, reserve, pay_max, params[P_DESTROY_MAX_VALUE],
                          params[P_VALUE_WEIGHT], params[P_SKIP_ABOVE])
