"""Does more data of the same kind pay?  The learned network fitted, as ``friday train`` fits
it (sim.lab.train_fit.fit, the plan of the data folder), to a share of the games of a
``friday train`` data folder (every round; the games kept by their number, the held-out games,
every tenth, always the same), one weights file per share; compare them with
``friday compare`` on deals of another seed.

    python benchmarks/data_curve.py --data train-data --share 0.25 0.5 --out curve
    friday compare learned "learned[weights=curve_0.5.json]" "learned[weights=curve_0.25.json]" --level 1,4 --games 20000 --seed 31
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from model_class import records  # noqa: E402  (benchmarks/, beside this script)
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402


def share_of(data: dict, share: float) -> dict:
    """The records of the held-out games and of the first ``share`` of the others (a game
    kept when (its number x 0.618...) mod 1 < share: spread over every round and level)."""
    import numpy as np
    key = data["game"].astype(np.int64) + data["level"]
    golden = (data["game"].astype(np.float64) * 0.6180339887498949) % 1.0
    keep = (key % 10 == 7) | (golden < share)
    return {k: v[keep] for k, v in data.items()}


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="a friday train data folder")
    ap.add_argument("--share", type=float, nargs="+", required=True,
                    help="shares of the games to fit, each in (0, 1]")
    ap.add_argument("--out", required=True, help="weights files OUT_<share>.json")
    ap.add_argument("--force", action="store_true", help="overwrite them")
    args = ap.parse_args(argv)
    if not all(0 < s <= 1 for s in args.share):
        ap.error("--share: each share must be in (0, 1]")
    outs = [Path(f"{args.out}_{s:g}.json") for s in args.share]
    try:
        for out in outs:
            check_file(out, (".json",), args.force)
        data, plan = records(args.data, None)
    except FridayError as e:
        ap.error(error_line(e))
    from sim.lab.train import plan_record
    from sim.lab.train_fit import fit, weights_text
    made = command_line(argv, "python benchmarks/data_curve.py")
    for share, out in zip(args.share, outs):
        part = share_of(data, share)
        weights, figures = fit(part, plan)
        counts = {"share": share, "decisions": int(len(part["game"]))}
        write_text(out, weights_text(weights, plan_record(plan, made, counts, figures)))
        print(f"share {share:g}: {counts['decisions']:,} decisions, held out {figures}; "
              f"wrote {out}", flush=True)


if __name__ == "__main__":
    main()
