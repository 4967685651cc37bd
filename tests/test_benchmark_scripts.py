"""Every script in benchmarks/ answers a mistyped argument with one ``error:`` line and exit
code 2 (no usage dump, no traceback), in a fresh process as a user runs it."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


def test_a_mistyped_option_gets_one_error_line(tmp_path):
    assert len(SCRIPTS) >= 9
    runs = {p.name: subprocess.Popen([sys.executable, str(p), "--gmaes", "10"], cwd=tmp_path,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for p in SCRIPTS}                     # all at once: each is mostly imports
    for name, proc in runs.items():
        out, err = proc.communicate(timeout=300)
        lines = err.strip().splitlines()
        assert proc.returncode == 2 and out == "", (name, proc.returncode, err)
        assert len(lines) == 1 and lines[0].startswith("error:") and "--gmaes" in lines[0], \
            (name, err)
    assert list(tmp_path.iterdir()) == []


def _run(args, cwd):
    run = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True,
                         text=True, timeout=900)
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
    again = subprocess.run([sys.executable, ROOT / "benchmarks" / "levels.py", "--games", "400",
                            "--out", out], capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and again.stderr.startswith("error:") and "exists" in again.stderr


def test_search_curve_writes_a_table_and_a_figure(tmp_path, fast_engine):
    out = tmp_path / "curve"
    _run([ROOT / "benchmarks" / "search_curve.py", "expert", "veteran[reserve_red=3]", "--level",
          "1", "--games", "300", "--time-games", "50", "--cache", tmp_path / "cache", "--out",
          out], ROOT)
    text = (tmp_path / "curve.md").read_text()
    assert "| `expert` | 300 |" in text and "(reference)" in text and "McNemar" in text
    assert "'veteran[reserve_red=3]'" in text and (tmp_path / "curve.png").stat().st_size > 1000
