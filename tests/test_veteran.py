"""The veteran policy's own rules (policies/veteran.py), each on a hand-made observation where
it decides differently from the expert, and switched off by its parameter; plus a paired check
on fixed-seed games that it beats the expert."""
import numpy as np
import pytest

import sim.cards as C
import sim.observation as O
from sim.actions import A_DESTROY, A_DONE, A_END, A_FIGHT, A_PAY, A_USE
from observations import DISTRACTED, decide, obs_with

RAFT_FOOD, RAFT_EQUIPMENT, RAFT_STRATEGY, RAFT_REALIZATION, RAFT_DECEPTION, RAFT_MIMICRY, \
    RAFT_BOOKS = 29, 31, 33, 35, 36, 37, 38
EXPLORING_WEAPON, FURTHER_FOOD, CANNIBALS = 41, 47, 57
GENIUS = 16


def hazard_obs(step=0, life=20):
    """A hazard choice with the 18 start cards in Robinson's stack (mean value 0, so the
    expected shortfall of a hazard is its value) and the aging cards in the aging stack."""
    obs = obs_with(O.PH_HAZARD, step=step, life=life)
    for c in range(C.N_CARDS):
        if C.IS_AGING[c]:
            obs[O.ZONE + c] = O.Z_AGING_STACK
    obs[O.O_OPPONENT] = -1
    return obs


def choose(name, obs, a, b):
    return decide(name, obs, [A_FIGHT + a, A_FIGHT + b])


def test_the_deck_mean_is_zero_in_these_hazard_choices():
    obs = hazard_obs()
    O.fill_derived(obs, C.FIGHT_VALUE)
    assert obs[O.O_DECK_N] == 18 and obs[O.O_DECK_SUM] == 0


def test_r3_food_knowledge_is_worth_food_bonus_more():
    """Two value-0 raft hazards: food (life_plus1, worth 1) vs strategy (exchange2, 1.5)."""
    obs = hazard_obs()
    assert choose("expert", obs, RAFT_FOOD, RAFT_STRATEGY) == f"fight:{RAFT_STRATEGY}"
    assert choose("veteran", obs, RAFT_FOOD, RAFT_STRATEGY) == f"fight:{RAFT_FOOD}"
    assert decide("veteran", obs, [A_FIGHT + RAFT_FOOD, A_FIGHT + RAFT_STRATEGY],
                  {"food_bonus": 0}) == f"fight:{RAFT_STRATEGY}"


def test_r3_below_pile_knowledge_is_worth_less():
    """below_pile (deception) and copy (mimicry) are both worth 1 to the expert, which takes
    the first; the veteran's below_bonus -0.5 prefers the copy."""
    obs = hazard_obs()
    assert choose("expert", obs, RAFT_DECEPTION, RAFT_MIMICRY) == f"fight:{RAFT_DECEPTION}"
    assert choose("veteran", obs, RAFT_DECEPTION, RAFT_MIMICRY) == f"fight:{RAFT_MIMICRY}"
    assert decide("veteran", obs, [A_FIGHT + RAFT_DECEPTION, A_FIGHT + RAFT_MIMICRY],
                  {"below_bonus": 0}) == f"fight:{RAFT_DECEPTION}"


def test_r3_the_shortfall_weighs_less_in_the_yellow_step():
    """Yellow (R4.1), at the expert's shortfall weight 0.5: cannibals (weapon +4, value 9) vs
    raft (books, worth 1, value 1).  Expert: 4 - 0.5 * 9 < 1 - 0.5 * 1; veteran (0.7 times
    the weight): 4 - 3.15 > 1 - 0.35.  In green the weight is not lowered: cannibals
    (value 5) 4 - 2.5 < the raft's equipment 2.5."""
    obs = hazard_obs(step=1)
    legal = [A_FIGHT + RAFT_BOOKS, A_FIGHT + CANNIBALS]
    half = {"value_weight": 0.5}
    assert choose("expert", obs, RAFT_BOOKS, CANNIBALS) == f"fight:{RAFT_BOOKS}"
    assert decide("veteran", obs, legal, half) == f"fight:{CANNIBALS}"
    assert decide("veteran", obs, legal, {**half, "late_value_weight": 1}) == \
        f"fight:{RAFT_BOOKS}"
    green = hazard_obs(step=0)
    assert decide("veteran", green, [A_FIGHT + RAFT_EQUIPMENT, A_FIGHT + CANNIBALS], half) == \
        f"fight:{RAFT_EQUIPMENT}"


def test_r3_the_shortfall_weighs_0_6():
    """Yellow (R4.1): raft food (worth 0 + 1 + food_bonus 1, value 1) vs further exploring's
    realization (2 + destroy 1.5, value 5).  With the shortfall weight 0.6 (x 0.7 in yellow):
    2 - 0.42 > 3.5 - 2.1, so the food; with the expert's 0.5: 2 - 0.35 < 3.5 - 1.75."""
    further_realization = 48
    obs = hazard_obs(step=1)
    assert choose("veteran", obs, RAFT_FOOD, further_realization) == f"fight:{RAFT_FOOD}"
    assert decide("veteran", obs, [A_FIGHT + RAFT_FOOD, A_FIGHT + further_realization],
                  {"value_weight": 0.5}) == f"fight:{further_realization}"


@pytest.mark.parametrize("level, life, expected", [(1, 14, "pay"), (1, 15, "end"),
                                                   (4, 12, "end"), (4, 11, "pay")])
def test_r4_8_green_culling_keeps_15_minus_level_life(level, life, expected):
    """Green, exploring (value 1), a weak card (0) in the fight, the free cards out: 1 short.
    The veteran loses on purpose (R4.8, its budget destroys the weak card) only if at least
    cull_min_life 14 + cull_life_per_level -1 per level above 1 life stays (14 at level 1,
    11 at level 4); else it pays (R4.3).  The expert's limit is 12 at every level."""
    weak = 5
    obs = obs_with(O.PH_FIGHT, life=life, fight=(weak,))
    obs[O.O_LEVEL] = level
    legal = [A_END, A_PAY]
    assert decide("veteran", obs, legal) == expected
    assert decide("expert", obs, legal) == ("end" if life - 1 >= 12 else "pay")
    assert decide("veteran", obs, legal, {"cull_min_life": 12, "cull_life_per_level": 0}) == \
        decide("expert", obs, legal)


def test_r4_8_the_loss_budget_keeps_a_food_card():
    """Budget 1, fight: raft food (0, life_plus1) and genius (+2).  The expert destroys the
    food card (worth 1 <= destroy_max_value 1), the veteran keeps it (worth 2)."""
    obs = obs_with(O.PH_DESTROY, fight=(RAFT_FOOD, GENIUS))
    obs[O.O_DESTROY_BUDGET] = 1
    legal = [A_DONE, A_DESTROY + RAFT_FOOD, A_DESTROY + GENIUS]
    assert decide("expert", obs, legal) == f"destroy:{RAFT_FOOD}"
    assert decide("veteran", obs, legal) == "done"
    assert decide("veteran", obs, legal, {"food_keep": 0}) == f"destroy:{RAFT_FOOD}"
    obs[O.ZONE + DISTRACTED] = O.Z_FIGHT_RIGHT
    assert decide("veteran", obs, legal + [A_DESTROY + DISTRACTED]) == f"destroy:{DISTRACTED}"


def test_r4_8_no_deliberate_green_loss_for_a_food_card():
    """Green, exploring (value 1), the free cards out, only the food card (0) in the fight:
    1 short.  The expert loses on purpose (its budget would destroy the food card); the
    veteran, which would keep it, pays for a card (R4.3)."""
    obs = obs_with(O.PH_FIGHT, life=15, fight=(RAFT_FOOD,))
    legal = [A_END, A_PAY]
    assert decide("expert", obs, legal) == "end"
    assert decide("veteran", obs, legal) == "pay"
    assert decide("veteran", obs, legal, {"food_keep": 0}) == "end"


@pytest.mark.parametrize("life, expected", [(2, "pay"), (5, "end")])
def test_r4_10_pays_on_where_the_loss_would_kill(life, expected):
    """Green, further exploring (value 2), a -1 in the fight: 3 short.  The expert ends
    (green pays only for 1 short); at life 2 that loss is certain death (R4.10), and the
    best two cards left (genius, focused) could still reach 3: the veteran pays."""
    obs = obs_with(O.PH_FIGHT, life=life, opponent=FURTHER_FOOD, fight=(DISTRACTED,))
    legal = [A_END, A_PAY]
    assert decide("expert", obs, legal) == "end"
    assert decide("veteran", obs, legal) == expected
    assert decide("veteran", obs, legal, {"pay_to_survive": 0}) == "end"


def test_pay_to_survive_needs_a_card_that_could_still_win():
    """With only 0s and -1s left in the stack a paid card cannot save the fight: end."""
    obs = obs_with(O.PH_FIGHT, life=2, opponent=FURTHER_FOOD, fight=(DISTRACTED,))
    for c in range(13, 18):                    # focused x3, genius, eating out of the stack
        obs[O.ZONE + c] = O.Z_REMOVED
    assert decide("veteran", obs, [A_END, A_PAY]) == "end"


def test_r5_3_a_won_fight_destroys_a_weak_card_for_good():
    """Green, exploring (value 1) beaten by genius (+2); a weak (0) and a raft realization
    (destroy) in the fight too.  The expert ends (it destroys only cards worth < 0 once the
    fight is won); the veteran removes the weak card first (destroy_won_max 0), but not a
    focused (+1) card, and not with destroy_won_max -1."""
    weak, focused = 5, 15
    obs = obs_with(O.PH_FIGHT, fight=(weak, GENIUS, RAFT_REALIZATION))
    legal = [A_END, A_USE + RAFT_REALIZATION]
    assert decide("expert", obs, legal) == "end"
    assert decide("veteran", obs, legal) == f"use:{RAFT_REALIZATION}"
    assert decide("veteran", obs, legal, {"destroy_won_max": -1}) == "end"
    obs[O.ZONE + weak] = O.Z_ROBINSON_STACK
    obs[O.ZONE + focused] = O.Z_FIGHT_LEFT
    assert decide("veteran", obs, legal) == "end"


def test_veteran_beats_expert_on_fixed_deals():
    """Paired, 3,000 level-1 games of seed 5: the veteran wins clearly more (the difference is
    about 6 points with a standard error of about 1; McNemar p < 1e-3)."""
    from sim.lab import compare
    c = compare(["expert", "veteran"], level=1, games=3000, seed=5).iloc[0]
    assert c.win_diff < 0 and c.mcnemar_p < 1e-3
    assert np.isfinite(c.score_diff)


def pay_obs(stack, discard=(), life=10, fight=(13,)):
    """Yellow (R8), cannibals (value 9) against the cards ``fight``, the free cards out;
    Robinson's other start cards out of play except ``stack`` (the Robinson stack) and
    ``discard``; aging cards in the aging stack."""
    cannibals = 57
    obs = obs_with(O.PH_FIGHT, step=1, life=life, opponent=cannibals, fight=fight)
    for c in range(O.N_FIGHTING):
        if obs[O.ZONE + c] == O.Z_ROBINSON_STACK:
            obs[O.ZONE + c] = O.Z_AGING_STACK if C.IS_AGING[c] else O.Z_REMOVED
    for c in stack:
        obs[O.ZONE + c] = O.Z_ROBINSON_STACK
    for c in discard:
        obs[O.ZONE + c] = O.Z_ROBINSON_DISCARD
    obs[O.O_N_ROBINSON_STACK] = len(stack)
    obs[O.O_N_ROBINSON_DISCARD] = len(discard)
    return obs


@pytest.mark.parametrize("life, expected", [(10, "pay"), (4, "end")])
def test_r4_3_pays_on_while_the_best_affordable_cards_could_win(life, expected):
    """Yellow, 8 short (cannibals 9 against a +1).  The stack's best four cards (2 + 2 + 2 + 1,
    two weapons from exploring and genius) make 7: the expert ends; all six of them make 8, so
    the veteran pays while it can afford them (reach_cards), not at life 4 (best four:
    7 < 8), and not with reach_cards 0 (or 4)."""
    weapons = (41, 42)
    obs = pay_obs(stack=(5, 14, 15, 16) + weapons, life=life)
    legal = [A_END, A_PAY]
    assert decide("expert", obs, legal) == "end"
    assert decide("veteran", obs, legal) == expected
    assert decide("veteran", obs, legal, {"reach_cards": 0}) == "end"
    assert decide("veteran", obs, legal, {"reach_cards": 4}) == "end"


def test_r4_3_beyond_the_stack_the_discard_counts():
    """Yellow, 7 short (cannibals 9 against two +1s); the stack holds one +1 card, the discard
    genius (+2) and two weapons (+2): the expert ends (1 < 7); paying past the stack shuffles
    the discard in (R7.1), so the veteran counts its best cards (1 + 2 + 2 + 2 = 7) and pays,
    also with reach_cards 4."""
    obs = pay_obs(stack=(14,), discard=(16, 41, 42, 5), fight=(13, 15))
    legal = [A_END, A_PAY]
    assert decide("expert", obs, legal) == "end"
    assert decide("veteran", obs, legal) == "pay"
    assert decide("veteran", obs, legal, {"reach_cards": 4}) == "pay"
    assert decide("veteran", obs, legal, {"reach_cards": 0}) == "end"
