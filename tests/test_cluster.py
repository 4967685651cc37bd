"""Runs on a Dask LocalCluster of 2 worker processes give the in-process results bit for bit
(rows, summary aggregates, user policy files), whatever the chunk size, also when a worker dies
in the middle; bad --cluster input is one clear error."""
from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from policies import load_policy                       # noqa: E402
from sim.fast import run_batch                        # noqa: E402
from sim.fast.api import summary_chunk                # noqa: E402
from sim.lab import cluster as K                      # noqa: E402
from sim.lab.run import Chunk, Setup                  # noqa: E402
from sim.errors import UsageError                       # noqa: E402
from sim.lab.ship import policy_from_wire, policy_wire, to_wire    # noqa: E402
from sim.rules import Options                          # noqa: E402

from helpers import run_cli                            # noqa: E402


@pytest.fixture(scope="module")
def dask2(fast_engine):
    """One LocalCluster of 2 single-threaded worker processes for the whole module; the engine
    is compiled or loaded first (conftest's warm-up), so the workers find it in the cache."""
    fast_engine("cull-green")
    with K.Cluster("local:2") as c:
        yield c


def _chunks(level, seed, games, policy, options, size, summary=False, cards=None):
    setup = Setup(policy, options or Options(), cards)
    return [Chunk(setup, level, seed, a, min(size, games - a), summary)
            for a in range(0, games, size)]


def _rows(cluster, level, seed, games, policy, options, chunk, task=None, cards=None):
    got = [r for _, r in cluster.run_chunks(_chunks(level, seed, games, policy, options, chunk,
                                                    cards=cards), task=task)]
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
    from sim.fast.summary import G_FIRST_ERROR
    total = sum(agg for _, agg in dask2.run_chunks(_chunks(4, 3, 2000, pol, None, chunk, True)))
    total[G_FIRST_ERROR] = -1                  # "no error", as one summary_chunk says it
    assert np.array_equal(total, want)


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
    wire = policy_wire(pol)
    assert wire["base"][0] == "files" and set(wire["base"][1]) == {"helper_mod.py", "mine.py"}
    got = _rows(dask2, 1, 2, 300, pol, None, 120)
    for k in want:
        assert np.array_equal(got[k], want[k]), k


LAST_LEGAL = textwrap.dedent('''
    from numba import njit
    PARAMS = {}

    @njit
    def last_legal(obs, legal, n_legal, params, rng):
        """Plays the last legal action."""
        return legal[n_legal - 1]
''')


def shipped_record(wire):
    """Runs on a worker: the record of the policy rebuilt there, with its files' hashes."""
    import hashlib
    from pathlib import Path
    record = policy_from_wire(wire).record()
    files = [v for v in [record["file"], *record["overrides"].values()]
             if isinstance(v, str) and Path(v.rpartition(":")[0] or v).is_file()]
    return record, {Path(f.rpartition(":")[0] or f).name:
                    hashlib.sha256(Path(f.rpartition(":")[0] or f).read_bytes()).hexdigest()
                    for f in files}


def test_policies_with_files_are_shipped_with_their_bytes(dask2, tmp_path, monkeypatch):
    """A policy file, learned[weights=FILE] and search[base=file.py:f], named by paths
    relative to a folder the workers do not run in, then removed before the workers play:
    the workers rebuild each from the shipped bytes (sim.lab.ship) and play the same games."""
    from pathlib import Path
    import shutil
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "rule.py").write_text(LAST_LEGAL)
    shutil.copy(Path(__file__).parents[1] / "policies" / "learned.json", mine / "w.json")
    monkeypatch.chdir(mine)
    specs = ["rule.py:last_legal", "learned[weights=w.json,margin=0.05]",
             "search[base=rule.py:last_legal]"]
    policies = [load_policy(s) for s in specs]
    wanted = [run_batch(2, 7, 0, 40, p) for p in policies[:2]]
    chunks = [to_wire(Chunk(Setup(p), 2, 7, 0, 40)) for p in policies[:2]]
    wires = [policy_wire(p) for p in policies]
    monkeypatch.chdir(tmp_path)
    shutil.rmtree(mine)
    client = dask2.client
    for want, chunk in zip(wanted, chunks):
        got = client.submit(K.play_wire, chunk, pure=False).result()
        for k in want:
            assert np.array_equal(got[k], want[k]), k
    record, hashes = client.submit(shipped_record, wires[2], pure=False).result()
    assert record["base"] == "search" and record["overrides"]["base"].endswith(
        "/rule.py:last_legal")
    import hashlib
    assert hashes["rule.py"] == hashlib.sha256(LAST_LEGAL.encode()).hexdigest()


def test_a_spec_naming_a_missing_file_cannot_be_shipped(tmp_path):
    (tmp_path / "rule.py").write_text(LAST_LEGAL)
    pol = load_policy(f"{tmp_path / 'rule.py'}:last_legal")
    (tmp_path / "rule.py").unlink()
    with pytest.raises(Exception, match="cannot be sent to a worker"):
        policy_wire(pol)


def kill_once_then_play(chunk, marker):
    """The first chunk to run dies with its worker process (once); the rest play normally."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return K.play_wire(chunk)
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
    with pytest.raises(UsageError, match=message):
        K.parse_address(address)


def test_unreachable_scheduler_is_a_clear_error():
    """No scheduler at the address: one error line, exit 2 (after CONNECT_TIMEOUT_S; how long
    that takes is asserted by no test, so that a loaded machine passes)."""
    out = run_cli("simulate", "--games", "10", "--cluster", "tcp://127.0.0.1:9",
                  env={"FRIDAY_KEEP_NUMBA_CACHE": "1"}, timeout=300)
    assert out.returncode == 2, out.stderr
    lines = [x for x in out.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: --cluster tcp://127.0.0.1:9"), lines
    assert "Traceback" not in out.stderr


def test_edited_card_table_reaches_the_workers(dask2):
    from sim.cardtable import build
    pol = load_policy("expert")
    table = build(sets=["63.pirate_hazard_value=35"])
    want = run_batch(4, 5, 0, 600, pol, cards=table)
    assert not np.array_equal(want["won"], run_batch(4, 5, 0, 600, pol)["won"])
    got = _rows(dask2, 4, 5, 600, pol, None, 250, cards=table)
    for k in want:
        assert np.array_equal(got[k], want[k]), k


def test_compare_and_simulate_api_on_the_cluster(dask2):
    from sim.lab import play_paired, simulate
    pols = ["cull-green", "cull-green[max_missing=0]"]
    want = play_paired(pols, [1, 4], 700, 3, chunk=300)
    got = play_paired(pols, [1, 4], 700, 3, chunk=300, cluster=dask2)
    assert got.equals(want)
    a = simulate("cull-green", 2, 500, 4)
    b = simulate("cull-green", 2, 500, 4, cluster=dask2.client, chunk=130)
    assert a.equals(b)


def _port_8787_taken():
    """Dask's default dashboard port taken (by this socket, or already by something else)."""
    import contextlib
    import socket
    sock = socket.socket()
    with contextlib.suppress(OSError):
        sock.bind(("127.0.0.1", 8787))
        sock.listen()
    return sock


def test_cli_simulate_on_a_local_cluster_matches_in_process(tmp_path, dask2, friday_here):
    """The whole command: rows (every column) with --cluster local:2 (a fresh process starting
    its own cluster) and summary mode on the module's cluster by its address (--cluster
    tcp://..., sim.cli.main in this process), each against the command in this process; no
    warning when port 8787 is taken (the local cluster starts no dashboard there)."""
    args = ["simulate", "--quiet", "--policy", "cull-green", "--level", "1,3", "--games", "900"]
    with _port_8787_taken():
        out = run_cli(*args, "--out", tmp_path / "dask.parquet", "--cluster", "local:2",
                      "--chunk", "250", env={"FRIDAY_KEEP_NUMBA_CACHE": "1"}, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stderr == "", out.stderr          # no "Port 8787 is already in use"

    def friday(*more):
        run = friday_here([*args, *more], tmp_path)
        assert run.returncode == 0, run.stderr
        return run.stdout
    import pandas as pd
    friday("--out", str(tmp_path / "here.parquet"))
    assert pd.read_parquet(tmp_path / "here.parquet").equals(
        pd.read_parquet(tmp_path / "dask.parquet"))
    table = lambda text: text.split("not counted)")[-1]           # noqa: E731
    assert table(friday("--summary-only")) == table(
        friday("--summary-only", "--cluster", dask2.client.scheduler.address, "--chunk", "200"))


@pytest.mark.parametrize("args, message", [
    (["--cluster", "local:0"], "at least 1 worker"),
    (["--cluster", "tcp//x:1"], "use local:N"),
    (["--cluster", "local:2", "--engine", "reference"], "fast engine only"),
])
def test_bad_cluster_arguments(args, message):
    from typer.testing import CliRunner
    from sim.cli import app
    result = CliRunner().invoke(app, ["simulate", "--games", "10", *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_balance_and_report_on_a_local_cluster_match_in_process(tmp_path, dask2, friday_here):
    """`friday balance pirates --cluster ADDRESS` writes the same tables as without it, and
    `friday report --cluster ADDRESS` the same policies.md (sim.lab.run); ADDRESS is the
    module's local cluster's scheduler (--cluster local:N starts one the same way: the test
    above), the commands run sim.cli.main in this process."""
    address = dask2.client.scheduler.address

    def friday(*args):
        out = friday_here([*args, "--quiet"], tmp_path)
        assert out.returncode == 0, out.stderr
        return out.stdout
    base = ["balance", "pirates", "--level", "1,4", "--games", "800", "--seed", "3"]
    friday(*base, "--out", str(tmp_path / "here"))
    friday(*base, "--out", str(tmp_path / "dask"), "--cluster", address, "--chunk", "300")
    for name in ("pirates.csv", "pirate_pairs.csv"):
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()
    md = [(tmp_path / d / "pirates.md").read_text().replace(str(tmp_path / d), "OUT")
          for d in ("here", "dask")]
    assert md[0].split("\n", 3)[3] == md[1].split("\n", 3)[3]     # all but the command line
    rep = ["report", "random", "cull-green", "--level", "2", "--games", "500"]
    friday(*rep, "--out", str(tmp_path / "rep_here"))
    friday(*rep, "--out", str(tmp_path / "rep_dask"), "--cluster", address, "--chunk", "150")
    reports = [(tmp_path / d / "policies.md").read_text().replace(str(tmp_path / d), "OUT")
               for d in ("rep_here", "rep_dask")]                # the command records --out
    assert reports[0] == reports[1]


def test_tune_on_the_cluster_plays_the_same_trials(dask2, tmp_path):
    """friday tune --cluster: each trial's games on the workers, the same study as in
    process (sim.lab.tune through sim.lab.run's backend)."""
    optuna = pytest.importorskip("optuna")
    from sim.lab.tune import STUDY_NAME, finished
    from sim.lab.tune_study import tune
    ranges = ["min_life=8:14", "max_missing=0:3"]
    got = []
    for name, cluster in (("here.db", None), ("dask.db", dask2)):
        tune("cull-green", ranges, 1, 500, 3, 5, tmp_path / name, cluster=cluster, chunk=150)
        study = optuna.load_study(study_name=STUDY_NAME, storage=f"sqlite:///{tmp_path / name}")
        got.append([(t.params, t.value) for t in finished(study)])
    assert got[0] == got[1] and len(got[0]) == 3
