"""The player's arithmetic for policies: what a fight needs, what cards are worth.

Numba functions over the observation only (R1.4), shared by every policy: the deck's mean
value, how much a card is worth in the fight and in the deck, what a loss budget would destroy
(R4.8), and an estimate of each pirate's difficulty (R9.5).
The fight's total and the value it is compared with are the engines' (O_FIGHT_TOTAL and
O_EFFECTIVE_VALUE, policies.base.fight_total and effective_value); ``oracle_fight_total`` and
``oracle_effective_value`` work them out a second time, for the tests only.

Like every built-in policy function, they are compiled without Numba's reference counting
(sim.contract.numba_wall.lean_jit): they allocate nothing, and so they run the same
way whether the fast engine or the reference engine compiled them first.
"""
from __future__ import annotations

import numpy as np
from sim.contract.numba_wall import lean_jit

from sim import cards as C
from sim import observation as O

N_CARDS = C.N_CARDS
# how much a policy likes having each ability in its deck / using it (used for copy & scoring)
ABILITY_WORTH = np.zeros(len(C.ABILITY_NAMES), dtype=np.float64)
for _ab, _w in ((C.AB_LIFE1, 1.0), (C.AB_LIFE2, 2.0), (C.AB_DRAW1, 1.5), (C.AB_DRAW2, 2.5),
                (C.AB_DESTROY, 1.5), (C.AB_DOUBLE, 1.5), (C.AB_COPY, 1.0), (C.AB_SORT3, 1.0),
                (C.AB_STEP_MINUS1, 1.0), (C.AB_EXCHANGE1, 1.0), (C.AB_EXCHANGE2, 1.5),
                (C.AB_BELOW_PILE, 1.0), (C.AB_AGING_LIFE1, -2.0), (C.AB_AGING_LIFE2, -4.0),
                (C.AB_AGING_HIGHEST_ZERO, -3.0), (C.AB_AGING_STOP, -2.0)):
    ABILITY_WORTH[_ab] = _w


# --- the game's card table, as the player reads it (the observation's CT block, R1.4) ------
# Never sim.cards: Numba would freeze the printed values into the compiled policy, and a
# what-if table (sim.cardtable) would be played with the printed cards' arithmetic.
@lean_jit(inline=True)
def value_of(obs, c):
    """Card c's printed fight value."""
    return obs[O.CT_VALUE + c]


@lean_jit(inline=True)
def ability_of(obs, c):
    """Card c's ability (sim.cards.AB_*)."""
    return obs[O.CT_ABILITY + c]


@lean_jit(inline=True)
def is_aging(obs, c):
    return obs[O.CT_AGING + c] != 0


@lean_jit(inline=True)
def destroy_cost(obs, c):
    return obs[O.CT_DESTROY_COST + c]


@lean_jit(inline=True)
def hazard_value(obs, c, step):
    """Hazard c's value at step 0 (green), 1 (yellow), 2 (red) (R4.1)."""
    return obs[O.CT_HAZARD_VALUE + step * N_CARDS + c]


@lean_jit(inline=True)
def hazard_free(obs, c):
    return obs[O.CT_HAZARD_FREE + c]


@lean_jit(inline=True)
def pirate_ability(obs, p):
    return obs[O.CT_PIRATE_ABILITY + p]


@lean_jit(inline=True)
def has(legal, n_legal, action):
    for i in range(n_legal):
        if legal[i] == action:
            return True
    return False


@lean_jit(inline=True)
def in_fight(obs, card):
    z = obs[O.ZONE + card]
    return z == O.Z_FIGHT_LEFT or z == O.Z_FIGHT_RIGHT


@lean_jit(inline=True)
def card_value(obs, card):
    """A fight card's current value: 0 face down, doubled if doubled (R5.3, R5.4)."""
    flags = obs[O.FLAGS + card]
    if flags & O.F_FACE_DOWN:
        return 0
    v = value_of(obs, card)
    return 2 * v if flags & O.F_DOUBLED else v


@lean_jit(inline=True)
def oracle_effective_value(obs):
    """A test oracle: the opponent's value at the comparison (R5.7; pirates as fixed, R9.5),
    worked out again from the rest of the observation.  Policies read the engines' value
    (O_EFFECTIVE_VALUE, policies.base.effective_value); tests/test_policies.py checks that the
    two agree at every fight decision."""
    if obs[O.O_OPPONENT] < 0:
        return 0
    if obs[O.O_OPPONENT_IS_PIRATE]:
        return obs[O.O_FIGHT_VALUE]
    minus = obs[O.O_STEP_MINUS]
    if not obs[O.O_OPT_STEP_MINUS1_STACKS] and minus > 1:
        minus = 1
    step = obs[O.O_STEP] - minus
    return hazard_value(obs, obs[O.O_OPPONENT], step if step > 0 else 0)


@lean_jit
def _highest_positive(obs, skip1, skip2):
    """R6.2: the face-up card with the highest positive printed value (ties: not doubled,
    then lowest id), skipping up to two cards already zeroed; -1 if none."""
    best = -1
    for i in range(obs[O.O_N_FIGHT]):
        c = obs[O.FIGHT_LIST + i]
        if c == skip1 or c == skip2 or value_of(obs, c) <= 0 or obs[O.FLAGS + c] & O.F_FACE_DOWN:
            continue
        if best < 0 or value_of(obs, c) > value_of(obs, best) or \
                (value_of(obs, c) == value_of(obs, best) and obs[O.FLAGS + best] & O.F_DOUBLED
                 and not obs[O.FLAGS + c] & O.F_DOUBLED):
            best = c
    return best


@lean_jit(inline=True)
def oracle_fight_total(obs):
    """A test oracle: the fight's total as R4.6 counts it now (R5.3, R5.4, R6.2, R9.5),
    counted again from the rest of the observation.  Policies read the engines' count
    (O_FIGHT_TOTAL, policies.base.fight_total); tests/test_policies.py checks that the two
    agree at every fight decision."""
    n = obs[O.O_N_FIGHT]
    n_down = 0
    zero1 = -1
    zero2 = -1
    for i in range(n):
        c = obs[O.FIGHT_LIST + i]
        if obs[O.FLAGS + c] & O.F_FACE_DOWN:
            n_down += 1
        elif ability_of(obs, c) == C.AB_AGING_HIGHEST_ZERO:
            if zero1 < 0:
                zero1 = _highest_positive(obs, -1, -1)
                if zero1 < 0:
                    zero1 = N_CARDS  # marker: one zero card, nothing to zero
            else:
                zero2 = _highest_positive(obs, zero1, -1)
    pab = C.PA_NONE
    if obs[O.O_OPPONENT_IS_PIRATE]:
        pab = pirate_ability(obs, obs[O.O_OPPONENT])
    if pab == C.PA_HALF_COUNT:
        return _half_count_total(obs, n, zero1, zero2)
    total = 0
    for i in range(n):
        c = obs[O.FIGHT_LIST + i]
        if c != zero1 and c != zero2:
            total += card_value(obs, c)
    if pab == C.PA_PLUS1_PER_CARD:
        total += n if obs[O.O_OPT_PLUS1_COUNTS_DESTROYED] else n - n_down
    return total


@lean_jit
def _half_count_total(obs, n, zero1, zero2):
    """R9.5 half_cards_count: aging cards always count, best other cards fill ceil(n/2).
    Allocation-free (policies run without Numba's reference counting): the best others are
    picked one at a time, ``taken`` marks their positions in the fight list."""
    total = 0
    n_aging = 0
    for i in range(n):
        c = obs[O.FIGHT_LIST + i]
        if is_aging(obs, c) and not obs[O.FLAGS + c] & O.F_FACE_DOWN:
            total += 0 if (c == zero1 or c == zero2) else card_value(obs, c)
            n_aging += 1
    taken = 0
    for _ in range(min(n - n_aging, max(0, (n + 1) // 2 - n_aging))):
        best_i = -1
        best_v = 0
        for i in range(n):
            c = obs[O.FIGHT_LIST + i]
            if (taken >> i) & 1 or (is_aging(obs, c) and not obs[O.FLAGS + c] & O.F_FACE_DOWN):
                continue
            v = 0 if (c == zero1 or c == zero2) else card_value(obs, c)
            if best_i < 0 or v > best_v:
                best_i, best_v = i, v
        taken |= 1 << best_i
        total += best_v
    return total


@lean_jit
def deck_worth(obs, c):
    """What a card is worth in Robinson's deck for good (destroy decisions): its value, its
    ability, and a penalty for aging cards (they score -5, R10.3)."""
    return value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)] - (3.0 if is_aging(obs, c) else 0.0)


@lean_jit
def fight_worth(obs, c):
    """What a face-up card is still worth in this fight: its value and an unused ability."""
    w = float(card_value(obs, c))
    if is_aging(obs, c):
        w += ABILITY_WORTH[ability_of(obs, c)]
    elif not obs[O.FLAGS + c] & O.F_USED:
        w += ABILITY_WORTH[ability_of(obs, c)]
    return w


@lean_jit
def lowest_worth(obs, exclude, for_good):
    """The face-up fight card (other than ``exclude``) worth least, and its worth: worth in
    the deck for good (``deck_worth``: destroy, R5.3) or in this fight (``fight_worth``:
    exchange / below_pile, R5.8, R5.9); (-1, 1e9) if there is none."""
    best = -1
    best_key = 1e9
    for i in range(obs[O.O_N_FIGHT]):
        c = obs[O.FIGHT_LIST + i]
        if c == exclude or obs[O.FLAGS + c] & O.F_FACE_DOWN:
            continue
        key = deck_worth(obs, c) if for_good else fight_worth(obs, c)
        if key < best_key:
            best, best_key = c, key
    return best, best_key


@lean_jit(inline=True)
def is_food(obs, c):
    """Card c gives life when used (life_plus, R5.1)."""
    ab = ability_of(obs, c)
    return ab == C.AB_LIFE1 or ab == C.AB_LIFE2


@lean_jit(inline=True)
def keep_worth(obs, c, food_worth):
    """A non-aging card's worth for the loss budget (R4.8): value + ability worth, a food card
    ``food_worth`` more (the expert: 0)."""
    w = value_of(obs, c) + ABILITY_WORTH[ability_of(obs, c)]
    if food_worth != 0.0 and is_food(obs, c):
        w += food_worth
    return w


@lean_jit
def cull_count(obs, budget, max_value, food_worth=0.0):
    """How many fight cards a loss with this budget would destroy (R4.8), choosing like
    destroy_choice: aging cards (cost 2) first, then cards with keep_worth <= max_value
    (cost 1)."""
    count = 0
    n = obs[O.O_N_FIGHT]
    for i in range(n):
        c = obs[O.FIGHT_LIST + i]
        if is_aging(obs, c) and not obs[O.FLAGS + c] & O.F_FACE_DOWN and budget >= destroy_cost(obs, c):
            budget -= destroy_cost(obs, c)
            count += 1
    for i in range(n):
        c = obs[O.FIGHT_LIST + i]
        if not is_aging(obs, c) and not obs[O.FLAGS + c] & O.F_FACE_DOWN \
                and keep_worth(obs, c, food_worth) <= max_value and budget >= 1:
            budget -= 1
            count += 1
    return count


@lean_jit
def best_double_value(obs, exclude):
    best = 0
    for i in range(obs[O.O_N_FIGHT]):
        c = obs[O.FIGHT_LIST + i]
        if c != exclude and not obs[O.FLAGS + c] & (O.F_FACE_DOWN | O.F_DOUBLED):
            if value_of(obs, c) > best:
                best = value_of(obs, c)
    return best


@lean_jit
def deck_mean(obs):
    """Mean fight value of Robinson's cards outside the fight (stack and discard, R1.4)."""
    total = obs[O.O_DECK_SUM]
    n = obs[O.O_DECK_N]
    return total / n if n > 0 else 0.0


@lean_jit
def stack_best_sum(obs, take):
    """The sum of the best ``take`` cards left in the Robinson stack (its value counts are
    open, R1.4; fewer if the stack holds fewer)."""
    total = 0
    v = O.MAX_VALUE
    while take > 0 and v > 0:                 # the best cards first
        k = obs[O.O_STACK_VALUE + v - 1]
        if k > take:
            k = take
        total += k * v
        take -= k
        v -= 1
    return total


@lean_jit
def can_still_win(obs, missing, cards):
    """The best ``cards`` cards left in the Robinson stack (contents are open, R1.4) could
    cover ``missing`` points (only the best four are looked at)."""
    if cards <= 0:
        return False
    return stack_best_sum(obs, cards if cards < 4 else 4) >= missing


@lean_jit
def pirate_difficulty(obs, p):
    """Points a pirate will need beyond what its free cards bring on average (R9.5)."""
    mean = deck_mean(obs)
    ability = pirate_ability(obs, p)
    free = float(obs[O.CT_PIRATE_FREE + p])
    value = float(obs[O.CT_PIRATE_VALUE + p])
    if ability == C.PA_PLUS2_PER_AGING:
        value = 2.0 * obs[O.O_AGING_TAKEN]
    elif ability == C.PA_REMAINING_HAZARDS:
        value, free = 0.0, 0.0
        for c in range(N_CARDS):
            z = obs[O.ZONE + c]
            if z == O.Z_HAZARD_DISCARD or z == O.Z_HAZARD_STACK:
                value += hazard_value(obs, c, 2)
                free += hazard_free(obs, c)
    elif ability == C.PA_HALF_COUNT:
        value *= 2.0
    elif ability == C.PA_PLUS1_PER_CARD:
        value -= free
    return value - free * mean + (free if ability == C.PA_EXTRA_COSTS_2 else 0.0)


@lean_jit
def pirate_knowledge_bonus(obs, card):
    """Extra worth of a knowledge card against the two pirates known from the start (R2.4):
    draw abilities against the +1-per-card and 2-life-per-card pirates, high values against
    the half-count pirate, destroy against the +2-per-aging pirate (R9.5)."""
    bonus = 0.0
    ab = ability_of(obs, card)
    for p in (obs[O.O_PIRATE_1], obs[O.O_PIRATE_2]):
        pa = pirate_ability(obs, p)
        if (pa == C.PA_PLUS1_PER_CARD or pa == C.PA_EXTRA_COSTS_2) and \
                (ab == C.AB_DRAW1 or ab == C.AB_DRAW2):
            bonus += 1.0
        elif pa == C.PA_HALF_COUNT:
            bonus += 0.5 * value_of(obs, card)
        elif pa == C.PA_PLUS2_PER_AGING and ab == C.AB_DESTROY:
            bonus += 1.0
    return bonus


from sim.deprecation import moved  # noqa: E402  (the 0.1.0 names: CHANGELOG.md)

__getattr__ = moved(__name__, {}, shims={
    f: (f"policies.arith:oracle_{f}", f"policies.base.{f} (the engines' count)")
    for f in ("fight_total", "effective_value")})
