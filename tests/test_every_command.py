"""Every command, as a user runs it, on bad input and on every output option: exit code 2,
one `error:` line on standard error, no traceback, nothing written, no game played (issue 27).
tests/test_cli_process.py holds `simulate`'s own cases and Ctrl-C; this module the other
commands, the output paths of each, and policy files that cannot be a policy.  One case of
each command and of each kind of policy file runs in a fresh process (FRESH); the others run
the same entry point, sim.cli.main, in this process (conftest's friday_here)."""
import textwrap

import pytest

from helpers import run_cli

POLICIES = textwrap.dedent("""
    from numba import njit
    PARAMS = {"reserve": 2.0}

    @njit
    def four(obs, legal, n_legal, params):
        return legal[0]

    @njit
    def half(obs, legal, n_legal, params, rng):
        return 0.5

    @njit
    def maybe(obs, legal, n_legal, params, rng):
        if n_legal > 1:
            return legal[0]
        return None

    @njit
    def word(obs, legal, n_legal, params, rng):
        return "end"
""")
TEXT_PARAMS = textwrap.dedent("""
    from numba import njit
    PARAMS = {"reserve": "abc"}

    @njit
    def f(obs, legal, n_legal, params, rng):
        return legal[0]
""")
BIG = str(2**64)            # out of range for --games
ONE = ["--level", "1", "--games", "10"]
REPLAY = ["replay", "--level", "1", "--seed", "1"]
# (command and options, the message the one error line holds)
COMMANDS = {
    "simulate": ["simulate", *ONE],
    "compare": ["compare", "expert", "random", *ONE],
    "report": ["report", "expert", "random", *ONE, "--out", "rep"],
    "pirates": ["balance", "pirates", *ONE, "--out", "bal"],
    "sweep": ["balance", "sweep", "--set", "63.pirate_hazard_value", "--values", "30,35",
              "--level", "4", "--games", "10"],
    "tune": ["tune", "veteran", "--param", "value_weight=0.4:0.8", "--level", "1",
             "--games-per-trial", "10", "--trials", "1", "--study", "s.db"],
}
TUNE = COMMANDS["tune"]
ARITY = "takes 4 arguments (obs, legal, n_legal, params), not the 5 of decide("
FLOAT = "returns float64, not an action id (int)"
TEXT = "PARAMS['reserve'] must be a finite number, not 'abc'"
WORD = "returns Literal[str](end), not an action id (int)"
POLICY_FILES = [("mine.py:four", ARITY), ("text.py:f", TEXT), ("mine.py:half", FLOAT),
                ("mine.py:maybe", "returns OptionalType(int64), not an action id (int): some "
                                  "path returns None"),
                ("mine.py:word", WORD)]


def _with_policy(command: str, spec: str) -> list[str]:
    args = COMMANDS[command]
    if command in ("compare", "report"):
        return [args[0], "expert", spec, *args[3:]]
    if command == "tune":                   # the policy files' parameter
        return [args[0], spec, "--param", "reserve=0:4", *args[4:]]
    return [*args, "--policy", spec]


CASES = [(_with_policy(c, spec), message) for c in COMMANDS for spec, message in POLICY_FILES]
CASES += [(["replay", "--level", "1", "--seed", "1", "--policy", spec], message)
          for spec, message in POLICY_FILES[:3] + POLICY_FILES[4:]]   # maybe: None is never
#                                                       returned on the reference engine
CASES += [(["play", "--level", "1", "--hint", spec], message)      # before the first move
          for spec, message in POLICY_FILES]
CASES += [
    # --games out of range, on every command that plays many games
    *[([*COMMANDS[c][:-1], BIG], "less than or equal to 9223372036854775807")
      for c in ("compare", "sweep")],
    (["report", "expert", "--level", "1", "--games", BIG, "--out", "rep"], "less than or equal"),
    (["balance", "pirates", "--level", "1", "--games", BIG, "--out", "bal"], "less than or equal"),
    # simulate: --log-decisions
    ([*COMMANDS["simulate"], "--policy", "search", "--log-decisions", "old.parquet"], "exists"),
    ([*COMMANDS["simulate"], "--policy", "search", "--log-decisions", "old.csv/x.parquet"],
     "old.csv"),
    ([*COMMANDS["simulate"], "--out", "/sys/x.parquet"], "/sys"),
    # compare: --out and --figure
    ([*COMMANDS["compare"], "--out", "old.parquet"], "exists"),
    ([*COMMANDS["compare"], "--out", "x.csv"], "must end in .parquet"),
    ([*COMMANDS["compare"], "--out", "old.png/x.parquet"], "old.png"),
    ([*COMMANDS["compare"], "--out", "a_folder", "--force"], "is a folder"),
    ([*COMMANDS["compare"], "--figure", "old.png"], "exists"),
    ([*COMMANDS["compare"], "--figure", "old.csv/x.png"], "old.csv"),
    ([*COMMANDS["compare"], "--figure", "/sys/x.png"], "/sys"),
    # report and balance pirates: --out is a folder
    ([*COMMANDS["report"][:-1], "/sys/rep"], "/sys"),
    ([*COMMANDS["pirates"][:-1], "old.parquet"], "old.parquet"),
    ([*COMMANDS["pirates"][:-1], "/sys/bal"], "/sys"),
    # balance sweep: --out (a figure) and --csv
    ([*COMMANDS["sweep"], "--out", "old.png"], "exists"),
    ([*COMMANDS["sweep"], "--out", "old.csv/x.png"], "old.csv"),
    ([*COMMANDS["sweep"], "--out", "a_folder", "--force"], "is a folder"),
    ([*COMMANDS["sweep"], "--out", "/sys/x.png"], "/sys"),
    ([*COMMANDS["sweep"], "--csv", "old.csv"], "exists"),
    ([*COMMANDS["sweep"], "--csv", "old.png/x.csv"], "old.png"),
    # replay: --format html writes a page to --out; --out and --force go with it only
    ([*REPLAY, "--format", "nonsense"], "'nonsense' is not one of"),
    ([*REPLAY, "--format", "html"], "give --out FILE.html"),
    ([*REPLAY, "--format", "html", "--out", "game.txt"], "must end in .html"),
    ([*REPLAY, "--format", "html", "--out", "old.html"], "exists"),
    ([*REPLAY, "--format", "html", "--out", "old.csv/x.html"], "old.csv"),
    ([*REPLAY, "--format", "html", "--out", "a_folder", "--force"], "is a folder"),
    ([*REPLAY, "--format", "html", "--out", "/sys/x.html"], "/sys"),
    ([*REPLAY, "--out", "x.html"], "--out goes with --format html"),
    ([*REPLAY, "--format", "jsonl", "--force"], "--force goes with --format html"),
    # tune: the parameters and their ranges, the study file, the validation, --out
    ([*TUNE[:2], *TUNE[4:]], "--param must name at least one parameter"),
    ([*TUNE, "--param", "nope=0:1"], "policy 'veteran' has no parameter 'nope'"),
    ([*TUNE, "--param", "value_weight=0.5:0.6"], "--param value_weight is given twice"),
    ([*TUNE[:3], "late_value_weight=0.9:0.5", *TUNE[4:]], "the range is inverted"),
    ([*TUNE[:3], "late_value_weight=0.5:0.5", *TUNE[4:]], "the range is empty"),
    ([*TUNE[:3], "late_value_weight=low:1", *TUNE[4:]], "LOW 'low' is not a number"),
    ([*TUNE[:3], "late_value_weight=0:inf", *TUNE[4:]], "HIGH must be a finite number"),
    ([*TUNE[:3], "late_value_weight=0.5", *TUNE[4:]], "must be NAME=LOW:HIGH"),
    ([*TUNE[:3], "late_value_weight=0:1:2", *TUNE[4:]], "must be NAME=LOW:HIGH"),
    ([*TUNE, "--sampler", "cmaes"], "--sampler cmaes needs at least two params"),
    ([*TUNE, "--sampler", "grid"], "Invalid value for '--sampler'"),
    ([*TUNE[:5], "7", *TUNE[6:]], "unknown level 7"),
    ([*TUNE[:7], "0", *TUNE[8:]], "greater than or equal to 1"),
    ([*TUNE[:9], "0", *TUNE[10:]], "greater than or equal to 1"),
    (TUNE[:-2], "Missing option '--study'"),
    ([*TUNE[:-1], "a_folder"], "is a folder"),
    ([*TUNE[:-1], "old.png"], "--study must end in .db"),
    ([*TUNE[:-1], "old.csv/s.db"], "old.csv"),
    ([*TUNE[:-1], "/sys/s.db"], "/sys"),
    ([*TUNE[:-1], "old.db"], "is not a study database of friday tune"),
    ([*TUNE, "--seed", "5", "--validate-seed", "5"], "--validate-seed must differ from --seed"),
    ([*TUNE, "--validate-games", "-1"], "greater than or equal to 0"),
    ([*TUNE, "--out", "old.png"], "is a file: give a folder"),
    ([*TUNE, "--out", "/sys/tuned"], "/sys"),
    ([*TUNE, "--option", "old_age=never"], "old_age"),
    ([*TUNE, "--cluster", "local:0"], "at least 1 worker"),
    # the commands without output files
    (["replay", "--level", "1", "--seed", "1", "--game", BIG], "less than or equal"),
    (["play", "--level", "5"], "unknown level"),
    (["play", "--level", "1", "--hint", "nope"], "unknown policy 'nope'"),
    (["policies", "extra"], "unexpected extra argument"),
    (["train", "--out", "old.json", "--data", "d", "--games", "1"], "old.json exists"),
    (["train", "--out", "w.json", "--data", "old.png", "--games", "1"], "is a file"),
    (["train", "--out", "w.json", "--data", "/sys/d", "--games", "1"], "/sys"),
    (["train", "--out", "/sys/w.json", "--data", "d", "--games", "1"], "/sys"),
    (["train", "--out", "w.json", "--data", "d", "--level", "0"], "level"),
]


FRESH = {"simulate --level 1 --games 10 --policy mine.py:half",
         "compare expert mine.py:maybe --level 1 --games 10",
         "report expert text.py:f --level 1 --games 10 --out rep",
         "balance pirates --level 1 --games 10 --out bal --policy mine.py:four",
         "balance sweep --set 63.pirate_hazard_value --values 30,35 --level 4 --games 10 --out "
         "old.csv/x.png",
         "compare expert random --level 1 --games 10 --figure old.png",
         "replay --level 1 --seed 1 --game " + BIG, "play --level 1 --hint mine.py:four",
         "replay --level 1 --seed 1 --policy mine.py:word",
         "policies extra",
         "tune veteran --param value_weight=0.4:0.8 --level 1 --games-per-trial 10 --trials 1 "
         "--study old.db",
         "replay --level 1 --seed 1 --format html --out old.html",
         "train --out w.json --data /sys/d --games 1"}
assert FRESH <= {" ".join(a) for a, _ in CASES}


def _files(path):
    return {(p.relative_to(path), p.stat().st_size) for p in path.rglob("*")
            if "__pycache__" not in p.parts}


@pytest.mark.parametrize("args, message", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_bad_input_or_output_is_one_error_line_before_any_game(tmp_path, args, message,
                                                              fast_engine, friday_here):
    fast_engine("expert")                  # the fresh processes find the engine in the cache
    (tmp_path / "mine.py").write_text(POLICIES)
    (tmp_path / "text.py").write_text(TEXT_PARAMS)
    (tmp_path / "a_folder").mkdir()
    for name in ("old.parquet", "old.png", "old.csv", "old.html", "old.db", "old.json"):
        (tmp_path / name).write_bytes(b"precious")
    before = _files(tmp_path)
    quiet = ["--quiet"] if args[0] in ("simulate", "compare", "report", "balance") else []
    if " ".join(args) in FRESH:
        out = run_cli(*args, *quiet, cwd=tmp_path)
    else:
        out = friday_here([*args, *quiet], tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and message in errors[0], out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "games in" not in out.stdout                 # no game was played
    assert _files(tmp_path) == before                   # nothing written, nothing half-written
