"""Why is level 3 easier than level 2?  An experiment; writes results/levels.md.

    python benchmarks/levels.py [--games 1000000] [--policies expert,veteran] [--seed 1]
        [--threads N] [--out results/levels.md] [--force]

RULES.md makes level 3 level 2 plus *very stupid* (-3) among the normal aging cards (R2.1), yet
every policy wins more at level 3.  Two things change with that card: Robinson's deck may get a
-3 card, and the aging stack holds one card more, so the three difficult aging cards come one
reshuffle later and Robinson dies of old age (R7.2: his stack runs out with no aging card left)
one reshuffle later.  Each policy plays games 0..N-1 of the seed at levels 2 and 3 under four
variants that switch these off one at a time: the rules as printed; old age switched off (the
rule option ``old_age=continue``, RULES.md §O); *very stupid* worth 0 instead of -3 (card 21,
``--set 21.fight_value=0``); both.  Per cell: the win rate with its 95% Wilson interval and the
share of games lost to old age; per variant: level 3 minus level 2 with Newcombe's hybrid score
interval for independent samples (method 10; the two levels deal different decks, so the games
are not paired) and the two-sided pooled two-proportion z-test.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from policies import load_policy  # noqa: E402
from sim.cardtable import build  # noqa: E402
from sim.lab import simulate  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab.stats import newcombe_independent, rate_with_interval, two_proportion_p  # noqa: E402
from sim.lab.text import interval, markdown_table, pvalue  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError, UsageError  # noqa: E402
from sim.rules import check_seed  # noqa: E402

VARIANTS = (("the rules as printed", {}, []),
            ("no death by old age (old_age=continue)", {"old_age": "continue"}, []),
            ("very stupid worth 0 (21.fight_value=0)", {}, ["21.fight_value=0"]),
            ("both", {"old_age": "continue"}, ["21.fight_value=0"]))


def cell(policy, level, games, seed, options, sets, threads) -> dict:
    """Wins, games and deaths by old age of one policy, level and variant."""
    df = simulate(policy, level, games, seed, options, threads=threads, cards=build(None, sets))
    return {"won": int(df["won"].sum()), "n": len(df),
            "old_age": int((df["cause"] == "old_age").sum())}


def difference(two: dict, three: dict) -> tuple[float, float, float, float]:
    """Level 3 minus level 2: the difference, its Newcombe interval, the z-test p."""
    d, lo, hi = newcombe_independent(three["won"], three["n"], two["won"], two["n"])
    return d, lo, hi, two_proportion_p(three["won"], three["n"], two["won"], two["n"])


def policy_lines(policy: str, cells: dict) -> list[str]:
    """The policy's table (one row per variant with both levels finished) and its finding."""
    rows = []
    for name, _, _ in VARIANTS:
        two, three = cells.get((name, 2)), cells.get((name, 3))
        if two is None or three is None:
            continue
        d, lo, hi, p = difference(two, three)
        rows.append([name] + [x for r in (two, three) for x in
                              (interval(*rate_with_interval(r["won"], r["n"])),
                               f"{r['old_age'] / r['n']:.2%}")]
                    + [f"{d:+.2%} [{lo:+.2%}, {hi:+.2%}]", pvalue(p)])
    head = ["variant", "level 2: win rate [95% Wilson]", "level 2: lost to old age",
            "level 3: win rate [95% Wilson]", "level 3: lost to old age",
            "level 3 - level 2 [95% Newcombe]", "z-test p"]
    lines = [f"### {policy}", "", *markdown_table(head, rows), ""]
    printed, no_old_age = VARIANTS[0][0], VARIANTS[1][0]
    if all((v, lv) in cells for v in (printed, no_old_age) for lv in (2, 3)):
        d0, *_ = difference(cells[printed, 2], cells[printed, 3])
        d1, lo1, hi1, p1 = difference(cells[no_old_age, 2], cells[no_old_age, 3])
        old2, old3 = (cells[printed, lv]["old_age"] / cells[printed, lv]["n"] for lv in (2, 3))
        lines += [f"With the rules as printed, level 3 is {d0:+.2%} against level 2 for "
                  f"{policy}; {old2:.2%} of its level-2 games end in death by old age, "
                  f"{old3:.2%} at level 3. With old age switched off the difference is "
                  f"{d1:+.2%} [{lo1:+.2%}, {hi1:+.2%}] (p {pvalue(p1)})."]
        both, cheap = VARIANTS[3][0], VARIANTS[2][0]
        if all((v, lv) in cells for v in (both, cheap) for lv in (2, 3)):
            d3, lo3, hi3, _ = difference(cells[both, 2], cells[both, 3])
            cost = (cells[cheap, 3]["won"] / cells[cheap, 3]["n"]
                    - cells[printed, 3]["won"] / cells[printed, 3]["n"])
            lines[-1] += (f" Very stupid's -3 costs {cost:.2%} at level 3 (as printed against "
                          f"worth 0, on the same deals); with old age off and very stupid worth "
                          f"0, what is left of the extra aging card (the difficult ones come "
                          f"one reshuffle later) is {d3:+.2%} [{lo3:+.2%}, {hi3:+.2%}].")
        lines.append("")
    return lines


def main(argv=None):
    ap = ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--policies", default="expert,veteran")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=Path("results/levels.md"))
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args(argv)
    try:
        if a.games < 1:
            raise UsageError(f"--games must be at least 1, not {a.games}")
        check_seed(a.seed)
        names = [p.strip() for p in a.policies.split(",")]
        pols = [load_policy(p) for p in names]
        if any(p.searches for p in pols):
            raise UsageError("--policies: a search player is too slow for this experiment")
        check_file(a.out, (".md",), a.force)
    except FridayError as exc:
        ap.exit(2, f"error: {error_line(exc)}\n")
    cells, interrupted = {}, False
    try:
        for name, pol in zip(names, pols):
            for variant, options, sets in VARIANTS:
                for level in (2, 3):
                    r = cells[name, variant, level] = cell(pol, level, a.games, a.seed, options,
                                                           sets, a.threads)
                    print(f"{name} | {variant} | level {level}: {r['won'] / r['n']:.2%} won, "
                          f"{r['old_age'] / r['n']:.2%} lost to old age", flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: writing the cells finished", file=sys.stderr)
    command = command_line(["--games", a.games, "--policies", a.policies, "--seed", a.seed,
                            "--out", a.out, "--force"], "python benchmarks/levels.py")
    lines = ["# Why level 3 is easier than level 2", "",
             f"Made by `{command}` from the repository root: games 0..{a.games - 1:,} of master "
             f"seed {a.seed} per policy, level and variant; the method is in the script's "
             "docstring." + (" Interrupted: the cells finished only." if interrupted else ""), ""]
    for name in names:
        lines += policy_lines(name, {(v, lv): r for (p, v, lv), r in cells.items() if p == name})
    write_text(a.out, "\n".join(lines))
    print(f"wrote {a.out}")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
