"""``friday train`` (sim.lab.train), run as a user runs it, in fresh processes, on a tiny plan:
the same weights whatever the workers; more rounds continue a data folder to the weights of an
uninterrupted run; Ctrl-C keeps the finished chunks and the same command continues; bad input
is one error line before any game."""
import json
from pathlib import Path

import pytest

from helpers import COUNTED, interrupt_cli, run_cli

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


def test_ctrl_c_keeps_the_finished_chunks_and_the_command_continues(tmp_path):
    """Ctrl-C (to the command and its workers, as a terminal sends it) once the progress bar
    has counted the first of the four chunks: exit code 130, the finished chunks kept, no
    weights file; the same command gathers the rest."""
    args = ["train", "--out", "w.json", "--data", "d", "--rounds", "1", "--workers", "1",
            "--level", "1,2,3,4", "--games", "2", "--rollouts", "6", "--hidden", "4"]
    run = interrupt_cli(*args, cues=[COUNTED], cwd=tmp_path)
    err = run.stderr
    kept = sorted(p.name for p in (tmp_path / "d").glob("*.npz"))
    assert run.returncode == 130, run.stdout + err
    assert "interrupted: the finished chunks are kept" in err and "Traceback" not in err
    assert 1 <= len(kept) < 4 and not (tmp_path / "w.json").exists()
    again = run_cli(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(list((tmp_path / "d").glob("*.npz"))) == 4


@pytest.mark.parametrize("extra, message", [
    (["--level", "7"], "level"),
    (["--out", "w.txt"], ".json"),
    (["--out", "/proc/w.json"], "/proc"),
    (["--rollouts", "0"], "rollouts"),
    (["--games", "x"], "games"),
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


def test_a_data_folder_of_another_plan_is_refused(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "plan.json").write_text(json.dumps({"seed": 1}))
    r = run_cli("train", "--out", "w.json", "--data", "d", *TINY, cwd=tmp_path)
    assert r.returncode == 2 and "another training plan" in r.stderr
    assert r.stderr.count("\n") == 1
