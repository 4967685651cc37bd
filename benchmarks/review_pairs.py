"""Do reviews see the stronger player?  Two players' games reviewed on the same deals.

    python benchmarks/review_pairs.py [--players expert,search] [--level 4] [--games 20]
        [--seed 3] [--rollouts 1000] [--out results/review_pairs.md] [--force]

Games 0..N-1 of the seed at the level are played by both players (the same deals) and each game
is reviewed as ``friday review`` does (sim.lab.review: every legal action of every decision on
the same K fair continuations, played out by veteran).  Per game and player: decisions with a
choice, the decisions that clearly lost chance (the best action's paired 95% interval above the
action taken), the chance they lost (the sum over them of the best action's chance minus the
taken one's: small losses within the noise are left out, else a longer game would sum more
noise) and the largest loss of any decision.  Per measure, the second player minus the first
over the games: the mean difference with its paired t interval and Wilcoxon's signed-rank test
(scipy, two-sided).  Ctrl-C writes the games finished.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scipy import stats as sps  # noqa: E402

from policies import load_policy  # noqa: E402
from sim.lab import review as V  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.stats import paired_mean_difference  # noqa: E402
from sim.lab.text import markdown_table, pvalue  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError, UsageError  # noqa: E402
from sim.rules import check_level, check_seed  # noqa: E402

MEASURES = (("clear", "decisions that clearly lost chance"), ("lost", "chance they lost"),
            ("worst", "largest loss"))


def game_measures(player, level, seed, game, rollouts) -> dict:
    """One game of ``player`` reviewed: its measures (module docstring)."""
    played = V.play_through(level, seed, game, policy=player)
    d = V.decisions(V.review(played, rollouts, rollout_policy="veteran"))
    return {"won": bool(played.end.result["won"]), "decisions": len(d),
            "clear": int(d.clear.sum()), "lost": float(d.loss[d.clear].sum()),
            "worst": float(d.loss.max()) if len(d) else 0.0}


def report(players, names, a, per_game, interrupted) -> list[str]:
    n = len(per_game)
    command = command_line(["--players", a.players, "--level", a.level, "--games", a.games,
                            "--seed", a.seed, "--rollouts", a.rollouts, "--out", a.out,
                            "--force"], "python benchmarks/review_pairs.py")
    lines = [f"# Reviews of {names[0]} and {names[1]} on the same deals", "",
             f"Made by `{command}` from the repository root: games 0..{a.games - 1} of master seed "
             f"{a.seed} at level {a.level}, each played by both and reviewed with {a.rollouts} "
             "continuations per action played out by veteran (method: the script's docstring)."
             + (f" Interrupted: {n} games finished." if interrupted else ""), ""]
    rows = []
    for key, words in MEASURES:
        x = [g[names[0]][key] for g in per_game]
        y = [g[names[1]][key] for g in per_game]
        md = paired_mean_difference(y, x)
        w = sps.wilcoxon(y, x).pvalue if n and any(p != q for p, q in zip(x, y)) else 1.0
        fmt = "{:.2f}" if key == "clear" else "{:.1%}"
        rows.append([words, fmt.format(sum(x) / max(n, 1)), fmt.format(sum(y) / max(n, 1)),
                     f"{fmt.format(md.difference)} [{fmt.format(md.low)}, {fmt.format(md.high)}]",
                     pvalue(w)])
    lines += markdown_table(["per game", f"{names[0]} (mean)", f"{names[1]} (mean)",
                             f"{names[1]} - {names[0]} [95% paired t]", "Wilcoxon p"], rows)
    lines += ["", "| game | " + " | ".join(f"{p}: won, decisions, clear, lost, worst"
                                           for p in names) + " |", "|---|---|---|"]
    for i, g in enumerate(per_game):
        lines.append(f"| {i} | " + " | ".join(
            f"{'won' if g[p]['won'] else 'lost'}, {g[p]['decisions']}, {g[p]['clear']}, "
            f"{g[p]['lost']:.1%}, {g[p]['worst']:.1%}" for p in names) + " |")
    return lines


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="expert,search")
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rollouts", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=Path("results/review_pairs.md"))
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args(argv)
    try:
        check_level(a.level)
        check_seed(a.seed)
        if a.games < 2 or a.rollouts < 10:
            raise UsageError("--games must be at least 2 and --rollouts at least 10")
        names = [p.strip() for p in a.players.split(",")]
        if len(names) != 2:
            raise UsageError(f"--players takes two policies, not {a.players!r}")
        players = [load_policy(p) for p in names]
        check_file(a.out, (".md",), a.force)
    except FridayError as exc:
        ap.exit(2, f"error: {error_line(exc)}\n")
    per_game, interrupted = [], False
    try:
        for game in range(a.games):
            per_game.append({n: game_measures(p, a.level, a.seed, game, a.rollouts)
                             for n, p in zip(names, players)})
            print(f"game {game}: " + "; ".join(f"{n} {per_game[-1][n]}" for n in names),
                  flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: writing the games finished", file=sys.stderr)
    write_text(a.out, "\n".join(report(players, names, a, per_game, interrupted)) + "\n")
    print(f"wrote {a.out}")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
