"""Where the learned policy's time goes: per level, how many of a learned game's decisions the
network scores (policies.learned.network_decides), what each part of such a decision costs,
and the time per game of expert, veteran and learned in the same run; with what a game at
three times the expert's time would leave for each network decision.

    python benchmarks/learned_cost.py --games 500 --time-games 20000 --seed 3 \
        --out results/learned_cost.md --force

Each part is timed inside the games, as it runs there: three players play the veteran's games
but first do part of the learned policy's work wherever the network would score (the state
features; then the hidden layer's state part; then every candidate's score: learned with an
unreachable margin).  The time each adds per game over the one before, divided by the network
decisions of a veteran game, is that part's cost.  Decisions are counted with the reference
state machine (sim.play.Game).  Times are process CPU time on one thread per game, best of
three (as benchmarks/strength.py).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from policies import load_policy  # noqa: E402
from policies import learned as L  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError  # noqa: E402


@njit
def with_features(obs, legal, n_legal, params, rng):
    """The veteran's choice, after the state features where the network would score."""
    base = L.veteran_decide(obs, legal, n_legal, params, rng)
    if L.network_decides(obs, n_legal):
        F = np.empty(L.N_FEATURES)
        L.state_features(obs, F)
        if F[L.F_LIFE] > 2.0:                     # never: keeps the work from being dropped
            return -1
    return base


@njit
def with_hidden(obs, legal, n_legal, params, rng):
    """The same, after the hidden layer's state part too."""
    base = L.veteran_decide(obs, legal, n_legal, params, rng)
    if L.network_decides(obs, n_legal):
        F, H = np.empty(L.N_FEATURES), np.empty(np.int64(params[L.N_NAMED + 1]))
        L.state_features(obs, F)
        L.hidden_of_state(params, F, H)
        if H[0] > 1e300:
            return -1
    return base


def us_per_game(policy, level: int, seed: int, games: int) -> float:
    """CPU time per game (one thread), best of three."""
    from sim.fast import run_batch
    run_batch(level, seed, 0, 20, policy, threads=1)                  # compile
    best = np.inf
    for _ in range(3):
        t0 = time.process_time()
        run_batch(level, seed, 0, games, policy, threads=1)
        best = min(best, time.process_time() - t0)
    return best / games * 1e6


def network_decisions(policy, level: int, seed: int, games: int) -> tuple[float, float]:
    """Decisions per game, and those the network scores, in ``games`` games of ``policy``
    (the reference state machine, sim.play.Game)."""
    from sim.play import Game
    n_all = n_net = 0
    for game in range(games):
        g = Game.new(level, seed, game)
        while not g.is_over:
            n_all += 1
            n_net += bool(L.network_decides(g.observation, len(g.legal_actions())))
            g.step(g.policy_action(policy))
    return n_all / games, n_net / games


def level_row(level: int, args, players: dict) -> str:
    t = {name: us_per_game(p, level, args.seed, args.time_games) for name, p in players.items()}
    _, net_vet = network_decisions(players["veteran"], level, args.seed, args.games)
    n_all, net = network_decisions(players["learned"], level, args.seed, args.games)
    part = [(t[b] - t[a]) / net_vet * 1e3 for a, b in
            (("veteran", "features"), ("features", "hidden"), ("hidden", "scores"))]
    left = (3 * t["expert"] - t["veteran"]) / net * 1e3
    return (f"| {level} | {n_all:.1f} | {net:.1f} | {part[0]:.0f} | {part[1]:.0f} | "
            f"{part[2]:.0f} | {sum(part):.0f} | {t['expert']:.1f} | {t['veteran']:.1f} | "
            f"{t['learned']:.1f} | {t['learned'] / t['expert']:.1f}x | {left:.0f} |")


def main(argv=None):
    ap = ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500, help="games per level whose "
                    "decisions are counted (default 500)")
    ap.add_argument("--time-games", type=int, default=20000, help="games per level and "
                    "policy for the times per game (default 20000)")
    ap.add_argument("--seed", type=int, default=3, help="master seed (default 3)")
    ap.add_argument("--level", type=int, nargs="+", default=[1, 2, 3, 4], choices=[1, 2, 3, 4],
                    help="levels (default all)")
    ap.add_argument("--out", type=Path, help="Markdown file to write (default: print)")
    ap.add_argument("--force", action="store_true", help="overwrite --out")
    args = ap.parse_args(argv)
    if args.games < 1 or args.time_games < 1 or args.seed < 0:
        ap.error("--games and --time-games must be at least 1, --seed at least 0")
    try:
        check_file(args.out, (".md",), args.force)
    except FridayError as e:
        ap.error(error_line(e))
    learned = load_policy("learned")
    players = {"expert": load_policy("expert"), "veteran": load_policy("veteran"),
               "learned": learned}
    for name, fn in (("features", with_features), ("hidden", with_hidden)):
        players[name] = L.LearnedPolicy(name, fn)          # the veteran's games, extra work
    players["scores"] = learned.with_params({"margin": 1e9})   # all scored, none played
    made = command_line(["--games", args.games, "--time-games", args.time_games, "--seed",
                         args.seed, "--level", *args.level,
                         *(["--out", args.out, "--force"] if args.out else [])],
                        "python benchmarks/learned_cost.py")
    lines = ["# Where the learned policy's time goes", "",
             f"Made by `{made}`.  Network decisions: those `network_decides` sends to the "
             f"network (decisions counted in {args.games:,} games per level).  The cost of "
             "each part of such a decision (ns) is measured inside the veteran's games: the "
             "time per game that computing it adds, over the network decisions of a veteran "
             "game (the script's docstring).  Times per game (us, one thread, best of three) "
             f"from {args.time_games:,} games per level and player in the same run.  The last "
             "column is what a game at three times the expert's time would leave per network "
             "decision of a learned game once the veteran's own choices are paid.", "",
             "| level | decisions per game | network decisions per game | state features "
             "(ns) | hidden layer, state part | candidates and output | network in all | "
             "expert (us per game) | veteran | learned | learned / expert | left per network "
             "decision at 3x the expert (ns) |",
             "|---|" + "---|" * 11]
    stopped = False
    try:
        for level in args.level:
            lines.append(level_row(level, args, players))
            print(lines[-1], flush=True)
    except KeyboardInterrupt:                     # Ctrl-C: the finished levels are kept
        stopped = True
        lines += ["", "Stopped by Ctrl-C: only the levels above were measured."]
    if args.out:
        write_text(args.out, "\n".join(lines) + "\n")
        print(f"wrote {args.out}")
    if stopped:
        sys.exit(130)


if __name__ == "__main__":
    main()
