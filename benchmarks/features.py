"""Do richer features pay? The learned policy's network fitted as ``friday train`` fits it
(sim.lab.train_fit.fit_rows: the plan of the data folder, the same targets, the same held-out
games, every tenth) to the same records of a ``friday train`` data folder twice: on the
policy's own features (policies.learned: 33 of the state, 13 and the ability of the action),
and on those plus two card blocks of the state (each card in the player's deck, each hazard
card still to meet: open facts, R1.4; benchmarks/value_estimate.py measured that they carry
much of what a position's value could know). Printed: each fit's held-out figures of the
weights record (correlation, best action agreed, chance lost per decision) and CPU time (one
BLAS thread) and the card blocks' non-zero inputs, then the paired difference of the chance
lost per held-out decision, with the cards minus without, with a 95% percentile bootstrap
interval over the held-out games (2,000 resamples, seed 0; the interval holds the two fitted
networks fixed: ``--fit-seeds`` fits them anew with other random seeds, for the fit's own
spread). Neither network is written: this measures the fit, not a player.

    python benchmarks/features.py --data train-data
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from model_class import records  # noqa: E402  (benchmarks/, beside this script)
from value_estimate import card_blocks  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError  # noqa: E402
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.train_fit import FIT_SEEDS  # noqa: E402

RESAMPLES = 2000


def with_cards(X, obs, dec):
    """The candidates' rows X with their decision's card blocks appended."""
    import numpy as np
    from sim import cards as C
    from sim import observation as O
    return np.hstack([X, card_blocks(obs[:, O.ZONE:O.ZONE + C.N_CARDS])[dec]])


def paired(lost_a, lost_b, game):
    """Mean of lost_b - lost_a per decision and its 95% bootstrap interval over games."""
    import numpy as np
    diff = lost_b - lost_a
    games, which = np.unique(game, return_inverse=True)
    sums, counts = np.bincount(which, diff), np.bincount(which).astype(np.float64)
    rng = np.random.default_rng(0)
    draws = rng.integers(0, len(games), (RESAMPLES, len(games)))
    means = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    return diff.mean(), np.percentile(means, [2.5, 97.5])


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="a friday train data folder")
    ap.add_argument("--rounds", type=int, default=None,
                    help="rounds of records fitted (default: every chunk the folder holds)")
    ap.add_argument("--fit-seeds", type=int, nargs="+", default=None,
                    help="the fits' random seeds, each fitting both networks anew "
                         "(default: the plan's seed, as friday train fits)")
    args = ap.parse_args(argv)
    if args.rounds is not None and args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.fit_seeds is not None and not all(0 <= s < FIT_SEEDS for s in args.fit_seeds):
        ap.error(f"--fit-seeds: each seed must be in 0 .. {FIT_SEEDS - 1}")
    try:
        data, plan = records(args.data, args.rounds)
    except FridayError as e:
        ap.error(error_line(e))
    try:
        measure(argv, data, plan, args.fit_seeds or [plan.seed])
    except KeyboardInterrupt:
        print("interrupted: nothing measured", file=sys.stderr)
        sys.exit(130)


def measure(argv, data, plan, seeds):
    import dataclasses
    import numpy as np
    from policies.learned import N_STATE
    from sim.lab.train_fit import candidate_rows, choices, fit_rows, game_keys, held_out
    X, y, dec = candidate_rows(data)
    keys = game_keys(data)
    held = np.flatnonzero(held_out(keys))
    cards = with_cards(X, data["obs"], dec)
    extra = (cards[:, X.shape[1]:] != 0).sum(axis=1)       # per candidate: its decision's
    state = (X[:, :N_STATE] != 0).sum(axis=1)
    game = data["game"].astype(np.int64) * 10 + data["level"]          # one id per game
    rows, pairs = [], []
    for seed in seeds:
        lost = []
        for name, Xs in (("the policy's features", X), ("the same + card blocks", cards)):
            t = time.process_time()
            _, a, pred = fit_rows(Xs, y, dec, keys, dataclasses.replace(plan, seed=seed))
            lost.append(choices(pred, y, dec, held)[1])
            rows.append(f"| {seed} | {name} | {Xs.shape[1]} | {time.process_time() - t:.0f} | "
                        f"{a['iterations']} | {a['held_out_correlation']} | "
                        f"{a['held_out_best_agrees']:.1%} | "
                        f"{a['held_out_chance_lost_per_decision']} |")
        mean, (low, high) = paired(*lost, game[held])
        pairs.append(f"| {seed} | {mean:+.5f} [{low:+.5f}, {high:+.5f}] |")
    print(f"Made by `{command_line(argv, 'python benchmarks/features.py')}`: "
          f"{len(data['game']):,} decisions of levels {sorted(set(data['level'].tolist()))}, "
          f"{len(y):,} candidates, {len(held):,} decisions of "
          f"{len(np.unique(keys[held])):,} held-out games; non-zero inputs a candidate: "
          f"{state.mean():.1f} of the {N_STATE} state features ({state.min()} to "
          f"{state.max()}), {extra.mean():.1f} of the card blocks ({extra.min()} to "
          f"{extra.max()})\n\n"
          "| fit seed | features | inputs | fit CPU s | epochs | held-out correlation | best "
          "action agreed | chance lost per decision |\n|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\n| fit seed | chance lost per decision, with the card blocks minus without [95% "
          "bootstrap over held-out games; negative: the cards pay] |\n|---|---|")
    print("\n".join(pairs))


if __name__ == "__main__":
    main()
