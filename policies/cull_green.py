"""cull-green: the classic advice, lose weak green fights on purpose to destroy bad cards.

* green step, fight: once the free cards are out and the total is still short, it ends the
  fight (a deliberate loss, R4.8) instead of paying, provided the fight holds a card worth
  destroying (aging, or worth <= 0), the shortfall is at most ``max_missing`` and life stays
  at ``min_life`` or above after paying it.
* destroy budget (R4.8): aging cards first, then -1s, then 0s.
* otherwise plays like always-fight (``reserve`` as there).
"""
from numba import njit

from policies.base import default_decide, effective_value, fight_total, cull_count
from sim import observation as O
from sim.actions import A_END, A_DRAW
from policies.base import has

NAME = "cull-green"
DESCRIPTION = "loses weak green fights on purpose and destroys aging, -1 and 0 cards"
PARAMS = {"reserve": 3.0, "max_missing": 4.0, "min_life": 8.0}


@njit(cache=True, _nrt=False)
def decide(obs, legal, n_legal, params, rng):
    if obs[O.O_PHASE] == O.PH_FIGHT and obs[O.O_STEP] == 0 and not obs[O.O_OPPONENT_IS_PIRATE] \
            and has(legal, n_legal, A_END) and not has(legal, n_legal, A_DRAW):
        missing = effective_value(obs) - fight_total(obs)
        if 0 < missing <= params[1] and obs[O.O_LIFE] - missing >= params[2] \
                and cull_count(obs, missing, 0.0) > 0:
            return A_END
    return default_decide(obs, legal, n_legal, params[0], 1000, 0.0, 1.0, 1000.0)
