import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def fast_engine():
    """The one warm-up of the fast engine: Numba compiles it, or loads it from its disk cache,
    once per session (per worker process under pytest-xdist), before the first test that
    asks, so that no test's own time holds the compile and the fresh processes a test starts
    find the cache.  At once: the one-game entry point with the scripted player (play_fast
    with actions: the rule tests, the playthrough files).  Returns ``warm(policy)`` (a policy
    or its name), which compiles or loads the batch entry point with that policy
    (sim.fast.api.prepare) and returns the policy."""
    from policies import load_policy
    from sim.fast import play_fast
    from sim.fast.api import prepare
    play_fast(1, 0, 0, None, actions=[], stop_when_out=True)

    def warm(policy):
        policy = load_policy(policy) if isinstance(policy, str) else policy
        prepare(policy)
        return policy
    return warm


@pytest.fixture
def friday_here(monkeypatch):
    """The ``friday`` command run in this process, as its console script runs it
    (``sim.cli.main``: Click's usage errors, a FridayError (sim.errors) and OSError become one
    ``error:`` line and exit code 2): ``run(args, cwd, input="")`` returns a
    ``subprocess.CompletedProcess`` (returncode, stdout, stderr) as ``helpers.run_cli`` (the
    command in a fresh process) does.  It saves each call the fresh process's imports and
    engine load (2-3 s); the fresh-process tests keep a representative case of each command
    and each kind of bad input in a fresh process."""
    import subprocess
    import types
    from typer.testing import CliRunner
    import sim.cli
    from sim.cli import main

    def exit_now(code):             # main's os._exit after Ctrl-C: here it ends the call only
        raise SystemExit(code)

    def run(args, cwd, input=""):
        args = [str(a) for a in args]
        monkeypatch.chdir(cwd)
        monkeypatch.setattr(sys, "argv", ["friday", *args])
        monkeypatch.setattr(sim.cli, "os", types.SimpleNamespace(_exit=exit_now))
        with CliRunner().isolation(input=input) as (out, err, _):
            try:
                main()
                code = 0
            except SystemExit as exc:
                code = 0 if exc.code is None else exc.code
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
        return subprocess.CompletedProcess(["friday", *args], code, stdout, stderr)
    return run


# --- a user's policy file that fails (the search and the solver ask it inside the engine) -----
FAILING = """
def first(obs, legal, n_legal, params, rng):
    return legal[0]


def no_choices(obs, legal, n_legal, params, rng):
    if n_legal > 2:
        raise ValueError("too many choices")
    return legal[n_legal - 1]


def no_crowds(obs, legal, n_legal, params, rng):
    if n_legal > 6:
        raise ValueError("too many choices")
    return legal[n_legal - 1]


def no_forced(obs, legal, n_legal, params, rng):
    if n_legal == 1:
        raise ValueError("forced")
    return legal[n_legal - 1]


def illegal(obs, legal, n_legal, params, rng):
    if n_legal > 2:
        return 999
    return legal[n_legal - 1]


def raises(obs, legal, n_legal, params, rng):
    if n_legal > 0:
        raise ValueError("asked")
    return legal[0]
"""


@pytest.fixture
def failing(tmp_path, monkeypatch):
    """A folder with failing.py (``first``; ``no_choices``: raises at 3+ legal actions;
    ``no_crowds``: at 7+, which its own games at level 1, seed 1 never reach; ``no_forced``: at
    a forced decision (one legal action); ``illegal``: answers 999 at 3+;
    ``raises``: whenever asked), the working directory."""
    (tmp_path / "failing.py").write_text(FAILING)
    monkeypatch.chdir(tmp_path)
