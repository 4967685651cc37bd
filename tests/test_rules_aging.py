"""R6 (aging abilities, mandatory) and R7 (empty Robinson stack, old age).

Aging cards: 18 distracted -1, 19/20 stupid -2, 22 hungry (life -1), 23/24 scared
(highest zero), 25 very tired (stop), 28 very hungry (life -2).  A level-2 deal puts one
normal aging card into the Robinson stack (R2.2, ``deal_fight``); positions (sim.deal,
``position_fight``, ``play_position``) put any aging cards there, next to knowledge cards, or
empty the Robinson stack for R7.  Every game is played on both engines.
"""
import pytest

from helpers import (GENIUS, HUNGRY, SCARED1, SCARED2, STUPID1, VERY_HUNGRY, VERY_TIRED,
                     check_conservation, deal_fight, events, last, legal_at_stop,
                     play_position, position_fight)

pytestmark = pytest.mark.usefixtures("fast_engine")      # conftest: the one warm-up


# --- R6.1 --------------------------------------------------------------------------------
def test_r6_1_very_hungry_after_won_fight():
    """R6.1/R4.9: raft (0): very hungry #28 free, genius paid (20 -> 19), won 2 >= 0; then
    very hungry costs 2: 19 -> 17.  Events: fight_end, ability, life(aging)."""
    g = position_fight(["draw", "pay", "end"], opponent=29, robinson=[VERY_HUNGRY, GENIUS])
    assert g.life == 17
    tail = g.trace[-4:-1]                       # the next turn's hazards_drawn follows
    assert [e["e"] for e in tail] == ["fight_end", "ability", "life"]
    assert tail[1]["ability"] == "aging_life_minus2" and tail[1]["card"] == VERY_HUNGRY
    assert tail[2] == {"e": "life", "delta": -2, "life": 17, "reason": "aging"}
    assert last(g, "fight_end")["life_paid"] == 0


# --- R6.2 --------------------------------------------------------------------------------
def test_r6_2_highest_printed_value_counts_zero():
    """R6.2: level 2, scared (the deal's aging card) + genius (2) + focused 1 + 1 against
    wild animals (4): genius counts 0: total 2, lost.  The aging ability event (target
    genius) comes before fight_end (the script stops at the destroy decision)."""
    g = deal_fight(["draw"] * 4 + ["end"], level=2, robinson=[SCARED1, GENIUS, 13, 14])
    ev = last(g, "ability")
    assert ev == {"e": "ability", "card": SCARED1, "ability": "aging_highest_zero",
                  "target": GENIUS, "via_copy": None, "detail": {}}
    assert g.fight_total()[0] == 2


def test_r6_2_doubled_highest_card_zeroed_whole():
    """R6.2: genius doubled by repeat #46 is still the highest printed value; the whole card
    counts 0: 0 + 0 + 1 (repeat) = 1."""
    g = position_fight(["draw"] * 3 + ["use:46", "target:16"], robinson=[SCARED1, GENIUS, 46])
    assert g.fight_total()[0] == 1
    assert g.zeroed_cards() == [(SCARED1, GENIUS)]


def test_r6_2_tie_only_one_and_prefer_not_doubled():
    """R6.2 ties: focused #13, #14 and repeat #46 all print +1; #46 doubles #13.  Only one
    card is zeroed, a non-doubled one (#14, then lowest id): 2 (13 doubled) + 0 + 1 = 3."""
    g = position_fight(["draw"] * 4 + ["use:46", "target:13"], robinson=[SCARED1, 13, 14, 46])
    assert g.zeroed_cards() == [(SCARED1, 14)]
    assert g.fight_total()[0] == 3


def test_r6_2_two_scared_zero_the_two_highest():
    """R6.2: two scared cards, genius 2, focused 1, 1 (cannibals, 5 free): genius and one
    focused (#13) count 0: total 1."""
    g = position_fight(["draw"] * 5 + ["end"], opponent=57,
                       robinson=[SCARED1, SCARED2, GENIUS, 13, 14])
    zero = [(e["card"], e["target"]) for e in events(g, "ability")
            if e["ability"] == "aging_highest_zero"]
    assert zero == [(SCARED1, GENIUS), (SCARED2, 13)]
    assert g.fight_total()[0] == 1


def test_r6_2_no_positive_card_no_effect():
    """R6.2: level 2, with only distracted (-1) the scared card (the deal's aging card)
    zeroes nothing: target null, total -1."""
    g = deal_fight(["draw", "draw", "end"], level=2, robinson=[SCARED1, 0])
    assert last(g, "ability")["target"] is None and g.fight_total()[0] == -1


# --- R6.3 --------------------------------------------------------------------------------
def test_r6_3_destroyed_aging_cards_lose_their_ability():
    """R6.3/R5.3: hungry destroyed by #35: no life penalty (lost 2 vs 4 with genius: pay 2,
    declining the budget: 20 -> 18 and nothing else).  Scared destroyed: genius counts."""
    g = position_fight(["draw", "draw", "draw", "use:35", "target:22", "end", "done"],
                       robinson=[35, HUNGRY, GENIUS])
    assert g.life == 18
    assert not [e for e in events(g, "ability") if e["ability"].startswith("aging")]
    g = position_fight(["draw", "draw", "draw", "use:35", "target:23", "end"],
                       robinson=[35, SCARED1, GENIUS])
    assert g.zeroed_cards() == [] and g.fight_total()[0] == 2


def test_r6_3_budget_destroyed_aging_card_gives_no_penalty():
    """R4.9 (the destroy choices come before the aging penalties)/R6.3/R4.8: level 2, hungry
    (the deal's aging card) + distracted (-1) vs wild animals (4): lost by 5, pay 5
    (20 -> 15); the budget removes hungry (2) and distracted (1); hungry's penalty is not
    paid (the script stops at the next turn)."""
    g = deal_fight(["draw", "draw", "end", "destroy:22", "destroy:0"], level=2,
                   robinson=[HUNGRY, 0])
    assert legal_at_stop(g) == ["fight:30", "fight:31"]
    assert g.life == 15 and 0 in g.removed and HUNGRY in g.removed
    assert last(g, "fight_end")["destroyed"] == [HUNGRY, 0]


# --- R6.4 --------------------------------------------------------------------------------
def test_r6_4_stop_card_on_the_left_ends_free_drawing():
    """R6.4: very tired drawn free: an aging_stop event; no more free cards, but paying and
    abilities remain."""
    g = position_fight(["draw", "draw"], robinson=[29, VERY_TIRED, 5])
    assert last(g, "ability") == {"e": "ability", "card": VERY_TIRED, "ability": "aging_stop",
                                  "target": None, "via_copy": None, "detail": {}}
    assert legal_at_stop(g) == ["end", "pay", "use:29"]


def test_r6_4_stop_card_on_the_right_only_counts_zero():
    """R6.4: very tired drawn by experience #50 (right): no stop, free drawing continues."""
    g = position_fight(["draw", "use:50"], robinson=[50, VERY_TIRED, 5])
    assert g.fight.right == [VERY_TIRED]
    assert "draw" in legal_at_stop(g)
    assert not [e for e in events(g, "ability") if e["ability"] == "aging_stop"]


def test_r6_4_destroying_the_stop_card_resumes_free_drawing():
    """R6.4 (and R4.3's exception): destroy very tired -> the 2 remaining free cards may be
    drawn, even after a paid card."""
    g = position_fight(["draw", "draw", "use:35", "target:25"], robinson=[35, VERY_TIRED, 5])
    assert legal_at_stop(g) == ["end", "draw", "pay"] and g.fight.free_left == 2
    g = position_fight(["draw", "draw", "pay", "use:35", "target:25"],
                       robinson=[35, VERY_TIRED, 5, 6])
    assert "draw" in legal_at_stop(g)
    g = position_fight(["draw", "draw", "pay", "use:35", "target:25", "draw"],
                       robinson=[35, VERY_TIRED, 5, 6])
    assert g.fight.left == [35, VERY_TIRED, 6] and g.fight.right == [5]


def test_r6_4_stop_card_below_pile_or_exchanged_resumes():
    """R6.4: very tired put below the pile (no replacement) or exchanged (replacement weak)
    -> free drawing resumes."""
    g = position_fight(["draw", "draw", "use:36", "target:25", "done"],
                       robinson=[36, VERY_TIRED, 5])
    assert "draw" in legal_at_stop(g) and g.robinson_stack[0] == VERY_TIRED
    g = position_fight(["draw", "draw", "use:49", "target:25"], robinson=[49, VERY_TIRED, 5, 6])
    assert g.fight.left == [49, 5] and "draw" in legal_at_stop(g)


def test_r6_4_stop_card_stops_free_drawing_every_time_it_is_drawn_free():
    """R6.4 (every time it is drawn free, also after it left the fight and came back): wild
    animals (4 free), stack deception #36, very tired #25, weak #5.  Free #36, free #25: stop.
    #36 puts #25 under the stack (no replacement, 'done'): free drawing resumes with 2 free
    cards; the stack is now #5 on top of #25.  Free #5, free #25 again: a second aging_stop,
    no free card left to draw (only end and pay; #36 is used)."""
    g = position_fight(["draw", "draw", "use:36", "target:25", "done", "draw", "draw"],
                       robinson=[36, VERY_TIRED, 5])
    stops = [e for e in events(g, "ability") if e["ability"] == "aging_stop"]
    assert len(stops) == 2 and all(e["card"] == VERY_TIRED for e in stops)
    assert g.fight.left == [36, 5, VERY_TIRED] and g.robinson_stack == []
    assert legal_at_stop(g) == ["end", "pay"]


# --- R7 ----------------------------------------------------------------------------------
def test_r7_1_drawing_the_last_card_does_not_reshuffle():
    """R7.1: drawing the last card leaves the stack empty (no reshuffle); the next draw takes
    the top aging card (#19) and shuffles it with the discard (6, 7) - not with the fight's
    card #5."""
    g = position_fight(["draw"], robinson=[5], discard=[6, 7], aging=[STUPID1, 20])
    assert g.robinson_stack == [] and not events(g, "reshuffle")
    g = position_fight(["draw", "draw"], robinson=[5], discard=[6, 7], aging=[STUPID1, 20])
    rs = last(g, "reshuffle")
    assert rs["aging_added"] == STUPID1
    assert sorted(rs["robinson_stack"]) == [6, 7, STUPID1]
    assert g.robinson_discard == [] and list(reversed(g.aging_stack)) == [20]
    assert g.fight.left == [5, rs["robinson_stack"][0]]
    assert [e["e"] for e in g.trace[-2:]] == ["reshuffle", "draw"]


def test_r7_1_a_paid_draw_from_an_empty_stack_reshuffles_or_ends_by_old_age():
    """R7.1 (a draw by the player's own choice, here a paid one, from an empty stack
    reshuffles): wild animals; free weak #5 empties the stack; ``pay`` takes stupid #19 (top
    aging card) and shuffles it with the discard (#6, #7) into the new stack, then draws its
    top card to the right for 1 life (20 -> 19); #20 stays in the aging stack.  With the aging
    stack empty the same paid draw ends the game by old age (R7.2): no reshuffle, no card
    drawn and no life paid (20); score 0 (weak #5, #6) - 3 x 2 hazards = -6 (R10.3)."""
    g = position_fight(["draw", "pay"], robinson=[5], discard=[6, 7], aging=[STUPID1, 20])
    rs = last(g, "reshuffle")
    assert rs["aging_added"] == STUPID1 and sorted(rs["robinson_stack"]) == [6, 7, STUPID1]
    assert last(g, "draw") == {"e": "draw", "card": rs["robinson_stack"][0], "side": "right",
                               "cost": 1, "reason": "paid"}
    assert g.life == 19 and list(reversed(g.aging_stack)) == [20]
    g = play_position(["fight:53", "draw", "pay"], robinson=[5], discard=[6], aging=[],
                      hazard_stack=[53, 29])
    assert g.trace[-1]["e"] == "game_end" and g.trace[-1]["cause"] == "old_age"
    assert not events(g, "reshuffle") and g.trace[-2]["e"] == "draw" and g.trace[-2]["card"] == 5
    assert g.life == 20 and g.score == -6
    check_conservation(g)


def test_r7_2_old_age_loses_by_default():
    """R7.2 (old_age=lose): the aging stack is empty when a card must be drawn: the game is
    lost by old age."""
    g = play_position(["fight:53", "draw", "draw"], robinson=[5], discard=[6], aging=[],
                      hazard_stack=[53, 29])
    assert g.cause == 2 and g.trace[-1]["cause"] == "old_age" and not g.won
    assert not events(g, "reshuffle")
    check_conservation(g)


def test_r7_3_empty_discard_new_stack_is_the_aging_card():
    """R7.3: discard empty: the new stack is the aging card alone."""
    g = position_fight(["draw", "draw"], robinson=[5], discard=[], aging=[STUPID1, 20])
    assert last(g, "reshuffle")["robinson_stack"] == [STUPID1]
    assert g.fight.left == [5, STUPID1] and g.robinson_stack == []


def test_r7_2_old_age_during_below_pile_keeps_every_card():
    """R5.9/R7.2/R10.3: below_pile on an empty stack with no aging card left: old age.  The
    target card (distracted #0) must still be Robinson's (in the fight): score = 36 (0) +
    #0 (-1) + discard #5 (0) - 3 x 2 hazards = -7, and every card is in one zone."""
    g = play_position(["fight:53", "draw", "draw", "use:36", "target:0"], robinson=[36, 0],
                      discard=[5], aging=[], hazard_stack=[53, 29])
    assert g.trace[-1]["cause"] == "old_age"
    check_conservation(g)
    assert g.score == -7
