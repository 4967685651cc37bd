"""Every script in benchmarks/ answers a mistyped argument with one ``error:`` line and exit
code 2 (no usage dump, no traceback): two of them in fresh processes as a user runs them, the
others run as ``__main__`` in this process (runpy), with the same checks."""
import runpy
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import run_python

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))
FRESH = ("bench_cli.py", "strength.py")         # each mostly imports: 2-3 s a fresh process


def _run_here(script, args, monkeypatch, capsys) -> tuple[int, str, str]:
    """``python script args`` in this process: (exit code, standard output, standard error)."""
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    monkeypatch.setattr(sys, "path", [str(script.parent), *sys.path])
    capsys.readouterr()
    try:
        runpy.run_path(str(script), run_name="__main__")
        code = 0
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_a_mistyped_option_gets_one_error_line(tmp_path, monkeypatch, capsys):
    assert len(SCRIPTS) >= 9 and {p.name for p in SCRIPTS} >= set(FRESH)
    pool = ThreadPoolExecutor(len(FRESH))                   # the fresh processes at once
    runs = {p.name: pool.submit(run_python, p, "--gmaes", "10", cwd=tmp_path, timeout=300)
            for p in SCRIPTS if p.name in FRESH}
    monkeypatch.chdir(tmp_path)
    results = {p.name: _run_here(p, ["--gmaes", "10"], monkeypatch, capsys)
               for p in SCRIPTS if p.name not in FRESH}
    for name, run in runs.items():
        done = run.result()
        results[name] = done.returncode, done.stdout, done.stderr
    pool.shutdown()
    assert len(results) == len(SCRIPTS)
    for name, (code, out, err) in results.items():
        lines = err.strip().splitlines()
        assert code == 2 and out == "", (name, code, err)
        assert len(lines) == 1 and lines[0].startswith("error:") and "--gmaes" in lines[0], \
            (name, err)
    assert list(tmp_path.iterdir()) == []


def _run(args, cwd):
    run = run_python(*args, cwd=cwd)
    assert run.returncode == 0, run.stderr
    return run


def test_levels_experiment_writes_its_table_and_finding(tmp_path, fast_engine):
    """benchmarks/levels.py (results/levels.md): both levels under every variant, old age
    switched off leaves no game lost to old age, and the finding names the numbers."""
    out = tmp_path / "levels.md"
    _run([ROOT / "benchmarks" / "levels.py", "--games", "400", "--policies", "expert",
          "--out", out], ROOT)
    text = out.read_text()
    rows = [line for line in text.splitlines()
            if line.startswith("| ") and not line.startswith("| variant")]
    assert len(rows) == 4 and "0.00% | " in rows[1] and text.count("With the rules as printed, level 3 is ") == 1
    assert "--games 400 --policies expert" in text
    again = run_python(ROOT / "benchmarks" / "levels.py", "--games", "400", "--out", out,
                       timeout=300)
    assert again.returncode == 2 and again.stderr.startswith("error:") and "exists" in again.stderr


def test_search_curve_writes_a_table_and_a_figure(tmp_path, fast_engine):
    out = tmp_path / "curve"
    _run([ROOT / "benchmarks" / "search_curve.py", "expert", "veteran[reserve_red=3]", "--level",
          "1", "--games", "300", "--time-games", "50", "--cache", tmp_path / "cache", "--out",
          out], ROOT)
    text = (tmp_path / "curve.md").read_text()
    assert "| `expert` | 300 |" in text and "(reference)" in text and "McNemar" in text
    assert "'veteran[reserve_red=3]'" in text and (tmp_path / "curve.png").stat().st_size > 1000


@pytest.mark.slow                       # the unfair bound's search on two levels: ~80 s
def test_search_curve_on_several_levels_writes_the_cost_ratio_to_expert(tmp_path, fast_engine):
    """The ladder (results/ladder.md): one table per level, ``expert`` added as the cost
    reference when not given (its ratio 1.00x), every row's time as a ratio to expert's, and
    the UNFAIR bound marked so; the figure has a panel per level."""
    out = tmp_path / "ladder"
    _run([ROOT / "benchmarks" / "search_curve.py", "veteran", "unfair-clairvoyant", "--level",
          "1,4", "--games", "12", "--time-games", "4", "--chunk", "6", "--seed", "2",
          "--cache", tmp_path / "cache", "--out", out], ROOT)
    text = (tmp_path / "ladder.md").read_text()
    assert text.count("### Level ") == 2 and "; expert added as the cost reference)" in text
    assert "levels 1, 4" in text and "| time / expert's |" in text
    for level in ("1", "4"):
        table = text.split(f"### Level {level}")[1].split("###")[0]
        rows = {line.split(" | ")[0].strip("| "): [c.strip() for c in line.strip("|").split("|")]
                for line in table.splitlines() if line.startswith("| `")}
        assert list(rows) == ["`veteran`", "`unfair-clairvoyant` (UNFAIR: sees hidden orders)",
                              "`expert`"]
        assert rows["`expert`"][5] == "1.00x" and rows["`veteran`"][6] == "(reference)"
        assert all(float(r[5].rstrip("x").replace(",", "")) > 0 for r in rows.values())
        assert all(r[1] == "12" for r in rows.values())
    assert "UNFAIR: they read every hidden order" in text
    assert (tmp_path / "ladder.png").stat().st_size > 1000


def test_learned_cost_counts_the_network_decisions_and_splits_their_time(tmp_path, fast_engine):
    """benchmarks/learned_cost.py (results/learned_cost.md): one row per level; the network
    scores some but not all decisions (policies.learned.network_decides); the learned policy's
    time per game and its ratio to the expert's are there."""
    out = tmp_path / "cost.md"
    _run([ROOT / "benchmarks" / "learned_cost.py", "--games", "3", "--time-games", "30",
          "--level", "4", "--out", out], ROOT)
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| 4 |")]
    assert len(rows) == 1 and "--games 3 --time-games 30 --seed 3 --level 4" in text
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    assert len(cells) == 12 and cells[10].endswith("x")
    decisions, network = float(cells[1]), float(cells[2])
    assert 0 < network < decisions


def test_value_estimate_splits_each_step_into_luck_and_what_a_position_tells(tmp_path,
                                                                             fast_engine):
    """benchmarks/value_estimate.py (docs/explanation/learned.md): a row per step the measured
    positions reach, each with its share of the decisions, its positions, the knowable share
    and each fitted estimate's captured share, with intervals; the rows' decision shares are
    those of the whole games (at most 100% together)."""
    run = _run([ROOT / "benchmarks" / "value_estimate.py", "--games", "30", "--position-games",
                "2", "--rollouts", "6", "--seed", "5"], tmp_path)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Made by `python benchmarks/value_estimate.py --games 30 "
                               "--position-games 2 --rollouts 6 --seed 5`: level 4, seed 5;")
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines
            if ln.split("|")[1:2] and ln.split("|")[1].strip() in ("green", "yellow", "red",
                                                                   "pirates")]
    assert rows and rows[0][0] == "green" and all(len(r) == 7 for r in rows)
    assert sum(int(r[1].rstrip("%")) for r in rows) <= 101
    assert sum(int(r[2]) for r in rows) == int(lines[0].split(" positions of 2 held-out")[0]
                                                .rsplit(" ", 1)[1])
    assert all(c.count("[") == 1 and c.endswith("continuations") for r in rows for c in r[4:])
    assert list(tmp_path.iterdir()) == []


def test_value_estimate_split_recovers_known_luck_and_knowable_parts():
    """benchmarks/value_estimate.split on made-up chances: q ~ Beta(2, 3), each measured by
    K = 5 continuations, an estimate with error variance 0.01: the luck E[q(1-q)] = 0.2,
    Var(q) = 0.04 and the error come back (the continuations' noise, 0.04 here, taken out:
    without it Var(q) would read 0.08)."""
    import numpy as np
    split = runpy.run_path(str(ROOT / "benchmarks" / "value_estimate.py"))["split"]
    rng = np.random.default_rng(1)
    q = rng.beta(2, 3, 400_000)
    measured = rng.binomial(5, q) / 5
    estimate = q + rng.normal(0, 0.1, q.size)
    luck, knowable, (error,) = split(measured, [estimate], 5)
    assert abs(luck - 0.2) < 0.003 and abs(knowable - 0.04) < 0.003 and abs(error - 0.01) < 0.003
