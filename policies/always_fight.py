"""always-fight: tries to win every fight and never loses on purpose.

* hazard: the base choice (best knowledge card for the lowest value); fights a lone last card.
* fight: useful abilities first, then every free card, then pays life for more cards while
  the missing points are fewer than Robinson's life and life stays at ``reserve`` or above
  (against pirates it always pays, R9.3); ends as soon as the total reaches the value.
* after an unwanted loss: destroys aging cards, then negative cards, with the budget.
* everything else: policies.base defaults.
"""
from sim.contract.numba_wall import lean_jit

from policies import strategy
from policies.base import destroy_choice, draw_or_stop, hazard_choice, helpful_ability, \
    pirate_choice

NAME = "always-fight"
DESCRIPTION = "wins every fight it can, pays life down to a reserve, never loses on purpose"
PARAMS = {"reserve": 3.0}
P = strategy.param_index(PARAMS)
NEVER_SKIP = 1000.0       # skip_above / lose_if_missing_over that no value reaches


@lean_jit
def hazard(obs, legal, n_legal, params):
    """R3: the best knowledge for the least shortfall; never skips."""
    return hazard_choice(obs, legal, n_legal, 1.0, NEVER_SKIP, 1.0, 0.0)


@lean_jit
def pirate(obs, legal, n_legal, params):
    """R9.1: the easier pirate first."""
    return pirate_choice(obs, legal, n_legal, False)


@lean_jit
def ability(obs, legal, n_legal, params):
    """R4.4: policies.base.helpful_ability."""
    return helpful_ability(obs, legal, n_legal)


@lean_jit
def fight(obs, legal, n_legal, params):
    """R4.3: draw, then pay down to ``reserve`` while the cards left could win."""
    return draw_or_stop(obs, legal, n_legal, params[P.reserve], NEVER_SKIP)


@lean_jit
def destroy(obs, legal, n_legal, params):
    """R4.8: aging cards first, then cards worth below 0."""
    return destroy_choice(obs, legal, n_legal, -1.0)


RULES = strategy.Rules(hazard, pirate, ability, strategy.target, fight, destroy, strategy.sort3)


@lean_jit
def decide(obs, legal, n_legal, params, rng):
    return strategy.by_rules(obs, legal, n_legal, params, RULES)
