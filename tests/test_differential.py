"""Differential tests: the fast engine (sim.fast) against the reference engine (sim.reference).

Full traces, observations and legal lists decision by decision, and per-game results, for
every level and every built-in policy plus a test-only probe policy; rare paths through
searched games (pirates, old age), deals and rule options.
"""
from __future__ import annotations

import numpy as np
import pytest

from policies import builtin_policies, load_policy
from sim import observation as O
from sim.fast import play_fast, run_batch
from sim.reference import play_game
from probe import PROBE
from sim.rules import CAUSE_OLD_AGE, Options, PIRATES



def all_policies():
    out = dict(builtin_policies())
    out["probe"] = PROBE
    return out


class Recorder:
    """Wraps a policy for the reference engine and records obs and legal at each decision."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name
        self.obs, self.legal = [], []

    def reset(self, seed, game):
        self.policy.reset(seed, game)

    def choose(self, obs, legal, n_legal):
        self.obs.append(obs.copy())
        self.legal.append([int(a) for a in legal[:n_legal]])
        return self.policy.choose(obs, legal, n_legal)


def result_of(g):
    return (int(g.won), g.cause, g.score, g.life, g.turn, g.stats["destroyed"],
            *g.stats["fights_won"][:3], *g.stats["fights_lost"][:3])


ROW_KEYS = ("won", "cause", "score", "life", "turns", "destroyed", "fights_won_green",
            "fights_won_yellow", "fights_won_red", "fights_lost_green", "fights_lost_yellow",
            "fights_lost_red")


def compare_game(level, seed, game, policy, options=None, deal=None, cards=None):
    """Trace, observations, legal lists and results of one game in both engines."""
    rec = Recorder(policy)
    g = play_game(level, seed, game, rec, options, deal, cards)
    f = play_fast(level, seed, game, policy, options, deal, record=True, cards=cards)
    where = (f"level {level} seed {seed} game {game} policy {policy.name} options {options}"
             + (f" cards {cards.describe()}" if cards is not None else ""))
    if g.trace != f["trace"]:
        i = next((i for i, (a, b) in enumerate(zip(g.trace, f["trace"])) if a != b),
                 min(len(g.trace), len(f["trace"])))
        pytest.fail(f"trace differs at event {i} ({where}):\nref  {g.trace[i:i + 2]}\n"
                    f"fast {f['trace'][i:i + 2]}")
    assert len(rec.obs) == len(f["observations"]), where
    for k, (a, b) in enumerate(zip(rec.obs, f["observations"])):
        if not np.array_equal(a, b):
            da, db = O.describe(a), O.describe(b)
            diff = {key: (da[key], db[key]) for key in da if da[key] != db[key]}
            pytest.fail(f"observation {k} differs ({where}): {diff}")
    assert rec.legal == f["legal"], where
    assert (int(f["won"]), f["cause"], f["score"], f["life"], f["turn"], f["stats"]["destroyed"],
            *f["stats"]["fights_won"][:3], *f["stats"]["fights_lost"][:3]) == result_of(g)
    assert f["stats"] == g.stats
    return g


def compare_rows(level, seed, first, n, policy, options=None, cards=None):
    rows = run_batch(level, seed, first, n, policy, options, cards=cards)
    for i in range(n):
        g = compare_game(level, seed, first + i, policy, options, cards=cards)
        assert tuple(int(rows[k][i]) for k in ROW_KEYS) == result_of(g), (level, first + i)
        assert rows["pirate_1"][i] == g.pirates[0] and rows["pirate_2"][i] == g.pirates[1]
        assert rows["step"][i] == g.step
        assert rows["aging_taken"][i] == g.aging_in_game - len(g.aging_stack)
        assert rows["pirate_1_beaten"][i] == (g.pirates[0] in g.pirates_beaten)
        assert rows["pirate_first"][i] == g.pirate_first
        choices = [e["fight"] for e in g.trace if e["e"] == "pirate_choice"]
        assert g.pirate_first == (choices[0] if choices else -1)


# games per level for each policy (the reference engine is slow: ~16-220 ms a game)
N_GAMES = {"random": 120, "always-fight": 6, "cull-green": 15, "expert": 10, "probe": 40}


@pytest.mark.parametrize("level", [1, 2, 3, 4])
@pytest.mark.parametrize("name", list(all_policies()))
def test_games_match_reference(level, name):
    """Traces, observations, legal lists and result rows, decision by decision."""
    policy = all_policies()[name]
    compare_rows(level, 2024 + level, 0, N_GAMES.get(name, 8), policy)


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_many_games_match_reference(level):
    policy = load_policy("random")
    rows = run_batch(level, 99, 0, 10_000, policy)
    for i in range(10_000):
        g = play_game(level, 99, i, policy)
        assert tuple(int(rows[k][i]) for k in ROW_KEYS) == result_of(g), (level, i)


def _search(level, seed, n, policy, options, predicate, k):
    rows = run_batch(level, seed, 0, n, policy, options)
    idx = [i for i in range(n) if predicate(rows, i)]
    return idx[:k]


def test_pirates_all_abilities():
    """Games that reach the pirates, replayed with every pirate (deal 'pirates')."""
    policy = builtin_policies().get("cull-green", PROBE)
    games = _search(1, 7, 30_000, policy, None, lambda r, i: r["step"][i] == PIRATES, 3)
    if not games:
        pytest.skip("no game reached the pirates")
    pirates = list(range(59, 69))
    for j, game in enumerate(games):
        for a in range(0, 10, 2):
            pair = [pirates[(a + j) % 10], pirates[(a + j + 1) % 10]]
            compare_game(1, 7, game, policy, deal={"pirates": pair})
    compare_game(1, 7, games[0], policy, Options(plus1_counts_destroyed=False),
                 deal={"pirates": [66, 64]})


def test_old_age_and_options():
    policy = builtin_policies().get("cull-green", PROBE)
    old = _search(1, 3, 30_000, policy, None, lambda r, i: r["cause"][i] == CAUSE_OLD_AGE, 2)
    for game in old:
        compare_game(1, 3, game, policy)
    cont = Options(old_age="continue")
    long = _search(1, 3, 30_000, policy, cont, lambda r, i: r["aging_taken"][i] >= 10, 2)
    for game in long + old:
        compare_game(1, 3, game, policy, cont)
    for opts in (Options(step_minus1_stacks=False), Options(plus1_counts_destroyed=False), cont):
        for game in range(6):
            compare_game(3, 5, game, PROBE, opts)


@pytest.mark.parametrize("level,top", [(2, [25]), (2, [23, 13]), (3, [24, 16, 17]),
                                       (4, [22, 16]), (1, [17, 16, 15])])
def test_deals(level, top):
    """Aging stop on the left, highest_zero, life penalties at once: stacked Robinson decks
    (the set-up card at levels 2-4 a normal aging card, R2.2)."""
    from sim.cards import AGING_IDS, START_IDS, VERY_STUPID
    aging = [c for c in AGING_IDS if level >= 3 or c != VERY_STUPID]
    rob = list(top) + [c for c in START_IDS if c not in top]
    if level >= 2 and not any(c in AGING_IDS for c in top):
        rob.append(aging[0])
    rest = [c for c in aging if c not in rob]
    deal = {"robinson_stack": rob, "aging_stack": rest,
            "hazard_stack": list(range(29, 59))[::-1]}
    for game in range(4):
        for policy in (load_policy("random"), PROBE):
            compare_game(level, 11, game, policy, deal=deal)


def test_below_pile_at_an_empty_stack_losing_by_old_age_keeps_the_target_for_the_score():
    """R5.9 + R7.2 + R10.3 (found by tests/test_properties.py): below_pile at an empty stack
    reshuffles first; with the aging stack empty that is old age, and the target has not
    left the fight yet, so it still counts for the score.  The fast engine used to take it
    out first (score one lower)."""
    deal = {"hazard_stack": [46, 49, 31, 32, 50, 34, 35, 51, 30, 33, 37, 41, 56, 53, 36, 54,
                             45, 47, 57, 58, 43, 48, 52, 55, 42, 29, 39, 44, 40, 38],
            "pirates": [61, 62]}
    policy = load_policy("expert")
    reference = play_game(2, 0, 0, policy, None, deal)
    end = reference.trace[-1]
    assert reference.trace[-2]["ability"] == "below_pile" and end["cause"] == "old_age"
    target = reference.trace[-2]["target"]
    assert target in reference.fight.cards()
    compare_game(2, 0, 0, policy, deal=deal)


def test_sort3_and_rare_abilities_coverage():
    """Probe-policy games until sort3 (with reshuffles), below_pile, copy and exchange2 were
    all compared at least once."""
    seen = set()
    for game in range(400):
        f = play_fast(1, 31, game, PROBE)
        kinds = {e["ability"] for e in f["trace"] if e["e"] == "ability"}
        new = kinds - seen
        if any(e["e"] == "reshuffle" for e in f["trace"]) and "sort3" in kinds:
            new.add("sort3+reshuffle")
        if new:
            compare_game(1, 31, game, PROBE)
            seen |= new
    assert {"sort3", "below_pile", "exchange2", "double", "destroy"} <= seen, seen


# --- what-if card tables (sim.cardtable): both engines play the edited table identically ---
EDITS = {
    "pirates": ["63.pirate_hazard_value=25", "62.pirate_free_cards=12", "64.pirate_ability=none",
                "68.pirate_ability=plus1_per_card", "68.pirate_free_cards=8",
                "68.pirate_hazard_value=30", "67.pirate_free_cards=2"],
    "hazards": ["57.hazard_red=9", "53.hazard_free_cards=6", "39.hazard_green=0",
                "41.fight_value=5", "45.ability=draw_plus2", "29.ability=sort3"],
    "robinson": ["16.fight_value=3", "5.ability=destroy", "13.destroy_cost=0",
                 "21.fight_value=-1", "23.ability=aging_stop", "26.destroy_cost=3",
                 "22.ability=none"],
}


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("level", [1, 4])
def test_edited_tables_match_reference(level, edit):
    """Traces, observations (with the card-table block), legal lists and rows."""
    from sim.cardtable import build
    cards = build(sets=EDITS[edit])
    for name in ("expert", "cull-green"):
        compare_rows(level, 5, 0, 4, load_policy(name), cards=cards)
    compare_rows(level, 5, 0, 12, PROBE, cards=cards)


def test_observation_carries_the_games_card_table():
    """Both engines fill obs[CT:] with the table the game is played with (R1.4)."""
    from sim.cardtable import build
    cards = build(sets=["63.pirate_hazard_value=33", "57.fight_value=6"])
    f = play_fast(1, 2, 0, load_policy("expert"), record=True, cards=cards)
    assert (f["observations"][:, O.CT:] == cards.obs_block()).all()
    assert f["observations"][0, O.CT_PIRATE_VALUE + 63] == 33
    assert f["observations"][0, O.CT_VALUE + 57] == 6
    printed = play_fast(1, 2, 0, load_policy("expert"), record=True)
    assert printed["observations"][0, O.CT_PIRATE_VALUE + 63] == 40
