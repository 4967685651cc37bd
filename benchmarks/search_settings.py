"""A search setting's strength and cost, paired against expert on the same deals.

    python benchmarks/search_settings.py 'search[rollouts=128,margin=6]' --games 150 --level 1,4
        [--first 60] [--seed 1] [--threads N]

Per level, one line: the search's and expert's win rates on games first .. first+N-1 of the
seed, the discordant games (search won and expert lost / the reverse), the continuations
played per game and the share of searched decisions switched per kind (from the decision
log), CPU seconds per game (process CPU time / games, so per core whatever the threads) and
wall seconds per game, and the load average; at the end expert's CPU time per game on 20,000
level-4 games in the same process, the yardstick for a loaded machine.  Used to choose the
search's defaults (docs/explanation/search.md); results/strength.md is the big measurement.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from policies import load_policy  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.fast import run_batch  # noqa: E402
from policies.search_log import decision_log  # noqa: E402


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--level", default="1,4")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args(argv)
    expert, n = load_policy("expert"), a.games
    for lv in [int(x) for x in a.level.split(",")]:
        ex = run_batch(lv, a.seed, a.first, n, expert, threads=a.threads)
        t0, c0 = time.time(), time.process_time()
        rows, log = decision_log(a.spec, level=lv, games=n, seed=a.seed, first_game=a.first,
                                 threads=a.threads)
        wall, cpu = time.time() - t0, time.process_time() - c0
        ws, we = rows["won"].astype(bool), ex["won"].astype(bool)
        switched = log.groupby("phase", observed=True)["switched"].mean().round(3).to_dict()
        print(f"{a.spec} L{lv} games {a.first}..{a.first + n - 1}: search {ws.mean():.3f} "
              f"expert {we.mean():.3f} discordant +{int((ws & ~we).sum())}/"
              f"-{int((~ws & we).sum())} rollouts/game {log.rollouts.sum() / n:.0f} "
              f"cpu/game {cpu / n:.3f}s wall/game {wall / n:.3f}s load "
              f"{os.getloadavg()[0]:.1f} switched {switched}", flush=True)
    c0 = time.process_time()
    run_batch(4, a.seed, 0, 20000, expert, threads=1)
    print(f"expert cpu/game L4 {(time.process_time() - c0) / 20000 * 1e6:.0f} us load "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
