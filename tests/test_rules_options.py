"""§O rule options: old_age, step_minus1_stacks, plus1_counts_destroyed (defaults first).

The recording test plays a deal; the options' effects need an empty aging stack, knowledge
cards in the Robinson stack or a later step: positions (sim.deal, ``position_fight``).  Every
game is played on both engines."""
import pytest

import sim.observation as O
from helpers import GENIUS, last, legal_at_stop, play, play_position, position_fight
from sim.rules import PIRATES, RED, Options, parse_options
from sim.trace import header

pytestmark = pytest.mark.usefixtures("fast_engine")      # conftest: the one warm-up

CONTINUE = Options(old_age="continue")


def test_defaults_and_recording():
    """§O: defaults lose / true / true; every option is in the trace header and the
    observation."""
    assert Options().as_dict() == {"old_age": "lose", "step_minus1_stacks": True,
                                   "plus1_counts_destroyed": True}
    assert parse_options() == Options()
    opts = parse_options(["old_age=continue", "step_minus1_stacks=false",
                          "plus1_counts_destroyed=False"])
    assert header("reference", 1, 0, 0, "x", opts)["options"] == {
        "old_age": "continue", "step_minus1_stacks": False, "plus1_counts_destroyed": False}
    obs = play([], options=opts).obs_seen[0]        # at the first decision, on both engines
    assert (obs[O.O_OPT_OLD_AGE_CONTINUE], obs[O.O_OPT_STEP_MINUS1_STACKS],
            obs[O.O_OPT_PLUS1_COUNTS_DESTROYED]) == (1, 0, 0)


# --- old_age (R7.2, R7.3) ----------------------------------------------------------------
def test_old_age_continue_reshuffles_without_aging():
    """old_age=continue (R7.2, source 003): aging stack empty: the discard (#6) alone becomes
    the stack (aging_added null); the game goes on."""
    g = position_fight(["draw", "draw"], options=CONTINUE, robinson=[5], discard=[6], aging=[])
    assert last(g, "reshuffle") == {"e": "reshuffle", "aging_added": None,
                                    "robinson_stack": [6]}
    assert g.fight.left == [5, 6]


def test_old_age_lose_is_the_default():
    """old_age=lose (default): the same situation loses by old age."""
    g = play_position(["fight:53", "draw", "draw"], robinson=[5], discard=[6], aging=[],
                      hazard_stack=[53, 29])
    assert g.trace[-1]["cause"] == "old_age"


def test_old_age_continue_nothing_to_draw_ends_drawing():
    """R7.3 with old_age=continue: no stack, discard or aging card: drawing ends for this
    fight: after weak #5 only 'end' is legal (no draw, no pay); with nothing at all, 'end'
    is legal at once (R4.4 exception); draw_plus1 is not offered."""
    g = position_fight(["draw"], options=CONTINUE, robinson=[5], discard=[], aging=[])
    assert legal_at_stop(g) == ["end"]
    g = position_fight([], options=CONTINUE, robinson=[], discard=[], aging=[])
    assert legal_at_stop(g) == ["end"]
    g = position_fight(["draw"], options=CONTINUE, robinson=[50], discard=[], aging=[])
    assert legal_at_stop(g) == ["end"]
    # default: drawing is still possible (and loses by old age)
    g = position_fight(["draw"], robinson=[50], discard=[], aging=[])
    assert legal_at_stop(g) == ["end", "draw", "pay", "use:50"]


def test_old_age_continue_sort3_takes_nothing_when_nothing_drawable():
    """R5.6 + R7.3 (continue): vision on an empty everything: no sort_take decision; the
    ability event shows nothing seen."""
    g = position_fight(["draw", "use:52"], options=CONTINUE, robinson=[52], discard=[],
                       aging=[])
    assert last(g, "ability")["detail"] == {"seen": [], "discarded": None, "order": []}
    assert legal_at_stop(g) == ["end"]


# --- step_minus1_stacks (R5.7) -----------------------------------------------------------
def _two_step_minus(options):
    """Red wild animals (11 / 7 / 4): books #38 and mimicry #37 copying it: two uses; genius
    2 -> lost either way (then 'done' on the destroy budget)."""
    g = position_fight(["draw", "draw", "draw", "use:38", "use:37", "target:38", "end",
                        "done"], options=options, step=RED, robinson=[38, 37, GENIUS])
    assert g.fight is None
    return [e for e in g.trace if e["e"] == "fight_end"][-1]


def test_step_minus1_stacks_true_two_steps():
    """step_minus1_stacks=true (default): two uses in red -> green value 4 (lost by 2)."""
    fe = _two_step_minus(Options())
    assert (fe["value"], fe["total"], fe["life_paid"]) == (4, 2, 2)


def test_step_minus1_stacks_false_one_step():
    """step_minus1_stacks=false: two uses in red lower one step only -> yellow value 7
    (lost by 5)."""
    fe = _two_step_minus(Options(step_minus1_stacks=False))
    assert (fe["value"], fe["total"], fe["life_paid"]) == (7, 2, 5)


# --- plus1_counts_destroyed (R9.5) -------------------------------------------------------
def _plus1(options):
    """10/52 pirate: realization #35 (0), genius (2), focused #13 destroyed: 3 cards."""
    g = position_fight(["draw"] * 3 + ["use:35", "target:13"], opponent=66, options=options,
                       step=PIRATES, robinson=[35, GENIUS, 13])
    return g.fight_total()[0]


def test_plus1_counts_destroyed_true():
    """plus1_counts_destroyed=true (default, sources 000/003): 2 + 3 cards = 5."""
    assert _plus1(Options()) == 5


def test_plus1_counts_destroyed_false():
    """plus1_counts_destroyed=false: the face-down card gives no +1: 2 + 2 = 4."""
    assert _plus1(Options(plus1_counts_destroyed=False)) == 4
