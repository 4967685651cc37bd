"""R10: end of the game and score, with a hand-computed example totalling 47 points.

Each game starts from a position (sim.deal: knowledge cards, discard piles, life, short
hazard stacks; ``play_position``), played on both engines."""
from helpers import STUPID1, events, last, play_position


def test_r10_scoring_example_47_points():
    """R10.1 + R10.3, a complete won game from a position (level 1):
    - Robinson stack: cannibals #57, #58 (+4 each) on top of start cards #1-#17 (distracted
      #0 was destroyed earlier: it is removed and does not count); discard: wild animals #53,
      #54 (+3 each) and the aging card stupid #19; hazard discard: raft #29; no hazard stack;
      life 2; pirates 5/* (+2 per aging card, #67) and */* (remaining hazards, #68).
    - Green has no hazards; yellow and red each start with [29] (R8.1) and skip it (R3.2).
    - Pirate #67: one aging card has left the aging stack -> value 2, 5 free cards: draw
      #57 (4) -> end, won.  Pirate #68: hazard discard [29] -> value = red 3, 1 free card:
      draw #58 (4) -> end, won.  Both beaten: the game is won (R10.1).
    Score (R10.3):
      start cards #1-#17: 4 x -1 + 9 x 0 + 3 x 1 + 2 =   1
      knowledge #53 #54 #57 #58: 3 + 3 + 4 + 4        =  14
      aging #19 counts -5                              =  -5
      2 pirates x 15                                   =  30
      2 life x 5 (won)                                 =  10
      1 hazard (#29) left on the hazard discard x -3   =  -3
      total                                            =  47"""
    g = play_position(["skip", "skip", "pirate:67", "draw", "end", "draw", "end"],
                      robinson=[57, 58] + list(range(1, 18)), discard=[53, 54, STUPID1],
                      hazard_stack=[], hazard_discard=[29], life=2, pirates=[67, 68])
    assert [e["value"] for e in events(g, "fight_start")] == [2, 3]
    assert g.won and g.cause == 0 and g.pirates_beaten == [67, 68]
    assert 0 in g.removed and g.hazard_discard == [29] and g.life == 2
    assert g.score == 47
    assert g.trace[-1] == {"e": "game_end", "won": True, "cause": "won", "life": 2,
                           "score": 47, "step": "pirates"}


def test_r10_1_won_only_when_the_second_pirate_is_beaten():
    """R10.1/R9.4: the first pirate (#67, value 2) is beaten, the second (#59, 6/20) is not
    (six weak cards, life 0): the game is lost (no_life).  Score: cannibals #57 + #58 (+8,
    discard) + weak #5-#12 (0) + 15 for the one pirate, no life bonus -> 23."""
    g = play_position(["pirate:67", "draw", "draw", "end"] + ["draw"] * 6,
                      robinson=[57, 58, 5, 6, 7, 8, 9, 10, 11, 12], discard=[], life=0,
                      hazard_stack=[], hazard_discard=[], pirates=[67, 59],
                      aging=[18, 20, 22, 23, 24, 25, 26, 27, 28])
    assert g.pirates_beaten == [67] and not g.won
    assert g.trace[-1]["cause"] == "no_life"
    assert g.score == 8 + 15


def test_r10_3_lost_game_no_life_bonus_hazards_cost_3():
    """R10.3: a game lost by old age with 20 life: no life bonus; -3 per hazard in the
    stack (28) and on the discard (2): Robinson's cards are weak #5 (in the fight) and #6
    (discard): 0 - 90 = -90."""
    g = play_position(["fight:53", "draw", "draw"], robinson=[5], discard=[6], aging=[],
                      hazard_stack=[53] + [h for h in range(29, 59) if h != 53])
    assert last(g, "game_end")["cause"] == "old_age" and g.life == 20
    assert len(g.hazard_stack) + len(g.hazard_discard) == 30
    assert g.score == -90


def test_r10_3_destroyed_cards_do_not_count_won_knowledge_does():
    """R10.3: after a won raft fight (genius + distracted #0 destroyed by realization #35)
    the Robinson cards are 35 (0), genius (2), knowledge raft #29 (0); #0 removed.  Then the
    game is lost at the next fight (life 0, lost by 4 -> no_life): the wild animals fight
    cards still count (weak #5, 0).  Hazards: #30, #54 and the undefeated #53 on the
    discard, 25 in the stack (raft #35 is Robinson's): 2 - 3 x 28 = -82."""
    g = play_position(["fight:29", "draw", "pay", "pay", "use:35", "target:0", "end",
                       "fight:53", "draw", "end"],
                      robinson=[35, 16, 0, 5], life=2,
                      hazard_stack=[29, 30, 53, 54] + [h for h in range(31, 53) if h != 35]
                      + list(range(55, 59)))
    fe = events(g, "fight_end")
    assert fe[0]["won"] and fe[0]["removed"] == [0]
    assert 0 in g.removed and g.trace[-1]["cause"] == "no_life"
    assert g.hazard_discard == [30, 54, 53]
    assert g.score == 2 - 3 * 28
