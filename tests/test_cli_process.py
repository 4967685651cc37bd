"""The friday command as a user runs it, in fresh processes: every bad input is one `error:`
line and exit code 2 (no traceback, no file left behind), and Ctrl-C (sent as a terminal sends
it, once the run is playing: helpers.interrupt_cli) stops a long run after the chunk in flight,
reports what finished, exits with 130 and leaves a valid Parquet file."""
import json

import pandas as pd
import pytest

from helpers import interrupt_cli, run_cli

BAD_POLICY = """from numba import njit

@njit
def always_pay(obs, legal, n_legal, params, rng):
    return 2        # 'pay', never legal at the first (hazard) decision
"""
AGING_ON_TOP = {"aging_stack": [26, 18, 19, 20, 22, 23, 24, 25, 27, 28]}    # R2.1 broken

SIM = ["simulate", "--games", "10", "--level", "1"]
BAD_INPUTS = [
    (["simulate", "--games", "-5", "--engine", "reference"], "Invalid value for '--games'"),
    (["simulate", "--games", "0"], "'--games': Input should be greater than or equal to 1"),
    (["simulate", "--games", str(10**23)], "less than or equal to 9223372036854775807"),
    (["simulate", "--level", "7"], "unknown level"),
    (["simulate", "--level", "1,1", "--games", "10"], "names a level twice"),
    (["simulate", "--level", "2,,3"], "unknown level"),
    (["simulate", "--policy", "nope", "--games", "1"], "unknown policy 'nope'"),
    (["simulate", "--policy", "nofile.py:f", "--games", "1"], "not found"),
    (["simulate", "--engine", "warp", "--games", "1"], "'warp' is not one of 'fast', 'reference'"),
    (["simulate", "--threads", "0", "--games", "1"], "Invalid value for '--threads'"),
    (SIM + ["--threads", "999"], "threads must be 1.."),
    (["simulate", "--seed", "-1", "--games", "1"], "Invalid value for '--seed'"),
    (["simulate", "--seed", str(2**63), "--games", "1"], "less than or equal to"),
    (["simulate", "--option", "old_age=maybe", "--games", "1"], "old_age must be one of"),
    (["simulate", "--option", "colour=red", "--games", "1"], "unknown rule option"),
    (["simulate", "--option", "old_age", "--games", "1"], "must look like NAME=VALUE"),
    (["simulate", "--param", "nosuch=1", "--games", "1"], "no parameter 'nosuch'"),
    (["simulate", "--param", "reserve_red=abc", "--games", "1"], "must be a finite number"),
    (["simulate", "--param", "cull_min_life=nan", "--games", "1"], "must be a finite number"),
    (["simulate", "--param", "cull_min_life=inf", "--games", "1"], "must be a finite number"),
    (["simulate", "--param", "cull_min_life=-Infinity", "--games", "1"], "finite number"),
    (["simulate", "--summary-only", "--engine", "reference", "--games", "10"],
     "--summary-only runs on the fast engine only"),
    (["simulate", "--summary-only", "--out", "x.parquet", "--games", "10"],
     "cannot be combined with --out"),
    (SIM + ["--out", "a_folder"], "is a folder"),
    (SIM + ["--out", "a_folder", "--force"], "is a folder"),
    (SIM + ["--out", "old.parquet"], "exists: choose another file or pass --force"),
    (SIM + ["--out", "x.csv"], "must end in .parquet"),
    (SIM + ["--out", "old.parquet/x.parquet"], "cannot write"),
    (SIM + ["--policy", "bad.py:always_pay"],
     "chose 'pay' at a hazard decision (game 0, level 1, seed 1): not a legal action; legal: "
     "fight:"),
    (["replay", "--level", "5", "--seed", "1"], "unknown level 5"),
    (["replay", "--level", "1", "--seed", "1", "--format", "xml"], "'xml' is not one of"),
    (["replay", "--level", "1", "--seed", "1", "--engine", "warp"], "is not one of"),
    (["replay", "--level", "1", "--seed", "1", "--game", "18446744073709551621"],
     "'--game': Input should be less than or equal to 9223372036854775807"),
    (["replay", "--level", "1", "--seed", "1", "--game", "-1"], "greater than or equal to 0"),
    (["replay", "--level", "1", "--seed", "1", "--deal", "/nonexistent.json"], "not found"),
    (["replay", "--level", "1", "--seed", "1", "--deal", "broken.json"], "not valid JSON"),
    (["replay", "--level", "1", "--seed", "1", "--deal", "aging_on_top.json"], "breaks R2.1"),
    (["replay", "--level", "1", "--seed", "1", "--policy", "nofile.py:f"], "not found"),
    (["replay", "--level", "1", "--seed", "1", "--policy", "bad.py:always_pay"],
     "chose 'pay' at a hazard decision (step green, turn 1); legal: fight:"),
    (["replay", "--level", "1", "--seed", "1", "--actions", "moves.txt"], "chose 'end'"),
    (["report", "--games", "0"], "Invalid value for '--games'"),
    (["report", "--games", "10", "--out", "old.parquet"], "old.parquet"),
]


# Click's own checks (a mistyped command, option or value): the error line is the whole output
USAGE_ERRORS = [
    (["simulat"], "No such command 'simulat'. Did you mean 'simulate'?"),
    (["simulate", "--gams", "5"], "No such option: --gams"),
    (["simulate", "--games", "abc"], "Invalid value for '--games'"),
    (["simulate", "--games"], "Option '--games' requires an argument"),
    (["balance", "sweep", "--sett", "x"], "No such option: --sett"),
]


def user_folder(path):
    """A user's working folder with the files the bad inputs name."""
    (path / "a_folder").mkdir()
    (path / "old.parquet").write_bytes(b"precious")
    (path / "bad.py").write_text(BAD_POLICY)
    (path / "broken.json").write_text("{nope")
    (path / "aging_on_top.json").write_text(json.dumps(AGING_ON_TOP))
    (path / "moves.txt").write_text("end\n")
    return {p.relative_to(path) for p in path.rglob("*") if "__pycache__" not in p.parts}


@pytest.mark.parametrize("args, message", USAGE_ERRORS,
                         ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_a_mistyped_command_option_or_value_is_one_error_line(tmp_path, args, message):
    result = run_cli(*args, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: ") and message in result.stderr


# The bad inputs run in a fresh process, as a user runs the command, for one case of each
# command and each kind of input (a Click check, a FridayError, a file that cannot be written, a
# policy file's illegal action, a deal file); the others run the same entry point, sim.cli.main,
# in this process (conftest's friday_here), with the same checks.
FRESH = {"simulate --games 0", "simulate --policy nope --games 1",
         "simulate --games 10 --level 1 --out old.parquet/x.parquet",
         "simulate --games 10 --level 1 --policy bad.py:always_pay",
         "replay --level 1 --seed 1 --deal broken.json", "report --games 10 --out old.parquet"}
assert FRESH <= {" ".join(a) for a, _ in BAD_INPUTS}


@pytest.mark.parametrize("args, message", BAD_INPUTS, ids=[" ".join(a) for a, _ in BAD_INPUTS])
def test_bad_input_is_one_error_line_exit_2_and_leaves_nothing(tmp_path, args, message,
                                                               friday_here):
    before = user_folder(tmp_path)
    if " ".join(args) in FRESH:
        result = run_cli(*args, cwd=tmp_path)
    else:
        result = friday_here(args, tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 2, output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, output
    assert message in errors[0], output
    assert "Traceback" not in output
    after = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if "__pycache__" not in p.parts}
    assert after == before                                  # nothing written, nothing partial
    assert (tmp_path / "old.parquet").read_bytes() == b"precious"


MODES = {
    "rows": ["--out", "games.parquet"],
    "summary": ["--summary-only"],
    "reference": ["--engine", "reference", "--policy", "random", "--out", "games.parquet"],
}


# interrupt_cli's cue that a run is playing: its progress bar has counted three games or more
# (the first three rows of the file are checked; the reference engine's first range is smaller)
PLAYING = r"(?<![\d,])([3-9]|[1-9][\d,]+)/[\d,]+ games"


def _interrupted_run(tmp_path, mode) -> int:
    """Ctrl-C to a long run (10^8 games per level) once it is playing (``PLAYING``): it stops
    after the chunk in flight, prints the table of the finished games (marked interrupted) and
    exits with 130.  Returns the number of games it reports.  (How fast it stops is measured by
    no test: a loaded machine must pass; chunks last about 0.25 s.)  The fast engine and the
    default policy are compiled and cached first (the tests' ``fast_engine`` fixture)."""
    run = interrupt_cli("simulate", "--level", "all", "--games", "100000000", "--threads", "2",
                        *MODES[mode], cues=[PLAYING], cwd=tmp_path)
    out, err = run.stdout, run.stderr
    assert out.startswith("friday-lab"), out + err          # the header
    assert run.returncode == 130, out + err
    assert "[INTERRUPTED: partial results]" in out and "Traceback" not in out + err
    played = int(out.split(" games in ")[0].split()[-1].replace(",", ""))
    assert played > 0 and f"interrupted after {played:,} games" in err
    table = [line for line in out.split("win rate", 1)[1].splitlines()[1:]
             if line.split()[:1] in (["1"], ["2"], ["3"], ["4"])]
    assert table and table[0].split()[0] == "1"
    assert sum(int(line.split()[1].replace(",", "")) for line in table) == played
    assert not list(tmp_path.glob("*.partial"))
    return played


@pytest.mark.parametrize("mode", ["rows", "reference"])
def test_ctrl_c_stops_reports_and_writes_what_finished(tmp_path, mode, fast_engine):
    """Ctrl-C (``_interrupted_run``) in rows mode, on either engine: the Parquet file holds
    exactly the games reported."""
    fast_engine("expert")
    played = _interrupted_run(tmp_path, mode)
    df = pd.read_parquet(tmp_path / "games.parquet")
    assert len(df) == played and list(df["game"][:3]) == [0, 1, 2]


def test_ctrl_c_in_summary_mode_stops_and_reports_what_finished(tmp_path, fast_engine):
    """Ctrl-C (``_interrupted_run``) in summary mode, which writes no games file."""
    fast_engine("expert")
    _interrupted_run(tmp_path, "summary")
    assert not (tmp_path / "games.parquet").exists()


LOOPING_POLICY = """from numba import njit
from sim import observation as O

@njit
def late(obs, legal, n_legal, params, rng):
    if obs[O.O_LEVEL] == 2:
        print("looping")                # the test's cue: level 1 has finished
    while obs[O.O_LEVEL] == 2:          # level 1 plays, level 2 never ends
        rng[0] += 1
    return legal[0]
"""


def test_ctrl_c_stops_a_policy_that_never_returns(tmp_path, fast_engine):
    """A policy looping forever in jitted code (sim.contract.interruptible): the first
    Ctrl-C, once level 2 loops (the policy's cue on standard output), asks to stop after the
    chunk in flight, which never ends; the second one, once the command says so ("Ctrl-C
    again to abort"), stops at once, and what finished (level 1) is reported and written,
    exit code 130.  (Before the fix the command never returned: interrupt_cli's time-out.)"""
    fast_engine("expert")
    (tmp_path / "late.py").write_text(LOOPING_POLICY)
    run = interrupt_cli("simulate", "--policy", "late.py:late", "--level", "1,2", "--games",
                        "300", "--out", "games.parquet", cues=["looping", "Ctrl-C again"],
                        cwd=tmp_path)
    out, err = run.stdout, run.stderr
    assert out.startswith("friday-lab"), out + err          # the header
    assert run.returncode == 130, out + err
    assert "Traceback" not in out + err
    assert "interrupted after 300 games" in err and "[INTERRUPTED: partial results]" in out
    assert len(pd.read_parquet(tmp_path / "games.parquet")) == 300
    assert not list(tmp_path.glob("*.partial*"))
