"""Sensible defaults for every decision, and the player's arithmetic, for all policies.

Each decision's default with its settings as arguments: the built-in policies' rules
(policies.strategy) call them with their named parameters.  Everything here reads the
observation only (R1.4) and is Numba code, so it runs unchanged under both engines.

Defaults, decision by decision:
* hazard (R3): fight the hazard with the best ``knowledge - value`` trade-off (its current
  value weighs ``value_weight``, its knowledge card's worth counts once); the last card of a
  step is skipped when its value is above ``skip_above``.
* fight (R4): if the fight is won, take free life (life_plus) and end.  Otherwise use helpful
  abilities (draw, double the best card, exchange/below_pile/destroy the worst card,
  step_minus1, sort3, copy), then draw free cards, then pay while the missing points can still
  be covered and life stays above ``reserve`` (pirates: always pay), else end the fight.
* targets: destroy/exchange/below_pile the lowest card, double the highest, copy the most
  useful ability.  Second exchange only for a card worth <= 0.
* more: yes (second draw, replacement, next sort3 card).  sort3: discard the worst card if it
  is worth < 0, put the best cards on top.
* destroy after a loss (R4.8): aging cards first, then -1s, then 0s while the budget lasts.
* pirates (R9.1): fight the one with the lower value first.
"""
from __future__ import annotations

import math

from sim.contract.numba_wall import lean_jit

from policies.arith import (  # noqa: F401  (re-exported for policy files)
    ABILITY_WORTH, N_CARDS, ability_of, best_double_value, destroy_cost, hazard_free,
    hazard_value, is_aging, pirate_ability, value_of, can_still_win, card_value, cull_count, deck_mean,
    deck_worth, fight_worth, has, in_fight, is_food, keep_worth,
    pirate_difficulty, lowest_worth, pirate_knowledge_bonus)
from sim import cards as C
from sim import observation as O
from sim.actions import (A_DESTROY, A_DISCARD, A_DONE, A_DRAW, A_END, A_FIGHT, A_MORE, A_PAY,
                         A_PIRATE, A_PUT, A_SKIP, A_TARGET, A_USE)


@lean_jit(inline=True)
def fight_total(obs):
    """The fight's total as R4.6 counts it now, as the engines wrote it in the observation
    (sim.observation O_FIGHT_TOTAL; policies.arith.oracle_fight_total is the tests' oracle)."""
    return obs[O.O_FIGHT_TOTAL]


@lean_jit(inline=True)
def effective_value(obs):
    """The value the fight's total is compared with (R5.7; pirates as fixed, R9.5), as the
    engines wrote it (sim.observation O_EFFECTIVE_VALUE; 0 outside a fight)."""
    return obs[O.O_EFFECTIVE_VALUE]


@lean_jit
def pick_target(obs, legal, n_legal):
    """Target of the pending ability (R5.3-R5.9): double the best card, copy the most useful
    ability, destroy the card worth least for good, exchange / put below the card worth
    least in this fight; an optional second exchange only if that card is below the deck's
    mean (the expected replacement)."""
    ability = obs[O.O_PENDING_ABILITY]
    best = legal[0]
    best_key = -1e18
    for i in range(n_legal):
        a = legal[i]
        if a < A_TARGET or a >= A_TARGET + N_CARDS:
            continue
        c = a - A_TARGET
        if ability == C.AB_DOUBLE:
            key = float(card_value(obs, c))
        elif ability == C.AB_COPY:
            key = ABILITY_WORTH[ability_of(obs, c)]
        elif ability == C.AB_DESTROY:
            key = -deck_worth(obs, c)
        else:
            key = -fight_worth(obs, c)
        if key > best_key:
            best, best_key = a, key
    if has(legal, n_legal, A_DONE) and best >= A_TARGET:
        if -best_key >= deck_mean(obs):
            return A_DONE
    return best


@lean_jit
def ability_helps(obs, card, missing):
    """Whether using this card's ability now is worth it (fight phase)."""
    ab = ability_of(obs, card)
    if ab == C.AB_LIFE1 or ab == C.AB_LIFE2:
        return obs[O.O_LIFE] < obs[O.O_MAX_LIFE]
    if ab == C.AB_DESTROY:
        # removing a bad card for good is worth it, won or not (R5.3); a 0 only while behind
        worst = lowest_worth(obs, card, True)[1]
        return worst <= -1.0 or (missing > 0 and worst <= 0.0)
    if ab == C.AB_SORT3:
        return True       # sets up the next draws and may bin a bad card (R5.6)
    if missing <= 0:
        return False
    if ab == C.AB_STEP_MINUS1:
        return obs[O.O_OPPONENT_IS_PIRATE] == 0 and obs[O.O_STEP] - obs[O.O_STEP_MINUS] > 0
    if ab == C.AB_DOUBLE:
        return best_double_value(obs, card) > 0
    if ab == C.AB_EXCHANGE1 or ab == C.AB_EXCHANGE2 or ab == C.AB_BELOW_PILE:
        return lowest_worth(obs, card, False)[1] < deck_mean(obs)
    return True   # draw, sort3, copy


@lean_jit
def hazard_choice(obs, legal, n_legal, value_weight, skip_above, knowledge_weight, pirate_prep):
    """R3: the hazard with the best trade-off between the knowledge card it gives (plus
    ``pirate_prep`` times its worth against the known pirates) and the points its free cards
    are expected to fall short by; skip a lone hard one."""
    best = legal[0]
    best_key = -1e18
    step = obs[O.O_STEP]
    mean = deck_mean(obs)
    for i in range(n_legal):
        a = legal[i]
        if a >= A_FIGHT and a < A_FIGHT + N_CARDS:
            c = a - A_FIGHT
            short = hazard_value(obs, c, step) - hazard_free(obs, c) * mean
            key = knowledge_weight * (value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)]) \
                - value_weight * (short if short > 0 else 0.0)
            if pirate_prep != 0.0:
                key += pirate_prep * pirate_knowledge_bonus(obs, c)
            if key > best_key:
                best, best_key = a, key
    if has(legal, n_legal, A_SKIP) and hazard_value(obs, best - A_FIGHT, step) > skip_above:
        return A_SKIP
    return best


@lean_jit
def helpful_ability(obs, legal, n_legal):
    """R4.4, R5: the first legal ability worth using now (ability_helps): life whenever it
    is free, the rest while behind; policies.strategy.NO_ACTION (-1) if none."""
    missing = effective_value(obs) - fight_total(obs)
    for i in range(n_legal):
        a = legal[i]
        if a >= A_USE and a < A_USE + N_CARDS and ability_helps(obs, a - A_USE, missing):
            return a
    return -1


@lean_jit
def draw_or_stop(obs, legal, n_legal, reserve, lose_if_missing_over):
    """R4: end a won fight; else draw a free card; else pay while the missing points are at
    most ``lose_if_missing_over``, life stays at ``reserve`` or above and the cards left could
    still win (pirates: always pay, R9.3); else end the fight."""
    missing = effective_value(obs) - fight_total(obs)
    if missing <= 0 and has(legal, n_legal, A_END):
        return A_END
    if has(legal, n_legal, A_DRAW):
        return A_DRAW
    if has(legal, n_legal, A_PAY):
        cost = obs[O.O_PAID_COST]
        affordable = math.floor((obs[O.O_LIFE] - reserve) / cost)   # exact: cost is 1 or 2
        if obs[O.O_OPPONENT_IS_PIRATE] != 0 or (
                missing <= lose_if_missing_over and obs[O.O_LIFE] - cost >= reserve
                and can_still_win(obs, missing, affordable)):
            return A_PAY
    if has(legal, n_legal, A_END):
        return A_END
    return legal[0]


@lean_jit(inline=True)
def per_step(obs, green, yellow, red):
    """A per-step setting (R8) at the current step: green, yellow, or red (and beyond)."""
    step = obs[O.O_STEP]
    if step == 0:
        return green
    if step == 1:
        return yellow
    return red


@lean_jit
def cull_on_purpose(obs, legal, n_legal, cull_yellow, max_missing, min_life, max_value,
                    food_worth=0.0):
    """R4.8 culling: whether to end (lose) a hazard fight on purpose: in the green step (and
    yellow with ``cull_yellow``), no free card left, at most ``max_missing`` short, at least
    ``min_life`` life left after the loss, and the loss budget would destroy a card
    (cull_count with ``max_value``, ``food_worth``).  The one culling rule: cull-green, the
    expert and the veteran each call it with their own settings."""
    if obs[O.O_PHASE] != O.PH_FIGHT or obs[O.O_STEP] >= (2 if cull_yellow else 1) or \
            obs[O.O_OPPONENT_IS_PIRATE] or not has(legal, n_legal, A_END) or \
            has(legal, n_legal, A_DRAW):
        return False
    missing = effective_value(obs) - fight_total(obs)
    return 0 < missing <= max_missing and obs[O.O_LIFE] - missing >= min_life and \
        cull_count(obs, missing, max_value, food_worth) > 0


@lean_jit
def destroy_choice(obs, legal, n_legal, max_value, food_worth=0.0):
    """R4.8: aging first, then the lowest cards with keep_worth <= max_value (a food card
    ``food_worth`` more: kept)."""
    best = A_DONE
    best_key = 1e18
    for i in range(n_legal):
        a = legal[i]
        if a >= A_DESTROY and a < A_DESTROY + N_CARDS:
            c = a - A_DESTROY
            if is_aging(obs, c):
                key = -100.0 + value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)]
            else:
                key = keep_worth(obs, c, food_worth)
                if key > max_value:
                    continue
            if key < best_key:
                best, best_key = a, key
    return best


@lean_jit
def sort_decision(obs, legal, n_legal):
    """R5.6: take 3, discard the worst if negative, best on top."""
    phase = obs[O.O_PHASE]
    if phase == O.PH_SORT_TAKE:
        return A_MORE
    if phase == O.PH_SORT_DISCARD:
        worst, worst_key = A_DONE, 0.0
        for i in range(n_legal):
            a = legal[i]
            if a >= A_DISCARD and a < A_DISCARD + N_CARDS:
                c = a - A_DISCARD
                key = value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)] - (3.0 if is_aging(obs, c) else 0.0)
                if key < worst_key:
                    worst, worst_key = a, key
        return worst
    best, best_key = legal[0], -1e18
    for i in range(n_legal):
        a = legal[i]
        if a >= A_PUT and a < A_PUT + N_CARDS:
            c = a - A_PUT
            key = value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)]
            if key > best_key:
                best, best_key = a, key
    return best


@lean_jit
def pirate_choice(obs, legal, n_legal, hardest_first):
    """R9.1: the easier pirate first (or the harder one, if hardest_first)."""
    best, best_key = legal[0], -1e18
    for i in range(n_legal):
        d = pirate_difficulty(obs, legal[i] - A_PIRATE)
        key = d if hardest_first else -d
        if key > best_key:
            best, best_key = legal[i], key
    return best


@lean_jit
def _fight_decision(obs, legal, n_legal, reserve, lose_if_missing_over):
    """0.1.0's ``fight_decision`` (R4): a helpful ability, else draw_or_stop (until 0.3.0)."""
    a = helpful_ability(obs, legal, n_legal)
    return a if a >= 0 else draw_or_stop(obs, legal, n_legal, reserve, lose_if_missing_over)


@lean_jit
def _default_decide(obs, legal, n_legal, reserve, lose_if_missing_over, destroy_max_value,
                    value_weight, skip_above, knowledge_weight=1.0, hardest_first=False,
                    pirate_prep=0.0):
    """0.1.0's ``default_decide``: each decision's default above (until 0.3.0)."""
    phase = obs[O.O_PHASE]
    if phase == O.PH_FIGHT:
        return _fight_decision(obs, legal, n_legal, reserve, lose_if_missing_over)
    if phase == O.PH_HAZARD:
        return hazard_choice(obs, legal, n_legal, value_weight, skip_above, knowledge_weight,
                             pirate_prep)
    if phase == O.PH_TARGET:
        return pick_target(obs, legal, n_legal)
    if phase == O.PH_DESTROY:
        return destroy_choice(obs, legal, n_legal, destroy_max_value)
    if phase == O.PH_PIRATE:
        return pirate_choice(obs, legal, n_legal, hardest_first)
    if phase == O.PH_SORT_TAKE or phase == O.PH_SORT_DISCARD or phase == O.PH_SORT_ORDER:
        return sort_decision(obs, legal, n_legal)
    return A_MORE if phase == O.PH_MORE else legal[0]


from sim.deprecation import moved  # noqa: E402  (the 0.1.0 names: CHANGELOG.md)

__getattr__ = moved(__name__, {}, shims={
    "default_decide": ("policies.base:_default_decide", "policies.strategy.with_rules "
                       "(one rule per decision) or the per-decision functions of policies.base"),
    "fight_decision": ("policies.base:_fight_decision",
                       "policies.base.helpful_ability, then policies.base.draw_or_stop")},
    gone={n: f"policies.arith.{f}(obs, ...): the observation's card block (what-if tables)"
          for n, f in [("ABILITY", "ability_of"), ("FIGHT_VALUE", "value_of"),
                       ("HAZARD_VALUE", "hazard_value"), ("IS_AGING", "is_aging"),
                       ("PIRATE_ABILITY", "pirate_ability"), ("DESTROY_COST", "destroy_cost")]})
