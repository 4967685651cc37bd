"""Runs on a Dask LocalCluster of 2 worker processes give the in-process results bit for bit
(rows, summary aggregates, user policy files), whatever the chunk size, also when a worker dies
in the middle; bad --cluster input is one clear error."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from policies import load_policy                       # noqa: E402
from sim.fast import run_batch                        # noqa: E402
from sim.fast.api import summary_chunk                # noqa: E402
from sim.lab import cluster as K                      # noqa: E402
from sim.rules import Options, RuleError              # noqa: E402


@pytest.fixture(scope="module")
def dask2():
    """One LocalCluster of 2 single-threaded worker processes for the whole module (the
    in-process runs of each test come first, so the workers find the engine in the cache)."""
    run_batch(1, 0, 0, 4, load_policy("cull-green"))          # compile / load before the workers
    with K.Cluster("local:2") as c:
        yield c


def _rows(cluster, level, seed, games, policy, options, chunk, task=K.play_chunk):
    parts = K.split(level, seed, games, K.policy_wire(policy), options, chunk, summary=False)
    got = [r for _, r in K.run_chunks(cluster, parts, task=task)]
    return {k: np.concatenate([g[k] for g in got]) for k in got[0]}


@pytest.mark.parametrize("chunk", [97, 1000])
def test_rows_identical_to_in_process(dask2, chunk):
    pol = load_policy("cull-green", {"min_life": 12})
    opts = Options(old_age="continue")
    want = run_batch(3, 11, 0, 1500, pol, opts)
    got = _rows(dask2, 3, 11, 1500, pol, opts, chunk)
    assert set(got) == set(want)
    for k in want:
        assert np.array_equal(got[k], want[k]), k


@pytest.mark.parametrize("chunk", [250, 1200])
def test_summary_identical_to_in_process(dask2, chunk):
    pol = load_policy("expert")
    want = summary_chunk(4, 3, 0, 2000, pol)
    parts = K.split(4, 3, 2000, K.policy_wire(pol), None, chunk, summary=True)
    assert np.array_equal(K.aggregate(dask2, parts), want)


def test_user_policy_file_is_shipped_as_source(dask2, tmp_path):
    (tmp_path / "helper_mod.py").write_text("BONUS = 1\n")
    (tmp_path / "mine.py").write_text(textwrap.dedent('''
        from numba import njit
        from helper_mod import BONUS
        PARAMS = {"pick": 0.0}

        @njit
        def last_legal(obs, legal, n_legal, params, rng):
            """Plays the last legal action (or the first, with pick=1)."""
            if params[0] + BONUS > 1.5:
                return legal[0]
            return legal[n_legal - 1]
    '''))
    pol = load_policy(f"{tmp_path / 'mine.py'}:last_legal[pick=1]")
    want = run_batch(1, 2, 0, 300, pol)
    wire = K.policy_wire(pol)
    assert wire["kind"] == "file" and set(wire["files"]) == {"helper_mod.py", "mine.py"}
    got = _rows(dask2, 1, 2, 300, pol, None, 120)
    for k in want:
        assert np.array_equal(got[k], want[k]), k


def kill_once_then_play(chunk, marker):
    """The first chunk to run dies with its worker process (once); the rest play normally."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return K.play_chunk(chunk)
    os.close(fd)
    os._exit(3)


def test_a_dead_worker_has_its_chunk_rerun(dask2, tmp_path):
    pol = load_policy("cull-green")
    want = run_batch(2, 9, 0, 1200, pol)
    marker = str(tmp_path / "killed")

    def task(chunk):
        return kill_once_then_play(chunk, marker)
    got = _rows(dask2, 2, 9, 1200, pol, None, 200, task=task)
    assert os.path.exists(marker)                           # a worker did die
    for k in want:
        assert np.array_equal(got[k], want[k]), k


@pytest.mark.parametrize("address, message", [
    ("local:0", "at least 1 worker"),
    ("local:two", "use local:N"),
    ("tcp//host:8786", "use local:N"),
    ("http://host:8786", "use local:N"),
])
def test_malformed_addresses(address, message):
    with pytest.raises(RuleError, match=message):
        K.parse_address(address)


def test_unreachable_scheduler_is_a_clear_error_within_seconds():
    env = dict(os.environ, FRIDAY_KEEP_NUMBA_CACHE="1")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "sim.cli", "simulate", "--games", "10",
                          "--cluster", "tcp://127.0.0.1:9"], capture_output=True, text=True,
                         env=env, timeout=60)
    elapsed = time.perf_counter() - start
    assert out.returncode == 2, out.stderr
    lines = [x for x in out.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: --cluster tcp://127.0.0.1:9"), lines
    assert "Traceback" not in out.stderr
    assert elapsed < 5 + K.CONNECT_TIMEOUT_S + 10
