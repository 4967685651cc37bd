"""How strong is each player, and what does its strength cost?  Writes results/strength.md.

    python benchmarks/strength.py [--games 1000000] [--slow-games 2000]
        [--policies random,always-fight,cull-green,expert] [--slow search] [--level all]
        [--seed 1] [--threads N] [--chunk 50000] [--cache .strength_cache] [--out FILE]

Per level, every policy plays games 0 .. N-1 of the master seed (the same deals for every
policy, sim.rng): ``--policies`` N = ``--games``, the ``--slow`` ones (search players)
N = ``--slow-games``.  Reported per policy: the win rate with its 95% Wilson interval, the
mean score, and the time per game per core (wall time x threads / games, the engine's batch
runner, compile excluded); and against ``expert`` on the very same games (its first N games
for the slow players): the paired win-rate difference with Newcombe's interval, McNemar's
exact p (Holm-adjusted over the policies of the level) and the paired mean score difference.

Each finished chunk is kept in ``--cache`` (keyed by policy spec and source, level, seed,
games and the engine's sources), so an interrupted run (Ctrl-C) resumes where it stopped and
a rerun with more policies plays only the new ones.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from policies import load_policy  # noqa: E402
from sim.lab import stats  # noqa: E402
from sim.lab.compare import compare_paired  # noqa: E402
from sim.lab.text import pvalue  # noqa: E402
from sim.rules import RuleError, check_seed, parse_levels  # noqa: E402

FAST = "random,always-fight,cull-green,expert"
REFERENCE = "expert"


def engine_digest() -> str:
    """A hash of the sources that decide a game's outcome (engine, rules, cards, policies)."""
    h = hashlib.sha256()
    for folder in ("sim", "sim/fast", "policies"):
        for f in sorted((ROOT / folder).glob("*.py")):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    h.update((ROOT / "sim" / "data" / "cards.csv").read_bytes())
    return h.hexdigest()[:16]


def chunk_key(policy, level, seed, first, k, digest) -> str:
    rec = repr((policy.name, policy.record(), level, seed, first, k, digest))
    return hashlib.sha256(rec.encode()).hexdigest()[:24]


def play(policy, level, seed, games, chunk, threads, cache: Path, digest, log):
    """(won, score, seconds of play) for games 0..games-1; chunks from the cache if there."""
    import numba
    from sim.fast import run_batch
    won, score, seconds, warm = [], [], 0.0, False
    for first in range(0, games, chunk):
        k = min(chunk, games - first)
        path = cache / f"{chunk_key(policy, level, seed, first, k, digest)}.npz"
        if path.exists():
            z = np.load(path)
        else:
            if not warm:                   # compile (or load) before the clock starts
                run_batch(level, seed, 0, 1, policy, threads=threads)
                warm = True
            t0 = time.perf_counter()
            rows = run_batch(level, seed, first, k, policy, threads=threads)
            dt = time.perf_counter() - t0
            tmp = path.with_suffix(".partial.npz")
            np.savez(tmp, won=rows["won"].astype(bool), score=rows["score"].astype(np.int32),
                     seconds=dt, threads=numba.get_num_threads())
            tmp.replace(path)
            z = np.load(path)
            log(f"  level {level} {policy.name}: games {first:,}..{first + k - 1:,} in "
                f"{dt:.1f} s")
        won.append(z["won"])
        score.append(z["score"])
        seconds += float(z["seconds"]) * int(z["threads"])
    return np.concatenate(won), np.concatenate(score), seconds


def per_game(seconds_core: float, games: int) -> str:
    t = seconds_core / games
    return f"{t * 1e6:,.0f} us" if t < 1e-3 else f"{t * 1e3:,.1f} ms" if t < 1 else f"{t:.2f} s"


def level_table(level, results, reference) -> list[str]:
    """Markdown rows for one level: results = {label: (won, score, core_seconds)}."""
    import pandas as pd
    rw, rs, _ = results[reference]
    pairs = {}
    for label, (w, s, _) in results.items():
        if label == reference:
            continue
        n = len(w)
        frame = pd.DataFrame({"level": level, f"{reference}:won": rw[:n],
                              f"{reference}:score": rs[:n], f"{label}:won": w,
                              f"{label}:score": s})
        frame.attrs["labels"] = [label, reference]
        pairs[label] = compare_paired(frame).iloc[0]
    holm = dict(zip(pairs, stats.holm([r.mcnemar_p for r in pairs.values()]))) if pairs else {}
    lines = [f"### Level {level}", "",
             "| policy | games | win rate | 95% Wilson interval | mean score | time per game "
             f"per core | vs {reference}: win-rate difference [95% Newcombe] | McNemar p (Holm) "
             "| mean score difference [95% t] |",
             "|---|---|---|---|---|---|---|---|---|"]
    for label, (w, s, secs) in results.items():
        lo, hi = stats.wilson_interval(int(w.sum()), len(w))
        row = (f"| {label} | {len(w):,} | {w.mean():.2%} | [{lo:.2%}, {hi:.2%}] | "
               f"{s.mean():.1f} | {per_game(secs, len(w))} | ")
        if label == reference:
            row += "(reference) | | |"
        else:
            r = pairs[label]
            row += (f"{r.win_diff:+.2%} [{r.win_diff_low:+.2%}, {r.win_diff_high:+.2%}] | "
                    f"{pvalue(holm[label])} | {r.score_diff:+.1f} [{r.score_diff_low:+.1f}, "
                    f"{r.score_diff_high:+.1f}] |")
        lines.append(row)
    return lines + [""]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--slow-games", type=int, default=2_000)
    ap.add_argument("--policies", default=FAST)
    ap.add_argument("--slow", default="", help="comma-separated slow policy specs (search)")
    ap.add_argument("--level", default="all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--slow-chunk", type=int, default=100)
    ap.add_argument("--cache", type=Path, default=ROOT / ".strength_cache")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    try:
        levels, seed = parse_levels(a.level), check_seed(a.seed)
        for name, v in (("--games", a.games), ("--slow-games", a.slow_games),
                        ("--chunk", a.chunk), ("--slow-chunk", a.slow_chunk)):
            if v <= 0:
                raise RuleError(f"{name} must be positive, got {v}")
        if a.threads is not None and a.threads <= 0:
            raise RuleError(f"--threads must be positive, got {a.threads}")
        fast = [load_policy(p) for p in a.policies.split(",") if p.strip()]
        slow = [load_policy(p) for p in a.slow.split(",") if p.strip()]
        if REFERENCE not in [p.name for p in fast]:
            raise RuleError(f"--policies must include {REFERENCE} (the reference of the "
                            "paired comparisons)")
        if a.slow and a.slow_games > a.games:
            raise RuleError("--slow-games must not exceed --games (paired with expert's games)")
        if a.out is not None and a.out.is_dir():
            raise RuleError(f"--out {a.out} is a folder: give a file name")
    except RuleError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    a.cache.mkdir(parents=True, exist_ok=True)
    digest = engine_digest()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)
    command = "python benchmarks/strength.py " + " ".join(argv if argv is not None
                                                         else sys.argv[1:])
    out = ["# Playing strength", "",
           f"Made by `{command}` (master seed {seed}; every policy plays games 0..N-1 of each "
           "level, so each comparison with expert is paired on the same deals).", "",
           "Time per game per core: the batch runner's wall time x threads / games "
           "(compile excluded, chunks of the run summed; see the script's docstring).", ""]
    try:
        for lv in levels:
            results = {}
            for p, n, chunk in [(p, a.games, a.chunk) for p in fast] + \
                               [(p, a.slow_games, a.slow_chunk) for p in slow]:
                results[p.name] = play(p, lv, seed, n, chunk, a.threads, a.cache, digest, log)
            out += level_table(lv, results, REFERENCE)
            log(f"level {lv} done")
    except KeyboardInterrupt:
        log("interrupted: finished chunks are kept in the cache; rerun the same command to "
            "go on")
        return 130
    out += ["Methods: " + "; ".join(f"{k}: {v}" for k, v in {
        "win rate interval": "Wilson score (95%)",
        "win-rate difference": "Newcombe hybrid score interval for paired proportions (95%)",
        "win test": "McNemar exact, Holm step-down over the policies of each level",
        "score difference": "paired t interval (95%)"}.items()) + ".", ""]
    text = "\n".join(out)
    if a.out is None:
        print(text)
    else:
        tmp = a.out.with_name(a.out.name + ".partial")
        tmp.write_text(text)
        tmp.replace(a.out)
        log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
