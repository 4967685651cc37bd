"""Same games as a commit: every result column of every game, this tree against a commit's.

    python benchmarks/same_games.py --base fbf8716 --games 100000
    python benchmarks/same_games.py --base fbf8716 --games 500 --policies search

The check of a change that must not change any game (a restructure, a speed-up): the commit is
checked out in a temporary git worktree, each tree plays the same games (levels 1-4, games
0..GAMES-1 of --seed) with each policy in its own process (``sim.fast.run_batch``, all
threads), and every column of every game (sim.rules.RESULT_COLUMNS: won, score, turns, life,
cause, pirates...) is compared.  Prints one line per policy; exit code 1 if any game differs.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sim.lab.script import ArgumentParser  # noqa: E402

HEURISTICS = ["random", "always-fight", "cull-green", "expert", "veteran"]
_CHILD = """
import sys
import numpy as np
from policies import load_policy
from sim.fast import run_batch
policy, games, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rows = [run_batch(level, seed, 0, games, load_policy(policy)) for level in (1, 2, 3, 4)]
np.savez(out, **{c: np.concatenate([r[c] for r in rows]) for c in rows[0]})
"""


def play(root: Path, policy: str, games: int, seed: int, out: Path) -> dict:
    """The result columns of ``policy``'s games in the tree at ``root``."""
    env = dict(os.environ, PYTHONPATH=str(root))
    run = subprocess.run([sys.executable, "-c", _CHILD, policy, str(games), str(seed), str(out)],
                         cwd=root, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"error: {policy} failed in {root}: {run.stderr.strip()[-400:]}")
    with np.load(out) as data:
        return {k: data[k] for k in data.files}


def differing_games(a: dict, b: dict) -> list[int]:
    """Indices of the games where any column differs (or a column is missing)."""
    if set(a) != set(b):
        return [-1]
    bad = np.zeros(len(a["game"]), bool)
    for column in a:
        bad |= a[column] != b[column]
    return list(np.flatnonzero(bad))


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", help="the commit to compare with (required)")
    ap.add_argument("--policies", nargs="+", default=HEURISTICS)
    ap.add_argument("--games", type=int, default=100_000, help="games per level")
    ap.add_argument("--seed", type=int, default=20261202)
    a = ap.parse_args(argv)
    if not a.base:
        ap.error("--base COMMIT is required")
    if a.games < 1 or not 0 <= a.seed < 2**63:
        ap.error("--games must be positive and --seed within 0..2**63-1")
    from policies import load_policy
    from sim.cli.common import error_line
    from sim.errors import FridayError
    for name in a.policies:
        try:
            load_policy(name)
        except FridayError as exc:
            ap.error(error_line(exc))
    if subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{a.base}^{{commit}}"],
                      cwd=ROOT, capture_output=True).returncode != 0:
        ap.error(f"--base {a.base!r} is not a commit of this repository")
    tmp = Path(tempfile.mkdtemp(prefix="friday-same-"))
    base_root = tmp / "base"
    subprocess.run(["git", "worktree", "add", "--detach", str(base_root), a.base], cwd=ROOT,
                   check=True, capture_output=True)
    failed = False
    try:
        for policy in a.policies:
            here = play(ROOT, policy, a.games, a.seed, tmp / "here.npz")
            there = play(base_root, policy, a.games, a.seed, tmp / "base.npz")
            bad = differing_games(here, there)
            failed |= bool(bad)
            print(f"{policy}: {4 * a.games:,} games (levels 1-4, seed {a.seed}), {len(here)} "
                  f"columns: " + ("identical" if not bad else
                                  f"{len(bad):,} differ, the first at row {bad[0]}"), flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_root)], cwd=ROOT,
                       capture_output=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:       # the worktree is removed (main's finally)
        print("interrupted", file=sys.stderr)
        sys.exit(130)
