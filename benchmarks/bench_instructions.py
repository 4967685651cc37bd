"""Instructions per game, this engine against a commit's: a speed measure that does not scatter.

    python benchmarks/bench_instructions.py --base a46b04f [--policies expert] [--levels 4]
        [--games 50000] [--out results/instructions.md]

Wall-clock timings on a shared virtual machine scatter by about +-10-15% from run to run
(``bench_engines.py`` alternates and takes the best of several for that reason); the number of
machine instructions a game executes does not.  Each engine (this checkout, and ``--base``
checked out in a temporary git worktree) plays the games of seed 1 in a fresh process on one
thread under valgrind's cachegrind, once with 1 game and once with 1 + ``--games`` games; the
difference over ``--games`` is the instructions per game of the jitted engine and policy
(Python's start-up cancels out, to about 0.05 G instructions: hence at least 20,000 games of a
fast player, and at least 3 of a player that searches, ~8 G instructions a game at level 4).
The two engines' wins and score sums are checked equal.  A count is not a time (it misses cache misses and branch
mispredictions), but a change of 1% shows, which a timing here cannot show.

Needs valgrind.  Numba's cache of each checkout is filled first in a plain process with the
CPU name and features pinned (NUMBA_CPU_NAME / NUMBA_CPU_FEATURES, part of the cache key), so
that the runs under valgrind load the same machine code instead of compiling it there.  AVX-512
is turned off in those features for both engines (valgrind 3.19 stops with SIGILL on it).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402

_CHILD = """
import sys
from policies import load_policy
from sim.fast import run_batch
r = run_batch(int(sys.argv[2]), 1, 0, int(sys.argv[3]), load_policy(sys.argv[1]), threads=1)
print(int(r["won"].sum()), int(r["score"].sum()))
"""


def _env(root: Path) -> dict:
    from numba.core.codegen import get_host_cpu_features
    import llvmlite.binding as ll
    features = re.sub(r"\+(avx512\w*|evex512)", r"-\1", get_host_cpu_features())
    return dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0", NUMBA_NUM_THREADS="1",
                NUMBA_CPU_NAME=ll.get_host_cpu_name(), NUMBA_CPU_FEATURES=features)


def _run(root: Path, args: list, valgrind: bool) -> tuple:
    """(instructions or None, the child's printed wins and score)."""
    cmd = [sys.executable, "-c", _CHILD, *map(str, args)]
    if valgrind:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no",
               "--cachegrind-out-file=/dev/null", *cmd]
    out = subprocess.run(cmd, cwd=root, env=_env(root), capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"error: the run in {root} failed: {out.stderr.strip()[-400:]}")
    m = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if valgrind and m is None:
        raise SystemExit(f"error: no instruction count in valgrind's output: {out.stderr[-300:]}")
    return (int(m.group(1).replace(",", "")) if m else None), out.stdout.split()


def per_game(root: Path, policy: str, level: int, games: int) -> tuple:
    """(instructions per game, (wins, score sum) of the 1 + games games)."""
    _run(root, [policy, level, 10], valgrind=False)               # fill the Numba cache
    one, _ = _run(root, [policy, level, 1], valgrind=True)
    many, result = _run(root, [policy, level, 1 + games], valgrind=True)
    return (many - one) / games, tuple(result)


def main(argv=None) -> None:
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="the commit to compare with (required)")
    ap.add_argument("--policies", nargs="+", default=["expert"])
    ap.add_argument("--levels", nargs="+", type=int, default=[4])
    ap.add_argument("--games", type=int, default=50000)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args(argv)
    if not a.base:
        ap.error("--base COMMIT is required")
    if any(level not in (1, 2, 3, 4) for level in a.levels):
        ap.error(f"--levels must be among 1 2 3 4, not {a.levels}")
    from policies import load_policy
    from sim.cli.common import error_line
    from sim.errors import FridayError
    for name in a.policies:
        try:
            searches = load_policy(name).searches
        except FridayError as exc:
            ap.error(error_line(exc))
        least = 3 if searches else 20000    # start-up scatters by ~0.05 G: <= 0.25% of the count
        if a.games < least:
            ap.error(f"--games must be at least {least} for {name} (start-up noise), not "
                     f"{a.games}")
    if shutil.which("valgrind") is None:
        ap.error("valgrind is not installed (it counts the instructions)")
    if subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{a.base}^{{commit}}"],
                      cwd=ROOT, capture_output=True).returncode != 0:
        ap.error(f"--base {a.base!r} is not a commit of this repository")
    lines = [f"# Instructions per game\n\nMade by "
             f"`{command_line(argv, 'python benchmarks/bench_instructions.py')}` (valgrind cachegrind, 1 "
             f"thread, seed 1, {a.games:,} games per count).\n",
             f"| policy | level | {a.base} | this engine | ratio |", "|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="friday-base-"))
    base_root = tmp / "base"
    subprocess.run(["git", "worktree", "add", "--detach", str(base_root), a.base], cwd=ROOT,
                   check=True, capture_output=True)
    try:
        for policy in a.policies:
            for level in a.levels:
                b, rb = per_game(base_root, policy, level, a.games)
                n, rn = per_game(ROOT, policy, level, a.games)
                if rb != rn:
                    raise SystemExit(f"error: {policy} plays other games at level {level} than "
                                     f"at {a.base} ({rb} vs {rn})")
                lines.append(f"| {policy} | {level} | {b:,.0f} | {n:,.0f} | {b / n:.3f}x |")
                print(lines[-1], flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_root)], cwd=ROOT,
                       capture_output=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    if a.out:
        a.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:       # the worktree is removed (main's finally); --out not written
        print("interrupted: no report written", file=sys.stderr)
        sys.exit(130)
