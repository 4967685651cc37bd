"""The friday command: clear errors without tracebacks, outputs that load back."""
import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_replay_text_and_jsonl_agree_on_the_game():
    text = run("replay", "--level", 2, "--seed", 5, "--policy", "random", "--format", "text")
    assert text.exit_code == 0, text.output
    assert "== GREEN step: 30 hazards ==" in text.output and "(R10.3):" in text.output
    lines = run("replay", "--level", 2, "--seed", 5, "--policy", "random", "--format", "jsonl")
    events = [json.loads(line) for line in lines.output.splitlines()]
    assert events[0]["e"] == "header" and events[0]["level"] == 2
    assert len(events[0]["cards"]) == 69
    assert events[-1]["e"] == "game_end"
    assert f"Score {events[-1]['score']} (R10.3):" in text.output


def test_replay_with_illegal_scripted_action(tmp_path):
    actions = tmp_path / "moves.txt"
    actions.write_text("# first turn\nend\n")
    result = run("replay", "--level", 1, "--seed", 1, "--actions", actions)
    assert result.exit_code == 2
    assert "chose 'end'" in result.output and "legal: fight:" in result.output


def test_replay_scripted_runs_out(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"hazard_stack": list(range(29, 59))}))
    actions = tmp_path / "moves.txt"
    actions.write_text("fight:29\ndraw\n")
    result = run("replay", "--level", 1, "--seed", 1, "--deal", deal, "--actions", actions)
    assert result.exit_code == 0      # a position (policies.transcript), not an error
    assert "the moves end before the game does, after move 2" in result.output
    assert "free card:" in result.stdout and "The trace ends here" in result.stdout


def test_simulate_reference_writes_parquet_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "games.parquet"
    result = run("simulate", "--engine", "reference", "--games", 20, "--level", "1,4",
                 "--policy", "random", "--out", out)
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output
    df = pd.read_parquet(out)
    assert len(df) == 40 and set(df["level"]) == {1, 4}
    assert {"level", "game", "won", "cause", "score", "life", "pirate_1", "pirate_2"} <= set(df.columns)
    again = run("simulate", "--engine", "reference", "--games", 20, "--policy", "random", "--out", out)
    assert again.exit_code == 2 and "exists" in again.output and "--force" in again.output
    assert len(pd.read_parquet(out)) == 40      # nothing lost
    forced = run("simulate", "--engine", "reference", "--games", 5, "--level", 1, "--policy",
                 "random", "--out", out, "--force")
    assert forced.exit_code == 0 and len(pd.read_parquet(out)) == 5


def test_policies_lists_every_builtin_with_parameters():
    result = run("policies")
    assert result.exit_code == 0
    for name in ("random", "always-fight", "cull-green", "expert"):
        assert name in result.output
    assert "--param reserve_green=" in result.output


def test_user_policy_file(tmp_path):
    file = tmp_path / "mine.py"
    file.write_text(
        "from numba import njit\n"
        "@njit\n"
        "def first_legal(obs, legal, n_legal, params, rng):\n"
        "    return legal[0]\n")
    result = run("replay", "--level", 1, "--seed", 3, "--policy", f"{file}:first_legal")
    assert result.exit_code == 0, result.output
    assert "mine.py:first_legal" in result.output


def test_results_do_not_depend_on_the_time_bounded_chunks(tmp_path, monkeypatch):
    """Chunks of ~2 ms (tens of games each, sizes varying with the measured rate): the rows
    written equal one run_batch call, and the summary mode's table equals run_summary's in one
    chunk (sim.lab.run)."""
    import numpy as np
    import sim.lab.progress
    from policies import load_policy
    from sim.fast import run_batch, run_summary
    from sim.lab.summary import summary_row
    monkeypatch.setattr(sim.lab.progress, "CHUNK_SECONDS", 2e-3)
    out = tmp_path / "rows.parquet"
    result = run("simulate", "--games", 3000, "--level", "2,3", "--policy", "random",
                 "--threads", 2, "--out", out)
    assert result.exit_code == 0, result.output
    df = pd.read_parquet(out)
    pol = load_policy("random")
    for level in (2, 3):
        one = run_batch(level, 1, 0, 3000, pol)
        got = df[df["level"] == level]
        assert np.array_equal(got["game"], one["game"])
        assert np.array_equal(got["score"], one["score"]) and np.array_equal(got["turns"], one["turns"])
    summary = run("simulate", "--games", 3000, "--level", "2,3", "--policy", "random",
                  "--summary-only")
    for level in (2, 3):
        row = summary_row(run_summary(level, 1, 3000, pol))
        line = next(x for x in summary.output.splitlines() if x.split()[:2] == [str(level), "3,000"])
        assert f"{row['win_rate']:6.2%}".strip() in line and f"{row['mean_score']:.2f}" in line


def test_replay_fast_engine_prints_the_reference_trace():
    ref = run("replay", "--level", 3, "--seed", 11, "--game", 2, "--policy", "expert", "--format", "jsonl")
    fast = run("replay", "--level", 3, "--seed", 11, "--game", 2, "--policy", "expert", "--format",
               "jsonl", "--engine", "fast")
    assert ref.exit_code == 0 and fast.exit_code == 0, fast.output
    ref_events = [json.loads(line) for line in ref.output.splitlines()]
    fast_events = [json.loads(line) for line in fast.output.splitlines()]
    assert ref_events[0].pop("engine") == "reference" and fast_events[0].pop("engine") == "fast"
    assert ref_events == fast_events


def test_simulate_refuses_an_unwritable_output(tmp_path):
    """A place where no file can be made is refused before any game; missing folders are
    made (sim.lab.files, as for every command)."""
    (tmp_path / "a_file").write_text("x")
    result = run("simulate", "--games", 10, "--out", tmp_path / "a_file" / "x.parquet")
    assert result.exit_code == 2 and "cannot write" in result.output
    result = run("simulate", "--games", 10, "--out", tmp_path / "new" / "dir" / "x.parquet")
    assert result.exit_code == 0 and (tmp_path / "new" / "dir" / "x.parquet").is_file()
    result = run("simulate", "--games", 10, "--out", tmp_path / "x.csv")
    assert result.exit_code == 2 and ".parquet" in result.output


def test_simulate_fast_summary_only():
    result = run("simulate", "--games", 3000, "--level", "1,2", "--summary-only", "--threads", 1)
    assert result.exit_code == 0, result.output
    assert "summary mode" in result.output and "6,000 games" in result.output


def test_header_names_the_policy_with_every_parameter():
    """The header shows the full policy: every parameter, the --param values included."""
    from policies import load_policy
    result = run("simulate", "--games", 200, "--level", 1, "--param", "cull_min_life=10",
                 "--param", "value_weight=0.75", "--option", "old_age=continue")
    assert result.exit_code == 0, result.output
    header = result.output.split("games in")[0]
    assert "policy expert[cull_min_life=10,value_weight=0.75] (file " in header
    assert "fast engine, seed 1, options old_age=continue" in header
    for name in load_policy("expert").param_names:
        assert f"{name}=" in header
    assert "cull_min_life=10," in header and "value_weight=0.75," in header
