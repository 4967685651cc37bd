"""sim.Game and the state machine (sim.fast.machine): step by step equals the batch runner and
the reference engine; clone and resample_hidden (R1.4, R2.1).

The step-by-step test plays 1,000 games per level through the Python ``Game`` (the four built-in
policies in turn) and compares every observation and legal-action list with the decisions that
``play_fast(record=True)`` recorded, and every result with ``run_batch``'s row; the reference
engine is compared on the first 12 of those games per level (full traces), as it is slow.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from policies import builtin_policies, load_policy
from sim import Game
from sim import observation as O
from sim.cards import AGING_DIFFICULT_IDS
from sim.fast import layout as Y
from sim.fast import play_fast, run_batch
from sim.contract.numba_wall import address_of, lean_jit
from sim.fast.machine import clone_into
from sim.fast.state import new_state
from sim.reference import play_game
from sim.errors import RuleError, UsageError
from sim.rules import CAUSE_NAMES, STEP_NAMES

POLICIES = ("random", "always-fight", "cull-green", "expert")
N_GAMES = 1000
N_REFERENCE = 12
FIRST_DIFFICULT = AGING_DIFFICULT_IDS[0]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_game_step_by_step_equals_batch_and_reference(level):
    seed = 11
    pols = [load_policy(p) for p in POLICIES]
    rows = [run_batch(level, seed, 0, N_GAMES, p) for p in pols]
    for game in range(N_GAMES):
        k = game % len(pols)
        rec = play_fast(level, seed, game, pols[k], record=True)
        g = Game.new(level=level, seed=seed, game=game, trace=game < N_REFERENCE)
        i = 0
        while not g.is_over:
            assert np.array_equal(g.observation, rec["observations"][i]), (level, game, i)
            assert g.legal_actions() == rec["legal"][i], (level, game, i)
            g.step(g.policy_action(pols[k]))
            i += 1
        assert i == len(rec["legal"]) and g.legal_actions() == []
        r, row = g.result, rows[k]
        assert (r["won"], r["score"], r["cause"], r["life"], r["step"], r["turns"],
                r["destroyed"], r["aging_taken"]) == (
            bool(row["won"][game]), int(row["score"][game]), CAUSE_NAMES[row["cause"][game]],
            int(row["life"][game]), STEP_NAMES[row["step"][game]], int(row["turns"][game]),
            int(row["destroyed"][game]), int(row["aging_taken"][game])), (level, game)
        if game < N_REFERENCE:
            ref = play_game(level, seed, game, pols[k])
            assert g.trace == ref.trace == rec["trace"], (level, game)
            assert (r["won"], r["score"]) == (ref.won, ref.score)


def test_game_api_names_errors_and_drawing():
    g = Game.new(level=1, seed=3, game=2, options={"old_age": "continue"})
    assert g.phase == "hazard" and not g.is_over and g.result is None
    names = g.legal_action_names()
    assert all(n.startswith("fight:") for n in names) and len(names) == 2
    with pytest.raises(RuleError, match="not legal at this hazard decision"):
        g.step("draw")
    with pytest.raises(UsageError, match="unknown action"):
        g.step("fight")
    g.step(names[0])
    assert g.phase == "fight" and "fight decision, legal" in str(g)
    assert g.legal_mask().sum() == len(g.legal_actions())
    result = g.play("expert")
    assert g.is_over and set(result) >= {"won", "score", "cause"} and "game over" in str(g)
    with pytest.raises(RuleError, match="over"):
        g.step("end")
    with pytest.raises(UsageError, match="unknown rule option"):
        Game.new(options={"old_agee": "lose"})


def _to_fight(seed=5, game=1, level=2, decisions=6):
    """A game some decisions in (an expert game's position), with a trace."""
    g = Game.new(level=level, seed=seed, game=game, trace=True)
    for _ in range(decisions):
        g.step(g.policy_action("expert"))
    return g


def test_clone_continued_with_the_same_stream_is_the_same_game():
    for game in range(20):
        g = _to_fight(game=game, decisions=3 + game % 7)
        h = g.clone()
        while not g.is_over:
            a = g.policy_action("random")
            assert h.policy_action("random") == a
            g.step(a)
            h.step(a)
            assert np.array_equal(g.observation, h.observation)
        assert h.is_over and h.result == g.result and h.trace == g.trace



@lean_jit(cache=False)
def _clone_into(g, h):
    """machine.clone_into from state ``g`` into state ``h``."""
    clone_into(address_of(g), address_of(h))


def test_copy_without_trace_room_never_fills_a_pending_sort3_event():
    """A traced game waiting inside sort3 (its ability event is filled in as cards are
    taken, S_SORT_EV) copied into a state with a one-slot trace: the copy neither traces
    nor writes that event, and plays on to the original's result."""
    g = None
    for game in range(400):
        h = Game.new(level=1, seed=3, game=game, trace=True)
        while not h.is_over and h.phase != "sort_take":
            h.step(h.policy_action("expert"))
        if not h.is_over:
            g = h
            break
    assert g is not None and g._S[Y.S_SORT_EV] >= 0
    h = new_state(g.arrays.T, g.arrays.prm)     # a one-slot trace, as a search's copies
    _clone_into(g.arrays, h)
    assert h.S[Y.S_TRACE] == 0 and h.S[Y.S_SORT_EV] == -1
    c = Game(h, g.level, g.seed, g.game, g.options)
    assert np.array_equal(c.observation, g.observation)
    while not g.is_over:
        x = g.policy_action("expert")
        assert c.policy_action("expert") == x
        g.step(x)
        c.step(x)
    assert c.is_over and c.result == g.result and h.E[0] == 0

def _hidden(g):
    S, P = g._S, g._P
    n, kt, kb = S[Y.CNT + Y.P_RSTACK], S[Y.S_KT], S[Y.S_KB]
    return (P[Y.P_RSTACK, kb:n - kt].copy(), P[Y.P_HSTACK, :S[Y.CNT + Y.P_HSTACK]].copy(),
            P[Y.P_AGING, :S[Y.CNT + Y.P_AGING]].copy())


def test_resampled_copy_has_the_same_observation_and_legal_actions():
    for game in range(30):
        g = _to_fight(game=game, decisions=game % 11, level=1 + game % 4)
        r = g.resampled(seed=game)
        assert np.array_equal(r.observation, g.observation)
        assert r.legal_actions() == g.legal_actions()
        for a, b in zip(_hidden(g), _hidden(r)):       # same cards, redrawn order
            assert sorted(a) == sorted(b)
        S, P = g._S, g._P                               # the known top/bottom cards stay
        n, kt, kb = S[Y.CNT + Y.P_RSTACK], S[Y.S_KT], S[Y.S_KB]
        assert np.array_equal(r._P[Y.P_RSTACK, n - kt:n], P[Y.P_RSTACK, n - kt:n])
        assert np.array_equal(r._P[Y.P_RSTACK, :kb], P[Y.P_RSTACK, :kb])
        difficult = P[Y.P_AGING, :S[Y.CNT + Y.P_AGING]] >= FIRST_DIFFICULT          # R2.1 parts kept
        assert np.array_equal(r._P[Y.P_AGING, :S[Y.CNT + Y.P_AGING]] >= FIRST_DIFFICULT, difficult)
        r.play("expert")                                 # and it plays on to an end
        assert r.is_over


def test_resampler_never_reads_the_true_hidden_order():
    """Permuting only the true hidden order leaves the resampled state unchanged (same
    resampling seed): so its distribution cannot depend on the true order."""
    rng = np.random.default_rng(0)
    for game in range(20):
        g = _to_fight(game=game, decisions=2 + game % 9, level=1 + game % 4)
        h = g.clone()
        S, P = h._S, h._P
        n, kt, kb = S[Y.CNT + Y.P_RSTACK], S[Y.S_KT], S[Y.S_KB]
        P[Y.P_RSTACK, kb:n - kt] = rng.permutation(P[Y.P_RSTACK, kb:n - kt])
        P[Y.P_HSTACK, :S[Y.CNT + Y.P_HSTACK]] = rng.permutation(P[Y.P_HSTACK, :S[Y.CNT + Y.P_HSTACK]])
        na = S[Y.CNT + Y.P_AGING]
        for part in (P[Y.P_AGING, :na] < FIRST_DIFFICULT, P[Y.P_AGING, :na] >= FIRST_DIFFICULT):
            idx = np.flatnonzero(part)
            P[Y.P_AGING, idx] = rng.permutation(P[Y.P_AGING, idx])
        assert np.array_equal(g.observation, h.observation)
        for seed in range(3):
            a, b = g.resampled(seed), h.resampled(seed)
            assert all(np.array_equal(x, y) for x, y in zip(_hidden(a), _hidden(b)))
            assert a._R[0] == b._R[0]


def test_resampled_positions_are_uniform():
    """Chi-square: over 3,000 resamplings, where a hazard card lies in the hazard stack and
    where a Robinson card lies in the hidden part of the robinson_stack are uniform."""
    g = Game.new(level=1, seed=2, game=0)
    while g.phase != "fight" or g._S[Y.S_CARDS_DRAWN] < 1:
        g.step(g.policy_action("expert"))
    S = g._S
    nh = int(S[Y.CNT + Y.P_HSTACK])
    nr = int(S[Y.CNT + Y.P_RSTACK] - S[Y.S_KT] - S[Y.S_KB])
    hc = int(g._P[Y.P_HSTACK, 0])
    rc = int(g._P[Y.P_RSTACK, S[Y.S_KB]])
    hpos, rpos = np.zeros(nh, int), np.zeros(nr, int)
    for seed in range(3000):
        r = g.resampled(seed)
        hpos[int(np.flatnonzero(r._P[Y.P_HSTACK, :nh] == hc)[0])] += 1
        hid = _hidden(r)[0]
        rpos[int(np.flatnonzero(hid == rc)[0])] += 1
    assert chisquare(hpos).pvalue > 1e-3, hpos
    assert chisquare(rpos).pvalue > 1e-3, rpos


def test_batch_runner_is_the_step_loop_for_every_builtin_policy():
    """Game.play with each built-in policy gives run_batch's rows (a few games each)."""
    for name in builtin_policies():
        rows = run_batch(3, 4, 0, 6, load_policy(name))
        for game in range(6):
            r = Game.new(level=3, seed=4, game=game).play(name)
            assert (r["won"], r["score"]) == (bool(rows["won"][game]), int(rows["score"][game]))


def test_observation_phase_none_at_the_end():
    g = Game.new(level=4, seed=0, game=0)
    g.play("random")
    assert g.observation[O.O_PHASE] == O.PH_NONE and g.phase == "none"


def test_readme_game_example_runs():
    import re
    from pathlib import Path
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    code = re.search(r"```python\n(from sim import Game\n.*?)```", readme, re.S).group(1)
    scope: dict = {}
    exec(code, scope)
    g = scope["g"]
    assert g.is_over and scope["c"].legal_actions() and scope["h"].observation.shape
    assert Game.new(level=4, seed=1, game=0).legal_action_names() == ["fight:37", "fight:39"]


LAST = "0..9223372036854775807"


@pytest.mark.parametrize("kw, message", [
    ({"seed": -1}, f"seed -1 out of range: use {LAST}"),
    ({"seed": 2**63}, f"seed 9223372036854775808 out of range: use {LAST}"),
    ({"game": -5}, f"game -5 out of range: use {LAST}"),
    ({"game": 2**64 + 5}, f"game 18446744073709551621 out of range: use {LAST}"),
    ({"seed": 1.5}, f"seed 1.5 out of range: use {LAST}"),
    ({"game": "3"}, f"game '3' out of range: use {LAST}"),
])
def test_game_new_refuses_seeds_and_game_indices_the_engine_cannot_deal(kw, message):
    """The same words as sim.lab.simulate's seed and first_game (sim.rules.check_seed), never a
    Numba traceback or a silently wrapped index."""
    with pytest.raises(UsageError) as err:
        Game.new(level=1, **kw)
    assert str(err.value) == message


def test_game_new_takes_the_last_seed_and_game_index():
    g = Game.new(level=1, seed=2**63 - 1, game=np.int64(2**63 - 1))
    assert g.seed == g.game == 2**63 - 1 and g.phase == "hazard"


def test_resampled_refuses_a_negative_seed():
    g = Game.new(level=1, seed=3)
    with pytest.raises(UsageError) as err:
        g.resampled(-3)
    assert str(err.value) == f"seed -3 out of range: use {LAST}"
    assert g.resampled(np.uint64(7)).phase == "hazard"


@pytest.mark.parametrize("bad", [None, 1.5, True, [3], {"a": 1}])
def test_step_refuses_what_is_not_an_action(bad):
    g = Game.new(level=1, seed=3)
    with pytest.raises(UsageError) as err:
        g.step(bad)
    assert str(err.value) == (f"action {bad!r} is not an action: give an action id (an int) "
                              "or a name such as 'draw' (g.legal_action_names())")
    assert g.phase == "hazard" and not g.is_over          # the game is left as it was


def test_step_takes_numpy_action_ids():
    g = Game.new(level=1, seed=3)
    g.step(np.int64(g.legal_actions()[0]))
    g.step(np.array(g.legal_actions()[0]))
    assert g.phase == "fight"


def test_printed_game_names_the_hazard_by_its_hazard_side():
    """Game 0 of seed 3, level 1 draws With the raft to the wreck (36) and Exploring the island
    (44, whose knowledge side is food +1): both named by their hazard side, in the fight too."""
    g = Game.new(level=1, seed=3)
    assert "Hazards drawn: With the raft to the wreck #36 and Exploring the island #44" in str(g)
    g.step("fight:44")
    fight = next(line for line in str(g).splitlines() if line.startswith("Fight against"))
    assert fight.startswith("Fight against Exploring the island #44 (hazard side): value 1;"), fight
    assert "food" not in str(g)


def _table_with(row, card, value):
    T = Y.card_table()
    T[row, card] = value
    return T


@pytest.mark.parametrize("table, message", [
    (np.zeros((3, 3), np.int64), "table must be a card table of shape (12, 69) "
     "(sim.fast.layout.card_table(), edited) or a CardTable, not shape (3, 3)"),
    (Y.card_table()[:, :-1], "not shape (12, 68)"),
    ("cards.csv", "or a CardTable, not str"),
    (Y.card_table().astype(np.float64), "table must hold whole numbers (an integer array), "
     "not float64"),
    (_table_with(Y.T_KIND, 0, 1), "table changes the kind of card 0: ids and kinds are fixed "
     "(R1.1)"),
    (_table_with(Y.T_VALUE, 16, 99), "table gives card 16 the fight_value 99: outside -9..9"),
    (_table_with(Y.T_PVALUE, 63, -40), "table gives card 63 the pirate_hazard_value -40: "
     "outside 0..999"),
    (_table_with(Y.T_ABILITY, 17, 40), "table gives card 17 the ability 40: outside 0..16"),
])
def test_game_new_refuses_a_table_the_engine_cannot_play(table, message, monkeypatch):
    """A table of the wrong shape or kind once ended in a Numba TypingError after half a
    minute of compiling: now a UsageError in the library's words (R1.1: ids and kinds are
    fixed; the values within sim.cardtable's ranges), before the engine is called."""
    from sim.fast import runner

    def no_engine(*args):
        raise AssertionError("the engine was called before the table was checked")
    monkeypatch.setattr(runner, "entry", no_engine)
    with pytest.raises(UsageError) as err:
        Game.new(level=4, seed=1, table=table)
    assert message in str(err.value) and "\n" not in str(err.value)
    assert err.value.argument == "table"


def test_game_new_takes_a_card_table_as_a_cardtable_or_an_edited_array():
    """The same edit, given as a CardTable or as the engine's array (a list too), plays the
    same game."""
    from sim.cardtable import build
    edited = build(sets=["63.pirate_hazard_value=35"])
    as_array = Y.card_table(edited)
    games = [Game.new(4, 1, 0, table=t) for t in (edited, as_array, as_array.tolist())]
    for g in games:
        g.play("expert")
    assert games[0].result == games[1].result == games[2].result
    assert int(games[0]._T[Y.T_PVALUE, 63]) == 35


def test_game_new_refuses_a_trace_that_is_not_true_or_false():
    with pytest.raises(UsageError, match=r"^trace must be True or False, not 'yes'$"):
        Game.new(level=1, trace="yes")
