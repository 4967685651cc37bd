"""R5: abilities of start and knowledge cards, from positions plus scripts (sim.deal: a deal
that starts mid-game; no plain deal puts a knowledge card into the Robinson stack, R2.2), on
both engines (``position_fight``).

Knowledge cards used (value, ability): 29 raft food (0, life+1), 31 raft equipment (0, draw+2),
33 raft strategy (0, exchange2), 35 raft realization (0, destroy), 36 raft deception
(0, below_pile), 37 raft mimicry (0, copy), 38 raft books (0, step-1), 45 mimicry (+1, copy),
46 repeat (+1, double), 49 strategy (+2, exchange1), 50 experience (+2, draw+1),
51 repeat (+2, double), 52 vision (+2, sort3).  Opponent mostly wild animals #53 (4 free
cards, 4/7/11) or exploring #39 (2 free, 1/3/6).
"""
import sim.observation as O
from helpers import (EATING, GENIUS, SCARED1, STUPID1, VERY_TIRED, events, last, legal_at_stop,
                     position_fight)
from sim.rules import GREEN, PIRATES, RED, YELLOW


# --- R5.1 --------------------------------------------------------------------------------
def test_r5_1_life_plus1():
    """R5.1: food #29 gives 1 life from the reserve: 20 -> 21; ability event then life."""
    g = position_fight(["draw", "use:29"], robinson=[29, 5])
    assert g.life == 21
    assert g.trace[-2:] == [
        {"e": "ability", "card": 29, "ability": "life_plus1", "target": None, "via_copy": None,
         "detail": {"gained": 1}},
        {"e": "life", "delta": 1, "life": 21, "reason": "ability"}]


def test_r5_1_life_plus2_capped_at_max_life():
    """R5.1/R2.5: eating (+2) at 21 life of 22 gains only 1; at 22 it gains 0 (no life
    event)."""
    g = position_fight(["draw", "use:17"], robinson=[EATING, 5], life=21)
    assert g.life == 22 and last(g, "ability")["detail"] == {"gained": 1}
    g = position_fight(["draw", "use:17"], robinson=[EATING, 5], life=22)
    assert g.life == 22 and last(g, "ability")["detail"] == {"gained": 0}
    assert g.trace[-1]["e"] == "ability"


# --- R5.2 --------------------------------------------------------------------------------
def test_r5_2_draw_plus1_free_right_and_its_ability_usable():
    """R5.2: experience #50 draws 1 card free to the right (no life); that card's ability
    (destroy #35) may be used in this fight; free drawing is still open (only paying closes
    it, R4.3)."""
    g = position_fight(["draw", "use:50"], opponent=39, robinson=[50, 35, 5])
    assert g.fight.left == [50] and g.fight.right == [35] and g.life == 20
    assert last(g, "draw") == {"e": "draw", "card": 35, "side": "right", "cost": 0,
                               "reason": "ability"}
    assert legal_at_stop(g) == ["end", "draw", "pay", "use:35"]


def test_r5_2_draw_plus2_second_optional():
    """R5.2: equipment #31 draws one card, then the player may decline the second ('done')
    or take it ('more')."""
    g = position_fight(["draw", "use:31"], robinson=[31, 5, 6, 7])
    assert g.fight.right == [5] and legal_at_stop(g) == ["done", "more"]
    g = position_fight(["draw", "use:31", "done"], robinson=[31, 5, 6, 7])
    assert g.fight.right == [5]
    g = position_fight(["draw", "use:31", "more"], robinson=[31, 5, 6, 7])
    assert g.fight.right == [5, 6]
    assert [e["e"] for e in g.trace[-3:]] == ["ability", "draw", "draw"]


# --- R5.3 --------------------------------------------------------------------------------
def test_r5_3_destroy_face_down_zero_no_ability_removed():
    """R5.3: realization #35 turns genius face down: it counts 0 and is removed at the end.
    Then the destroyed card's ability is gone: experience #50 destroyed -> no use:50.
    Wild animals 4 vs 35 (0) + 50 destroyed (0) + 16 (2) ... here: destroy #50: total
    0 + 0 + 2 = 2, lost by 2; the face-down card is not offered to the budget."""
    g = position_fight(["draw", "draw", "draw", "use:35", "target:50"], robinson=[35, 50, 16])
    assert g.fight.face_down == {50}
    assert legal_at_stop(g) == ["end", "draw", "pay"]           # no use:50
    g = position_fight(["draw", "draw", "draw", "use:35", "target:50", "end"],
                       robinson=[35, 50, 16])
    # the destroy choices come before fight_end (which lists them)
    assert g.fight_total()[0] == 2 and g.destroy_budget == 2
    assert legal_at_stop(g) == ["done", "destroy:16", "destroy:35"]


def test_r5_3_destroyed_card_removed_after_won_fight_effects_stay():
    """R5.3: food #29 gives its life, then is destroyed: the life stays (21); raft (value 0)
    won 0 >= 0; #29 is removed, #35 and the hazard go to the discard."""
    g = position_fight(["draw", "pay", "use:29", "use:35", "target:29", "end"], opponent=30,
                       robinson=[35, 29])
    fe = last(g, "fight_end")
    assert fe["won"] and fe["removed"] == [29] and fe["destroyed"] == []
    assert g.life == 20                                  # 20 - 1 paid + 1 gained
    assert 29 in g.removed and g.robinson_discard == [35, 30]


# --- R5.4 --------------------------------------------------------------------------------
def test_r5_4_double_counts_twice_once_per_card():
    """R5.4: repeat #46 (+1) doubles genius: 1 + 2*2 = 5 >= 4: won.  A second double card
    (#51) can no longer target genius, nor itself: only #46."""
    g = position_fight(["draw", "draw", "use:46", "target:16", "end"], robinson=[46, GENIUS])
    assert last(g, "fight_end")["total"] == 5 and last(g, "fight_end")["won"]
    g = position_fight(["draw", "draw", "draw", "use:46", "target:16", "use:51"],
                       robinson=[46, 51, GENIUS])
    assert legal_at_stop(g) == ["target:46"]


# --- R5.5 --------------------------------------------------------------------------------
def test_r5_5_copy_a_used_ability():
    """R5.5: mimicry #37 copies food #29 after #29 was used: 20 -> 21 -> 22.  The event names
    the copied card and the copy card."""
    g = position_fight(["draw", "use:29", "draw", "use:37", "target:29"], robinson=[29, 37])
    assert g.life == 22
    assert last(g, "ability") == {"e": "ability", "card": 29, "ability": "life_plus1",
                                  "target": None, "via_copy": 37, "detail": {"gained": 1}}


def test_r5_5_copy_cannot_copy_copy_or_aging():
    """R5.5: with two copy cards, scared (aging) and food #29 face up, a copy may only copy
    #29."""
    g = position_fight(["draw", "draw", "draw", "draw", "use:37"],
                       robinson=[37, 45, SCARED1, 29])
    assert legal_at_stop(g) == ["target:29"]
    # without #29 nothing can be copied: use:37 / use:45 are not offered
    g = position_fight(["draw", "draw", "draw"], robinson=[37, 45, SCARED1])
    assert legal_at_stop(g) == ["end", "draw", "pay"]


def test_r5_5_several_copies_of_one_ability():
    """R5.5: two copy cards may copy the same ability: #29 used, copied by #37 and #45:
    20 + 3 = 23 -> capped at 22 (R2.5): gains 1, 1, 0."""
    g = position_fight(["draw", "draw", "draw", "use:29", "use:37", "target:29", "use:45",
                           "target:29"], robinson=[29, 37, 45])
    assert [e["detail"]["gained"] for e in events(g, "ability")] == [1, 1, 0]
    assert g.life == 22


def test_r5_5_copied_target_not_the_copy_card_but_may_be_the_source():
    """R5.5: copying destroy #35: the target may be #35 itself or #5, never the copy #37."""
    g = position_fight(["draw", "draw", "draw", "use:37", "target:35"], robinson=[35, 37, 5])
    assert legal_at_stop(g) == ["target:5", "target:35"]
    g = position_fight(["draw", "draw", "draw", "use:37", "target:35", "target:35"],
                       robinson=[35, 37, 5])
    assert g.fight.face_down == {35}
    assert last(g, "ability") == {"e": "ability", "card": 35, "ability": "destroy",
                                  "target": 35, "via_copy": 37, "detail": {}}
    assert "use:35" not in legal_at_stop(g)          # its own ability is gone (face down)


def test_r5_5_copying_exchange2_gives_both_exchanges():
    """R5.5 (copying exchange2 gives the whole ability) with R5.8: wild animals (4 free);
    free cards strategy #33 (exchange2), mimicry #37 (copy), distracted #0.  #37 copies #33:
    exchange #0 -> replacement #1 on the left; the second exchange (targets: #1 or the
    copied #33 itself, never the copy card #37) takes #1 -> replacement weak #5.  So the left
    is #33, #37, #5, the discard #0, #1; both ability events name #33 via copy #37.  #33's own
    exchange2 is still unused (use:33 offered); one free card is left (replacements are not
    free draws, R5.8)."""
    acts = ["draw", "draw", "draw", "use:37", "target:33", "target:0"]
    g = position_fight(acts, robinson=[33, 37, 0, 1, 5, 6])
    assert legal_at_stop(g) == ["done", "target:1", "target:33"]
    g = position_fight(acts + ["target:1"], robinson=[33, 37, 0, 1, 5, 6])
    assert g.fight.left == [33, 37, 5] and g.robinson_discard == [0, 1]
    assert [(e["card"], e["ability"], e["target"], e["via_copy"]) for e in events(g, "ability")] \
        == [(33, "exchange2", 0, 37), (33, "exchange2", 1, 37)]
    assert [(e["card"], e["reason"]) for e in g.trace[-4:] if e["e"] == "draw"] == \
        [(1, "exchange"), (5, "exchange")]
    assert g.fight.free_left == 1 and legal_at_stop(g) == ["end", "draw", "pay", "use:33"]


# --- R5.6 --------------------------------------------------------------------------------
def test_r5_6_sort3_take_discard_order():
    """R5.6: vision #52 takes 5, 6, 7 one by one (no 4th), discards 6, puts 7 then 5 back on
    top; the sorted cards never enter the fight; the player knows the order (R1.4); the
    next free card is 7."""
    acts = ["draw", "use:52", "more", "more", "more"]
    g = position_fight(acts, robinson=[52, 5, 6, 7, 8])
    assert g.sort_hand == [5, 6, 7]
    assert legal_at_stop(g) == ["done", "discard:5", "discard:6", "discard:7"]
    g = position_fight(acts + ["discard:6"], robinson=[52, 5, 6, 7, 8])
    assert legal_at_stop(g) == ["put:5", "put:7"]
    g = position_fight(acts + ["discard:6", "put:7"], robinson=[52, 5, 6, 7, 8])
    assert last(g, "ability")["detail"] == {"seen": [5, 6, 7], "discarded": 6, "order": [7, 5]}
    assert g.robinson_discard == [6] and g.robinson_stack[-2:] == [5, 7]   # 7 on top
    assert g.fight.cards() == [52] and g.sort_hand == []
    obs = g.observation(O.PH_FIGHT)
    assert obs[O.O_KNOWN_TOP_N] == 2 and [obs[O.O_KNOWN_TOP_0], obs[O.O_KNOWN_TOP_1]] == [7, 5]
    g = position_fight(acts + ["discard:6", "put:7", "draw"], robinson=[52, 5, 6, 7, 8])
    assert g.fight.left == [52, 7]


def test_r5_6_sort3_cards_stay_in_hand_until_order_chosen():
    """R5.6: while the order is chosen, every kept card (also those already put back) stays
    in the sort3 hand (observation zone sort3_hand); all go on the stack together."""
    acts = ["draw", "use:52", "more", "more", "more", "done", "put:7"]
    g = position_fight(acts, robinson=[52, 5, 6, 7, 8])
    assert legal_at_stop(g) == ["put:5", "put:6"]
    assert sorted(g.sort_hand) == [5, 6, 7]
    obs = g.observation(O.PH_SORT_ORDER)
    assert [obs[O.ZONE + c] for c in (5, 6, 7)] == [O.Z_SORT] * 3
    assert obs[O.O_N_ROBINSON_STACK] == 1 and obs[O.O_KNOWN_TOP_N] == 0


def test_r5_6_sort3_stop_early_keep_all():
    """R5.6: the player may stop after one card and discard none: it goes back on top."""
    g = position_fight(["draw", "use:52", "more", "done", "done", "draw"], robinson=[52, 5, 6])
    assert last(g, "ability")["detail"] == {"seen": [5], "discarded": None, "order": [5]}
    assert g.fight.left == [52, 5]


def test_r5_6_sort3_on_empty_stack_reshuffles():
    """R5.6/R7.1: vision is the last card of the stack; taking a card reshuffles the discard
    (5, 6) with the top aging card (stupid #19) first; the reshuffle event follows the
    ability event."""
    g = position_fight(["draw", "use:52", "more"], robinson=[52], discard=[5, 6],
                       aging=[STUPID1, 20])
    kinds = [e["e"] for e in g.trace[-2:]]
    assert kinds == ["ability", "reshuffle"]
    rs = last(g, "reshuffle")
    assert rs["aging_added"] == STUPID1 and sorted(rs["robinson_stack"]) == [5, 6, STUPID1]
    assert g.sort_hand == [rs["robinson_stack"][0]]
    assert list(reversed(g.aging_stack)) == [20]


# --- R5.7 --------------------------------------------------------------------------------
def test_r5_7_step_minus1_yellow_uses_green_value():
    """R5.7: in yellow exploring is worth 3; with books #38 the comparison uses green (1):
    books 0 + genius 2 = 2 >= 1: won; fight_end.value = 1."""
    g = position_fight(["draw", "draw", "use:38", "end"], opponent=39, step=YELLOW,
                       robinson=[38, GENIUS])
    fe = last(g, "fight_end")
    assert (fe["value"], fe["total"], fe["won"]) == (1, 2, True)
    assert last(g, "fight_start")["value"] == 3


def test_r5_7_step_minus1_red_one_use_yellow():
    """R5.7: red exploring 6, one use: yellow value 3."""
    g = position_fight(["draw", "draw", "use:38", "end", "done"], opponent=39, step=RED,
                       robinson=[38, GENIUS])
    assert last(g, "fight_end")["value"] == 3


def test_r5_7_step_minus1_no_effect_in_green_or_vs_pirate():
    """R5.7: in green the value stays green (1); against a pirate (6/20) it stays 20."""
    g = position_fight(["draw", "draw", "use:38", "end", "done"], opponent=39, step=GREEN,
                       robinson=[38, 5])
    assert last(g, "fight_end")["value"] == 1
    g = position_fight(["draw", "use:38"], opponent=59, step=PIRATES, robinson=[38, 5])
    assert g.fight.step_minus == 1 and g.effective_value() == 20


# --- R5.8 --------------------------------------------------------------------------------
def test_r5_8_exchange1_left_stays_left():
    """R5.8: strategy #49 exchanges distracted #0 (left): #0 to the discard, the
    replacement (genius) drawn into the same place on the left, reason 'exchange'."""
    g = position_fight(["draw", "draw", "draw", "use:49", "target:0"],
                       robinson=[49, 0, 5, GENIUS])
    assert g.fight.left == [49, GENIUS, 5] and g.robinson_discard == [0]
    assert g.trace[-2:] == [
        {"e": "ability", "card": 49, "ability": "exchange1", "target": 0, "via_copy": None,
         "detail": {}},
        {"e": "draw", "card": GENIUS, "side": "left", "cost": 0, "reason": "exchange"}]
    assert g.fight.free_left == 1                       # a replacement is not a free draw


def test_r5_8_exchange_right_stays_right():
    """R5.8: a paid card exchanged is replaced on the right, at no cost."""
    g = position_fight(["draw", "pay", "use:49", "target:0"], robinson=[49, 0, GENIUS])
    assert g.fight.right == [GENIUS] and g.life == 19
    assert last(g, "draw")["side"] == "right" and last(g, "draw")["cost"] == 0


def test_r5_8_exchange2_second_may_take_new_card_or_stop():
    """R5.8: strategy #33 (exchange2): exchange #0 -> #1 drawn; the second exchange may take
    #1 (just drawn) -> genius; or the player stops with 'done'."""
    acts = ["draw", "draw", "use:33", "target:0"]
    g = position_fight(acts, robinson=[33, 0, 1, GENIUS])
    assert legal_at_stop(g) == ["done", "target:1"]
    g = position_fight(acts + ["target:1"], robinson=[33, 0, 1, GENIUS])
    assert g.fight.left == [33, GENIUS] and g.robinson_discard == [0, 1]
    ab = events(g, "ability")
    assert [(e["target"]) for e in ab] == [0, 1]
    assert [e["e"] for e in g.trace[-4:]] == ["ability", "draw", "ability", "draw"]
    g = position_fight(acts + ["done"], robinson=[33, 0, 1, GENIUS])
    assert g.fight.left == [33, 1] and legal_at_stop(g) == ["end", "draw", "pay"]


def test_r5_8_exchange_with_empty_stack_reshuffles_the_exchanged_card():
    """R5.8/R7.1: the stack is empty; the exchanged card is already on the discard and is
    shuffled with the top aging card (#19) into the new stack."""
    g = position_fight(["draw", "draw", "use:49", "target:0"], robinson=[49, 0], discard=[],
                       aging=[STUPID1, 20])
    rs = last(g, "reshuffle")
    assert rs["aging_added"] == STUPID1 and sorted(rs["robinson_stack"]) == [0, STUPID1]
    assert g.fight.left[1] == rs["robinson_stack"][0]
    assert g.robinson_discard == []


# --- R5.9 --------------------------------------------------------------------------------
def test_r5_9_below_pile_left_card_with_replacement():
    """R5.9: deception #36 puts #0 (left) face down under the stack; the player may draw a
    replacement to the left ('more'), reason 'replace'."""
    acts = ["draw", "draw", "use:36", "target:0"]
    g = position_fight(acts, robinson=[36, 0, 5, GENIUS])
    assert g.robinson_stack[0] == 0 and legal_at_stop(g) == ["done", "more"]
    g = position_fight(acts + ["more"], robinson=[36, 0, 5, GENIUS])
    assert g.fight.left == [36, 5]
    assert last(g, "draw") == {"e": "draw", "card": 5, "side": "left", "cost": 0,
                               "reason": "replace"}
    g = position_fight(acts + ["done"], robinson=[36, 0, 5, GENIUS])
    assert g.fight.left == [36] and legal_at_stop(g) == ["end", "draw", "pay"]


def test_r5_9_below_pile_right_card_no_replacement():
    """R5.9: a right (paid) card put below the pile gets no replacement decision."""
    g = position_fight(["draw", "pay", "use:36", "target:0"], robinson=[36, 0, 5])
    assert g.fight.right == [] and g.robinson_stack[0] == 0
    assert legal_at_stop(g) == ["end", "pay"]


def test_r5_9_below_pile_empty_stack_reshuffles_first():
    """R5.9/R7.1: with an empty stack the discard (5, 6) and aging #19 are reshuffled first
    (without the card being moved), then #0 goes under the new stack."""
    g = position_fight(["draw", "draw", "use:36", "target:0"], robinson=[36, 0], discard=[5, 6],
                       aging=[STUPID1, 20])
    rs = last(g, "reshuffle")
    assert sorted(rs["robinson_stack"]) == [5, 6, STUPID1]
    assert g.robinson_stack[0] == 0 and len(g.robinson_stack) == 4


# --- R5.10 -------------------------------------------------------------------------------
def test_r5_10_replacement_on_left_is_a_free_card_for_r6_4():
    """R5.10/R6.4: exchanging a left card brings very tired #25 to the left: free drawing
    stops although 2 free cards remain (wild animals, 4 free)."""
    g = position_fight(["draw", "draw", "use:49", "target:0"], robinson=[49, 0, VERY_TIRED, 5])
    assert g.fight.left == [49, VERY_TIRED] and g.fight.free_left == 2
    assert last(g, "ability")["ability"] == "aging_stop"
    assert legal_at_stop(g) == ["end", "pay"]
