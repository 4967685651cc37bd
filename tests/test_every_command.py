"""Every command, as a user runs it, on bad input and on every output option: exit code 2,
one `error:` line on standard error, no traceback, nothing written, no game played (issue 27).
tests/test_cli_process.py holds `simulate`'s own cases and Ctrl-C; this module the other
commands, the output paths of each, and policy files that cannot be a policy.  One case of
each command and of each kind of policy file runs in a fresh process (FRESH); the others run
the same entry point, sim.cli.main, in this process (conftest's friday_here)."""
import subprocess
import sys
import textwrap

import pytest

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
# (command and options, the message the one error line holds)
COMMANDS = {
    "simulate": ["simulate", *ONE],
    "compare": ["compare", "expert", "random", *ONE],
    "report": ["report", "expert", "random", *ONE, "--out", "rep"],
    "pirates": ["balance", "pirates", *ONE, "--out", "bal"],
    "sweep": ["balance", "sweep", "--set", "63.pirate_hazard_value", "--values", "30,35",
              "--level", "4", "--games", "10"],
}
ARITY = "takes 4 arguments (obs, legal, n_legal, params), not the 5 of decide("
FLOAT = "returns float64, not an action id (int)"
TEXT = "PARAMS['reserve'] must be a finite number, not 'abc'"
POLICY_FILES = [("mine.py:four", ARITY), ("text.py:f", TEXT), ("mine.py:half", FLOAT),
                ("mine.py:maybe", "returns OptionalType(int64), not an action id")]


def _with_policy(command: str, spec: str) -> list[str]:
    args = COMMANDS[command]
    if command in ("compare", "report"):
        return [args[0], "expert", spec, *args[3:]]
    return [*args, "--policy", spec]


CASES = [(_with_policy(c, spec), message) for c in COMMANDS for spec, message in POLICY_FILES]
CASES += [(["replay", "--level", "1", "--seed", "1", "--policy", spec], message)
          for spec, message in POLICY_FILES[:3]]      # maybe: None is never returned there
CASES += [(["play", "--level", "1", "--hint", spec], message)
          for spec, message in POLICY_FILES[:2]]
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
    # the commands without output files
    (["replay", "--level", "1", "--seed", "1", "--game", BIG], "less than or equal"),
    (["play", "--level", "5"], "unknown level"),
    (["play", "--level", "1", "--hint", "nope"], "unknown policy 'nope'"),
    (["policies", "extra"], "unexpected extra argument"),
]


FRESH = {"simulate --level 1 --games 10 --policy mine.py:half",
         "compare expert mine.py:maybe --level 1 --games 10",
         "report expert text.py:f --level 1 --games 10 --out rep",
         "balance pirates --level 1 --games 10 --out bal --policy mine.py:four",
         "balance sweep --set 63.pirate_hazard_value --values 30,35 --level 4 --games 10 --out "
         "old.csv/x.png",
         "compare expert random --level 1 --games 10 --figure old.png",
         "replay --level 1 --seed 1 --game " + BIG, "play --level 1 --hint mine.py:four",
         "policies extra"}
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
    for name in ("old.parquet", "old.png", "old.csv"):
        (tmp_path / name).write_bytes(b"precious")
    before = _files(tmp_path)
    quiet = ["--quiet"] if args[0] in ("simulate", "compare", "report", "balance") else []
    if " ".join(args) in FRESH:
        out = subprocess.run([sys.executable, "-m", "sim.cli", *args, *quiet], cwd=tmp_path,
                             capture_output=True, text=True, timeout=600, input="")
    else:
        out = friday_here([*args, *quiet], tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and message in errors[0], out.stderr
    assert "Traceback" not in out.stdout + out.stderr
    assert "games in" not in out.stdout                 # no game was played
    assert _files(tmp_path) == before                   # nothing written, nothing half-written
