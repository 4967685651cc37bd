"""Several fits as one network: the mean of the outputs of learned weights files
(sim.lab.train_fit.mean_network: the members' hidden units side by side), one weights file
that ``learned[weights=FILE]`` plays at the price of a network as wide as all the members
together; its record lists each member by its sha256 and record.  ``friday train --fits K``
makes the same network of its own fits; this joins fits already made, so the gain of K fits
is measured for every K with no fit made twice:

    python benchmarks/data_curve.py --data train-data --share 1 --fit-seed 12 --out seed
    python benchmarks/ensemble.py policies/learned.json seed_1_s12.json --out fits2.json
    friday compare learned "learned[weights=fits2.json]" --level all --games 20000 --seed 113
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("weights", type=Path, nargs="+", help="learned weights files (two or more)")
    ap.add_argument("--out", type=Path, required=True, help="the weights file written")
    ap.add_argument("--force", action="store_true", help="overwrite it")
    args = ap.parse_args(argv)
    if len(args.weights) < 2:
        ap.error("give two or more weights files")
    from policies.learned import read_weights, weights_data
    try:
        check_file(args.out, (".json",), args.force)
        members, named = [], []
        for path in args.weights:
            read_weights(path)                                  # checked as learned checks
            members.append(weights_data(path))
            named.append({"file": str(path), "sha256": hashlib.sha256(
                path.read_bytes()).hexdigest(), "record": members[-1].get("record", {})})
    except FridayError as e:
        ap.error(error_line(e))
    from sim.lab.train_fit import mean_network, weights_text
    units = sum(len(m["b1"]) for m in members)
    record = {"command": command_line(argv, "python benchmarks/ensemble.py"),
              "model": f"the mean of {len(members)} networks' outputs (their hidden units "
                       f"side by side: {units})", "members": named}
    write_text(args.out, weights_text(mean_network(members), record))
    print(f"wrote {args.out}: {len(members)} networks, {units} hidden units")


if __name__ == "__main__":
    main()
