"""Policy files always load: fresh processes, twice, after an edit, from another folder, from
Python then the CLI, two files with the same function name, a helper module beside the file;
a file that does not compile or returns a non-action is one clear error line."""
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from policies import load_policy
from sim.cli import app
from sim.errors import FridayError, UsageError

from helpers import run_cli, run_python

HELPER = textwrap.dedent("""
    from numba import njit

    @njit
    def last_legal(legal, n_legal):
        return legal[n_legal - 1]
""")
# v1: ends a won fight at once, otherwise always-fight's rules: a plain decide calling the
# cached rules of a built-in policy (policies.strategy.by_rules)
V1 = textwrap.dedent("""
    from numba import njit
    from policies import always_fight
    from policies.strategy import A_END, PH_FIGHT, by_rules, has, phase, points_missing
    PARAMS = {"reserve": 2.0}

    @njit
    def brave(obs, legal, n_legal, params, rng):
        if phase(obs) == PH_FIGHT and has(legal, n_legal, A_END) and points_missing(obs) <= 0:
            return A_END
        return by_rules(obs, legal, n_legal, params, always_fight.RULES)
""")
# v2: the same name, other play, through a helper module beside the file
V2 = textwrap.dedent("""
    from numba import njit
    from helpers import last_legal
    PARAMS = {"reserve": 2.0}

    @njit
    def brave(obs, legal, n_legal, params, rng):
        return last_legal(legal, n_legal)
""")


def summary(output: str) -> list[str]:
    """The summary table of `friday simulate` (the timing line left out)."""
    return [ln for ln in output.splitlines() if ("%" in ln and "[" in ln) or "win rate" in ln]


@pytest.fixture
def folders(tmp_path):
    pol, elsewhere = tmp_path / "pol", tmp_path / "elsewhere"
    pol.mkdir()
    elsewhere.mkdir()
    (pol / "helpers.py").write_text(HELPER)
    (pol / "mine.py").write_text(V1)
    return pol, elsewhere


def test_cli_twice_in_fresh_processes_then_after_an_edit(folders):
    pol, elsewhere = folders
    args = ("simulate", "--policy", "../pol/mine.py:brave", "--level", 1, "--games", 300)
    first, second = run_cli(*args, cwd=elsewhere), run_cli(*args, cwd=elsewhere)
    assert first.returncode == 0, first.stderr
    assert second.returncode == 0, second.stderr
    assert summary(first.stdout) == summary(second.stdout) and len(summary(first.stdout)) == 2
    assert "pol/mine.py:brave" in first.stdout and "sha256" in first.stdout
    (pol / "mine.py").write_text(V2)          # edited: the next run plays the new code
    third = run_cli(*args, cwd=elsewhere)
    assert third.returncode == 0, third.stderr
    assert summary(third.stdout) != summary(first.stdout)
    from sim.lab import simulate
    v2 = simulate(f"{pol}/mine.py:brave", level=1, games=300, seed=1)
    assert f"{v2['score'].mean():.2f}" in summary(third.stdout)[1]


def test_python_api_then_cli_in_fresh_processes(folders):
    pol, elsewhere = folders
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(pol)!r})
        import mine                                   # the user's own import of the file
        from policies import load_policy
        from sim.lab import simulate
        a = simulate(load_policy(mine.brave), level=1, games=300, seed=1)
        b = simulate("../pol/mine.py:brave", level=1, games=300, seed=1)
        assert (a["score"] == b["score"]).all()
        print(b.attrs["file"], b.attrs["sha256"], a["score"].sum())
    """)
    api = run_python("-c", code, cwd=elsewhere)
    assert api.returncode == 0, api.stderr
    assert str(pol / "mine.py") in api.stdout
    cli = run_cli("simulate", "--policy", "../pol/mine.py:brave", "--level", 1, "--games", 300,
                  cwd=elsewhere)
    assert cli.returncode == 0, cli.stderr


def test_two_files_with_the_same_function_name_and_a_helper(tmp_path):
    import helpers as tests_helpers      # another module named helpers, imported before
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "mine.py").write_text(V1)
    (tmp_path / "b" / "mine.py").write_text(V2)
    (tmp_path / "b" / "helpers.py").write_text(HELPER)
    a = load_policy(f"{tmp_path}/a/mine.py:brave")
    b = load_policy(f"{tmp_path}/b/mine.py:brave")
    assert a.source != b.source and a.sha256 != b.sha256
    assert sys.modules["helpers"] is tests_helpers      # the process's own one is back
    from sim.lab import compare
    c = compare([a, b], level=1, games=300)
    assert c.loc[0, "score_diff"] != 0
    assert c.loc[0, "a_mean_score"] == compare([a, a], level=1, games=300).loc[0, "a_mean_score"]


def test_file_variant_and_parameters(folders):
    pol, _ = folders
    p = load_policy(f"{pol}/mine.py:brave[reserve=3]")
    assert p.name == f"{pol}/mine.py:brave[reserve=3]" and p.params.tolist() == [3.0]
    assert p.record()["overrides"] == {"reserve": 3.0} and p.record()["sha256"]
    with pytest.raises(UsageError, match="no parameter 'bold'"):
        load_policy(f"{pol}/mine.py:brave[bold=1]")


BAD = textwrap.dedent("""
    def broken(obs, legal, n_legal, params, rng):
        return undefined_name + 1

    def nonaction(obs, legal, n_legal, params, rng):
        return 9999
""")


@pytest.mark.parametrize("func,message", [
    ("broken", "does not compile"),
    ("nonaction", "chose action id 9999 (outside the action space)"),
    ("missing", "has no function 'missing'"),
])
def test_bad_policy_is_one_clear_error(tmp_path, func, message):
    (tmp_path / "bad.py").write_text(BAD)
    spec = f"{tmp_path}/bad.py:{func}"
    result = CliRunner().invoke(app, ["simulate", "--policy", spec, "--level", "1", "--games", "20"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [x for x in result.stderr.strip().splitlines() if not x.startswith("compiling")]
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], lines
    assert "bad.py" in lines[0] and func in lines[0]


def test_file_that_fails_to_import(tmp_path):
    (tmp_path / "boom.py").write_text("import no_such_module_anywhere\n")
    with pytest.raises(UsageError, match="boom.py.*failed to load: ModuleNotFoundError"):
        load_policy(f"{tmp_path}/boom.py:f")


def test_a_function_that_cannot_be_a_policy_is_refused_from_python_too():
    """The checks of a policy file apply to a function passed from Python: its arguments at
    load, its return type when compiled (fast engine) or when called (reference engine)."""
    from numba import njit
    from sim.fast import run_batch
    from sim.reference import Game

    @njit
    def three(obs, legal, n_legal):
        return legal[0]

    @njit
    def half(obs, legal, n_legal, params, rng):
        return 0.5
    with pytest.raises(FridayError, match=r"'three' \(.*test_policy_files.py, function three\) "
                                        r"takes 3 arguments \(obs, legal, n_legal\), not the 5"):
        load_policy(three)
    pol = load_policy(half)
    with pytest.raises(FridayError, match=r"'half' \(.*, function half\) returns float64, not an "
                                        r"action id \(int\)"):
        run_batch(1, 1, 0, 5, pol)
    with pytest.raises(FridayError, match=r"'half' \(.*\) returns float64, not an action id"):
        Game(1, 1, 0, pol).play()


# --- a catalogue of bad policy files: each one `error:` line naming the file, exit code 2,
# nothing written (simulate --out), on the command as a user runs it (conftest's friday_here;
# tests/test_policy_mistakes.py runs the cases users reported in fresh processes)
DECIDE = "from numba import njit\n\n@njit\ndef decide(obs, legal, n_legal, params, rng):\n"
UTF8 = "NAME = 'café'\n" + DECIDE + "    return legal[0]\n"
STRATEGY = "from policies import strategy, veteran\nfrom numba import njit\n"
BAD_FILES = {   # name: (bytes or None for a folder, function, what the line says)
    "syntax": (b"def decide(obs, legal, n_legal, params, rng)\n    return 0\n", "decide",
               "failed to load: SyntaxError at line 1"),
    "utf16": (UTF8.encode("utf-16"), "decide", "failed to load: SyntaxError: it holds NUL bytes, "
              "so it is no UTF-8 text (UTF-16?): save it as UTF-8"),
    "latin1": (UTF8.encode("latin-1"), "decide", "failed to load: SyntaxError"),
    "bom-latin1": (b"\xef\xbb\xbf# -*- coding: latin-1 -*-\n" + UTF8.encode(), "decide",
                   "failed to load: SyntaxError"),
    "tabs": (b"def decide(obs, legal, n_legal, params, rng):\n\tif 1:\n        return 0\n",
             "decide", "failed to load: TabError"),
    "empty": (b"", "decide", "has no function 'decide'"),
    "missing": (UTF8.encode(), "choose", "has no function 'choose'"),
    "no-function": (UTF8.encode(), "", "names no function"),
    "folder": (None, "decide", "is a folder"),
    "number": (b"decide = 3\n", "decide", "'decide' is a int, not a function"),
    "class": (b"class decide:\n    pass\n", "decide", "'decide' is a type, not a function"),
    "four-args": (b"def decide(obs, legal, n_legal, params):\n    return legal[0]\n", "decide",
                  "takes 4 arguments (obs, legal, n_legal, params), not the 5"),
    "six-args": (b"def decide(obs, legal, n_legal, params, rng, x):\n    return 0\n", "decide",
                 "takes 6 arguments"),
    "raises-always": ((DECIDE + "    raise ValueError('boom')\n").encode(), "decide",
                      "returns none, not an action id (int): no path returns a value"),
    "star-args": (b"def decide(*args):\n    return args[1][0]\n", "decide",
                  "takes (*args): a decide takes its 5 arguments by position"),
    "keyword-args": (b"def decide(obs, legal, n_legal, params, rng, **kw):\n    return 0\n",
                     "decide", "without *args, **kwargs or keyword-only ones"),
    "keyword-only": (b"def decide(obs, legal, n_legal, params, *, rng):\n    return 0\n",
                     "decide", "takes (obs, legal, n_legal, params, *, rng)"),
    "generator": (b"def decide(obs, legal, n_legal, params, rng):\n    yield 0\n", "decide",
                  "is a generator: a decide is a plain function"),
    "async": (b"async def decide(obs, legal, n_legal, params, rng):\n    return 0\n", "decide",
              "is async: a decide is a plain function"),
    "params-huge": (b"PARAMS = {'reserve': 10**400}\n" + UTF8.encode(), "decide",
                    "PARAMS['reserve'] must be a finite number"),
    "raises-at-import": (b"raise RuntimeError('not today')\n", "decide",
                         "failed to load: RuntimeError: not today (at "),
    "recursion-at-import": (b"def f():\n    return f()\nf()\n", "decide",
                            "failed to load: RecursionError"),
    "missing-module": (b"import no_such_module_anywhere\n", "decide",
                       "failed to load: ModuleNotFoundError"),
    "exit-0": (b"import sys\nsys.exit(0)\n", "decide", "called sys.exit(0) while being imported"),
    "exit-text": (b"import sys\nsys.exit('x')\n", "decide", "called sys.exit('x')"),
    "base-exception": (b"class Out(BaseException):\n    pass\nraise Out('gone')\n", "decide",
                       "failed to load: Out: gone"),
    "params-list": (b"PARAMS = [1.0]\n" + UTF8.encode(), "decide", "PARAMS must be a dict"),
    "params-text": (b"PARAMS = {'reserve': 'abc'}\n" + UTF8.encode(), "decide",
                    "PARAMS['reserve'] must be a finite number"),
    "params-nan": (b"PARAMS = {'reserve': float('nan')}\n" + UTF8.encode(), "decide",
                   "must be a finite number"),
    "writes-obs": ((DECIDE + "    obs[0] = 0\n    return legal[0]\n").encode(), "decide",
                   "bad.py:5, function decide) writes into obs"),
    "sorts-legal": ((DECIDE + "    legal.sort()\n    return legal[0]\n").encode(), "decide",
                    "writes into legal"),
    "adds-to-params": ((DECIDE + "    params[0] += 1\n    return legal[0]\n").encode(), "decide",
                       "writes into params"),
    "recursion": ((DECIDE + "    if n_legal < 0:\n        return legal[0]\n"
                   "    return decide(obs, legal, n_legal + 1, params, rng)\n").encode(),
                  "decide", "bad.py:7, function decide) recurses"),
    "mutual-recursion": ((DECIDE.replace("@njit\ndef decide", "@njit\ndef ping(n):\n"
                          "    return n if n < 0 else pong(n + 1)\n\n@njit\ndef pong(n):\n"
                          "    return ping(n + 1)\n\n@njit\ndef decide")
                          + "    return legal[0] + ping(0) * 0\n").encode(), "decide",
                         "function pong) recurses"),
    "rule-misspelt": ((STRATEGY + "decide = strategy.with_rules(veteran, figth=veteran.fight)\n")
                      .encode(), "decide", "no decision 'figth'"),
    "rule-three-args": ((STRATEGY + "@njit\ndef f(obs, legal, n_legal):\n    return legal[0]\n"
                         "decide = strategy.with_rules(veteran, fight=f)\n").encode(), "decide",
                        "must take the 4 arguments"),
    # compiled before any game
    "float": ((DECIDE + "    return 0.5\n").encode(), "decide", "returns float64, not an action"),
    "none": ((DECIDE + "    if n_legal > 1:\n        return legal[0]\n").encode(), "decide",
             "not an action id (int)"),
    "undefined": ((DECIDE + "    return undefined_name + 1\n").encode(), "decide",
                  "bad.py:5, function decide) does not compile as decide(obs, legal, n_legal, "
                  "params, rng) -> int64: name 'undefined_name' is not defined"),
    "no-such-param": ((STRATEGY + "P = strategy.param_index(veteran.PARAMS)\n\n@njit\n"
                       "def fight(obs, legal, n_legal, params):\n"
                       "    return legal[0] if params[P.nosuch] > 0 else legal[0]\n\n"
                       "decide = strategy.with_rules(veteran, fight=fight)\n").encode(), "decide",
                      "bad.py:7, function fight) does not compile as decide(obs, legal, n_legal, "
                      "params, rng) -> int64: Unknown attribute 'nosuch'"),
    "text": ((DECIDE + "    return legal[0] + 'a'\n").encode(), "decide", "does not compile"),
    # while playing
    "outside": ((DECIDE + "    return 9999\n").encode(), "decide", "chose action id 9999 "
                "(outside the action space)"),
    "negative": ((DECIDE + "    return -3\n").encode(), "decide", "chose action id -3"),
    "raises": ((DECIDE + "    if n_legal > 0:\n        raise ValueError('no')\n"
                "    return legal[0]\n").encode(), "decide",
               "bad.py:6, function decide) raised ValueError: no at a hazard decision"),
    "reads-obs-out-of-range": ((DECIDE + "    return legal[0] + obs[100000] * 0\n").encode(),
                               "decide", "bad.py:5, function decide) raised IndexError: index "
                               "100000 is out of bounds"),
    "helper-reads-out-of-range": ((DECIDE.replace("@njit\ndef decide", "@njit\ndef far(a):\n"
                                   "    return a[10 ** 9]\n\n@njit\ndef decide")
                                   + "    return far(legal)\n").encode(), "decide",
                                  "bad.py:5, function far) raised IndexError"),
    "divides-by-zero": ((DECIDE + "    return legal[0] // (n_legal - n_legal)\n").encode(),
                        "decide", "bad.py:5, function decide) raised ZeroDivisionError"),
    "writes-through-a-name": ((DECIDE + "    mine = legal\n    mine[0] = 99\n"
                               "    return legal[0]\n").encode(), "decide",
                              "bad.py:6, function decide) wrote into legal at a hazard decision"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_policy_file_is_one_error_line_and_writes_nothing(tmp_path, case, friday_here,
                                                                fast_engine):
    content, func, says = BAD_FILES[case]
    fast_engine("expert")
    if content is None:
        (tmp_path / "bad.py").mkdir()
    else:
        (tmp_path / "bad.py").write_bytes(content)
    out = friday_here(["simulate", "--policy", f"bad.py:{func}", "--level", "1", "--games", "10",
                       "--out", "games.parquet"], tmp_path)
    errors = [ln for ln in (out.stdout + out.stderr).splitlines() if ln.startswith("error:")]
    assert out.returncode == 2 and len(errors) == 1, out.stdout + out.stderr
    assert "bad.py" in errors[0] and says in errors[0], errors[0]
    assert "Traceback" not in out.stdout + out.stderr
    assert {p.name for p in tmp_path.iterdir()} <= {"bad.py", "__pycache__"}     # nothing written


def test_a_file_with_a_utf8_bom_loads(tmp_path):
    """A BOM alone is valid Python: the file plays."""
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + UTF8.encode())
    from sim.lab import simulate
    assert len(simulate(f"{tmp_path}/bom.py:decide", level=1, games=5)) == 5


def test_ctrl_c_while_a_file_is_imported_is_still_ctrl_c(tmp_path):
    """Only a KeyboardInterrupt (Ctrl-C: exit code 130 on the command line) goes through the
    loader; every other BaseException of an import, SystemExit included, is its UsageError."""
    (tmp_path / "ctrl_c.py").write_text("raise KeyboardInterrupt\n")
    with pytest.raises(KeyboardInterrupt):
        load_policy(f"{tmp_path}/ctrl_c.py:decide")
    assert not [m for m in sys.modules.values() if getattr(m, "__file__", "") ==
                str(tmp_path / "ctrl_c.py")]


WRITES_PARAMS = '''from numba import njit

PARAMS = {"bravery": 1.0}


@njit
def bump(p):
    p[0] = 7.0


def decide(obs, legal, n_legal, params, rng):
    if n_legal > 2:
        bump(params)
    return legal[n_legal - 1]
'''
WROTE = (r"\S*writes.py:\d+, function bump\) wrote into params at a fight decision "
         r"\(decision 12 of game 0; level 1, seed 1.*params\[0\] was 1, now 7")


def test_a_write_into_params_leaves_the_policy_as_it_was_and_is_named_every_time(tmp_path,
                                                                                monkeypatch):
    """Every engine hands decide a copy of the parameters: a write (through a helper, which
    no static check sees) is named with the value the user gave, and the Policy keeps it.
    The engine once wrote into the Policy's own array: its replay then played 7, named no
    write, and the game ended in silence, as every later game did (seen on 5983d63)."""
    from helpers import fails_in_every_way
    (tmp_path / "writes.py").write_text(WRITES_PARAMS)
    monkeypatch.chdir(tmp_path)
    policy = load_policy("writes.py:decide")
    for _ in range(2):
        fails_in_every_way(policy, WROTE)
    assert policy.params.tolist() == [1.0]
    from sim import Game
    from sim.contract import PolicyError
    from sim.lab.review import decision_seed, outcomes
    from sim.reference import play_game
    for _ in range(2):                      # the reference engine, and a review's continuations
        with pytest.raises(PolicyError, match=WROTE):
            play_game(1, 1, 0, policy)
        with pytest.raises(PolicyError, match=r"writes.py:decide.* (wrote into params|in a "
                                              r"continuation)"):
            outcomes(Game.new(level=1, seed=1, game=0), policy, 20, decision_seed(1, 0, 0))
    assert policy.params.tolist() == [1.0]


@pytest.mark.slow                       # compiles the solver and the search for a new file
def test_a_write_into_params_by_the_solvers_or_the_searchs_base_is_named_too(tmp_path,
                                                                            monkeypatch):
    """The same write, by the base policy of the unfair solver and of the search: named as
    above (the search names itself), and the base policy keeps its parameters."""
    from helpers import fails_in_every_way
    (tmp_path / "writes.py").write_text(WRITES_PARAMS)
    monkeypatch.chdir(tmp_path)
    solver = load_policy("unfair-solver[base=writes.py:decide,budget=3000]")
    for _ in range(2):
        fails_in_every_way(solver, WROTE)
    assert solver.base_policy.params.tolist() == [1.0]
    search = load_policy("search[base=writes.py:decide,rollouts=8]")
    fails_in_every_way(search, "policy 'search")
    assert search.base_policy.params.tolist() == [1.0]


def test_a_syntax_error_in_a_module_the_file_imports_names_that_module(tmp_path):
    """helpers.py beside the policy file, broken at its line 2: the error names helpers.py
    and its line, not the policy file's line 2 (the sweep's finding)."""
    from policies import load_policy
    (tmp_path / "helpers.py").write_text("x = 1\ny = = 2\n")
    (tmp_path / "mine.py").write_text("\n\n\nimport helpers\n" + UTF8)
    with pytest.raises(UsageError, match=r"policy file '\S*mine.py' failed to load: SyntaxError "
                                         r"in \S*helpers.py at line 2: invalid syntax"):
        load_policy(f"{tmp_path}/mine.py:decide")
