"""Two policy functions of one name in two files, each played in fresh processes one after the
other, twice, their ``ask`` cached on disk (as the project's policies are): each plays its own
games (its cache entry is its own, sim.contract.numba_wall.cache_name)."""
import json
import textwrap
from pathlib import Path

import numba
import pytest

from policies import load_policy
from sim.fast import run_batch
from sim.contract.numba_wall import cache_dirs, cache_name

from helpers import run_python

ROOT = Path(__file__).resolve().parent.parent
FIRST = "def decide(obs, legal, n_legal, params, rng):\n    return legal[0]\n"
LAST = "def decide(obs, legal, n_legal, params, rng):\n    return legal[n_legal - 1]\n"
PLAY = textwrap.dedent("""
    import json, sys
    import sim.fast.ask as ask
    from policies import load_policy
    from sim.fast import run_batch
    from sim.contract.numba_wall import has_cached_code, ask_copy
    ask.is_project_source = lambda py: True      # cache it on disk, as a project policy
    policy = load_policy(sys.argv[1] + ":decide")
    cached = has_cached_code(ask_copy(ask._ask, ask.py_of(policy)))
    print(json.dumps({"cached": cached, "score": run_batch(3, 7, 0, 40, policy)["score"].tolist()}))
""")


def _play(spec: str) -> dict:
    out = run_python("-c", PLAY, spec, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is cached")
def test_same_named_policies_in_two_files_never_share_a_cache_entry(tmp_path):
    files = []
    for folder, text in (("a", FIRST), ("b", LAST)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "strategy.py").write_text(text)
        files.append(str(tmp_path / folder / "strategy.py"))
    policies = [load_policy(f + ":decide") for f in files]
    want = [run_batch(3, 7, 0, 40, p)["score"].tolist() for p in policies]
    assert want[0] != want[1]
    names = [cache_name(p.decide.py_func, "ask") for p in policies]
    assert names[0] != names[1]
    try:
        for round_ in (1, 2):
            for f, w in zip(files, want):
                got = _play(f)
                assert got["score"] == w
                assert got["cached"] == (round_ == 2)
    finally:
        for d in cache_dirs(ROOT / "sim" / "fast"):
            for name in names + [cache_name(p.decide.py_func, "decide_at") for p in policies]:
                for stale in d.glob(f"*.{name}-*"):
                    stale.unlink()
