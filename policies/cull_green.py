"""cull-green: the classic advice, lose weak green fights on purpose to destroy bad cards.

* green step, fight: once the free cards are out and the total is still short, it ends the
  fight (a deliberate loss, R4.8) instead of paying or using an ability, provided the fight
  holds a card worth destroying (aging, or worth <= 0), the shortfall is at most
  ``max_missing`` and life stays at ``min_life`` or above after paying it.
* destroy budget (R4.8): aging cards first, then -1s, then 0s.
* otherwise plays like always-fight (``reserve`` as there).
"""
from sim.contract.numba_wall import lean_jit

from policies import always_fight, strategy
from policies.base import cull_on_purpose, destroy_choice, draw_or_stop, helpful_ability
from policies.strategy import NO_ACTION
from sim.actions import A_END

NAME = "cull-green"
DESCRIPTION = "loses weak green fights on purpose and destroys aging, -1 and 0 cards"
PARAMS = {"reserve": 3.0, "max_missing": 4.0, "min_life": 8.0}
P = strategy.param_index(PARAMS)


@lean_jit
def culling(obs, legal, n_legal, params):
    """R4.8: whether to lose this green fight on purpose (module docstring;
    policies.base.cull_on_purpose: green only, cards worth 0 or less)."""
    return cull_on_purpose(obs, legal, n_legal, False, params[P.max_missing],
                           params[P.min_life], 0.0)


@lean_jit
def ability(obs, legal, n_legal, params):
    """R4.4: none in a fight it loses on purpose; else policies.base.helpful_ability."""
    if culling(obs, legal, n_legal, params):
        return NO_ACTION
    return helpful_ability(obs, legal, n_legal)


@lean_jit
def fight(obs, legal, n_legal, params):
    """R4.8: end a fight it loses on purpose; else as always-fight."""
    if culling(obs, legal, n_legal, params):
        return A_END
    return draw_or_stop(obs, legal, n_legal, params[P.reserve], always_fight.NEVER_SKIP)


@lean_jit
def destroy(obs, legal, n_legal, params):
    """R4.8: aging cards first, then cards worth 0 or less."""
    return destroy_choice(obs, legal, n_legal, 0.0)


RULES = always_fight.RULES._replace(ability=ability, fight=fight, destroy=destroy)


@lean_jit
def decide(obs, legal, n_legal, params, rng):
    return strategy.by_rules(obs, legal, n_legal, params, RULES)
