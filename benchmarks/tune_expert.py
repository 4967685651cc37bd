"""Coordinate search over the expert policy's parameters (run by hand, minutes).

    python benchmarks/tune_expert.py --games 10000 --seed 99

Starts from policies/expert.py's defaults, tries each value of each parameter's grid in turn,
keeps a change when the mean win rate over levels 1 and 4 rises by more than 0.2 points, and
prints every improvement.  All candidates play the same seeded games (common random numbers),
so differences are not deal luck.  The defaults in policies/expert.py came from this script.
"""
from __future__ import annotations


import numpy as np

from policies import load_policy
from sim.fast import run_batch
from sim.lab.script import ArgumentParser

GRID = {
    "reserve_green": [0, 2, 4, 6, 8, 10], "reserve_yellow": [0, 1, 2, 4, 6],
    "reserve_red": [0, 1, 2, 4], "cull_max_missing": [1, 2, 3, 4, 6],
    "cull_min_life": [4, 6, 8, 10, 12, 14], "cull_yellow": [0, 1],
    "value_weight": [0, 0.25, 0.5, 0.75, 1], "skip_above": [2, 4, 6, 8, 100],
    "destroy_max_value": [0, 1, 1.5, 2, 2.5, 3], "pirate_prep": [0, 0.5, 1, 2],
    "hardest_pirate_first": [0, 1], "pay_max_missing_green": [0, 1, 2, 3, 5],
    "pay_max_missing_yellow": [2, 4, 6, 8, 12], "pay_max_missing_red": [4, 6, 8, 10, 14, 20],
    "knowledge_weight": [0.5, 1, 1.5, 2, 3],
}


def main():
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    base = load_policy("expert")
    current = dict(zip(base.param_names, base.params.tolist()))

    def evaluate(params):
        policy = base.with_params(params)
        rates = [run_batch(level, args.seed, 0, args.games, policy)["won"].mean() for level in (1, 4)]
        return float(np.mean(rates)), rates

    best, rates = evaluate(current)
    print(f"start: mean win rate {best:.4f} (level 1 {rates[0]:.4f}, level 4 {rates[1]:.4f})")
    for round_ in range(args.rounds):
        for name, values in GRID.items():
            for value in values:
                if value == current[name]:
                    continue
                trial = {**current, name: value}
                score, trial_rates = evaluate(trial)
                if score > best + 0.002:
                    best, rates, current = score, trial_rates, trial
                    print(f"  {name}={value}: {best:.4f} (level 1 {rates[0]:.4f}, level 4 {rates[1]:.4f})")
        print(f"round {round_ + 1}: {best:.4f}; parameters {current}")


if __name__ == "__main__":
    main()
