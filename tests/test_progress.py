"""What a long command shows: the compile notice (cold Numba cache only), the progress bar
(terminal only, not with --quiet), and the chunk sizes that keep Ctrl-C fast
(sim.lab.progress)."""
import importlib.util
import time

import pytest

import sim.fast.api as api
import sim.numba_cache as numba_cache
import sim.lab.progress as progress
from policies import load_policy
from sim.rules import Options
from sim.lab.simulate import run_simulation


def test_cache_check_reads_numbas_own_index(tmp_path):
    """has_cached_code: False for a cache=True function never compiled, True once Numba has
    written its index; the engine's batch entry point and a built-in policy are cached after
    prepare()."""
    (tmp_path / "fresh_cached_module.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    spec = importlib.util.spec_from_file_location("fresh_cached_module",
                                                  tmp_path / "fresh_cached_module.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert not numba_cache.has_cached_code(module.twice.py_func)
    assert module.twice(21) == 42
    assert numba_cache.has_cached_code(module.twice.py_func)
    policy = load_policy("random")
    api.prepare(policy)
    assert api.engine_cached(policy) == (True, True)


@pytest.mark.parametrize("cached, record, expected", [
    ((False, False), None, f"compiling the engine, first run only, about "
                           f"{progress.BENCHMARK_COMPILE_SECONDS} s"),
    ((False, True), 42.4, "compiling the engine, first run only, about 42 s"),
    ((True, False), None, "compiling policy random, first run only"),
    ((True, True), None, ""),
])
def test_compile_notice_only_when_something_must_be_compiled(monkeypatch, capsys, cached, record,
                                                             expected):
    monkeypatch.setattr(api, "engine_cached", lambda policy: cached)
    monkeypatch.setattr(numba_cache, "last_compile_seconds", lambda: record)
    started = progress.compile_notice(load_policy("random"))
    err = capsys.readouterr().err
    assert (expected in err) if expected else err == ""
    assert (started is not None) == (not cached[0])      # the engine's compile gets timed
    progress.compile_notice(load_policy("random"), quiet=True)
    assert capsys.readouterr().err == ""


def test_a_long_compile_shows_it_is_alive(capsys):
    """still_compiling: a line with the seconds so far at every tick while the block runs,
    none once it is done, none when nothing is compiled (started None)."""
    seen = ""
    with progress.still_compiling(time.perf_counter(), every=0.01):
        for _ in range(2000):                         # up to 20 s on a loaded machine
            seen += capsys.readouterr().err
            if "still compiling:" in seen:
                break
            time.sleep(0.01)
    assert "s so far" in seen
    time.sleep(0.05)
    capsys.readouterr()
    time.sleep(0.05)
    assert capsys.readouterr().err == ""               # the thread stopped with the block
    with progress.still_compiling(None, every=0.01):
        time.sleep(0.05)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("terminal, quiet, shown", [(True, False, True), (True, True, False),
                                                    (False, False, False)])
def test_progress_bar_on_a_terminal_only(monkeypatch, capsys, terminal, quiet, shown):
    """One line per level with games done, games/s and the time left; nothing when standard
    error is not a terminal or with --quiet.  Standard output gets the same results."""
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    if terminal:
        monkeypatch.setenv("TTY_COMPATIBLE", "1")
        monkeypatch.setenv("TTY_INTERACTIVE", "1")
    run_simulation([1, 2], 2000, 1, load_policy("random"), Options(), "fast", None, None, True,
                   quiet=quiet)
    out, err = capsys.readouterr()
    assert "summary mode" in out and "4,000 games in" in out
    bar = "level 1" in err and "level 2" in err and "2000/2000" in err and "games/s" in err
    assert bar == shown, err
    assert (err == "") == (not shown), err        # without the bar, nothing at all


@pytest.mark.parametrize("quiet", [False, True])
def test_off_a_terminal_a_long_run_writes_a_plain_line_now_and_then(monkeypatch, capsys, quiet):
    """A batch job's log (standard error a file or pipe) gets a line per running level every
    LINE_SECONDS (here 0: after every range but a level's last): count, total, then rate
    and time left; none with --quiet.  Standard output is the same."""
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setattr(progress, "LINE_SECONDS", 0)
    run_simulation([1, 2], 2000, 1, load_policy("random"), Options(), "fast", None, None, True,
                   quiet=quiet, chunk=500)
    out, err = capsys.readouterr()
    assert "4,000 games in" in out
    lines = err.splitlines()
    if quiet:
        assert err == ""
        return
    for level in (1, 2):
        mine = [ln for ln in lines if ln.startswith(f"  level {level}: ")]
        assert [ln.split(":")[1].split(" of")[0].strip() for ln in mine] == \
            ["500", "1,000", "1,500"], err
        assert all(" of 2,000 games" in ln for ln in mine) and "games/s, about" in mine[-1], err


def test_off_a_terminal_a_line_once_a_minute_with_the_rate_since_the_last(monkeypatch, capsys):
    """LINE_SECONDS (60 s) apart, by the clock: none at 59 s, one at 60 s, the rate and time
    left over the minute before (however long the ranges); a level not started or finished
    gets none."""
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    now = [1000.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    assert progress.LINE_SECONDS == 60
    bar = progress.progress_bar()
    with bar:
        one = bar.add_task("level 1", total=1000)
        bar.add_task("level 2", total=1000, start=False)
        done = bar.add_task("level 3", total=10)
        bar.advance(done, 10)
        bar.advance(one, 100)
        bar.refresh()
        for t, games in ((59, 100), (60, 100), (100, 40), (120, 60)):
            now[0] = 1000.0 + t
            bar.advance(one, games)
            bar.refresh()
    assert capsys.readouterr().err.splitlines() == [
        "  level 1: 300 of 1,000 games, 5.0 games/s, about 2 min left",
        "  level 1: 400 of 1,000 games, 1.7 games/s, about 6 min left"]


def test_chunk_sizes_follow_the_measured_rate(monkeypatch):
    """CHUNK_SECONDS of games at the last measured rate, growing at most 8x per chunk."""
    monkeypatch.setattr(progress, "CHUNK_SECONDS", 0.25)
    sizer = progress.ChunkSizer(1000)
    assert sizer.take(10**9) == 1000 and sizer.take(300) == 300
    sizer.measured(1000, 0.001)                   # 10^6 games/s: capped at 8x
    assert sizer.take(10**9) == 8000
    sizer.measured(8000, 0.1)                     # 80,000 games/s -> 20,000 games in 0.25 s
    assert sizer.take(10**9) == 20_000
    sizer.measured(20_000, 10.0)                  # a slow spell: 2,000 games/s -> 500
    assert sizer.take(10**9) == 500
