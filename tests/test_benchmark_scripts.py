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
