"""What loading a user's policy file costs: it is compiled in every process (no on-disk
cache for user files, see policies/__init__.py), the built-in policies load from the cache.

    python benchmarks/bench_policy_load.py [--repeat 3]

Each timing is a fresh process (best of --repeat): import, load the policy, compile or load
its decide function, play 100 level-1 games.  The user file is the README's `mine.py`.
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from sim.lab.script import ArgumentParser

ROOT = Path(__file__).resolve().parent.parent
CODE = """
import time
t0 = time.perf_counter()
from policies import load_policy
from sim.fast import policy_function, run_batch
p = load_policy({spec!r})
t1 = time.perf_counter()
policy_function(p)
t2 = time.perf_counter()
run_batch(1, 1, 0, 100, p)
print(t1 - t0, t2 - t1)
"""


def timings(spec, cwd, repeat):
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", CODE.format(spec=spec)], cwd=cwd,
                             capture_output=True, text=True, check=True).stdout.split()
        runs.append(tuple(map(float, out)))
    return min(r[1] for r in runs), min(r[0] for r in runs)


def main():
    parser = ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    readme = (ROOT / "README.md").read_text()
    code = re.search(r'```python title="mine.py"\n(.*?)```', readme, re.S).group(1)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "mine.py").write_text(code)
        timings("expert", tmp, 1)                       # warm the project's cache
        for spec in ("expert", "mine.py:brave"):
            compile_s, import_s = timings(spec, tmp, args.repeat)
            print(f"{spec:14s} decide ready in {compile_s:.2f} s (imports and load {import_s:.2f} s)")


if __name__ == "__main__":
    main()
