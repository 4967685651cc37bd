"""``friday train`` (sim.lab.train), run as a user runs it, in fresh processes, on a tiny plan:
the same weights whatever the workers; more rounds continue a data folder to the weights of an
uninterrupted run; Ctrl-C keeps the finished chunks and the same command continues; bad input
is one error line before any game."""
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers import COUNTED, interrupt_cli, run_cli, run_python

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--level", "4", "--games", "3", "--rollouts", "3", "--hidden", "4", "--seed", "5"]


def weights(path: Path) -> dict:
    data = json.loads(path.read_text())
    data["record"].pop("command")
    return data


def test_same_weights_whatever_the_workers_and_rounds_continue_a_folder(tmp_path):
    one = run_cli("train", "--out", "one.json", "--data", "d1", "--rounds", "2", "--workers",
                  "1", *TINY, cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert "wrote one.json" in one.stdout
    first = run_cli("train", "--out", "r1.json", "--data", "d2", "--rounds", "1", "--workers",
                    "2", *TINY, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    more = run_cli("train", "--out", "two.json", "--data", "d2", "--rounds", "2", "--workers",
                   "2", *TINY, cwd=tmp_path)
    assert more.returncode == 0, more.stderr
    assert weights(tmp_path / "one.json") == weights(tmp_path / "two.json")
    dask = run_cli("train", "--out", "dask.json", "--data", "d3", "--rounds", "2", "--cluster",
                   "local:2", *TINY, cwd=tmp_path)
    assert dask.returncode == 0, dask.stderr
    assert weights(tmp_path / "one.json") == weights(tmp_path / "dask.json")
    assert weights(tmp_path / "r1.json") != weights(tmp_path / "two.json")
    assert sorted(p.name for p in (tmp_path / "d1").iterdir()) == \
        sorted(p.name for p in (tmp_path / "d2").iterdir())
    record = json.loads((tmp_path / "one.json").read_text())["record"]
    assert record["data"]["rounds"] == 2 and record["data"]["games"] == 6
    from policies import load_policy
    load_policy(f"learned[weights={tmp_path / 'one.json'}]")       # it plays


def test_the_records_hold_only_the_decisions_the_network_makes():
    """Hazard choices (R3) and fights not yet won (R4.7), each with two or more actions."""
    import numpy as np
    from sim import observation as O
    from sim.lab.train import gather_game, load_rollout_policy
    from policies import load_policy
    rec = gather_game(1, 5, 0, load_policy("veteran"), load_rollout_policy("veteran"), 2)
    obs, n = rec["obs"], (rec["legal"] >= 0).sum(axis=1)
    assert len(obs) > 10 and n.min() >= 2
    fight = obs[:, O.O_PHASE] == O.PH_FIGHT
    assert np.all(fight | (obs[:, O.O_PHASE] == O.PH_HAZARD))
    assert np.all(obs[fight, O.O_EFFECTIVE_VALUE] > obs[fight, O.O_FIGHT_TOTAL])
    assert np.any(obs[:, O.O_PHASE] == O.PH_HAZARD) and np.any(fight)


def test_ctrl_c_to_the_process_group_stops_the_workers_and_keeps_every_chunk(tmp_path):
    """Ctrl-C as a terminal sends it (to the whole process group) during a two-worker run,
    once the progress bar has counted a finished chunk: exit code 130, the workers stopped
    (no process of the group left once the command ended), every finished chunk kept and
    readable, no weights file; the same command continues to the end."""
    import numpy as np
    args = ["train", "--out", "w.json", "--data", "d", "--rounds", "1", "--workers", "2",
            "--level", "1,2,3,4", "--games", "30", "--rollouts", "2", "--hidden", "4"]
    run = interrupt_cli(*args, cues=[COUNTED], cwd=tmp_path)
    err = run.stderr
    assert run.returncode == 130, run.stdout + err
    assert not run.group_left, "a worker outlived the command"
    assert "interrupted: the finished chunks are kept" in err and "Traceback" not in err
    assert "Warning" not in err                 # nothing reported leaked by the workers
    kept = {p.name: p.read_bytes() for p in (tmp_path / "d").glob("*.npz")}
    assert 1 <= len(kept) < 12 and not (tmp_path / "w.json").exists()
    for name in kept:
        with np.load(tmp_path / "d" / name) as z:
            assert len(z["game"]) > 0
    again = run_cli(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    after = {p.name: p.read_bytes() for p in (tmp_path / "d").glob("*.npz")}
    assert len(after) == 12 and all(after[n] == b for n, b in kept.items())


def _npz(**arrays) -> bytes:
    import io
    import numpy as np
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def _chunk(obs_dtype="int16", game=0) -> bytes:
    import numpy as np
    from sim import observation as O
    from sim.lab.train import MAX_LEGAL
    return _npz(obs=np.zeros((1, O.CT), obs_dtype), legal=np.zeros((1, MAX_LEGAL), np.int16),
                chance=np.zeros((1, MAX_LEGAL), np.float32), game=np.array([game], np.int32))


BAD_CHUNKS = {
    "empty": lambda: b"", "text": lambda: b"not a zip file", "zeros": lambda: b"\x00" * 100,
    "truncated": lambda: _chunk()[:200], "other arrays": lambda: _npz(x=[1.0]),
    "other games": lambda: _chunk(game=99), "float obs": lambda: _chunk("float64"),
}


@pytest.mark.parametrize("kind", BAD_CHUNKS)
def test_a_bad_chunk_is_named_with_what_to_do(tmp_path, kind):
    """A chunk file of the plan that is not one (cut short, another program's, edited): one
    error line naming it and what to do, before any game; the file left as it is."""
    content = BAD_CHUNKS[kind]()
    (tmp_path / "d").mkdir()
    bad = tmp_path / "d" / "round0_level4_games0-2.npz"
    bad.write_bytes(content)
    r = run_cli("train", "--out", "w.json", "--data", "d", *TINY, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), r.stderr
    assert str(bad.relative_to(tmp_path)) in lines[0] and "delete it" in lines[0]
    assert bad.read_bytes() == content and not (tmp_path / "w.json").exists()


@pytest.mark.parametrize("content", [b"{", b"\xff\xfe\x00", b"[1, 2", "folder"])
def test_a_bad_plan_file_is_named_with_what_to_do(tmp_path, content):
    (tmp_path / "d").mkdir()
    if content == "folder":
        (tmp_path / "d" / "plan.json").mkdir()
    else:
        (tmp_path / "d" / "plan.json").write_bytes(content)
    r = run_cli("train", "--out", "w.json", "--data", "d", *TINY, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "plan.json" in lines[0]
    assert "Traceback" not in r.stderr and not list(tmp_path.glob("**/*.npz"))


@pytest.mark.parametrize("out, data", [
    ("w.json", "w.json"), ("d/w.json", "d"), ("d/sub/w.json", "d"), ("x.json", "x.json/d"),
])
def test_out_and_data_overlapping_are_refused_before_any_work(tmp_path, out, data):
    r = run_cli("train", "--out", out, "--data", data, *TINY, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "overlap" in lines[0]
    assert not list(tmp_path.iterdir())                  # nothing made, not even the folder


def test_a_small_run_says_what_it_cannot_measure_and_writes_strict_json(tmp_path):
    """5 games of level 1: no game is held out (every tenth is): the accuracy figures are
    null in the record, the command says so, no NaN and no warning anywhere."""
    r = run_cli("train", "--out", "w.json", "--data", "d", "--level", "1", "--games", "5",
               "--rounds", "1", "--rollouts", "2", "--hidden", "4", "--workers", "1",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "not measured" in r.stdout
    assert "nan" not in (r.stdout + r.stderr).lower() and "Warning" not in r.stderr

    def strict(name):
        raise ValueError(f"not strict JSON: {name}")
    for f in (tmp_path / "w.json", tmp_path / "d" / "plan.json"):
        json.loads(f.read_text(), parse_constant=strict)
    fit = json.loads((tmp_path / "w.json").read_text())["record"]["fit"]
    assert fit["held_out_decisions"] == 0 and fit["held_out_correlation"] is None


@pytest.mark.parametrize("extra, message", [
    (["--level", "7"], "level"),
    (["--out", "w.txt"], ".json"),
    (["--out", "/proc/w.json"], "/proc"),
    (["--rollouts", "0"], "rollouts"),
    (["--games", "x"], "games"),
    (["--continuation", "expert"], "continuation"),
    (["--start", "none.json"], "none.json"),
])
def test_bad_input_is_one_error_line_before_any_game(tmp_path, extra, message):
    args = ["train", "--out", "w.json", "--data", "d", *TINY]
    for i in range(0, len(extra), 2):
        if extra[i] in args:
            args[args.index(extra[i]) + 1] = extra[i + 1]
        else:
            args += extra[i:i + 2]
    r = run_cli(*args, cwd=tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert not list(tmp_path.glob("**/*.npz"))


@pytest.mark.parametrize("bad", ["chunk", "plan"])
def test_after_the_fix_the_error_names_the_same_command_works(tmp_path, bad):
    """A truncated chunk (delete it) or a plan.json that is not JSON (delete the data
    folder): one error line naming the file and what to do; done, the same command runs."""
    import shutil
    (tmp_path / "d").mkdir()
    args = ["train", "--out", "w.json", "--data", "d", *TINY, "--rounds", "1", "--workers",
            "1"]
    if bad == "chunk":
        victim = tmp_path / "d" / "round0_level4_games0-2.npz"
        victim.write_bytes(_chunk()[:200])
    else:
        victim = tmp_path / "d" / "plan.json"
        victim.write_text('{"seed": 5,')
    r = run_cli(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("error:"), r.stderr
    assert r.stderr.count("\n") == 1 and victim.name in r.stderr and "delete" in r.stderr
    if bad == "chunk":
        victim.unlink()
    else:
        shutil.rmtree(tmp_path / "d")
    again = run_cli(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "wrote w.json" in again.stdout


def _records(folder: Path) -> dict:
    import numpy as np
    out = {}
    for f in sorted(folder.glob("*.npz")):
        with np.load(f) as z:
            out[f.name] = {k: z[k] for k in z.files}
    return out


def test_expert_iteration_continuations_are_played_by_the_rounds_player(tmp_path):
    """--continuation current with --start the shipped weights: the same games and decisions
    as with the veteran's continuations (the same player), other labels (the network plays
    the continuations), the same records and weights on local workers and on a Dask cluster
    (the network shipped as its file's bytes); the plan and each round's players recorded
    in plan.json and the weights file; a folder of the other continuation refused."""
    import hashlib
    import numpy as np
    shipped = ROOT / "policies" / "learned.json"
    args = [*TINY, "--rounds", "1", "--start", str(shipped)]
    vet = run_cli("train", "--out", "v.json", "--data", "dv", "--workers", "2", *args,
                  cwd=tmp_path)
    assert vet.returncode == 0, vet.stderr
    cur = run_cli("train", "--out", "c.json", "--data", "dc", "--workers", "2", *args,
                  "--continuation", "current", cwd=tmp_path)
    assert cur.returncode == 0, cur.stderr
    dask = run_cli("train", "--out", "k.json", "--data", "dk", "--cluster", "local:2", *args,
                   "--continuation", "current", cwd=tmp_path)
    assert dask.returncode == 0, dask.stderr
    v, c, k = (_records(tmp_path / d) for d in ("dv", "dc", "dk"))
    assert v.keys() == c.keys() == k.keys() and v
    for name in v:
        for field in ("obs", "legal", "game"):
            assert np.array_equal(v[name][field], c[name][field])
        for field in c[name]:
            assert np.array_equal(c[name][field], k[name][field])
    assert any(not np.array_equal(v[n]["chance"], c[n]["chance"]) for n in v)
    assert weights(tmp_path / "c.json") == weights(tmp_path / "k.json")
    sha = hashlib.sha256(shipped.read_bytes()).hexdigest()
    rec_v = json.loads((tmp_path / "v.json").read_text())["record"]
    rec_c = json.loads((tmp_path / "c.json").read_text())["record"]
    assert rec_c["plan"]["continuation"] == "current" and "continuation" not in rec_v["plan"]
    assert rec_c["plan"]["start"] == rec_v["plan"]["start"] == f"weights sha256:{sha}"
    (played,) = rec_c["rounds"]
    assert played["behaviour"].startswith("learned (margin 0.02, network sha256:")
    assert played["continuation"] == played["behaviour"] == rec_v["rounds"][0]["behaviour"]
    assert rec_v["rounds"][0]["continuation"] == "veteran"
    marker = json.loads((tmp_path / "dc" / "plan.json").read_text())
    assert marker["continuation"] == "current" and marker["start"] == f"weights sha256:{sha}"
    other = run_cli("train", "--out", "x.json", "--data", "dv", "--workers", "2", *args,
                    "--continuation", "current", cwd=tmp_path)
    assert other.returncode == 2 and "another training plan" in other.stderr


def test_expert_iteration_from_the_veteran_labels_round_1_by_round_0s_network(tmp_path):
    """From the veteran: round 0 is the veteran's (its continuations too, as without expert
    iteration), round 1 is played and continued by round 0's network (its weights' hash)."""
    r = run_cli("train", "--out", "w.json", "--data", "d", *TINY, "--rounds", "2",
                "--workers", "1", "--continuation", "current", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "played by each round's player" in r.stdout
    first, second = json.loads((tmp_path / "w.json").read_text())["record"]["rounds"]
    assert first == {"round": 0, "behaviour": "veteran", "continuation": "veteran"}
    assert second["behaviour"].startswith("learned (margin 0.02, network sha256:")
    assert second["continuation"] == second["behaviour"]


def test_the_label_cost_benchmark_writes_both_costs_and_the_times(tmp_path):
    """benchmarks/label_cost.py: the same decisions labelled with the veteran's and the
    learned policy's continuations (a cost each, their ratio), the times per game as ratios
    to the expert's, written to --out with the command that made it."""
    r = run_python(ROOT / "benchmarks" / "label_cost.py", "--games", "1", "--rollouts", "2",
                   "--time-games", "30", "--level", "4", "--out", "cost.md", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "cost.md").read_text()
    assert "Made by `python benchmarks/label_cost.py --games 1 --rollouts 2" in text
    label, times = [line for line in text.splitlines() if line.startswith("| 4 |")]
    cells = label.strip("| ").split(" | ")
    assert float(cells[1]) > 10 and float(cells[2]) > 0 and float(cells[3]) > 0
    assert cells[4].endswith("x") and "(1.0x)" in times.split(" | ")[1]


def test_a_data_folder_of_another_plan_is_refused(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "plan.json").write_text(json.dumps({"seed": 1}))
    r = run_cli("train", "--out", "w.json", "--data", "d", *TINY, cwd=tmp_path)
    assert r.returncode == 2 and "another training plan" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    from sim.errors import UsageError
    from sim.lab.train import Plan, check_data_folder
    (tmp_path / "d" / "plan.json").write_text("[1]")
    with pytest.raises(UsageError, match=r"^the training plan \S*plan.json holds a JSON list, "
                                         r"not an object of friday train's options: delete "
                                         r"the data folder \S+, or use another$") as e:
        check_data_folder(tmp_path / "d", Plan())
    assert e.value.argument == "data"


def _fine_tuned(init: dict, X, y, check, epochs: int = 40):
    from sklearn.neural_network import MLPRegressor
    from sim.lab.train_fit import fine_tune
    model = MLPRegressor(hidden_layer_sizes=(len(init["b1"]),), batch_size=64,
                         learning_rate_init=1e-3, random_state=0)
    n = fine_tune(model, X, y, check, init, epochs)
    return model, n


def _network(rng, n_in: int, hidden: int, scale: float = 1.0) -> dict:
    return {"W1": rng.normal(0, scale, (n_in, hidden)), "b1": rng.normal(0, scale, hidden),
            "w2": rng.normal(0, scale, hidden), "b2": float(rng.normal(0, scale))}


def _predict(net: dict, X):
    from sim.lab.train_fit import TARGET_SCALE
    return TARGET_SCALE * (np.maximum(X @ net["W1"] + net["b1"], 0) @ net["w2"] + net["b2"])


def test_a_warm_fit_starts_from_the_network_given_and_never_ends_worse_on_its_checks():
    """--warm (train_fit.fine_tune): a start network that is already the answer is kept
    exactly (no epoch beats it on the checking rows); a start near the answer is improved on
    the checking rows; the same call gives the same weights."""
    import numpy as np
    rng = np.random.default_rng(3)
    X = rng.normal(size=(3000, 6))
    check = np.arange(3000) % 10 == 3
    teacher = _network(rng, 6, 8)
    y = _predict(teacher, X)
    kept, _ = _fine_tuned(teacher, X, y, check)
    assert np.array_equal(kept.coefs_[0], teacher["W1"])
    near = {k: v + 0.3 * rng.normal(size=np.shape(v)) for k, v in teacher.items()}
    near["b2"] = float(near["b2"])
    before = np.mean((_predict(near, X[check]) - y[check]) ** 2)
    tuned, n = _fine_tuned(near, X, y, check)
    after = np.mean((tuned.predict(X[check]) - y[check]) ** 2)
    assert 1 <= n <= 40 and after < 0.5 * before
    again, _ = _fine_tuned(near, X, y, check)
    for a, b in zip(tuned.coefs_ + tuned.intercepts_, again.coefs_ + again.intercepts_):
        assert np.array_equal(a, b)


def test_warm_from_a_start_file_is_recorded_and_its_size_checked_first(tmp_path):
    """--warm --start FILE: the plan records warm (plan.json and the weights file); a
    --hidden other than the start network's is one error line before any game."""
    shipped = ROOT / "policies" / "learned.json"
    bad = run_cli("train", "--out", "w.json", "--data", "d", *TINY, "--start", str(shipped),
                  "--warm", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --hidden")
    assert "128 hidden units" in bad.stderr and not list(tmp_path.glob("**/*.npz"))
    args = [a if a != "4" or i != TINY.index("--hidden") + 1 else "128"
            for i, a in enumerate(TINY)]
    r = run_cli("train", "--out", "w.json", "--data", "d", *args, "--rounds", "1",
                "--start", str(shipped), "--warm", "--workers", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    record = json.loads((tmp_path / "w.json").read_text())["record"]
    assert record["plan"]["warm"] is True
    assert record["model"].endswith("each fit started from the network before it")
    assert json.loads((tmp_path / "d" / "plan.json").read_text())["warm"] is True


def test_the_model_class_and_data_curve_benchmarks_fit_a_train_folder(tmp_path):
    """benchmarks/model_class.py (the network against trees on the same records: the
    held-out figures of each) and benchmarks/data_curve.py (the network fitted to a share of
    the games: a weights file that learned plays, its record naming the share); a folder
    that is not a train folder is one error line."""
    r = run_cli("train", "--out", "w.json", "--data", "d", "--level", "4", "--games", "10",
                "--rollouts", "3", "--hidden", "4", "--seed", "5", "--rounds", "1",
                "--workers", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    m = run_python(ROOT / "benchmarks" / "model_class.py", "--data", "d", "--trees", "5",
                   "--leaves", "4", cwd=tmp_path)
    assert m.returncode == 0, m.stderr
    rows = [line for line in m.stdout.splitlines() if line.startswith(("| network",
                                                                     "| trees"))]
    assert len(rows) == 2 and all(len(row.split(" | ")) == 5 for row in rows)
    c = run_python(ROOT / "benchmarks" / "data_curve.py", "--data", "d", "--share", "0.5",
                   "--out", "curve", cwd=tmp_path)
    assert c.returncode == 0, c.stderr
    record = json.loads((tmp_path / "curve_0.5.json").read_text())["record"]
    assert record["data"]["share"] == 0.5
    assert 0 < record["data"]["decisions"] < json.loads(
        (tmp_path / "w.json").read_text())["record"]["data"]["decisions"]
    w = run_python(ROOT / "benchmarks" / "data_curve.py", "--data", "d", "--share", "1",
                   "--rounds", "1", "--hidden", "3", "--out", "wide", cwd=tmp_path)
    assert w.returncode == 0, w.stderr
    wide = json.loads((tmp_path / "wide_1_h3.json").read_text())
    assert wide["record"]["plan"]["hidden"] == 3 and len(wide["b1"]) == 3
    assert wide["record"]["plan"]["rounds"] == 1                   # the rounds it fitted
    curve = ["--data", "d", "--share", "1", "--out", "x"]
    for script, args in (("model_class.py", ["--data", "nowhere"]),
                         ("data_curve.py", [*curve, "--hidden", "0"]),
                         ("data_curve.py", [*curve, "--rounds", "0"]),
                         ("data_curve.py", [*curve, "--rounds", "2"])):   # d holds one
        bad = run_python(ROOT / "benchmarks" / script, *args, cwd=tmp_path)
        assert bad.returncode == 2 and bad.stderr.startswith("error:"), (args, bad.stderr)
        assert len(bad.stderr.strip().splitlines()) == 1
    f = run_python(ROOT / "benchmarks" / "features.py", "--data", "d", "--fit-seeds", "5",
                   "6", cwd=tmp_path)
    assert f.returncode == 0, f.stderr
    lines = f.stdout.splitlines()
    rows = [line.split(" | ") for line in lines if line.startswith(("| 5 | the",
                                                                     "| 6 | the"))]
    from policies.learned import N_FEATURES
    from sim.cards import N_CARDS
    assert [len(row) for row in rows] == [8] * 4
    assert [int(row[2]) for row in rows] == [N_FEATURES, N_FEATURES + 2 * N_CARDS] * 2
    assert rows[0][4:] != rows[2][4:]                   # another seed, another fit
    pairs = [line for line in lines if re.match(r"\| [56] \| [+-]0\.\d{5} \[", line)]
    assert len(pairs) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curve_0.5.json", "d", "w.json",
                                                              "wide_1_h3.json"]


def _benchmark(name: str):
    """A script of benchmarks/ imported as a module (its imports of its neighbours work)."""
    import importlib
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def test_the_features_benchmark_pairs_the_losses_by_game():
    """benchmarks/features.py: the difference of two fits' losses per decision, its interval
    resampling whole games; the card blocks: a card in the deck, a hazard still to meet."""
    import numpy as np
    features = _benchmark("features")
    game = np.repeat(np.arange(40), 5)
    lost = np.linspace(0.0, 0.1, 200)
    mean, (low, high) = features.paired(lost, lost, game)
    assert mean == 0 and low == high == 0
    mean, (low, high) = features.paired(lost, lost - 0.01 * (game % 2), game)
    assert mean == pytest.approx(-0.005) and -0.01 < low < mean < high < 0
    from sim import observation as O
    from sim.cards import N_CARDS
    obs = np.zeros((2, O.ZONE + N_CARDS), np.int64)
    obs[0, O.ZONE + 3] = O.Z_ROBINSON_DISCARD
    obs[1, O.ZONE + N_CARDS - 1] = O.Z_HAZARD_STACK
    X = features.with_cards(np.ones((3, 2)), obs, np.array([0, 0, 1]))
    assert X.shape == (3, 2 + 2 * N_CARDS) and X.sum() == 6 + 2 + 1
    assert X[0, 2 + 3] == X[1, 2 + 3] == 1 and X[2, 1 + 2 * N_CARDS] == 1


@pytest.mark.parametrize("plan", [{"seed": 1}, {"levels": 4}, {"levels": [4], "games": "x"},
                                  {"levels": [4], "games": 10, "chunk": 0}])
def test_the_benchmarks_name_a_training_plan_that_friday_train_did_not_write(plan, tmp_path):
    """benchmarks/model_class.records (the fitting benchmarks' reader): a plan.json without
    its levels, or with values that make no chunks, is one UsageError naming the file (it
    was a KeyError or a TypeError); UsageError's argument is --data."""
    from sim.errors import UsageError
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    with pytest.raises(UsageError, match=r"^the training plan \S*plan.json is not one that "
                                         r"friday train wrote \((KeyError|TypeError|ValueError)"
                                         r": .*\): give a friday train data folder$") as e:
        _benchmark("model_class").records(tmp_path, 1)
    assert e.value.argument == "data"


def test_ctrl_c_in_the_fit_is_a_keyboard_interrupt_not_a_half_fitted_network(monkeypatch):
    """scikit-learn catches Ctrl-C inside MLPRegressor.fit, warns and returns the network as
    it stands; train_fit.fit raises KeyboardInterrupt instead, so friday train writes no
    weights file and keeps the gathered chunks (sim.lab.train)."""
    from types import SimpleNamespace
    from sklearn.neural_network import MLPRegressor
    import sim.lab.train_fit as F
    rng = np.random.default_rng(5)
    X = rng.normal(size=(2000, 6))
    dec = np.arange(2000) // 4
    monkeypatch.setattr(F, "candidate_rows", lambda data: (X, X[:, 0], dec))
    data = {"game": np.arange(500), "level": np.ones(500, dtype=np.int64)}
    plan = SimpleNamespace(hidden=4, alpha=1e-4, max_iter=30, seed=0)
    calls = []
    backprop = MLPRegressor._backprop

    def pressed_on_the_fifth_batch(self, *args, **kw):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return backprop(self, *args, **kw)

    monkeypatch.setattr(MLPRegressor, "_backprop", pressed_on_the_fifth_batch)
    with pytest.raises(KeyboardInterrupt):
        F.fit(data, plan)
    assert len(calls) == 5


def test_the_mean_network_outputs_the_mean_of_its_members():
    """sim.lab.train_fit.mean_network: one network whose output is the mean of its members'
    (hidden units side by side), so policy learned plays an ensemble as it is."""
    from sim.lab.train_fit import mean_network
    rng = np.random.default_rng(3)
    members = [_network(rng, 5, h) for h in (4, 2, 3)]
    X = rng.normal(0, 1, (50, 5))
    joined = {k: np.asarray(v) for k, v in mean_network(members).items()}
    assert joined["W1"].shape == (5, 9) and len(joined["b1"]) == len(joined["w2"]) == 9
    want = np.mean([_predict(m, X) for m in members], axis=0)
    assert np.allclose(_predict(joined, X), want, rtol=1e-12, atol=1e-12)


def test_fits_makes_the_last_network_the_mean_of_that_many_fits(tmp_path):
    """--fits 2: the last round's network is the mean of the fits of random seeds SEED and
    SEED + 1, the first the single fit of --fits 1; the data folder serves both (the records
    do not depend on it); benchmarks/ensemble.py joins benchmarks/data_curve.py's fits of the
    same seeds into the same network; its record names the members."""
    one = run_cli("train", "--out", "one.json", "--data", "d", "--rounds", "1", "--workers",
                  "1", *TINY, cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    two = run_cli("train", "--out", "two.json", "--data", "d", "--rounds", "1", "--fits", "2",
                  "--workers", "1", *TINY, cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("one.json", "two.json"))
    n = len(a["b1"])
    assert len(b["b1"]) == 2 * n and np.array_equal(np.asarray(b["W1"])[:, :n], a["W1"])
    assert b["record"]["plan"]["fits"] == 2 and "fits" not in a["record"]["plan"]
    assert len(b["record"]["fit"]["members"]) == 2
    assert b["record"]["fit"]["members"][0] == a["record"]["fit"]
    seed = a["record"]["plan"]["seed"]
    c = run_python(ROOT / "benchmarks" / "data_curve.py", "--data", "d", "--share", "1",
                   "--fit-seed", str(seed + 1), "--out", "s", cwd=tmp_path)
    assert c.returncode == 0, c.stderr
    e = run_python(ROOT / "benchmarks" / "ensemble.py", "one.json", f"s_1_s{seed + 1}.json",
                   "--out", "e.json", cwd=tmp_path)
    assert e.returncode == 0, e.stderr
    joined = json.loads((tmp_path / "e.json").read_text())
    assert all(joined[k] == b[k] for k in ("W1", "b1", "w2", "b2"))
    assert [m["file"] for m in joined["record"]["members"]] == ["one.json",
                                                                 f"s_1_s{seed + 1}.json"]
    bad = run_python(ROOT / "benchmarks" / "ensemble.py", "one.json", "--out", "x.json",
                     cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("error:")
    assert not (tmp_path / "x.json").exists()


def test_a_seed_past_the_fits_random_seeds_wraps_round_instead_of_failing_after_the_work(
        tmp_path):
    """A master seed of 2**32 - 1 with --fits 2: the second fit's random seed is 2**32, past
    scikit-learn's; it is taken modulo 2**32 (sim.lab.train_fit.FIT_SEEDS), not a traceback
    after every round's gathering."""
    args = [a if a != "5" else str(2**32 - 1) for a in TINY]
    r = run_cli("train", "--out", "w.json", "--data", "d", "--rounds", "1", "--fits", "2",
                "--workers", "1", *args, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    record = json.loads((tmp_path / "w.json").read_text())["record"]
    assert len(record["fit"]["members"]) == 2
    assert record["model"].endswith(f"the mean of 2 fits (random seeds {2**32 - 1}, 0)")
