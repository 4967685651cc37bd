"""R1 (components, zones, destroy cost, open information) and R2 (set-up by level).

Every set-up, from a seed or a deal, is checked on both engines: the fast engine's trace
starts with the reference's setup and step events (``setup_game``)."""
from collections import Counter

import numpy as np
import pytest

import sim.cards as C
import sim.observation as O
from helpers import (GENIUS, VERY_STUPID, check_conservation, events, in_game_aging, make_deal,
                     new_game, play, same_setup_on_fast_engine)
from sim.rules import start_life

pytestmark = pytest.mark.usefixtures("fast_engine")      # conftest: the one warm-up


def setup_game(level, seed=0, deal=None):
    """The reference game just set up (R2) from the seed, or from ``deal``; the fast engine
    sets up the same game (``same_setup_on_fast_engine``)."""
    g = new_game([], level, deal, seed=seed)
    g.set_up()
    same_setup_on_fast_engine(g)
    return g


def test_r1_1_components():
    """R1.1: 18 start cards, 11 aging (8 normal incl. very stupid, 3 difficult), 30 hazards,
    10 pirates; 69 physical cards in all."""
    kinds = Counter(C.KIND_NAMES[k] for k in C.KIND)
    assert kinds == {"start": 18, "aging_normal": 8, "aging_difficult": 3, "hazard": 30,
                     "pirate": 10}
    assert C.NAME[C.VERY_STUPID] == "very stupid" and C.KIND[C.VERY_STUPID] == C.KIND_AGING_NORMAL
    # start card values: 5x -1, 8x 0, 3x +1, 1x +2, eating 0 with life_plus2
    assert sorted(C.FIGHT_VALUE[list(C.START_IDS)]) == [-1] * 5 + [0] * 9 + [1] * 3 + [2]
    assert C.ABILITY_NAMES[C.ABILITY[17]] == "life_plus2"


def test_r1_3_destroy_cost():
    """R1.3: destroying costs 1 for start and knowledge cards, 2 for aging cards."""
    for c in C.START_IDS + C.HAZARD_IDS:
        assert C.DESTROY_COST[c] == 1
    for c in C.AGING_IDS:
        assert C.DESTROY_COST[c] == 2


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_r1_2_every_card_in_one_zone_after_setup(level):
    """R1.2: after set-up every card is in exactly one zone (very stupid out of the game at
    levels 1-2)."""
    for seed in range(20):
        g = setup_game(level, seed)
        check_conservation(g)
        assert (VERY_STUPID in g.out_of_game) == (level <= 2)


def test_r1_4_open_information_contents_not_order():
    """R1.4: the observation gives the zone of every card (contents of every pile) but not
    the order of the face-down Robinson stack: two deals differing only in order give the
    same observation."""
    d1 = make_deal(1, robinson=[GENIUS, 0])
    d2 = make_deal(1, robinson=[0, GENIUS])
    obs = []
    for d in (d1, d2):
        g = setup_game(1, deal=d)
        obs.append(g.observation(O.PH_HAZARD))
    assert np.array_equal(obs[0], obs[1])
    o = obs[0]
    for c in C.START_IDS:
        assert o[O.ZONE + c] == O.Z_ROBINSON_STACK
    for c in C.HAZARD_IDS:
        assert o[O.ZONE + c] == O.Z_HAZARD_STACK
    assert o[O.O_KNOWN_TOP_N] == 0 and o[O.O_N_ROBINSON_STACK] == 18


def _aging_layout(g):
    """aging stack top first"""
    return list(reversed(g.aging_stack))


@pytest.mark.parametrize("seed", range(30))
def test_r2_1_level1_aging_stack(seed):
    """R2.1 (level 1): very stupid set aside; the 7 other normals (shuffled) lie on top of
    the 3 difficult ones (shuffled).  R2.2: Robinson stack = the 18 start cards."""
    g = setup_game(1, seed)
    top = _aging_layout(g)
    assert len(top) == 10
    assert set(top[:7]) == set(C.AGING_NORMAL_IDS) - {VERY_STUPID}
    assert set(top[7:]) == set(C.AGING_DIFFICULT_IDS)
    assert sorted(g.robinson_stack) == list(C.START_IDS)
    assert g.out_of_game == [VERY_STUPID]


@pytest.mark.parametrize("seed", range(30))
def test_r2_2_level2_setup_aging_card(seed):
    """R2.2 (level 2): the top aging card (a normal one, never very stupid) is shuffled into
    the 18 start cards: 19 Robinson cards, 6 normals over 3 difficult in the aging stack."""
    g = setup_game(2, seed)
    extra = [c for c in g.robinson_stack if C.IS_AGING[c]]
    assert len(g.robinson_stack) == 19 and len(extra) == 1
    assert C.KIND[extra[0]] == C.KIND_AGING_NORMAL and extra[0] != VERY_STUPID
    top = _aging_layout(g)
    assert len(top) == 9 and set(top[6:]) == set(C.AGING_DIFFICULT_IDS)
    assert set(top[:6]) | set(extra) == set(C.AGING_NORMAL_IDS) - {VERY_STUPID}


@pytest.mark.parametrize("level", [3, 4])
def test_r2_1_r2_2_levels_3_4_very_stupid_in_game(level):
    """R2.1/R2.2 (levels 3, 4): very stupid is shuffled with the normals (8 normals) before
    the set-up card is taken, so over many seeds it is sometimes the card in the Robinson
    stack; the aging stack keeps 7 normals over the 3 difficult ones."""
    in_robinson = 0
    for seed in range(200):
        g = setup_game(level, seed)
        extra = [c for c in g.robinson_stack if C.IS_AGING[c]]
        assert len(g.robinson_stack) == 19 and len(extra) == 1
        assert C.KIND[extra[0]] == C.KIND_AGING_NORMAL
        top = _aging_layout(g)
        assert len(top) == 10 and set(top[7:]) == set(C.AGING_DIFFICULT_IDS)
        assert set(top[:7]) | set(extra) == set(C.AGING_NORMAL_IDS)
        assert g.out_of_game == []
        in_robinson += extra[0] == VERY_STUPID
    assert 5 <= in_robinson <= 60      # expected 200/8 = 25


def test_r2_3_hazard_stack_and_green_step():
    """R2.3: the 30 hazards shuffled, step green (a step event right after setup)."""
    g = setup_game(1, 3)
    assert sorted(g.hazard_stack) == list(C.HAZARD_IDS)
    assert [e["e"] for e in g.trace] == ["setup", "step"]
    assert g.trace[1] == {"e": "step", "step": "green", "hazard_stack": g.trace[0]["hazard_stack"]}
    orders = {tuple(setup_game(1, s).hazard_stack) for s in range(10)}
    assert len(orders) == 10      # shuffled


def test_r2_4_two_pirates():
    """R2.4: two different pirates at random, known from the start (setup event,
    observation)."""
    seen = set()
    for seed in range(60):
        g = setup_game(1, seed)
        assert len(g.pirates) == 2 and len(set(g.pirates)) == 2
        assert set(g.pirates) <= set(C.PIRATE_IDS)
        assert g.trace[0]["pirates"] == g.pirates
        obs = g.observation(O.PH_HAZARD)
        assert sorted([obs[O.O_PIRATE_1], obs[O.O_PIRATE_2]]) == sorted(g.pirates)
        seen.update(g.pirates)
    assert seen == set(C.PIRATE_IDS)


@pytest.mark.parametrize("level,life,max_life", [(1, 20, 22), (2, 20, 22), (3, 20, 22),
                                                 (4, 18, 20)])
def test_r2_5_life(level, life, max_life):
    """R2.5: 20 life / max 22 at levels 1-3, 18 / 20 at level 4."""
    assert start_life(level) == (life, max_life)
    g = setup_game(level)
    assert (g.life, g.max_life) == (life, max_life)
    assert g.trace[0]["life"] == life and g.trace[0]["max_life"] == max_life


def test_deal_fixes_the_setup():
    """A deal fixes the stacks (top first) and the pirates; the setup event shows them."""
    d = make_deal(2, robinson=[GENIUS, 19], hazards=[57, 29], pirates=[66, 68])
    g = play([], level=2, deal=d)
    s = events(g, "setup")[0]
    assert s["robinson_stack"] == d["robinson_stack"]
    assert s["aging_stack"] == d["aging_stack"]
    assert s["hazard_stack"] == d["hazard_stack"]
    assert s["pirates"] == [66, 68]
    assert events(g, "hazards_drawn")[0]["cards"] == [57, 29]
    assert in_game_aging(2) == [c for c in C.AGING_IDS if c != VERY_STUPID]
