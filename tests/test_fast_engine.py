"""The fast engine's own guarantees: thread/chunk independence, summary = rows, errors,
scripted actions, the policy signature."""
from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from policies import Policy, load_policy
from sim.fast import play_fast, policy_function, run_batch, run_summary
from sim.fast.layout import POLICY_SIG
from sim.reference import play_game
from sim.errors import RuleError, UsageError

from helpers import ROOT, run_python


def _policy():
    from policies import builtin_policies
    pols = builtin_policies()
    return pols.get("cull-green", pols["random"])


def test_threads_and_chunks_give_identical_rows():
    pol = _policy()
    a = run_batch(2, 5, 100, 700, pol, threads=1)
    b = run_batch(2, 5, 100, 700, pol, threads=2)
    chunks = [run_batch(2, 5, 100 + a, min(97, 700 - a), pol, threads=2) for a in range(0, 700, 97)]
    c = {k: np.concatenate([ch[k] for ch in chunks]) for k in a}
    for k in a:
        assert np.array_equal(a[k], b[k]), k
        assert np.array_equal(a[k], c[k]), k
    assert list(a["game"]) == list(range(100, 800))


def test_summary_matches_rows():
    pol = _policy()
    rows = run_batch(3, 8, 0, 900, pol, threads=2)
    s1 = run_summary(3, 8, 900, pol, threads=1, chunk=250)
    s2 = run_summary(3, 8, 900, pol, threads=2, chunk=900)
    for s in (s1, s2):
        assert s["games"] == 900 and s["wins"] == rows["won"].sum()
        assert s["sum_score"] == rows["score"].sum()
        assert [s["causes"][k] for k in ("won", "no_life", "old_age", "no_cards")] == \
            list(np.bincount(rows["cause"], minlength=4))
        hist = np.zeros_like(s["score_hist"])
        np.add.at(hist, np.clip(rows["score"], -250, 350) + 250, 1)
        assert np.array_equal(hist, s["score_hist"])
        assert s["pirate_games"].sum() == 1800 and s["pair_games"].sum() == 900
        assert s["fights_lost"][0] == rows["fights_lost_green"].sum()
    for k in s1:
        assert np.array_equal(np.asarray(s1[k]), np.asarray(s2[k])) if isinstance(
            s1[k], np.ndarray) else s1[k] == s2[k]


@njit(cache=True)
def _bad_decide(obs, legal, n_legal, params, rng):
    return 3 if obs[0] == 3 else legal[0]    # 'skip' at the first fight decision: illegal


def test_illegal_action_names_policy_action_phase():
    bad = Policy("bad-policy", _bad_decide)
    with pytest.raises(RuleError, match=r"bad-policy.*'skip'.*fight"):
        play_fast(1, 0, 0, bad)
    with pytest.raises(RuleError, match=r"bad-policy.*'skip'.*fight.*game 3"):
        run_batch(1, 0, 3, 5, bad)
    with pytest.raises(RuleError, match=r"bad-policy"):
        run_summary(1, 0, 5, bad)


def test_scripted_actions_replay_a_game():
    pol = load_policy("random")
    rec = []

    class Rec:
        name = "rec"

        def reset(self, s, g):
            pol.reset(s, g)

        def choose(self, obs, legal, n):
            a = pol.choose(obs, legal, n)
            rec.append(a)
            return a
    g = play_game(2, 4, 9, Rec())
    f = play_fast(2, 4, 9, None, actions=rec, record=True)
    assert f["trace"] == g.trace and not f["stopped"]
    with pytest.raises(UsageError, match="ran out"):
        play_fast(2, 4, 9, None, actions=rec[:3])
    # stop_when_out: the game so far, up to the 4th decision, whose legal actions come too
    part = play_fast(2, 4, 9, None, actions=rec[:3], record=True, stop_when_out=True)
    assert part["stopped"] and part["legal"] == f["legal"][:4]
    assert np.array_equal(part["observations"], f["observations"][:4])
    assert part["trace"] == g.trace[:len(part["trace"])]
    assert part["trace"][-1]["e"] != "game_end" and len(part["trace"]) < len(g.trace)
    assert play_fast(2, 4, 9, None, actions=rec[:3], stop_when_out=True)["trace"] == part["trace"]


def test_policy_function_has_the_engine_signature():
    fn = policy_function(load_policy("random"))
    assert fn.signatures == [POLICY_SIG.args]
    assert policy_function(load_policy("random")) is fn


def test_fast_engine_runs_as_plain_python_without_jit():
    """Under NUMBA_DISABLE_JIT=1 (coverage runs: docs/explanation/performance.md, "Without the
    compiler") the fast engine is plain Python and plays the same games: traces equal the
    reference's, rows equal the JIT's."""
    import json
    code = (
        "import json, warnings; warnings.simplefilter('ignore')\n"
        "from policies import load_policy\n"
        "from sim.fast import play_fast, run_batch\n"
        "from sim.reference import Game\n"
        "ok = []\n"
        "for name, level in (('expert', 4), ('random', 2)):\n"
        "    p = load_policy(name)\n"
        "    g = Game(level, 3, 1, p); g.play()\n"
        "    ok.append(play_fast(level, 3, 1, p)['trace'] == g.trace)\n"
        "print(json.dumps({'ok': ok, 'score': run_batch(3, 5, 0, 4, load_policy('expert'))"
        "['score'].tolist()}))\n")
    out = run_python("-c", code, cwd=ROOT, env={"NUMBA_DISABLE_JIT": "1"})
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["ok"] == [True, True]
    assert res["score"] == run_batch(3, 5, 0, 4, load_policy("expert"))["score"].tolist()
