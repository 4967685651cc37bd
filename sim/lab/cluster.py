"""Runs on a Dask cluster (dask.distributed): sim.lab.run's chunks in, results out in order.

Each chunk (sim.lab.run.Chunk: one setup on consecutive game indices) is one Dask task that
plays its games on the worker's fast engine (with the worker's threads, sim.lab.run's
``play_chunk``) and returns its result rows or its summary aggregate.  Every game's randomness
comes from (master seed, game index) only, and results are yielded in chunk order (later ones
buffered), so the merged result is identical, bit for bit, to the same run on one machine,
whatever the number of workers, the chunk size or the order in which chunks finish.

Policies travel as data, with the bytes of every file their spec names (sim.lab.ship), never
pickled as compiled code.  Dask itself is an optional extra: ``pip install
'friday-lab[cluster]'``; nothing here is imported without ``--cluster``.
"""
from __future__ import annotations

import contextlib
import re
import shutil
import signal
import tempfile
import threading
from collections import deque

from sim.deprecation import moved
from sim.errors import MissingExtra, UsageError
from .run import play_shipped
from .ship import policy_wire, to_wire

CONNECT_TIMEOUT_S = 5
_LOCAL = re.compile(r"local:(\d+)")
_REMOTE = re.compile(r"(tcp|tls|ws|wss|inproc)://[^\s/:]+(:\d+)?/?")


def parse_address(address: str) -> tuple[str, object]:
    """``local:N`` -> ("local", N); ``tcp://host:port`` (also tls/ws/wss) -> ("remote", it)."""
    text = str(address).strip()
    if m := _LOCAL.fullmatch(text):
        if int(m.group(1)) < 1:
            raise UsageError(f"cluster {text}: a local cluster needs at least 1 worker",
                             "cluster")
        return "local", int(m.group(1))
    if _REMOTE.fullmatch(text):
        return "remote", text
    raise UsageError(f"cluster {text!r}: use local:N (N worker processes on this machine) or "
                     f"a scheduler address such as tcp://host:8786", "cluster")


class Cluster:
    """A connection to a Dask scheduler (``with Cluster("local:2") as c: ...``).  ``local:N``
    starts a LocalCluster of N single-threaded worker processes and stops it at the end; an
    address connects to a running scheduler (a clear error within CONNECT_TIMEOUT_S seconds when
    it cannot be reached).  An existing ``distributed.Client`` is used as it is."""

    def __init__(self, address):
        self.address, self.client = address, None
        self._undo = contextlib.ExitStack()       # what __exit__ stops and removes, last first

    def __enter__(self) -> "Cluster":
        try:
            import distributed
        except ImportError:
            raise MissingExtra("cluster", "dask.distributed", "a Dask cluster") from None
        if isinstance(self.address, distributed.Client):
            self.client = self.address             # someone else's: left open
            return self
        kind, value = parse_address(self.address)
        self.client = (self._start_local(distributed, value) if kind == "local"
                       else _connect(distributed, value))
        self._undo.callback(self.client.close)
        return self

    def _start_local(self, distributed, n: int):
        """A Client of N worker processes here, their scratch space in a folder of our own
        (removed at the end), started with SIGINT ignored (inherited): a Ctrl-C in the terminal
        reaches only this process, which cancels the chunks and reports.  No dashboard: the
        scheduler's HTTP server (which Dask starts even without one, on port 8787 by default,
        with a warning when that port is taken) listens on a free local port."""
        import dask
        scratch = tempfile.mkdtemp(prefix="friday-dask-")
        self._undo.callback(shutil.rmtree, scratch, ignore_errors=True)
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            with dask.config.set({"temporary-directory": scratch}):
                local = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, silence_logs=50,
                    dashboard_address="127.0.0.1:0", scheduler_kwargs={"dashboard": False})
        finally:
            if main:
                signal.signal(signal.SIGINT, previous)
        self._undo.callback(local.close)
        return distributed.Client(local)

    def __exit__(self, *exc):
        self._undo.close()

    def warm_up(self, setup):
        """Every worker compiles (or loads from its cache) the engine and the setup's policy
        now, so that the first chunks' timings hold games only."""
        from .run import Chunk
        self.client.run(play_wire, to_wire(Chunk(setup, 1, 0, 0, 4, summary=True)))

    def run_chunks(self, chunks, task=None, should_stop=None, in_order=True):
        """Yield (chunk, result) of sim.lab.run.Chunks in their order (``in_order=False``: as
        they finish, so that a stop keeps every finished one).  At most 4 chunks per
        worker thread are in flight; a chunk whose worker died is re-run by Dask (2 more
        attempts, plus the scheduler's own rescheduling).  When ``should_stop()`` turns true
        (checked every 0.2 s: Ctrl-C) or the generator is closed, the chunks still outstanding
        are cancelled.  ``task``: what a worker runs on a chunk (default ``play_wire``)."""
        from distributed import wait
        client = self.client
        window = 4 * max(1, sum(client.nthreads().values()))
        pending = deque(enumerate(chunks))
        finished, by_future = {}, {}      # index -> (chunk, result); future -> (index, chunk)
        setups = {id(ch.setup): ch.setup for _, ch in pending}
        wires = {k: policy_wire(s.policy) for k, s in setups.items()}   # a file is read once
        next_index, stop = 0, False
        try:
            while pending or by_future or finished:
                while not stop and pending and len(by_future) < window:
                    i, ch = pending.popleft()
                    fut = client.submit(task or play_wire, to_wire(ch, wires[id(ch.setup)]),
                                        retries=2, pure=False)
                    by_future[fut] = (i, ch)
                while finished and (not in_order or next_index in finished):
                    i = next_index if in_order else min(finished)   # on a stop too
                    yield finished.pop(i)
                    next_index = i + 1
                if stop or not by_future:       # stopped, or every chunk yielded
                    return
                try:
                    done, _ = wait(list(by_future), timeout=0.2, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = ()
                for fut in done:
                    i, ch = by_future.pop(fut)
                    finished[i] = (ch, fut.result())
                    fut.release()
                stop = should_stop is not None and should_stop()
        finally:
            if by_future:
                client.cancel(list(by_future))


def _connect(distributed, address):
    """A Client of the scheduler at ``address``, or a UsageError within CONNECT_TIMEOUT_S
    (+1) seconds: the handshake runs in a daemon thread, since a server that is no Dask
    scheduler can hold it forever (a plain HTTP server) or answer bytes Dask reads as a huge
    frame length (a MemoryError)."""
    got: dict = {}

    def attempt():
        try:
            got["client"] = distributed.Client(address, timeout=f"{CONNECT_TIMEOUT_S}s")
        except BaseException as exc:          # noqa: BLE001 - reported below, one line
            got["error"] = exc
    t = threading.Thread(target=attempt, daemon=True)
    t.start()
    t.join(CONNECT_TIMEOUT_S + 1)
    if "client" in got:
        return got["client"]
    why = type(got["error"]).__name__ if "error" in got else "no answer"
    raise UsageError(f"cluster {address}: no Dask scheduler answered within "
                     f"{CONNECT_TIMEOUT_S} s ({why})", "cluster")


def connected(cluster):
    """A context manager giving a connected Cluster for an address (``"local:2"``,
    ``"tcp://host:8786"``), a ``distributed.Client`` or a Cluster; None gives None (no Dask)."""
    if cluster is None or isinstance(cluster, Cluster):
        return contextlib.nullcontext(cluster)
    return Cluster(cluster)


def play_wire(chunk):
    """Runs on a worker: the shipped chunk played with the worker's threads
    (sim.lab.ship.play_shipped)."""
    return play_shipped(chunk, _worker_threads())


def _worker_threads():
    try:
        from distributed import get_worker
        return get_worker().state.nthreads
    except (ImportError, ValueError, AttributeError):
        return None


__getattr__ = moved(__name__, {"policy_from_wire": "sim.lab.ship:policy_from_wire",
                               "MAX_SHIPPED_BYTES": "sim.lab.ship:MAX_SHIPPED_BYTES"})
