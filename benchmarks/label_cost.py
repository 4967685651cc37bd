"""What expert iteration costs (``friday train --continuation current``): per level, the CPU
time of labelling one decision (every legal action on the same K fair continuations, as
``friday train`` gathers them, sim.lab.train.gather_game) when the veteran plays the
continuations and when the learned policy does, on the same decisions (the games of the
shipped learned policy); and the time per game of expert, veteran, learned and any other
weights files in the same run, as a ratio to the expert's.

    python benchmarks/label_cost.py --games 4 --rollouts 100 --seed 13 --level 1 4 \
        --weights pilot.json

Times are process CPU time on one thread (the games of a labelled game, then the times per
game best of three, as benchmarks/learned_cost.py).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from learned_cost import us_per_game  # noqa: E402  (benchmarks/, beside this script)
from policies import load_policy  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.train import gather_game, load_rollout_policy  # noqa: E402


def label_cost(level: int, args, behaviour, rollout) -> tuple[float, int]:
    """CPU seconds per labelled decision, and the decisions, over ``args.games`` games."""
    gather_game(level, args.seed, 0, behaviour, rollout, 1)           # compile
    t0, n = time.process_time(), 0
    for game in range(args.games):
        n += len(gather_game(level, args.seed, game, behaviour, rollout, args.rollouts)["game"])
    return (time.process_time() - t0) / max(n, 1), n


def level_rows(level: int, args, players: dict) -> tuple[str, str]:
    behaviour = players["learned"]
    vet, n = label_cost(level, args, behaviour, load_rollout_policy("veteran"))
    cur, _ = label_cost(level, args, behaviour, load_rollout_policy(behaviour))
    t = {name: us_per_game(p, level, args.seed, args.time_games)
         for name, p in players.items()}
    label = (f"| {level} | {n / args.games:.1f} | {vet * 1e3:.2f} | {cur * 1e3:.2f} | "
             f"{cur / vet:.1f}x |")
    times = " | ".join(f"{t[k]:.1f} ({t[k] / t['expert']:.1f}x)" for k in t)
    return label, f"| {level} | {times} |"


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="labelled games per level (4)")
    ap.add_argument("--rollouts", type=int, default=100, help="continuations per decision "
                    "(100, friday train's default)")
    ap.add_argument("--time-games", type=int, default=20000, help="games per level and "
                    "player for the times per game (20000)")
    ap.add_argument("--seed", type=int, default=13, help="master seed (13)")
    ap.add_argument("--level", type=int, nargs="+", default=[1, 4], choices=[1, 2, 3, 4],
                    help="levels (1 4)")
    ap.add_argument("--weights", type=Path, nargs="*", default=[], help="other weights "
                    "files whose learned player is timed too")
    ap.add_argument("--out", type=Path, help="Markdown file to write (default: print)")
    ap.add_argument("--force", action="store_true", help="overwrite --out")
    args = ap.parse_args(argv)
    if min(args.games, args.rollouts, args.time_games) < 1 or args.seed < 0:
        ap.error("--games, --rollouts and --time-games must be at least 1, --seed at least 0")
    try:
        check_file(args.out, (".md",), args.force)
        players = {"expert": load_policy("expert"), "veteran": load_policy("veteran"),
                   "learned": load_policy("learned")}
        players.update({str(w): load_policy(f"learned[weights={w}]") for w in args.weights})
    except FridayError as e:
        ap.error(error_line(e))
    made = command_line(["--games", args.games, "--rollouts", args.rollouts, "--time-games",
                         args.time_games, "--seed", args.seed, "--level", *args.level,
                         *(["--weights", *args.weights] if args.weights else []),
                         *(["--out", args.out, "--force"] if args.out else [])],
                        "python benchmarks/label_cost.py")
    labels = ["| level | labelled decisions per game | ms per decision, veteran continuations "
              "| ms, learned continuations | ratio |", "|---|---|---|---|---|"]
    times = ["| level | " + " | ".join(f"{k} (us per game, / expert)" for k in players) + " |",
             "|---|" + "---|" * len(players)]
    stopped = False
    try:
        for level in args.level:
            a, b = level_rows(level, args, players)
            labels.append(a)
            times.append(b)
            print(a, b, sep="\n", flush=True)
    except KeyboardInterrupt:                     # Ctrl-C: the finished levels are kept
        stopped = True
        labels += ["", "Stopped by Ctrl-C: only the levels above were measured."]
    text = "\n".join([f"Made by `{made}`.", "", *labels, "", *times]) + "\n"
    if args.out:
        write_text(args.out, text)
    print(text)
    if stopped:
        sys.exit(130)


if __name__ == "__main__":
    main()
