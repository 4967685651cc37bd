"""The cold compile on two cores (sim.fast.compile_ahead) and the cache lock it needs
(sim.contract.numba_wall.lock_cache_files)."""
import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import numba
import pytest

import sim  # noqa: F401  (installs the cache lock)
from policies import load_policy
from sim.fast import compile_ahead as CA
from sim.fast import play_fast, run_batch
from sim.contract.numba_wall import cache_lock_installed

from helpers import run_python

ROOT = Path(__file__).resolve().parent.parent
no_jit = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled")


@pytest.mark.skipif(not cache_lock_installed(), reason="no fcntl: no lock, no helper")
def test_cache_saves_from_many_writers_at_once_keep_every_entry(tmp_path):
    """Eight writers saving 25 entries each into one function's cache: every entry is kept
    and loads its own data (without the lock, most were lost or pointed at another entry's
    data file)."""
    from numba.core.caching import IndexDataCacheFile

    def cache_file():
        return IndexDataCacheFile(str(tmp_path), "f-1.py311", ("stamp", 1))

    def writer(k):
        for j in range(25):
            cache_file().save((k, j), f"data {k} {j}")

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    c = cache_file()
    assert all(c.load((k, j)) == f"data {k} {j}" for k in range(8) for j in range(25))


def _cached_signatures(py_func):
    from numba.core.caching import FunctionCache
    return {tuple(str(t) for t in key[0])
            for key in FunctionCache(py_func)._cache_file._load_index()}


@no_jit
def test_the_halves_are_the_signatures_the_engine_compiles():
    """Each function of OURS and THEIRS is cached with exactly the argument types listed (had
    the engine called it with others, the entry point would have compiled it again itself and
    the cache would hold a second signature)."""
    run_batch(4, 1, 0, 10, load_policy("expert"))
    play_fast(4, 1, 0, load_policy("expert"))
    for fn, args in CA.OURS + CA.THEIRS:
        assert _cached_signatures(fn.py_func) == {tuple(str(a) for a in args)}, fn.__name__


def test_the_helper_is_stopped_when_the_compile_fails(monkeypatch):
    """An error (or a Ctrl-C) while this process compiles its half stops the helper."""
    started = []

    def helper(ref):
        p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             stdout=subprocess.PIPE)
        started.append(p)
        return p

    def fail(half):
        raise KeyboardInterrupt

    monkeypatch.setattr(CA, "_useful", lambda: True)
    monkeypatch.setattr(CA, "_helper", helper)
    monkeypatch.setattr(CA, "compile_half", fail)
    with pytest.raises(KeyboardInterrupt):
        with CA.split_compile(None):
            pass
    assert started and started[0].poll() is not None


def test_no_helper_when_turned_off(monkeypatch):
    monkeypatch.setenv("FRIDAY_COMPILE_AHEAD", "0")
    assert not CA._useful()
    monkeypatch.setattr(CA, "_helper", lambda ref: pytest.fail("a helper was started"))
    with CA.split_compile(load_policy("expert")):
        pass


def test_policy_ref_names_project_policies_only():
    assert CA.policy_ref(load_policy("expert")) == "policies.expert:decide"
    assert CA.policy_ref(None) is None

    def user_decide(obs, legal, n_legal, params, rng):
        return legal[0]
    assert CA.policy_ref(user_decide) is None


_COLD = """
import json, sys
from numba.core import event as ev
compiled = []
class Compiles(ev.Listener):
    def on_start(self, e):
        compiled.append(e.data["dispatcher"].py_func.__qualname__)
    def on_end(self, e):
        pass
ev.register("numba:compile", Compiles())
from policies import load_policy
from sim.fast import run_batch
r = run_batch(4, 1, 0, 50, load_policy("expert"))
print(json.dumps({"compiled": compiled, "score": r["score"].tolist()}))
"""


@no_jit
@pytest.mark.slow
def test_a_cold_compile_with_the_helper_plays_the_same_games():
    """A fresh process with an empty cache: the helper compiles THEIRS and the policy (this
    process compiles none of them), and the games are those of the warm engine."""
    want = run_batch(4, 1, 0, 50, load_policy("expert"))["score"].tolist()
    with tempfile.TemporaryDirectory() as tmp:
        out = run_python("-c", _COLD, cwd=ROOT, timeout=900,
                         env={"NUMBA_CACHE_DIR": tmp, "FRIDAY_COMPILE_AHEAD": None})
        assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.splitlines()[-1])
    assert got["score"] == want
    theirs = {fn.py_func.__qualname__ for fn, _ in CA.THEIRS}
    assert not theirs & set(got["compiled"])
    assert "decide" not in got["compiled"] and "_block_py" in got["compiled"]
