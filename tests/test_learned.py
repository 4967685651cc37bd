"""The learned policy (policies.learned): its features read the open facts of a decision
(R1.4), its jitted network is the shipped weights' network, its games are identical whatever
the threads and chunks, and its weights file is checked when loaded."""
import json
from pathlib import Path

import numpy as np
import pytest

from policies import learned as Lp
from policies import load_policy
from sim import observation as O
from sim.actions import A_END, A_FIGHT, A_PAY
from sim.cards import N_CARDS
from sim.fast import run_batch
from sim.play import Game
from sim.errors import UsageError

ROOT = Path(__file__).resolve().parents[1]


def _decisions(level, seed, game, policy, n=400):
    """(observation, legal actions, the action played) of the hazard and fight decisions with
    a choice in a game played by ``policy`` on the fast engine."""
    g = Game.new(level, seed, game)
    out = []
    while not g.is_over and len(out) < n:
        a = g.policy_action(policy)
        if len(g.legal_actions()) > 1 and g.phase in ("hazard", "fight"):
            out.append((g.observation, np.array(g.legal_actions(), np.int64), a))
        g.step(a)
    return out


def _numpy_scores(obs, legal, tail):
    """Every candidate's score by the network in plain numpy (the weights' parameter tail)."""
    n_in, nh = int(tail[0]), int(tail[1])
    W1 = tail[2:2 + n_in * nh].reshape(n_in, nh)
    b1 = tail[2 + n_in * nh:2 + n_in * nh + nh]
    w2, b2 = tail[2 + n_in * nh + nh:-1], tail[-1]
    F = np.zeros(Lp.N_FEATURES)
    Lp.state_features(obs, F)
    scores = []
    for a in legal:
        Lp.action_features(obs, a, F)
        scores.append(float(np.maximum(F @ W1 + b1, 0) @ w2 + b2))
    return np.array(scores)


def test_the_jitted_network_is_the_weights_network():
    """At every decision with a choice (levels 1 and 4) the policy plays the veteran's action
    unless the numpy forward pass scores another one more than ``margin`` higher; in a fight
    already won, always the veteran's."""
    learned, veteran = load_policy("learned"), load_policy("veteran")
    tail = learned.params[Lp.N_NAMED:]
    margin = learned.params[Lp.P_MARGIN]
    overruled, won_fights = 0, 0
    for level, game in ((1, 0), (4, 1)):
        for obs, legal, played in _decisions(level, 31, game, learned):
            base = veteran.decide(obs, legal, len(legal), veteran.params,
                                  np.zeros(1, np.uint64))
            if obs[O.O_PHASE] == O.PH_FIGHT and \
                    obs[O.O_EFFECTIVE_VALUE] <= obs[O.O_FIGHT_TOTAL]:
                assert played == base        # a fight already won (R4.7): the veteran's
                won_fights += 1
                continue
            s = _numpy_scores(obs, legal, tail)
            best = int(np.argmax(s))
            i = list(legal).index(base)
            expect = legal[best] if s[best] - s[i] > margin + 1e-9 else base
            if abs(s[best] - s[i] - margin) > 1e-9:            # not on the edge of a rounding
                assert played == expect
            overruled += played != base
    assert overruled > 0 and won_fights > 0


def test_features_read_the_fight_from_open_facts():
    """R1.4: the missing points, the share of stack cards that would cover them, and the best
    cards' margins come from the observation's open counts."""
    seen = 0
    for obs, legal, _ in _decisions(4, 32, 0, load_policy("veteran")):
        if obs[O.O_PHASE] != O.PH_FIGHT:
            continue
        F = np.zeros(Lp.N_FEATURES)
        Lp.state_features(obs, F)
        missing = obs[O.O_EFFECTIVE_VALUE] - obs[O.O_FIGHT_TOTAL]
        assert F[Lp.F_MISSING] == pytest.approx(missing / 10)
        stack = [obs[O.CT_VALUE + c] for c in range(O.N_FIGHTING)
                 if obs[O.ZONE + c] == O.Z_ROBINSON_STACK]
        if missing > 0 and stack:
            assert F[Lp.F_COVER] == pytest.approx(sum(v >= missing for v in stack) / len(stack))
            best = sorted((v for v in stack if v > 0), reverse=True)
            assert F[Lp.F_BEST2] == pytest.approx((sum(best[:2]) - missing) / 10)
            seen += 1
        if A_END in legal:
            Lp.action_features(obs, A_END, F)
            assert F[Lp.F_IS_END] == 1 and F[Lp.F_LOSS] == pytest.approx(max(missing, 0) / 10)
        if A_PAY in legal:
            Lp.action_features(obs, A_PAY, F)
            assert F[Lp.F_IS_PAY] == 1 and F[Lp.F_LOSS] == 0
    assert seen > 5


def test_a_hazard_candidate_carries_its_card():
    """R3: a hazard's features are its value at the step, its free cards and its knowledge."""
    for obs, legal, _ in _decisions(1, 33, 0, load_policy("veteran")):
        if obs[O.O_PHASE] == O.PH_HAZARD:
            c = int(legal[-1]) - A_FIGHT
            F = np.zeros(Lp.N_FEATURES)
            Lp.action_features(obs, legal[-1], F)
            step = obs[O.O_STEP]
            value = obs[O.CT_HAZARD_VALUE + step * N_CARDS + c]
            assert F[Lp.F_HAZ_VALUE] * 10 == pytest.approx(value)
            assert F[Lp.F_HAZ_FREE] * 5 == pytest.approx(obs[O.CT_HAZARD_FREE + c])
            assert F[Lp.F_ABILITY + obs[O.CT_ABILITY + c]] == 1
            return
    pytest.fail("no hazard choice")


def test_threads_and_chunks_give_identical_games():
    pol = load_policy("learned")
    a = run_batch(4, 21, 0, 400, pol, threads=1)
    b = run_batch(4, 21, 0, 400, pol, threads=2)
    c = [run_batch(4, 21, s, min(150, 400 - s), pol, threads=2) for s in range(0, 400, 150)]
    for k in a:
        assert np.array_equal(a[k], b[k]), k
        assert np.array_equal(a[k], np.concatenate([x[k] for x in c])), k


def test_the_shipped_weights_were_made_for_these_features_by_friday_train():
    from sim.lab.train import Plan, plan_dict
    data = json.loads((ROOT / "policies" / "learned.json").read_text())
    record = data["record"]
    assert record["features"] == list(Lp.FEATURE_NAMES)
    assert record["command"].startswith("friday train ")
    plan = {**Plan().__dict__, "levels": list(Plan().levels)}
    for later in ("continuation", "start", "warm", "fits"):     # made before they existed
        del plan[later]
    assert record["plan"] == plan == plan_dict(Plan())  # the defaults are the shipped plan


def test_other_weights_by_name_and_bad_weights_are_one_error(tmp_path):
    shipped = json.loads((ROOT / "policies" / "learned.json").read_text())
    other = dict(shipped, w2=[0.0] * len(shipped["w2"]), b2=0.0)
    (tmp_path / "flat.json").write_text(json.dumps(other))
    flat = load_policy(f"learned[weights={tmp_path / 'flat.json'},margin=0]")
    veteran = load_policy("veteran")
    r1, r2 = run_batch(1, 3, 0, 200, flat), run_batch(1, 3, 0, 200, veteran)
    assert np.array_equal(r1["score"], r2["score"])      # every score 0: the veteran's games
    (tmp_path / "narrow.json").write_text(json.dumps(dict(shipped, W1=shipped["W1"][:-1])))
    with pytest.raises(UsageError, match="do not fit policy learned"):
        load_policy(f"learned[weights={tmp_path / 'narrow.json'}]")
    with pytest.raises(UsageError, match="cannot read the weights"):
        load_policy(f"learned[weights={tmp_path / 'none.json'}]")
    nh = len(shipped["b1"])
    for name, changed, says in [                    # each named for what is wrong in it
            ("b1-number", {"b1": 3.0}, rf"b1 \(\), expected \({nh},\) \(make them"),
            ("b1-column", {"b1": [[x] for x in shipped["b1"]]}, rf"b1 \({nh}, 1\)"),
            ("b1-short", {"b1": shipped["b1"][:-1]}, rf"b1 \({nh - 1},\), expected \({nh},\)"),
            ("w2-nan", {"w2": [float("nan")] + shipped["w2"][1:]}, "w2 not all finite"),
            ("b2-inf", {"b2": float("inf")}, "b2 not all finite"),
            ("no-hidden", {"W1": [[]] * Lp.N_FEATURES, "b1": [], "w2": []}, "no hidden unit"),
            ("b2-list", {"b2": [1.0]}, r"b2 \(1,\), expected \(\)"),
            ("b2-huge", {"b2": 10 ** 400}, r"b2 not an array of numbers \(int too large"),
            ("W1-ragged", {"W1": [[1.0, 2.0], [3.0]]}, "W1 not an array of numbers")]:
        (tmp_path / f"{name}.json").write_text(json.dumps(dict(shipped, **changed)))
        with pytest.raises(UsageError, match="do not fit policy learned: " + says):
            load_policy(f"learned[weights={tmp_path / name}.json]")
    (tmp_path / "no-b1.json").write_text(json.dumps({k: v for k, v in shipped.items()
                                                     if k != "b1"}))
    (tmp_path / "a-list.json").write_text("[1, 2]")
    with pytest.raises(UsageError, match="do not fit policy learned: b1 missing"):
        load_policy(f"learned[weights={tmp_path / 'no-b1'}.json]")
    with pytest.raises(UsageError, match=r"^the weights file .*a-list\.json of policy learned "
                       r"holds a JSON list, not an object with W1, b1, w2 and "
                       r"b2: make them again with friday train$"):
        load_policy(f"learned[weights={tmp_path / 'a-list'}.json]")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "utf16.json").write_text(json.dumps(shipped)[:2000], encoding="utf-16")
    for name, says in [("deep", ": JSON nested too deeply to read: make them again"),
                       ("utf16", r" is not UTF-8 text \(UTF-16\? .*\): save it as UTF-8")]:
        with pytest.raises(UsageError, match=rf"the weights file .*{name}\.json of policy "
                                             "learned" + says):
            load_policy(f"learned[weights={tmp_path / name}.json]")


def test_a_weights_path_may_start_at_the_home_folder(tmp_path, monkeypatch):
    """``weights=~/net.json`` (the shell does not expand ~ inside the spec) is the home
    folder's file; ``~nosuchuser/`` stays as written (no such file: one UsageError)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "net.json").write_bytes((ROOT / "policies" / "learned.json").read_bytes())
    assert load_policy("learned[weights=~/net.json]").weights_file == tmp_path / "net.json"
    with pytest.raises(UsageError, match="cannot read the weights .* ~nosuchuser/net.json"):
        load_policy("learned[weights=~nosuchuser/net.json]")
