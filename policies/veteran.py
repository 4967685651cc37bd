"""veteran: the expert, improved where paired comparisons found it weak (no search).

Plays like ``expert`` (its 15 parameters, with ``value_weight`` 0.6 and ``cull_min_life``
14 instead of 0.5 and 12) except at these decisions; each rule has a parameter whose "off"
value gives back the expert's decision (ablations in results/veteran.md):

* R3 hazard choice.  The expert's key, ``knowledge_weight * (value + ability worth)
  - value_weight * shortfall`` (shortfall: the hazard's value at this step minus its free
  cards times the deck's mean value), changed in three ways:
  - ``food_bonus`` (off: 0): a food knowledge card (life_plus, R5.1) is worth this much more;
  - ``below_bonus`` (off: 0): a below_pile knowledge card (R5.9) is worth this much more
    (the default is negative: the expert overvalues it);
  - ``late_value_weight`` (off: 1): in the yellow and red steps (R8) the shortfall weighs
    ``late_value_weight`` times as much as in green: later, knowledge matters more than the
    life a loss costs;
  - the shortfall weight ``value_weight`` itself is 0.6 (the expert's: 0.5);
  The skip rule of the last hazard (R3.2, ``skip_above``) is the expert's.
* R4.8 destroy choices and green culling: with ``food_keep`` (off: 0) a food card counts
  ``food_bonus`` more there too, so a loss budget does not throw it away and a deliberate
  green loss is not made for it.  (The destroy ability, R5.3, never takes a card worth
  more than 0, so a food card is safe from it already.)
* R4.8 green culling (losing a green fight on purpose to destroy its weak cards) only while
  ``cull_min_life + cull_life_per_level * (level - 1)`` life stays: 14 at level 1 down to 11
  at level 4 (the expert: 12 at every level; off: cull_min_life=12, cull_life_per_level=0):
  the harder levels' aging cards make culling pay more.
* R5.3 in a won hazard fight, a destroy ability removes the card worth least in the deck for
  good when it is worth at most ``destroy_won_max`` (0: a weak card; the expert uses it there
  only on cards worth < 0; off: -1).
* R4.3 / R4.10 paying in a hazard fight: with ``pay_to_survive`` (off: 0) Robinson pays for
  another card where the expert would end the fight although losing it would cost more life
  than he has (a certain defeat), as long as the best cards left could still win.
* R4.3 paying in a hazard fight: the expert pays (within the step's shortfall limit) only
  while the best four cards of the Robinson stack could still cover the shortfall; with
  ``reach_cards`` (off: 0) Robinson pays on where the best of the cards he can afford, at
  most ``reach_cards`` (22: all of them), could: the stack's best, and beyond the stack the
  discard's best, which is shuffled in when the stack runs out (R7.1).  Found in the search
  player's decision log (``search[base=veteran,kinds=all]``), where ending instead of paying
  was the fight decision it overruled most often.

Everything else (the other abilities, targets, sort3, pirates) is the expert's: ``RULES`` are
the expert's with hazard, ability, fight and destroy replaced (policies.strategy).
Tried and measured worse or not better in paired screens (README, Results): bonuses for the
other abilities, a win-probability weighting of the knowledge worth, an expected-loss model of
the shortfall, weighing the discarded hazard's return, stopping paying when the stack is weak,
a penalty for hazards that could kill, and a "despair" bonus for them at low life (better
alone, worse in the final combination: results/veteran_despair.md); and (200,000-game
screens, seeds 5 and 6) other values of the expert's parameters: cull_max_missing 2,
cull_min_life 10 (better at level 4 only) or 14 (level 1 only, hence the per-level limit),
destroy_max_value 0 or 2, pay_max_missing_green 0 or 2, yellow 8, red 10, value_weight 0.4
or 0.7, skip_above 3, knowledge_weight 1.2, cull_yellow 1, hardest_pirate_first 1.
Also measured worse (200,000-game screens, seeds 31-34): knowledge bonuses suggested by a
linear fit to the search log's hazard choices (draw_plus2 +1, draw_plus1 -0.7, sort3 -0.6,
exchange -0.4), the shortfall weighing half (or nothing) in yellow (better without the paying
rule, worse with it) or 1.4 times in red, the free cards' expected sum from the stack's
contents instead of the deck's mean, drawing the free cards left in a won fight at life <= 6
or 12; and with the paying rule: late_value_weight 0.85, value_weight 0.7,
pay_max_missing_green 2 (22 points worse).  (The log itself misleads as a measure: the
search stops trying an action as soon as it looks worse, so its recorded wins favour the
base policy's choice; only paired games decide.)
"""
from sim.contract.numba_wall import lean_jit

from policies import expert, strategy
from policies.arith import (ABILITY_WORTH, N_CARDS, ability_of, deck_mean, hazard_free,
                            hazard_value, is_food, pirate_knowledge_bonus, stack_best_sum,
                            value_of)
from policies.base import (can_still_win, cull_on_purpose, destroy_choice, draw_or_stop,
                           helpful_ability, lowest_worth, per_step)
from policies.strategy import (NO_ACTION, against_pirate, has, level, life, paid_cost,
                               points_missing, step)
from sim import cards as C
from sim import observation as O
from sim.actions import A_END, A_FIGHT, A_PAY, A_SKIP, A_USE

NAME = "veteran"
DESCRIPTION = ("the expert improved: food knowledge valued and kept, below_pile worth less, "
               "knowledge weighs more in later steps, pays on while the cards it can afford "
               "could win and where a loss would kill, destroys weak cards in won fights, "
               "culls by level")
PARAMS = dict(expert.PARAMS)
PARAMS.update({"value_weight": 0.6, "cull_min_life": 14.0, "food_bonus": 1.0, "food_keep": 1.0,
               "below_bonus": -0.5, "late_value_weight": 0.7, "pay_to_survive": 1.0,
               "destroy_won_max": 0.0, "cull_life_per_level": -1.0, "reach_cards": 22.0})
P = strategy.param_index(PARAMS)     # the expert's 15 first, in their places


@lean_jit
def reach(obs, missing, cards):
    """Could ``cards`` paid cards cover ``missing`` points at best: the stack's best cards
    (R1.4), and beyond the stack the discard's best (it is shuffled in, R7.1)."""
    n_stack = obs[O.O_N_ROBINSON_STACK]
    total = stack_best_sum(obs, cards if cards < n_stack else n_stack)
    extra = cards - n_stack
    v = O.MAX_VALUE
    while extra > 0 and v > 0 and total < missing:
        for c in range(O.N_FIGHTING):
            if extra > 0 and obs[O.ZONE + c] == O.Z_ROBINSON_DISCARD and value_of(obs, c) == v:
                total += v
                extra -= 1
        v -= 1
    return total >= missing


@lean_jit
def pay_on(obs, legal, n_legal, params, action):
    """R4.3 with reach_cards > 0: where the expert's rule ends a hazard fight because the best
    four cards of the Robinson stack could not win it, pay on (within the step's pay limit
    and reserve) if the best of the cards Robinson can afford, at most ``reach_cards``, could:
    the stack's, then the discard's, which is shuffled in when the stack runs out (R7.1)."""
    if action != A_END or against_pirate(obs) or not has(legal, n_legal, A_PAY):
        return action
    missing = points_missing(obs)
    if missing <= 0 or missing > per_step(obs, params[P.pay_max_missing_green],
                                          params[P.pay_max_missing_yellow],
                                          params[P.pay_max_missing_red]):
        return action
    reserve = per_step(obs, params[P.reserve_green], params[P.reserve_yellow],
                       params[P.reserve_red])
    cost = paid_cost(obs)
    if life(obs) - cost < reserve:
        return action
    cards = int((life(obs) - reserve) // cost)
    if cards > params[P.reach_cards]:
        cards = int(params[P.reach_cards])
    if reach(obs, missing, cards):
        return A_PAY
    return action


@lean_jit
def hazard_key(obs, c, params):
    """R3: how much fighting hazard c is worth (module docstring)."""
    now = step(obs)
    short = hazard_value(obs, c, now) - hazard_free(obs, c) * deck_mean(obs)
    if short < 0:
        short = 0.0
    worth = value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)]
    if is_food(obs, c):
        worth += params[P.food_bonus]
    elif ability_of(obs, c) == C.AB_BELOW_PILE:
        worth += params[P.below_bonus]
    vw = params[P.value_weight] * (params[P.late_value_weight] if now > 0 else 1.0)
    key = params[P.knowledge_weight] * worth - vw * short
    if params[P.pirate_prep] != 0.0:
        key += params[P.pirate_prep] * pirate_knowledge_bonus(obs, c)
    return key


@lean_jit
def hazard(obs, legal, n_legal, params):
    """R3.1: the hazard with the best key; R3.2: skip a lone one worth more than skip_above."""
    best = legal[0]
    best_key = -1e18
    for i in range(n_legal):
        a = legal[i]
        if a >= A_FIGHT and a < A_FIGHT + N_CARDS:
            key = hazard_key(obs, a - A_FIGHT, params)
            if key > best_key:
                best, best_key = a, key
    if has(legal, n_legal, A_SKIP) and \
            hazard_value(obs, best - A_FIGHT, step(obs)) > params[P.skip_above]:
        return A_SKIP
    return best


@lean_jit(inline=True)
def food_worth(params):
    """What a food card is worth more to the loss budget and the culling (food_keep)."""
    return params[P.food_bonus] if params[P.food_keep] != 0.0 else 0.0


@lean_jit
def survive_pay(obs, legal, n_legal, params, action):
    """R4.3, R4.10 with pay_to_survive: pay instead of ending a hazard fight whose loss would
    cost more life than Robinson has, while the best cards left could still win it."""
    if params[P.pay_to_survive] == 0.0 or action != A_END or against_pirate(obs) \
            or not has(legal, n_legal, A_PAY):
        return action
    missing = points_missing(obs)
    if missing > life(obs) and \
            can_still_win(obs, missing, life(obs) // paid_cost(obs)):
        return A_PAY
    return action


@lean_jit
def destroy_won(obs, legal, n_legal, params):
    """R5.3 in a won hazard fight: a destroy ability removes for good the card worth least in
    the deck (deck_worth) if it is worth at most destroy_won_max (the expert: only below 0);
    -1 if there is none.  The fight total is looked at only when a destroy can be used."""
    if against_pirate(obs):
        return -1
    for i in range(n_legal):
        a = legal[i]
        if a >= A_USE and a < A_USE + N_CARDS and ability_of(obs, a - A_USE) == C.AB_DESTROY:
            if points_missing(obs) > 0:
                return -1
            if lowest_worth(obs, a - A_USE, True)[1] <= params[P.destroy_won_max]:
                return a
    return -1


@lean_jit
def culling(obs, legal, n_legal, params):
    """R4.8: whether to lose this fight on purpose: the expert's rule, with the per-level life
    limit and food kept (module docstring)."""
    return cull_on_purpose(obs, legal, n_legal, params[P.cull_yellow] > 0,
                           params[P.cull_max_missing],
                           params[P.cull_min_life] + params[P.cull_life_per_level] * (level(obs) - 1),
                           params[P.destroy_max_value], food_worth(params))


@lean_jit
def ability(obs, legal, n_legal, params):
    """R5.3 destroy a weak card in a won fight; none in a fight it loses on purpose; else
    policies.base.helpful_ability."""
    if params[P.destroy_won_max] > -1.0:
        a = destroy_won(obs, legal, n_legal, params)
        if a >= 0:
            return a
    if culling(obs, legal, n_legal, params):
        return NO_ACTION
    return helpful_ability(obs, legal, n_legal)


@lean_jit
def fight(obs, legal, n_legal, params):
    """R4.8 end a fight it loses on purpose; R4.3 the expert's paying, then pay on while the
    cards it can afford could win (reach_cards) or where a loss would kill (pay_to_survive)."""
    if culling(obs, legal, n_legal, params):
        return A_END
    action = draw_or_stop(obs, legal, n_legal,
                          per_step(obs, params[P.reserve_green], params[P.reserve_yellow],
                                   params[P.reserve_red]),
                          per_step(obs, params[P.pay_max_missing_green],
                                   params[P.pay_max_missing_yellow],
                                   params[P.pay_max_missing_red]))
    if params[P.reach_cards] > 0:
        action = pay_on(obs, legal, n_legal, params, action)
    return survive_pay(obs, legal, n_legal, params, action)


@lean_jit
def destroy(obs, legal, n_legal, params):
    """R4.8: aging cards first, then cards worth at most ``destroy_max_value``, food kept."""
    return destroy_choice(obs, legal, n_legal, params[P.destroy_max_value], food_worth(params))


RULES = expert.RULES._replace(hazard=hazard, ability=ability, fight=fight, destroy=destroy)


@lean_jit
def decide(obs, legal, n_legal, params, rng):
    return strategy.by_rules(obs, legal, n_legal, params, RULES)
