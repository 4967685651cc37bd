"""How strong is each player, and what does its strength cost?  Writes results/strength.md.

    python benchmarks/strength.py [--games 1000000] [--slow-games 2000]
        [--policies random,always-fight,cull-green,expert] [--slow search] [--level all]
        [--seed 1] [--threads N] [--chunk 50000] [--cache .strength_cache] [--out FILE]
        [--paired FILE.parquet ...] [--slow-level 1,4]

Per level, every policy plays games 0 .. N-1 of the master seed (the same deals for every
policy, sim.rng): ``--policies`` N = ``--games``, the ``--slow`` ones (search players)
N = ``--slow-games``.  Reported per policy: the win rate with its 95% Wilson interval, the
mean score, and the time per game per core (the process's CPU time over all its threads / games,
the engine's batch runner, compile excluded: what a game costs one core, which other programs
on the machine change little, unlike wall time); and against ``expert`` on the very same games (its first N games
for the slow players): the paired win-rate difference with Newcombe's interval, McNemar's
exact p (Holm-adjusted over the policies of the level) and the paired mean score difference.

Each finished chunk is kept in ``--cache`` (keyed by policy spec and source, level, seed and
games; the same in any folder the repository is checked out to), so an interrupted run
(Ctrl-C) resumes where it stopped and a rerun with more policies plays only the new ones.  A
kept chunk is used only after 1 game in 50 of it (its first ones), played again by the
current engine, gave the same wins and scores.  ``--paired`` takes the games of a ``friday
compare --out`` file instead of playing them again (the same check applies).  Times per game
are always measured anew (``--time-games``, ``--time-slow-games``).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from policies import load_policy  # noqa: E402
from sim.lab.files import check_file, command_line, write_text  # noqa: E402
from sim.lab.script import ArgumentParser  # noqa: E402
from sim.lab import stats  # noqa: E402
from sim.lab.compare import compare_paired  # noqa: E402
from sim.lab.text import pvalue  # noqa: E402
from sim.cli.common import error_line  # noqa: E402
from sim.errors import FridayError, UsageError  # noqa: E402
from sim.rules import check_seed, parse_levels  # noqa: E402

FAST = "random,always-fight,cull-green,expert"
PROBE = 50            # one game in PROBE of a cached chunk is played again to check it
REFERENCE = "expert"


def chunk_key(policy, level, seed, first, k) -> str:
    """The cache's name for a chunk: a hash of the policy's record (its files' sha256; each
    file named relative to the repository, so a checkout in another folder finds the same
    chunks), the level, the seed and the games."""
    rec = repr((policy.name, files_here(policy.record()), level, seed, first, k))
    return hashlib.sha256(rec.encode()).hexdigest()[:24]


def kept_chunk(cache: Path, policy, level, seed, first, k) -> Path:
    """The chunk's file in ``cache``; one kept under its older key (which held the files'
    absolute paths: this folder's) is linked to the new name first."""
    path = cache / f"{chunk_key(policy, level, seed, first, k)}.npz"
    if not path.exists():
        rec = repr((policy.name, policy.record(), level, seed, first, k))
        old = cache / f"{hashlib.sha256(rec.encode()).hexdigest()[:24]}.npz"
        if old.exists():
            try:
                os.link(old, path)
            except OSError:
                shutil.copyfile(old, path)
    return path


def what_plays(record) -> list:
    """What decides a policy's games in its record, where it can be compared across folders:
    its file's sha256, its parameters, its network's sha256, and the same for the policies
    a search plays with (``played_by``)."""
    return [record.get("sha256"), record.get("params"),
            (record.get("weights") or {}).get("sha256"),
            {role: what_plays(r) for role, r in (record.get("played_by") or {}).items()}]


def files_here(record):
    """``record`` with every ``file`` under the repository named relative to it (a policy
    file elsewhere keeps its absolute path)."""
    if not isinstance(record, dict):
        return record
    out = {}
    for key, value in record.items():
        if key == "file" and value:
            path = Path(value).resolve()
            value = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
        out[key] = files_here(value)
    return out


def play(policy, level, seed, games, chunk, threads, cache: Path, log):
    """(won, score) of games 0..games-1, chunk by chunk.  A chunk kept in the cache is used
    only if its first games (one in PROBE), played again now, give the same wins and scores (so a
    rule or policy change can never be served stale results)."""
    from sim.fast import run_batch
    won, score = [], []
    for first in range(0, games, chunk):
        k = min(chunk, games - first)
        path = kept_chunk(cache, policy, level, seed, first, k)
        z = np.load(path) if path.exists() else None
        if z is not None:
            j = max(1, k // PROBE)
            again = run_batch(level, seed, first, j, policy, threads=threads)
            if not (np.array_equal(again["won"], z["won"][:j]) and
                    np.array_equal(again["score"], z["score"][:j])):
                log(f"  level {level} {policy.name}: cached games {first:,}.. differ from "
                    "this engine's: played again")
                z = None
        if z is None:
            t0 = time.perf_counter()
            rows = run_batch(level, seed, first, k, policy, threads=threads)
            dt = time.perf_counter() - t0
            tmp = path.with_suffix(".partial.npz")
            np.savez(tmp, won=rows["won"].astype(bool), score=rows["score"].astype(np.int32))
            tmp.replace(path)
            z = np.load(path)
            log(f"  level {level} {policy.name}: games {first:,}..{first + k - 1:,} in "
                f"{dt:.1f} s")
        won.append(z["won"])
        score.append(z["score"])
    return np.concatenate(won), np.concatenate(score)


def seed_cache(path: Path, policies: dict, seed: int, cache: Path, log):
    """Put the games of a ``friday compare --out`` file (same seed, default options and card
    table) into the cache, for the policies of this run that it holds (same spec, source,
    parameters and weights): ``policies`` maps a name to (Policy, games, chunk, levels).  The
    usual check (1 game in PROBE played again) applies to them like to any kept chunk.
    Returns the names of the policies whose games were taken and the ``friday compare``
    command that makes the file (for the report's header)."""
    import json
    import pyarrow.parquet as pq
    from sim.rules import Options
    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as e:            # pyarrow's ArrowInvalid is a ValueError
        raise UsageError(f"--paired {path}: not a Parquet file of friday compare --out "
                         f"({str(e).splitlines()[0]})") from None
    meta = json.loads((table.schema.metadata or {}).get(b"friday_lab", b"{}"))
    if "labels" not in meta:
        raise UsageError(f"--paired {path}: not a file of friday compare --out")
    if meta["seed"] != seed or meta["options"] != Options().as_dict() or \
            (meta.get("cards") or {}).get("table", "printed") != "printed":
        raise UsageError(f"--paired {path}: another seed, rule options or card table than "
                         f"this run's (seed {seed}, default rules and cards)")
    df, taken = table.to_pandas(), []
    by_level = {lv: g.sort_values("game") for lv, g in df.groupby("level")}  # once for all
    for label, rec in zip(meta["labels"], meta["policies"]):
        if label not in policies:
            continue
        policy, games, chunk, levels = policies[label]
        mine = json.loads(json.dumps(policy.record()))
        if what_plays(rec) != what_plays(mine):       # weights: learned's network
            raise UsageError(f"--paired {path}: its {label} is not this checkout's")
        for lv in levels:
            g = by_level.get(lv, df.iloc[:0])
            if len(g) < games or not np.array_equal(g["game"].to_numpy()[:games],
                                                     np.arange(games)):
                continue
            won, score = g[f"{label}:won"].to_numpy(), g[f"{label}:score"].to_numpy()
            for first in range(0, games, chunk):
                k = min(chunk, games - first)
                target = kept_chunk(cache, policy, lv, seed, first, k)
                if not target.exists():
                    np.savez(target, won=won[first:first + k].astype(bool),
                             score=score[first:first + k].astype(np.int32))
            log(f"  level {lv} {label}: games 0..{games - 1:,} taken from {path}")
            taken += [label] if label not in taken else []
    return taken, command_line(["compare", *[r["policy"] for r in meta["policies"]], "--level",
                                ",".join(map(str, meta["levels"])), "--games",
                                str(meta["games_per_level"]), "--seed", str(seed), "--out",
                                str(path)], force=True)      # remakes the very file


def time_per_game(policy, level, seed, games, threads) -> float:
    """Core-seconds per game (the process's CPU time, all threads, / games) of games
    0..games-1, played now after a compile (or cache load) outside the clock."""
    from sim.fast import run_batch
    run_batch(level, seed, 0, 1, policy, threads=threads)
    t0 = time.process_time()
    run_batch(level, seed, 0, games, policy, threads=threads)
    return (time.process_time() - t0) / games


def per_game(t: float) -> str:
    return f"{t * 1e6:,.0f} us" if t < 1e-3 else f"{t * 1e3:,.1f} ms" if t < 1 else f"{t:.2f} s"


def level_table(level, results, reference, unfair=()) -> list[str]:
    """Markdown rows for one level: results = {label: (won, score, core seconds per game)};
    ``unfair``: the labels of players that see hidden orders (policies.unfair_clairvoyant)."""
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
               f"{s.mean():.1f} | {per_game(secs)} | ")
        if label == reference:
            row += "(reference) | | |"
        else:
            r = pairs[label]
            row += (f"{r.win_diff:+.2%} [{r.win_diff_low:+.2%}, {r.win_diff_high:+.2%}] | "
                    f"{pvalue(holm[label])} | {r.score_diff:+.1f} [{r.score_diff_low:+.1f}, "
                    f"{r.score_diff_high:+.1f}] |")
        lines.append(row)
    return lines + [""] + bound_lines(results, unfair)


def bound_lines(results, unfair) -> list[str]:
    """Each fair player's win rate as a share of the UNFAIR clairvoyant's, on the same deals
    (the clairvoyant's games, the first of every fair player's)."""
    if not unfair:
        return []
    label = unfair[0]
    cw = results[label][0]
    shares = [f"{name} {w[:len(cw)].mean() / cw.mean():.3f}" for name, (w, _, _) in
              results.items() if name not in unfair and cw.mean() > 0]
    return [f"Share of the UNFAIR bound ({label}, which sees every hidden order: "
            f"{cw.mean():.2%} of games 0..{len(cw) - 1:,} won), fair win rate / its win rate on "
            f"those games: " + ", ".join(shares) + ".", ""]


def numba_threads(threads) -> int:
    import numba
    return int(threads) if threads is not None else numba.config.NUMBA_NUM_THREADS


def main(argv=None) -> int:
    ap = ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--slow-games", type=int, default=2_000)
    ap.add_argument("--policies", default=FAST)
    ap.add_argument("--slow", default="", help="comma-separated slow policy specs (search)")
    ap.add_argument("--level", default="all")
    ap.add_argument("--slow-level", default=None,
                    help="levels the slow players play (default: every level of --level)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--slow-chunk", type=int, default=100)
    ap.add_argument("--time-games", type=int, default=20_000)
    ap.add_argument("--time-slow-games", type=int, default=50)
    ap.add_argument("--paired", type=Path, action="append", default=[],
                    help="a friday compare --out file whose games to reuse (repeatable)")
    ap.add_argument("--cache", type=Path, default=ROOT / ".strength_cache")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args(argv)
    try:
        levels, seed = parse_levels(a.level), check_seed(a.seed)
        slow_levels = levels if a.slow_level is None else parse_levels(a.slow_level)
        if not set(slow_levels) <= set(levels):
            raise UsageError("--slow-level must name levels of --level")
        for name, v in (("--games", a.games), ("--slow-games", a.slow_games),
                        ("--chunk", a.chunk), ("--slow-chunk", a.slow_chunk),
                        ("--time-games", a.time_games), ("--time-slow-games", a.time_slow_games)):
            if v <= 0:
                raise UsageError(f"{name} must be positive, got {v}")
        if a.threads is not None and a.threads <= 0:
            raise UsageError(f"--threads must be positive, got {a.threads}")
        fast = [load_policy(p) for p in a.policies.split(",") if p.strip()]
        slow = [load_policy(p) for p in a.slow.split(",") if p.strip()]
        if REFERENCE not in [p.name for p in fast]:
            raise UsageError(f"--policies must include {REFERENCE} (the reference of the "
                             "paired comparisons)")
        if a.slow and a.slow_games > a.games:
            raise UsageError("--slow-games must not exceed --games (paired with expert's games)")
        check_file(a.out, (".md",), force=True)              # before any game
    except FridayError as exc:
        print(f"error: {error_line(exc)}", file=sys.stderr)
        return 2
    a.cache.mkdir(parents=True, exist_ok=True)
    plan = {p.name: (p, a.games, a.chunk, levels) for p in fast}
    plan.update({p.name: (p, a.slow_games, a.slow_chunk, slow_levels) for p in slow})
    try:
        made = []
        for path in a.paired:
            if not path.is_file():
                raise UsageError(f"--paired {path}: no such file")
            made.append((path, *seed_cache(path, plan, seed, a.cache,
                                           lambda m: print(m, file=sys.stderr))))
    except FridayError as exc:
        print(f"error: {error_line(exc)}", file=sys.stderr)
        return 2

    def log(msg):
        print(msg, file=sys.stderr, flush=True)
    command = command_line(argv, "python benchmarks/strength.py")
    out = ["# Playing strength", "",
           f"Made by `{command}` (master seed {seed}; every policy plays games 0..N-1 of each "
           "level, so each comparison with expert is paired on the same deals)." +
           "".join(f" The games of {', '.join(taken)} are those of `{p}`, made by `{m}`."
                   for p, taken, m in made if taken), "",
           f"Time per game per core: the batch runner's CPU time (all threads) / games over "
           f"games 0..{a.time_games - 1:,} ({a.time_slow_games:,} for "
           f"{', '.join(p.name for p in slow) or 'the slow players'}), played in this run, "
           f"compile excluded, {numba_threads(a.threads)} threads; load average at the start "
           f"{os.getloadavg()[0]:.1f}.", ""]
    try:
        for lv in levels:
            results = {}
            for p, n, chunk, nt in [(p, a.games, a.chunk, a.time_games) for p in fast] + \
                    [(p, a.slow_games, a.slow_chunk, a.time_slow_games) for p in slow
                     if lv in slow_levels]:
                won, score = play(p, lv, seed, n, chunk, a.threads, a.cache, log)
                results[p.name] = won, score, time_per_game(p, lv, seed, min(nt, n), a.threads)
            out += level_table(lv, results, REFERENCE,
                               [p.name for p in slow
                                if getattr(p, "sees_all", False) and p.name in results])
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
        write_text(a.out, text)
        log(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
