"""Property tests (hypothesis): engines agree on arbitrary seeds, options and deals."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sim.cards as C
from policies import load_policy
from sim.actions import N_ACTIONS, action_id, action_name
from sim.fast import play_fast
from sim.reference import Game
from sim.rng import MAX_SEED
from sim.rules import Options

OPTIONS = st.builds(Options, old_age=st.sampled_from(["lose", "continue"]),
                    step_minus1_stacks=st.booleans(), plus1_counts_destroyed=st.booleans())
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def test_action_names_round_trip():
    for a in range(N_ACTIONS):
        assert action_id(action_name(a)) == a


@SETTINGS
@given(level=st.integers(1, 4), seed=st.integers(0, MAX_SEED), game=st.integers(0, 10**9),
       options=OPTIONS, policy=st.sampled_from(["random", "expert", "cull-green"]))
def test_fast_and_reference_traces_agree(level, seed, game, options, policy):
    p = load_policy(policy)
    reference = Game(level, seed, game, p, options).play()
    fast = play_fast(level, seed, game, p, options)
    assert fast["trace"] == reference.trace
    assert (fast["score"], fast["won"]) == (reference.score, reference.won)


@SETTINGS
@given(hazards=st.permutations(list(C.HAZARD_IDS)),
       pirates=st.lists(st.sampled_from(C.PIRATE_IDS), min_size=2, max_size=2, unique=True),
       seed=st.integers(0, 1000))
def test_a_deal_fixes_the_set_up_and_both_engines_honour_it(hazards, pirates, seed):
    deal = {"hazard_stack": hazards, "pirates": pirates}
    p = load_policy("expert")
    reference = Game(2, seed, 0, p, deal=deal).play()
    setup = reference.trace[0]
    assert setup["hazard_stack"] == hazards and setup["pirates"] == pirates
    assert play_fast(2, seed, 0, p, deal=deal)["trace"] == reference.trace
