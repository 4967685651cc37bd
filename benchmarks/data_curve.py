"""Does more data of the same kind pay, or a wider network?  The learned network fitted, as
``friday train`` fits it (sim.lab.train_fit.fit, the plan of the data folder), to a share of
the games of a ``friday train`` data folder (every round, or the first ``--rounds``; the games
kept by their number, the held-out games, every tenth, always the same), one weights file per
share and, with ``--hidden``, per number of hidden units (the plan's otherwise); compare them
with ``friday compare`` on deals of another seed.

    python benchmarks/data_curve.py --data train-data --share 0.25 0.5 --out curve
    friday compare learned "learned[weights=curve_0.5.json]" "learned[weights=curve_0.25.json]" --level 1,4 --games 20000 --seed 31
    python benchmarks/data_curve.py --data train-data --share 1 --hidden 256 --out wide
"""
from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from model_class import records  # noqa: E402  (benchmarks/, beside this script)
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.train_fit import FIT_SEEDS, game_keys, held_out  # noqa: E402


def share_of(data: dict, share: float) -> dict:
    """The records of the held-out games and of the first ``share`` of the others (a game
    kept when (its number x 0.618...) mod 1 < share: spread over every round and level)."""
    import numpy as np
    golden = (data["game"].astype(np.float64) * 0.6180339887498949) % 1.0
    keep = held_out(game_keys(data)) | (golden < share)
    return {k: v[keep] for k, v in data.items()}


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="a friday train data folder")
    ap.add_argument("--share", type=float, nargs="+", required=True,
                    help="shares of the games to fit, each in (0, 1]")
    ap.add_argument("--rounds", type=int, help="fit the first ROUNDS rounds (all it holds)")
    ap.add_argument("--hidden", type=int, nargs="+",
                    help="hidden units, each 1 to 1024 (the plan's): files OUT_<share>_h<N>.json")
    ap.add_argument("--fit-seed", type=int, help="the fit's random seed (the plan's, as friday "
                                                  "train fits): files OUT_<share>_s<SEED>.json")
    ap.add_argument("--out", required=True, help="weights files OUT_<share>.json")
    ap.add_argument("--force", action="store_true", help="overwrite them")
    args = ap.parse_args(argv)
    if not all(0 < s <= 1 for s in args.share):
        ap.error("--share: each share must be in (0, 1]")
    if args.rounds is not None and not 1 <= args.rounds <= 20:
        ap.error("--rounds must be 1 to 20")
    if args.hidden and not all(1 <= h <= 1024 for h in args.hidden):
        ap.error("--hidden: each must be 1 to 1024 (as friday train's)")
    if args.fit_seed is not None and not 0 <= args.fit_seed < FIT_SEEDS:
        ap.error(f"--fit-seed must be in 0 .. {FIT_SEEDS - 1}")
    sizes = [(h, f"_h{h}") for h in args.hidden] if args.hidden else [(None, "")]
    seeded = "" if args.fit_seed is None else f"_s{args.fit_seed}"
    named = {Path(f"{args.out}_{s:g}{tail}{seeded}.json"): (s, h) for s in args.share
             for h, tail in sizes}          # shares alike to 6 digits name one file: one fit
    fits = [(s, h, out) for out, (s, h) in named.items()]
    outs = [out for _, _, out in fits]
    try:
        for out in outs:
            check_file(out, (".json",), args.force)
        data, plan = records(args.data, args.rounds)
    except FridayError as e:
        ap.error(error_line(e))
    made = command_line(argv, "python benchmarks/data_curve.py")
    rounds = int(data["game"].max()) // plan.games + 1       # round r: games r*G .. (r+1)*G-1
    done = 0
    try:
        for share, hidden, out in fits:
            fit_one(data, plan, share, hidden, out, args.fit_seed, rounds, made)
            done += 1
    except KeyboardInterrupt:                   # scikit-learn's half fit is never written
        print(f"interrupted: {done} of {len(fits)} weights files written", file=sys.stderr)
        sys.exit(130)


def fit_one(data, plan, share, hidden, out, fit_seed, rounds, made):
    """One weights file: the network fitted to ``share`` of the games with ``hidden`` units
    (None: the plan's) and the random seed ``fit_seed`` (None: the plan's)."""
    from sim.lab.train import plan_record
    from sim.lab.train_fit import fit, weights_text
    part = share_of(data, share)
    sized = dataclasses.replace(plan, hidden=hidden or plan.hidden, rounds=rounds)
    seed = plan.seed if fit_seed is None else fit_seed
    cpu = time.process_time()
    weights, figures = fit(part, dataclasses.replace(sized, seed=seed))
    counts = {"share": share, "decisions": int(len(part["game"])), "fit_seed": seed}
    write_text(out, weights_text(weights, plan_record(sized, made, counts, figures)))
    print(f"share {share:g}, {sized.hidden} hidden units: {counts['decisions']:,} "
          f"decisions, held out {figures}, fit {time.process_time() - cpu:.0f} CPU s; "
          f"wrote {out}", flush=True)


if __name__ == "__main__":
    main()
