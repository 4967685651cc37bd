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
