"""always-fight: tries to win every fight and never loses on purpose.

* hazard: the base choice (best knowledge card for the lowest value); fights a lone last card.
* fight: useful abilities first, then every free card, then pays life for more cards while
  the missing points are fewer than Robinson's life and life stays at ``reserve`` or above
  (against pirates it always pays, R9.3); ends as soon as the total reaches the value.
* after an unwanted loss: destroys aging cards, then negative cards, with the budget.
* everything else: policies.base defaults.
"""
from numba import njit

from policies.base import default_decide

NAME = "always-fight"
DESCRIPTION = "wins every fight it can, pays life down to a reserve, never loses on purpose"
PARAMS = {"reserve": 3.0}


@njit(cache=True, _nrt=False)
def decide(obs, legal, n_legal, params, rng):
    return default_decide(obs, legal, n_legal, params[0], 1000, -1.0, 1.0, 1000.0)
