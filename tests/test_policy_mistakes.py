"""A policy's mistakes while it plays, on every command and engine that runs policies: an
exception inside decide, an action id outside the action space, a decision that never returns
(the time limit, FRIDAY_DECISION_SECONDS) and Ctrl-C.  Each is one `error:` line naming the
file, the function and the decision, exit code 2 (Ctrl-C: 130), no traceback (sim.contract).

The mistakes found before any game (a wrong signature, a text in PARAMS, a return type that is
no integer) are tests/test_every_command.py's; an illegal action is tests/test_cli_process.py's.
The cases run in this process (conftest's friday_here) but one of each kind, which runs as a
user runs it, in a fresh process; a policy that never returns only ever runs in a fresh one
(its thread cannot be stopped: it would spin in this process until the session ends)."""
import re
import textwrap

import pytest

from helpers import interrupt_cli, run_cli

MISTAKES = textwrap.dedent("""
    from numba import njit
    from sim import observation as O

    @njit
    def boom(obs, legal, n_legal, params, rng):
        if obs[O.O_PHASE] == O.PH_FIGHT:
            raise ValueError("no fights")
        return legal[0]

    @njit
    def big(obs, legal, n_legal, params, rng):
        return 9999

    @njit
    def forever(obs, legal, n_legal, params, rng):
        while obs[O.O_TURN] >= 0:
            rng[0] += 1
        return legal[0]
""")
ONE = ["--level", "1", "--games", "10"]
REPLAY = ["replay", "--level", "1", "--seed", "1"]
# the command, with SPEC where the policy goes; play asks its hint for the first fight
COMMANDS = {
    "simulate": ["simulate", *ONE, "--policy", "SPEC"],
    "reference": ["simulate", *ONE, "--engine", "reference", "--policy", "SPEC"],
    "compare": ["compare", "expert", "SPEC", *ONE],
    "report": ["report", "expert", "SPEC", *ONE, "--out", "rep"],
    "pirates": ["balance", "pirates", *ONE, "--out", "bal", "--policy", "SPEC"],
    "replay": [*REPLAY, "--policy", "SPEC"],
    "replay-fast": [*REPLAY, "--engine", "fast", "--policy", "SPEC"],
    "replay-html": [*REPLAY, "--format", "html", "--out", "game.html", "--policy", "SPEC"],
    "play": ["play", "--level", "1", "--seed", "1", "--hint", "SPEC"],
}
PLAY_INPUT = "1\n?\n"                   # the first hazard, then a hint at its fight
DECISION = r"\(decision \d+ of game \d+; level 1, seed \d+, step green, turn \d+\)"
RAISED = (r"policy 'mine.py:boom(\[\w+=[\d.]+\])?' \(\S*mine.py:8, function boom\) raised "
          r"ValueError: no fights at a fight decision " + DECISION + "$")
FAST = r"policy 'mine.py:big' chose action id 9999 \(outside the action space\) at a hazard "
OUTSIDE = {"fast": FAST + r"decision \(game 0, level 1, seed 1\): not a legal action; legal: "
                          r"fight:\d+, fight:\d+$",
           "reference": FAST + r"decision \(step green, turn 1\); legal: fight:\d+, fight:\d+$"}
CASES = [(c, "boom", RAISED) for c in COMMANDS]
CASES += [(c, "big", OUTSIDE["reference" if c in ("reference", "replay", "replay-html")
                             else "fast"]) for c in COMMANDS if c != "play"]
FRESH = {("simulate", "boom"), ("replay", "big")}       # the others: in this process


def _args(command: str, func: str) -> list[str]:
    return [f"mine.py:{func}" if a == "SPEC" else a for a in COMMANDS[command]]


def _one_error_line(out, pattern):
    output = out.stdout + out.stderr
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and re.search(pattern, errors[0]), output[-3000:]
    assert "Traceback" not in output


@pytest.mark.parametrize("command, func, pattern", CASES,
                         ids=[f"{c}-{f}" for c, f, _ in CASES])
def test_a_mistake_while_playing_is_one_error_line_naming_the_decision(
        tmp_path, command, func, pattern, fast_engine, friday_here):
    fast_engine("expert")                  # the fresh processes find the engine in the cache
    (tmp_path / "mine.py").write_text(MISTAKES)
    args, stdin = _args(command, func), PLAY_INPUT if command == "play" else ""
    if (command, func) in FRESH:
        out = run_cli(*args, cwd=tmp_path, input=stdin)
    else:
        out = friday_here(args, tmp_path, input=stdin)
    assert out.returncode == 2, out.stdout + out.stderr
    _one_error_line(out, pattern)
    assert {p.name for p in tmp_path.iterdir()} <= {"mine.py", "__pycache__"}  # nothing written


RARE = textwrap.dedent("""
    from numba import njit
    from sim import observation as O
    from sim.rng import nb_below

    @njit
    def rare(obs, legal, n_legal, params, rng):
        if obs[O.O_PHASE] == O.PH_FIGHT and nb_below(rng, 20000) == 3:
            raise ValueError("rare")
        return legal[nb_below(rng, n_legal)]
""")


def test_an_exception_in_any_thread_of_a_batch_stops_it_at_its_game(tmp_path, fast_engine):
    """Level 1 game 2616 of seed 1 is the first to raise: rows and summaries, played by two
    threads, name it (an exception inside a jitted batch is an answer, sim.fast.ask.RAISED:
    Numba itself would lose one raised in a worker thread and play on)."""
    from policies import load_policy
    from sim.fast import run_batch, run_summary
    from sim.errors import FridayError
    fast_engine("expert")
    (tmp_path / "rare.py").write_text(RARE)
    policy = load_policy(f"{tmp_path}/rare.py:rare")
    where = (r"'\S*rare.py:rare' \(\S*rare.py:9, function rare\) raised ValueError: rare at a "
             r"fight decision \(decision \d+ of game 2616; level 1, seed 1, step ")
    for play in (lambda: run_batch(1, 1, 0, 5000, policy, threads=2),
                 lambda: run_summary(1, 1, 5000, policy, threads=2)):
        with pytest.raises(FridayError, match=where):
            play()


LIMIT = r"did not return within 1 s at a (hazard|fight) decision " + DECISION


@pytest.mark.parametrize("command", ["reference", "replay-fast", "play"])
def test_a_decision_that_never_returns_stops_at_the_time_limit(tmp_path, command,
                                                               fast_engine):
    """FRIDAY_DECISION_SECONDS=1: the reference engine's run, the fast engine's single game
    (replay: no decision finished within the limit) and play's hint, each one error line,
    and the process ends although the policy's thread still spins (a hang would meet
    ``run_cli``'s timeout; no wall-clock time is asserted: a loaded machine must pass)."""
    fast_engine("expert")
    (tmp_path / "mine.py").write_text(MISTAKES)
    out = run_cli(*_args(command, "forever"), cwd=tmp_path,
                  input=PLAY_INPUT if command == "play" else "",
                  env={"FRIDAY_DECISION_SECONDS": "1"})
    assert out.returncode == 2, out.stdout + out.stderr
    _one_error_line(out, r"policy 'mine.py:forever' \(\S*mine.py, function forever\) " + LIMIT
                    + r": an endless loop\? \(the limit of a decision: FRIDAY_DECISION_SECONDS")


def test_ctrl_c_stops_a_decision_that_never_returns(tmp_path, fast_engine):
    """replay on the reference engine: the policy loops in jitted code in a worker thread
    while the main thread takes Ctrl-C (sim.contract.interruptible); exit code 130."""
    fast_engine("expert")
    (tmp_path / "mine.py").write_text(MISTAKES + textwrap.dedent("""
        @njit
        def loud(obs, legal, n_legal, params, rng):
            print("looping")                  # the test's cue: the loop has begun
            return forever(obs, legal, n_legal, params, rng)
    """))
    run = interrupt_cli(*REPLAY, "--policy", "mine.py:loud", cues=["looping"], cwd=tmp_path)
    out, err = run.stdout, run.stderr
    assert run.returncode == 130, out + err
    assert "Traceback" not in out + err and "aborted" in err


@pytest.mark.parametrize("text", ["0", "-1", "ten", "inf", "nan"])
def test_a_time_limit_that_is_no_positive_number_is_refused(monkeypatch, text):
    from sim.contract import decision_seconds
    from sim.errors import FridayError
    monkeypatch.setenv("FRIDAY_DECISION_SECONDS", text)
    with pytest.raises(FridayError, match="FRIDAY_DECISION_SECONDS must be a positive number of "
                                        f"seconds, not '{text}'"):
        decision_seconds()
    monkeypatch.setenv("FRIDAY_DECISION_SECONDS", "0.5")
    assert decision_seconds() == 0.5


# --- the mistakes users reported (issue 41): each in a fresh process, as the user met it ------
RULES = textwrap.dedent("""
    from numba import njit
    from policies import strategy, veteran

    P = strategy.param_index(veteran.PARAMS)

    @njit
    def wild(obs, legal, n_legal, params):
        return legal[n_legal + 100000000]

    @njit
    def scribble(obs, legal, n_legal, params):
        mine = legal
        mine[0] = 999
        return veteran.fight(obs, legal, n_legal, params)

    @njit
    def picky(obs, legal, n_legal, params):
        if obs[0] >= 0:
            raise ValueError("not this one")
        return legal[0]

    @njit
    def typo(obs, legal, n_legal, params):
        return veteran.fight(obs, legal, n_legal, params) + int(params[P.nosuch] * 0)

    wild_policy = strategy.with_rules(veteran, hazard=wild)
    scribble_policy = strategy.with_rules(veteran, fight=scribble)
    picky_policy = strategy.with_rules(veteran, fight=picky)
    typo_policy = strategy.with_rules(veteran, fight=typo)
""")
REPORTED = {   # function: what the one line says (the file's name, its function and line)
    "wild_policy": r"'rules.py:wild_policy' \(\S*rules.py:9, function wild\) raised IndexError: "
                   r"index \d+ is out of bounds .* at a hazard decision " + DECISION,
    "scribble_policy": r"'rules.py:scribble_policy' \(\S*rules.py:14, function scribble\) wrote "
                       r"into legal at a fight decision " + DECISION + r": legal\[0\] was \d+, "
                       r"now 999; your rule must not change its inputs",
    "picky_policy": r"'rules.py:picky_policy' \(\S*rules.py:20, function picky\) raised "
                    r"ValueError: not this one at a fight decision",
    "typo_policy": r"'rules.py:typo_policy' \(\S*rules.py:25, function typo\) does not compile "
                   r"as decide\(obs, legal, n_legal, params, rng\) -> int64: Unknown attribute "
                   r"'nosuch'",
}


@pytest.mark.parametrize("func", list(REPORTED))
def test_a_reported_mistake_of_a_rule_is_one_line_naming_its_file_function_and_line(
        tmp_path, func, fast_engine):
    """Issue 41: reading ``legal`` out of range was a segmentation fault (a user's code is now
    bounds-checked: sim.contract.user_code.checked); a rule writing into ``legal`` was an
    illegal action at a "none" decision; a rule's exception or typing error named the
    library's generated wrapper.  Each is one line naming the user's rule."""
    fast_engine("expert")
    (tmp_path / "rules.py").write_text(RULES)
    out = run_cli("simulate", "--policy", f"rules.py:{func}", *ONE, "--out", "games.parquet",
                  cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Segmentation fault" not in out.stdout + out.stderr
    _one_error_line(out, REPORTED[func])
    assert "strategy.py" not in out.stderr          # not the library's wrapper
    assert {p.name for p in tmp_path.iterdir()} <= {"rules.py", "__pycache__"}


@pytest.mark.parametrize("code", ["3", "0", "'x'"])
def test_a_file_that_calls_sys_exit_at_import_is_an_error_not_its_exit(tmp_path, code):
    """Issue 41: ``sys.exit`` while the file is imported ended the command silently with its
    status; it is a failure to load like any other (a SystemExit is no Ctrl-C)."""
    (tmp_path / "quits.py").write_text(f"import sys\nsys.exit({code})\n")
    out = run_cli("simulate", "--policy", "quits.py:decide", *ONE, cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    _one_error_line(out, rf"policy file 'quits.py' failed to load: it called "
                         rf"sys.exit\({re.escape(code)}\) while being imported")
