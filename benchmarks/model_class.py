"""Which model fits the search's labels: the learned policy's network (sim.lab.train_fit, as
``friday train`` fits it) against gradient-boosted trees (scikit-learn's
HistGradientBoostingRegressor) on the same records of a ``friday train`` data folder, the
same features and targets, the same held-out games (every tenth); the held-out figures of
the weights record (correlation, best action agreed, chance lost per decision) and the fit's
CPU time, one BLAS thread.

    python benchmarks/model_class.py --data train-data --rounds 0 --trees 300 --leaves 31
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError, UsageError  # noqa: E402
from sim.lab.files import command_line  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402


def records(data: Path, rounds: int | None):
    """The records of rounds 0 .. rounds-1 of the data folder (None: every chunk it holds)
    and its plan (plan.json)."""
    from sim.lab.train import PLAN_IS, Plan, chunks_kept, load_data
    from sim.userjson import parse_json
    try:
        raw = (data / "plan.json").read_bytes()
    except (OSError, ValueError) as e:
        raise UsageError(f"{data} is not a friday train data folder ({e})", "data") from None
    fix = "give a friday train data folder"
    saved = parse_json(raw, f"the training plan {data / 'plan.json'}", fix, "data",
                       object_of=PLAN_IS, encoding_fix=fix)
    fields = {k: v for k, v in saved.items() if k in Plan.__dataclass_fields__
              and k not in ("start", "warm", "rounds")}
    wanted = range(20 if rounds is None else rounds)            # friday train: at most 20
    try:
        plan = Plan(**{**fields, "levels": tuple(saved["levels"])})
        chunks = chunks_kept(data, plan, wanted)
    except (KeyError, TypeError, ValueError) as e:              # not what friday train wrote
        raise UsageError(f"the training plan {data / 'plan.json'} is not one that friday train "
                         f"wrote ({type(e).__name__}: {e}): {fix}", "data") from None
    if not chunks or (rounds is not None and len(chunks) < rounds * len(plan.chunks(0))):
        raise UsageError(f"{data} does not hold {rounds or 'any'} whole rounds of records",
                         "rounds")
    return load_data(data, chunks), plan


def trees(X, y, held, args):
    from sklearn.ensemble import HistGradientBoostingRegressor
    model = HistGradientBoostingRegressor(max_iter=args.trees, max_leaf_nodes=args.leaves,
                                          learning_rate=args.learning_rate,
                                          early_stopping=False, random_state=0)
    model.fit(X[~held], y[~held])
    return model.predict(X), args.trees


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="a friday train data folder")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of records fitted (1)")
    ap.add_argument("--trees", type=int, default=300, help="boosting iterations (300)")
    ap.add_argument("--leaves", type=int, default=31, help="leaves per tree (31)")
    ap.add_argument("--learning-rate", type=float, default=0.1, help="shrinkage (0.1)")
    args = ap.parse_args(argv)
    if min(args.rounds, args.trees, args.leaves - 1) < 1 or not 0 < args.learning_rate <= 1:
        ap.error("--rounds and --trees must be at least 1, --leaves at least 2, "
                 "--learning-rate in (0, 1]")
    try:
        data, plan = records(args.data, args.rounds)
    except FridayError as e:
        ap.error(error_line(e))
    from threadpoolctl import threadpool_limits
    from sim.lab.train_fit import accuracy, candidate_rows, fit, game_keys, held_out
    X, y, dec = candidate_rows(data)
    held = held_out(game_keys(data)[dec])
    print(f"Made by `{command_line(argv, 'python benchmarks/model_class.py')}`: "
          f"{len(data['game']):,} decisions, {len(y):,} candidates, rounds 0..{args.rounds - 1}"
          f"\n\n| model | fit CPU s | held-out correlation | best action agreed | chance lost "
          f"per decision |\n|---|---|---|---|---|", flush=True)
    with threadpool_limits(1):
        t = time.process_time()
        _, net = fit(data, plan)
        rows = [(f"network, {plan.hidden} hidden units", time.process_time() - t, net)]
        t = time.process_time()
        pred, n = trees(X, y, held, args)
        rows.append((f"trees, {args.trees} of {args.leaves} leaves", time.process_time() - t,
                     accuracy(pred, y, dec, held, n)))
    for name, sec, a in rows:
        agreed = a["held_out_best_agrees"]
        agreed = "not measured" if agreed is None else f"{agreed:.1%}"
        print(f"| {name} | {sec:.0f} | {a['held_out_correlation']} | {agreed} | "
              f"{a['held_out_chance_lost_per_decision']} |")


if __name__ == "__main__":
    main()
