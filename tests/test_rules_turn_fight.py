"""R3 (a turn) and R4 (the fight), each from a deal or a position (sim.deal: a deal that
starts mid-game) plus a script, on both engines.

Hazard values used (cards.csv): raft #29-38 free 1, values 0/1/3; exploring #39-46 free 2,
1/3/6; wild animals #53-56 free 4, 4/7/11.  Start cards: 0-4 distracted -1, 5-12 weak 0,
13-15 focused +1, 16 genius +2.
"""
import pytest

from helpers import (GENIUS, HUNGRY, deal_fight, events, last, legal_at_stop, make_deal, play,
                     play_position, position_fight)
from sim.rules import RED, YELLOW

pytestmark = pytest.mark.usefixtures("fast_engine")      # conftest: the one warm-up


# --- R3 -----------------------------------------------------------------------------------
def test_r3_1_draw_two_choose_one():
    """R3.1: with 2+ hazards, two are drawn (top first), the player picks one to fight; the
    other goes face up on the hazard discard.  No skip with two cards."""
    g = play([], hazards=[29, 31])
    assert legal_at_stop(g) == ["fight:29", "fight:31"]
    g = play(["fight:31"], hazards=[29, 31])
    assert last(g, "hazards_drawn")["cards"] == [29, 31]
    assert last(g, "hazard_choice") == {"e": "hazard_choice", "fight": 31, "discarded": [29]}
    assert g.hazard_discard == [29] and g.fight.opponent == 31
    assert len(g.hazard_stack) == 28


def test_r3_2_last_card_fight_or_skip():
    """R3.2: with exactly one hazard left it is drawn; the player may fight it or discard it
    without a fight (skip)."""
    g = play_position([], hazard_stack=[39], hazard_discard=[29])
    assert last(g, "hazards_drawn")["cards"] == [39]
    assert legal_at_stop(g) == ["skip", "fight:39"]
    # skipped: the stack is empty, the step ends (R3.3) and yellow shuffles both back (R8.1)
    g = play_position(["skip"], hazard_stack=[39], hazard_discard=[29])
    assert last(g, "hazard_choice") == {"e": "hazard_choice", "fight": None, "discarded": [39]}
    assert sorted(last(g, "step")["hazard_stack"]) == [29, 39]
    assert not events(g, "fight_start")
    g = play_position(["fight:39"], hazard_stack=[39])
    assert g.fight.opponent == 39


def test_r3_3_empty_stack_ends_step():
    """R3.3/R8.1: an empty hazard stack ends the step at once: with no hazards at all the game
    goes green -> yellow -> red -> pirates without a turn."""
    g = play_position([], hazard_stack=[], hazard_discard=[])
    assert [e["step"] for e in events(g, "step")] == ["green", "yellow", "red", "pirates"]
    assert not events(g, "hazards_drawn")
    assert legal_at_stop(g) == ["pirate:59", "pirate:60"]


# --- R4 -----------------------------------------------------------------------------------
def test_r4_1_value_per_step_and_free_cards():
    """R4.1: wild animals (#53) is worth 4 / 7 / 11 in green / yellow / red and gives 4 free
    cards whatever the step (green from a deal; yellow and red from positions)."""
    g = deal_fight([], opponent=53)
    assert last(g, "fight_start") == {"e": "fight_start", "opponent": 53, "kind": "hazard",
                                      "free_cards": 4, "value": 4}
    for step, value in ((YELLOW, 7), (RED, 11)):
        g = position_fight([], opponent=53, step=step)
        assert last(g, "fight_start") == {"e": "fight_start", "opponent": 53, "kind": "hazard",
                                          "free_cards": 4, "value": value}


def test_r4_2_free_cards_one_at_a_time_left():
    """R4.2: free cards are drawn one at a time to the left, up to the free-card number: the
    raft (#29, 1 free card) offers 'draw' once, then only 'end' or 'pay'."""
    g = play(["fight:29"], hazards=[29, 30], robinson=[5, 6])
    assert legal_at_stop(g) == ["draw", "pay"]
    g = play(["fight:29", "draw"], hazards=[29, 30], robinson=[5, 6])
    assert g.fight.left == [5] and g.fight.right == []
    assert last(g, "draw") == {"e": "draw", "card": 5, "side": "left", "cost": 0,
                               "reason": "free"}
    assert legal_at_stop(g) == ["end", "pay"]


def test_r4_3_paid_cards_and_no_free_after_paying():
    """R4.3: a further card costs 1 life and goes right; once a card is paid for, no more
    free cards (exploring #39 has 2 free cards, one is left unused).  The draw event comes
    before its life event."""
    g = play(["fight:39", "draw", "pay"], hazards=[39, 30], robinson=[5, 6, 7])
    assert g.fight.left == [5] and g.fight.right == [6]
    assert g.life == 19
    assert g.trace[-2:] == [
        {"e": "draw", "card": 6, "side": "right", "cost": 1, "reason": "paid"},
        {"e": "life", "delta": -1, "life": 19, "reason": "paid_draw"}]
    assert legal_at_stop(g) == ["end", "pay"]           # no 'draw' although 1 free card left
    # paying before any free card also closes free drawing
    g = play(["fight:39", "pay"], hazards=[39, 30], robinson=[5, 6, 7])
    assert legal_at_stop(g) == ["end", "pay"]


def test_r4_3_no_life_no_paid_card():
    """R4.3: a life can only be paid if Robinson has it: with 0 life 'pay' is not offered."""
    g = position_fight(["draw"], opponent=29, life=0, robinson=[5, 6])
    assert legal_at_stop(g) == ["end"]


def test_r4_4_one_card_before_ending_then_stop_any_time():
    """R4.4: 'end' is not legal before the first card; after it the player may stop even
    with free cards left (exploring: 2 free, stop after 1)."""
    g = play(["fight:39"], hazards=[39, 30], robinson=[5, 6])
    assert "end" not in legal_at_stop(g)
    g = play(["fight:39", "draw"], hazards=[39, 30], robinson=[5, 6])
    assert legal_at_stop(g) == ["end", "draw", "pay"]
    g = play(["fight:39", "draw", "end", "done"], hazards=[39, 30], robinson=[5, 6])
    fe = last(g, "fight_end")
    assert fe["total"] == 0 and fe["value"] == 1 and not fe["won"]


def test_r4_5_abilities_once_never_on_own_card_aging_not_offered():
    """R4.5: after a draw the abilities of face-up cards (left or right) may be used, each
    card once per fight, never on its own card; aging abilities are never 'use' actions.
    Position: robinson = destroy knowledge #35, weak #5, hungry #22 (aging); exploring #39."""
    def g_after(actions):
        return position_fight(actions, opponent=39, robinson=[35, 5, HUNGRY])
    # alone in the fight, destroy has no other card to act on: not offered
    assert legal_at_stop(g_after(["draw"])) == ["end", "draw", "pay"]
    assert legal_at_stop(g_after(["draw", "draw"])) == ["end", "pay", "use:35"]
    assert legal_at_stop(g_after(["draw", "draw", "use:35"])) == ["target:5"]  # not itself
    g = g_after(["draw", "draw", "use:35", "target:5", "pay"])
    assert g.fight.right == [HUNGRY] and g.fight.face_down == {5}
    assert legal_at_stop(g) == ["end", "pay"]        # #35 used; hungry has no 'use'


def test_r4_6_fight_ends_only_by_the_player_total_of_face_up_cards():
    """R4.6: after all free cards the fight waits for the player ('end' or 'pay'); then the
    total is the sum of face-up values: genius 2 + focused 1 + distracted -1 = 2 vs the
    exploring green value 1: won."""
    g = play(["fight:39", "draw", "draw"], hazards=[39, 30], robinson=[16, 13, 0])
    assert legal_at_stop(g) == ["end", "pay"]
    g = play(["fight:39", "draw", "draw", "pay", "end"], hazards=[39, 30], robinson=[16, 13, 0])
    fe = last(g, "fight_end")
    assert (fe["total"], fe["value"], fe["won"], fe["life_paid"]) == (2, 1, True, 0)


def test_r4_7_won_hazard_becomes_knowledge():
    """R4.7: won (2 >= 0): the hazard and the fight cards go onto the robinson_discard; life
    unchanged; the other drawn hazard is on the hazard discard."""
    g = play(["fight:29", "draw", "end"], hazards=[29, 30], robinson=[GENIUS])
    assert g.robinson_discard == [GENIUS, 29]
    assert g.hazard_discard == [30] and g.life == 20 and g.fight is None


def test_r4_8_worked_example_source_003():
    """R4.8, source 003 §06: a hazard of 4 (wild animals #53, green), cards 2, 0, -1 (genius
    #16, weak #5, distracted #0): total 1, the player loses and pays 4 - 1 = 3 life.  The 3 are
    a destroy budget: destroy 0 and -1 (1 each); the last point stays unused (no further
    destroy: 'done').  No extra life is paid: 20 - 3 = 17.  Genius goes to the discard, the
    hazard to the hazard discard, the two cards are removed."""
    base = ["fight:53", "draw", "draw", "draw", "end"]
    d = make_deal(1, robinson=[GENIUS, 5, 0], hazards=[53, 29])
    g = play(base, deal=d)
    # only this fight's face-up cards can be destroyed; not the hazard, nothing elsewhere
    assert legal_at_stop(g) == ["done", "destroy:0", "destroy:5", "destroy:16"]
    assert g.destroy_budget == 3
    g = play(base + ["destroy:5", "destroy:0"], deal=d)
    assert legal_at_stop(g) == ["done", "destroy:16"] and g.destroy_budget == 1
    g = play(base + ["destroy:5", "destroy:0", "done"], deal=d)
    fe = last(g, "fight_end")
    assert fe == {"e": "fight_end", "total": 1, "value": 4, "won": False, "life_paid": 3,
                  "destroyed": [5, 0], "removed": []}
    assert g.life == 17
    assert sorted(g.removed) == [0, 5]
    assert g.robinson_discard == [GENIUS]
    assert g.hazard_discard == [29, 53]
    assert [e for e in g.trace if e["e"] == "life"] == [
        {"e": "life", "delta": -3, "life": 17, "reason": "lost_fight"}]


def test_r4_8_aging_card_costs_two_budget():
    """R4.8/R1.3: with a budget of 1 an aging card (cost 2) cannot be destroyed: level 2,
    raft (value 0) against aging distracted #18 (-1): deficit 1, no destroy decision at all;
    with stupid #19 (-2): budget 2 destroys it."""
    g = play(["fight:29", "draw", "end"], level=2, hazards=[29, 30], robinson=[18])
    fe = last(g, "fight_end")
    assert (fe["life_paid"], fe["destroyed"]) == (1, [])
    assert legal_at_stop(g) == ["fight:31", "fight:32"]      # straight to the next turn
    g = play(["fight:29", "draw", "end", "destroy:19"], level=2, hazards=[29, 30], robinson=[19])
    assert last(g, "fight_end")["destroyed"] == [19] and 19 in g.removed and g.life == 18


def test_r4_8_deliberate_loss_allowed():
    """R4.8: deliberately losing a hazard fight is always allowed: 'end' is legal at total
    -1 against value 4."""
    g = play(["fight:53", "draw"], hazards=[53, 29], robinson=[0])
    assert "end" in legal_at_stop(g)


def test_r4_9_aging_penalty_after_loss_payment():
    """R4.9/R6.1: aging penalties come after the R4.8 payment, without destroy budget.
    Level 2: exploring (value 1) vs hungry #22 (0) + weak #5 (0): lose by 1 -> pay 1 (budget 1
    cannot destroy hungry; the player declines weak), then hungry costs 1: 20 -> 19 -> 18."""
    g = play(["fight:39", "draw", "draw", "end", "done"], level=2, hazards=[39, 30],
             robinson=[HUNGRY, 5])
    tail = g.trace[-5:-1]
    assert [e["e"] for e in tail] == ["fight_end", "life", "ability", "life"]
    assert tail[0]["life_paid"] == 1
    assert tail[1] == {"e": "life", "delta": -1, "life": 19, "reason": "lost_fight"}
    assert tail[2] == {"e": "ability", "card": HUNGRY, "ability": "aging_life_minus1",
                       "target": None, "via_copy": None, "detail": {}}
    assert tail[3] == {"e": "life", "delta": -1, "life": 18, "reason": "aging"}


def test_r4_9_aging_penalty_loses_a_won_fight():
    """R4.9/R4.10: life 1; raft (value 0): free hungry #22, paid genius (life 1 -> 0), end:
    won 2 >= 0, but hungry's life cannot be paid, so the game is lost.  The hazard counts
    undefeated (back on the hazard discard), the fight cards still count for Robinson.
    Score (R10.3): Robinson's cards are only hungry (-5) and genius (+2) in this position,
    - 3 x 30 hazards (28 in the stack, #30 and #29 discarded) = -93."""
    g = play_position(["fight:29", "draw", "pay", "end"], robinson=[HUNGRY, GENIUS], life=1,
                      hazard_stack=list(range(29, 59)))
    fe = last(g, "fight_end")
    assert fe["won"] and fe["total"] == 2
    assert g.cause == 1 and not g.won                       # no_life
    assert g.trace[-3]["e"] == "fight_end" and g.trace[-2]["ability"] == "aging_life_minus1"
    assert g.trace[-1]["e"] == "game_end" and g.trace[-1]["cause"] == "no_life"
    assert g.life == 0 and 29 in g.hazard_discard and 29 not in g.robinson_discard
    assert g.score == -93


def test_r4_10_pay_down_to_zero_and_lose():
    """R4.10: life 2, lose wild animals (4) with weak (0) by 4: Robinson pays his 2 (down to
    0) and the game is lost at once (no destroy decision).  fight_end.life_paid = 2."""
    g = play_position(["fight:53", "draw", "end"], robinson=[5], life=2, hazard_stack=[53, 29])
    fe = last(g, "fight_end")
    assert fe["life_paid"] == 2 and fe["destroyed"] == []
    assert g.trace[-2] == {"e": "life", "delta": -2, "life": 0, "reason": "lost_fight"}
    assert g.trace[-1]["cause"] == "no_life" and g.life == 0
    assert g.hazard_discard == [29, 53]
    # R10.3: weak #5 (0, still in the fight; the only Robinson card here) - 3 x 2 hazards
    assert g.score == -6


def test_r4_10_zero_life_is_allowed():
    """R4.10: losing by exactly the life left leaves 0 life and the game goes on (the budget
    of 3 is offered since it can be paid)."""
    g = play_position(["fight:53", "draw", "end", "done"], robinson=[0], life=5,
                      hazard_stack=[53, 29, 30, 31])
    assert g.life == 0 and g.stopped
    assert legal_at_stop(g) == ["fight:30", "fight:31"]
