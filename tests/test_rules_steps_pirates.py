"""R8 (steps) and R9 (pirates), from positions (sim.deal: short hazard stacks, a red step
with an empty hazard stack for the pirates, R8.2), on both engines.

Pirates: 59 6/20, 60 7/25, 64 7/16 extra cards cost 2, 65 9/22 half the cards count,
66 10/52 +1 per card, 67 5/* +2 per aging card, 68 */* remaining hazards.
"""
import json
import math

from helpers import (GENIUS, STUPID1, STUPID2, AutoPolicy, events, last, legal_at_stop,
                     play_position, position_fight)
from sim.rules import PIRATES, Options


# --- R8 ----------------------------------------------------------------------------------
def test_r8_1_step_order_and_hazard_reshuffle():
    """R8.1: green hazards 29 and 30 (+ 39 already on the hazard discard).  Green: fight raft
    #29 with genius: won, #29 becomes knowledge; #30 is discarded.  Yellow starts with the
    hazard discard {30, 39} shuffled (the won #29 does not return); the policy fights #30
    (raft, yellow 1) with focused (+1): won; #39 discarded.  Red starts with [39]; the last
    card is skipped (R3.2).  Then the pirates step: hazard_stack [], and the hazard discard
    [39] stays (R8.2)."""
    g = play_position([], policy=AutoPolicy(stop_at="pirate"), hazard_stack=[29, 30],
                      hazard_discard=[39], robinson=[GENIUS, 13, 14, 15])
    steps = events(g, "step")
    assert [s["step"] for s in steps] == ["green", "yellow", "red", "pirates"]
    assert sorted(steps[1]["hazard_stack"]) == [30, 39]
    assert steps[2]["hazard_stack"] == [39]
    assert steps[3]["hazard_stack"] == []
    assert [e["won"] for e in events(g, "fight_end")] == [True, True]
    assert [e["opponent"] for e in events(g, "fight_start")] == [29, 30]
    assert last(g, "hazard_choice") == {"e": "hazard_choice", "fight": None, "discarded": [39]}
    assert g.hazard_discard == [39] and g.hazard_stack == []
    assert g.robinson_discard == [GENIUS, 29, 13, 30]
    assert g.step == PIRATES and legal_at_stop(g) == ["pirate:59", "pirate:60"]


def test_r8_1_hazard_reshuffle_uses_the_seed():
    """R8.1: the yellow stack is a shuffle of the discard (different seeds, different
    orders; always the same contents)."""
    orders = set()
    for seed in range(12):
        g = play_position([], seed=seed, policy=AutoPolicy(stop_at="hazard"),
                          hazard_stack=[], hazard_discard=list(range(29, 39)))
        yellow = events(g, "step")[1]["hazard_stack"]
        assert sorted(yellow) == list(range(29, 39))
        orders.add(tuple(yellow))
    assert len(orders) > 6


# --- R9 ----------------------------------------------------------------------------------
STRONG = [57, 58, 53, 54, 55, 56, 51]        # 4 4 3 3 3 3 2(double)


def test_r9_1_choose_first_then_fight_the_other_at_once():
    """R9.1/R9.2: choose pirate 7/25 (#60) first: its fight has 7 free cards; cannibals 4+4,
    wild 3+3+3+3, repeat 2 doubling one cannibal: 26 >= 25: won; the 6/20 pirate follows at
    once (pirate_choice, fight_start with 6 free cards, value 20)."""
    script = ["pirate:60"] + ["draw"] * 7 + ["use:51", "target:57", "end"]
    g = play_position(script, hazard_stack=[], hazard_discard=[], robinson=STRONG + [5])
    assert [e["fight"] for e in events(g, "pirate_choice")] == [60, 59]
    starts = events(g, "fight_start")
    assert [(s["opponent"], s["kind"], s["free_cards"], s["value"]) for s in starts] == [
        (60, "pirate", 7, 25), (59, "pirate", 6, 20)]
    fe = events(g, "fight_end")[0]
    assert (fe["total"], fe["value"], fe["won"]) == (26, 25, True)
    assert g.pirates_beaten == [60]
    i = g.trace.index(fe)
    assert [e["e"] for e in g.trace[i + 1:]] == ["pirate_choice", "fight_start"]


def test_r9_3_pirate_fight_cannot_end_below_value():
    """R9.3: against 6/20 'end' is illegal at 17 (5 cards) and legal at 20 (6 cards)."""
    g = position_fight(["draw"] * 5, opponent=59, step=PIRATES,
                       robinson=[57, 58, 53, 54, 55, 56])
    assert g.fight_total()[0] == 17 and "end" not in legal_at_stop(g)
    g = position_fight(["draw"] * 6, opponent=59, step=PIRATES,
                       robinson=[57, 58, 53, 54, 55, 56])
    assert legal_at_stop(g)[:2] == ["end", "pay"]       # (+ the wild animals' abilities)


def test_r9_4_no_legal_action_no_life():
    """R9.4: life 0, six weak cards against 6/20: no free card left, none can be paid, no
    ability: the game is lost, cause no_life."""
    g = play_position(["pirate:59"] + ["draw"] * 6, hazard_stack=[], hazard_discard=[],
                      robinson=[5, 6, 7, 8, 9, 10, 11], life=0)
    assert g.trace[-1]["e"] == "game_end" and g.trace[-1]["cause"] == "no_life"
    assert not g.won and g.pirates_beaten == []


def test_r9_4_unused_ability_keeps_the_fight_going():
    """R9.4: with food #29 unused, the player still has a legal action (use:29 -> 1 life ->
    then a card can be paid)."""
    g = play_position(["pirate:59"] + ["draw"] * 6, hazard_stack=[], hazard_discard=[],
                      robinson=[29, 6, 7, 8, 9, 10, 11], life=0)
    assert legal_at_stop(g) == ["use:29"]
    g = play_position(["pirate:59"] + ["draw"] * 6 + ["use:29"], hazard_stack=[],
                      hazard_discard=[], robinson=[29, 6, 7, 8, 9, 10, 11], life=0)
    assert legal_at_stop(g) == ["pay"]


def test_r9_4_no_cards_and_old_age():
    """R9.4/R7.2/R7.3: one weak card, empty discard, empty aging stack.  old_age=continue:
    nothing can be drawn, no ability: cause no_cards.  Default old_age=lose: 'draw' is still
    legal and drawing loses by old age."""
    spec = dict(hazard_stack=[], hazard_discard=[], robinson=[5], discard=[], aging=[])
    g = play_position(["pirate:59", "draw"], options=Options(old_age="continue"), **spec)
    assert g.trace[-1]["cause"] == "no_cards"
    g = play_position(["pirate:59", "draw"], **spec)
    assert legal_at_stop(g) == ["draw", "pay"]
    g = play_position(["pirate:59", "draw", "draw"], **spec)
    assert g.trace[-1]["cause"] == "old_age"


def test_r9_5_extra_card_costs_2():
    """R9.5 extra_card_costs_2 (7/16): after the 7 free cards a paid card costs 2 life
    (20 -> 18); with 1 life `pay` is still offered (RULES.md R9.5, source 000): the card is
    drawn, the last life handed in (1 -> 0) and the game lost, cause no_life (R4.10)."""
    weak = [5, 6, 7, 8, 9, 10, 11, 12]
    g = position_fight(["draw"] * 7 + ["pay"], opponent=64, step=PIRATES, robinson=weak)
    assert g.life == 18
    assert last(g, "draw") == {"e": "draw", "card": 12, "side": "right", "cost": 2,
                               "reason": "paid"}
    assert last(g, "life") == {"e": "life", "delta": -2, "life": 18, "reason": "paid_draw"}
    g = position_fight(["draw"] * 7, opponent=64, step=PIRATES, robinson=weak, life=1)
    assert "pay" in g.stop_message
    g = position_fight(["draw"] * 7 + ["pay"], opponent=64, step=PIRATES, robinson=weak, life=1)
    assert g.trace[-1]["e"] == "game_end" and g.cause == 1 and g.life == 0
    assert last(g, "draw") == {"e": "draw", "card": 12, "side": "right", "cost": 2,
                               "reason": "paid"}
    assert last(g, "life") == {"e": "life", "delta": -1, "life": 0, "reason": "paid_draw"}


def test_r9_5_half_cards_count():
    """R9.5 half_cards_count (9/22): nine cards 4, 4, 3, 3, 3, stupid -2, -1, -1, 0:
    ceil(9/2) = 5 places; the aging card counts (-2), then the best 4: 4+4+3+3 -> 12."""
    g = position_fight(["draw"] * 9, opponent=65, step=PIRATES,
                       robinson=[57, 58, 53, 54, 55, STUPID1, 0, 1, 5])
    assert len(g.fight.cards()) == 9 and math.ceil(9 / 2) == 5
    assert g.fight_total()[0] == 12


def test_r9_5_half_cards_count_destroyed_cards_count_as_zero_places():
    """R9.5 half_cards_count: realization #35 (0), genius destroyed (0), -1, -1: n = 4
    (destroyed included), 2 places: the best are 0 and 0 -> 0 (not -1)."""
    g = position_fight(["draw"] * 4 + ["use:35", "target:16"], opponent=65, step=PIRATES,
                       robinson=[35, GENIUS, 0, 1])
    assert g.fight_total()[0] == 0


def test_r9_5_half_cards_count_more_aging_than_places():
    """R9.5 half_cards_count: stupid -2, stupid -2, genius 2: 2 places, 2 aging cards: all
    aging count and nothing else -> -4."""
    g = position_fight(["draw"] * 3, opponent=65, step=PIRATES,
                       robinson=[STUPID1, STUPID2, GENIUS])
    assert g.fight_total()[0] == -4


def test_r9_5_plus1_per_card():
    """R9.5 plus1_per_card (10/52): genius 2 + focused 1 + weak 0 + 3 cards = 6."""
    g = position_fight(["draw"] * 3, opponent=66, step=PIRATES, robinson=[GENIUS, 13, 5])
    assert g.fight_total()[0] == 6


def test_r9_5_fight_remaining_hazards():
    """R9.5 fight_remaining_hazards: hazard discard raft #29 (red 3, free 1), exploring #39
    (6, 2), wild #53 (11, 4): value 20, 7 free cards."""
    g = position_fight([], opponent=68, step=PIRATES, hazard_discard=[29, 39, 53])
    assert last(g, "fight_start") == {"e": "fight_start", "opponent": 68, "kind": "pirate",
                                      "free_cards": 7, "value": 20}


def test_r9_5_fight_remaining_hazards_none_left():
    """R9.5/R4.4: no hazard left: value 0, no free card; one paid card must still be drawn
    ('end' illegal before); weak (0) reaches 0: 'end' legal; distracted (-1) does not."""
    g = position_fight([], opponent=68, step=PIRATES, hazard_discard=[])
    assert last(g, "fight_start")["value"] == 0 and last(g, "fight_start")["free_cards"] == 0
    assert legal_at_stop(g) == ["pay"]
    g = position_fight(["pay"], opponent=68, step=PIRATES, hazard_discard=[], robinson=[5])
    assert legal_at_stop(g) == ["end", "pay"]
    g = position_fight(["pay"], opponent=68, step=PIRATES, hazard_discard=[], robinson=[0])
    assert legal_at_stop(g) == ["pay"]


def test_r9_5_plus2_per_aging_fixed_at_fight_start():
    """R9.5 plus2_per_aging (5 free): level 1 with 6 of the 10 aging cards left in the aging
    stack: 4 have left it -> value 8.  A reshuffle during the fight takes a 5th: the value
    stays 8."""
    g = position_fight(["draw", "draw"], opponent=67, step=PIRATES, robinson=[5], discard=[6],
                       aging=[19, 20, 22, 23, 24, 25])
    assert last(g, "fight_start")["value"] == 8 and last(g, "fight_start")["free_cards"] == 5
    assert last(g, "reshuffle")["aging_added"] == 19
    assert g.effective_value() == 8


def test_r9_5_plus2_per_aging_counts_the_setup_card():
    """R9.5 plus2_per_aging: at level 2 the set-up aging card has left the aging stack:
    value 2 at once (a plain int: the trace must stay JSON, TRACE.md)."""
    g = play_position(["pirate:67", "draw", "end"], level=2, hazard_stack=[], hazard_discard=[],
                      pirates=[67, 59], robinson=[57])
    start, end = events(g, "fight_start")[0], events(g, "fight_end")[0]
    assert start["opponent"] == 67 and start["value"] == 2 and type(start["value"]) is int
    assert type(end["won"]) is bool and end["won"]
    json.dumps(g.trace)
