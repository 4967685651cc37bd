"""Pirate balance and card-value sweeps: pandas in, pandas out.

* ``pirate_study``: per level and pirate, how often it is drawn, how often its games reach the
  pirates (R8.2), how often it is faced and beaten when faced first, second and overall (R9.1:
  the second pirate is faced only after the first is beaten), and the game's win rate when it
  is drawn; per pirate pair, the win rate.  Every rate with a 95% Wilson interval; pirates
  ranked by their beaten-when-faced rate, with two-sided two-proportion z-tests between every
  two pirates, Holm-adjusted over the 45 pairs.
* ``sweep``: one card field over a list of values, every value on the same deals (same seed,
  same game indices: common random numbers), the win rate (and a pirate's beaten-when-faced
  rate) per value, and the value at which the card is as hard as the median pirate (or gives a
  target win rate), by linear interpolation, with a 95% interval from a Poisson bootstrap over
  games (the same game weights for every value, so the pairing is kept); each value's win rate
  against the previous value's on the same games, with McNemar's exact test.

The statistics are sim.lab.stats'; the games are played by the run pipeline (sim.lab.run).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from sim import cards as C
from sim.cardtable import CardTableError, as_table, parse_target
from sim.errors import UsageError
from sim.rules import PIRATES, as_options, check_level, check_seed, parse_levels
from .run import Plan, Run, Setup, backend_for, concat_rows
from .simulate import check_games, check_threads
from .balance_crossing import FIRST_PIRATE, N_PIRATES, beaten_rates, crossing, median_other
from .stats import holm, mcnemar_exact, rate_with_interval as rate_ci, two_proportion_p

# the result columns (sim.rules.RESULT_COLUMNS) the balance questions read, kept as int8
COLUMNS = ("pirate_1", "pirate_2", "pirate_first", "pirate_1_beaten", "pirate_2_beaten", "won",
           "step")
# each special ability (R9.5): its short name in labels, its words in legends
ABILITY_TEXT = {"extra_card_costs_2": ("2 life/card", "each paid card costs 2 life"),
                "half_cards_count": ("half count", "only half the fight cards count"),
                "plus1_per_card": ("+1/card", "+1 per face-up fighting card"),
                "plus2_per_aging": ("+2/aging", "+2 hazard points per aging card taken"),
                "fight_remaining_hazards": ("all hazards", "fight all remaining hazards at once")}
# the rates of pirate_table: successes (a key of Games.counts, the column prefix) -> trials
RATES = {"reached": "drawn", "beaten_first": "faced_first", "beaten_second": "faced_second",
         "beaten": "faced", "win_when_drawn": "drawn"}


# --- names ---------------------------------------------------------------------------------
def pirate_ability(p: int, cards=None) -> tuple[str, int, int]:
    """A pirate's ability name, free cards and hazard value (R9.5) in a card table."""
    t = as_table(cards)
    return (C.PIRATE_ABILITY_NAMES[int(t.PIRATE_ABILITY[p])], int(t.PIRATE_FREE[p]),
            int(t.PIRATE_VALUE[p]))


def pirate_label(p: int, cards=None) -> str:
    """Short readable label: '10/40', '7/16 2 life/card', '5 free +2/aging', 'all hazards'."""
    ab, free, value = pirate_ability(p, cards)
    short = ABILITY_TEXT.get(ab, ("",))[0]
    return {"none": f"{free}/{value}", "plus2_per_aging": f"{free} free, {short}",
            "fight_remaining_hazards": short}.get(ab, f"{free}/{value} {short}")


def pirate_description(p: int, cards=None) -> str:
    """The pirate in words, for legends: free cards, value and ability (R9.5)."""
    ab, free, value = pirate_ability(p, cards)
    words = ABILITY_TEXT.get(ab, ("", ""))[1]
    if ab == "fight_remaining_hazards":
        return f"all hazards: {words}"
    base = f"{free} free cards" + ("" if ab == "plus2_per_aging" else f", value {value}")
    return f"{pirate_label(p, cards)}: {base}" + (f", {words}" if words else "")


# --- counting ------------------------------------------------------------------------------
class Games:
    """The per-game columns the balance questions need, compact (int8/bool)."""

    def __init__(self, rows: dict):
        r = {k: np.asarray(rows[k]) for k in COLUMNS}
        self.a = (r["pirate_1"] - FIRST_PIRATE).astype(np.int8)
        self.b = (r["pirate_2"] - FIRST_PIRATE).astype(np.int8)
        self.faced = r["pirate_first"] >= 0                    # a pirate was fought (R9.1)
        self.won = r["won"].astype(bool)
        self.reached = r["step"] == PIRATES
        # who was fought first and second, and whether each was beaten
        a_first = r["pirate_first"] == r["pirate_1"]
        beaten_a, beaten_b = r["pirate_1_beaten"].astype(bool), r["pirate_2_beaten"].astype(bool)
        self.first = np.where(a_first, self.a, self.b)
        self.second = np.where(a_first, self.b, self.a)
        self.beaten_first = np.where(a_first, beaten_a, beaten_b) & self.faced
        self.beaten_second = np.where(a_first, beaten_b, beaten_a) & self.beaten_first

    def __len__(self):
        return len(self.won)

    def counts(self, w=None) -> dict:
        """Counts per pirate (10; ``faced`` and ``beaten``: first and second fights together)
        and pair (10 x 10, lower index first); ``w`` optional game weights (the bootstrap)."""
        def bc(idx, mask=None, n=N_PIRATES):
            sel = slice(None) if mask is None else mask
            return np.bincount(idx[sel], weights=None if w is None else w[sel], minlength=n)

        c = {"drawn": bc(self.a) + bc(self.b),
             "reached": bc(self.a, self.reached) + bc(self.b, self.reached),
             "win_when_drawn": bc(self.a, self.won) + bc(self.b, self.won),
             "faced_first": bc(self.first, self.faced),
             "beaten_first": bc(self.first, self.beaten_first),
             "faced_second": bc(self.second, self.beaten_first),
             "beaten_second": bc(self.second, self.beaten_second)}
        c["faced"] = c["faced_first"] + c["faced_second"]
        c["beaten"] = c["beaten_first"] + c["beaten_second"]
        pair = np.minimum(self.a, self.b).astype(np.int64) * N_PIRATES + np.maximum(self.a, self.b)
        for key, mask in (("pair_games", None), ("pair_wins", self.won)):
            c[key] = bc(pair, mask, N_PIRATES ** 2).reshape(N_PIRATES, N_PIRATES)
        return c


def play(levels, seed, games, policy, tables, options=None, threads=None, quiet=True,
         cluster=None, chunk=None) -> tuple[dict, bool]:
    """``games`` games of every level, played with each card table of ``tables`` on the same
    deals (sim.lab.run): ({level: [Games of each table]}, interrupted).  After Ctrl-C, the
    games finished (the same games for every table)."""
    from policies import load_policy
    from .cluster import connected
    pol, opts = load_policy(policy), as_options(options)
    plan = Plan(tuple(Setup(pol, opts, as_table(t)) for t in tables), tuple(levels),
                check_games(games), check_seed(seed))
    parts: dict = {}                      # {level: [[the columns of each table] per range]}
    with connected(cluster) as dask:
        with Run(plan, backend_for(dask, chunk, check_threads(threads)), quiet) as run:
            for part in run:
                parts.setdefault(part.level, []).append(
                    [{k: r[k].astype(np.int8) for k in COLUMNS} for r in part.results])
    played = {lv: [Games(concat_rows(list(g))) for g in zip(*ranges)]
              for lv, ranges in parts.items()}
    return played, run.interrupted


# --- tables --------------------------------------------------------------------------------
def _rate(key: str, k, n) -> dict:
    """k/n with its 95% Wilson interval, as the columns ``key``_rate, _lo and _hi."""
    r, lo, hi = rate_ci(k, n)
    return {f"{key}_rate": r, f"{key}_lo": lo, f"{key}_hi": hi}


def pirate_table(games: Games, level: int, cards=None) -> pd.DataFrame:
    """One row per pirate, ranked hardest first (lowest beaten-when-faced rate)."""
    t = as_table(cards)
    c = games.counts()
    rows = []
    for i, p in enumerate(C.PIRATE_IDS):
        row = {"level": level, "pirate": p, "label": pirate_label(p, t),
               "description": pirate_description(p, t), "drawn": int(c["drawn"][i])}
        for key, n in RATES.items():
            row.update({f"{key}_n": int(c[n][i]), **_rate(key, c[key][i], c[n][i])})
        rows.append(row)
    df = pd.DataFrame(rows).sort_values("beaten_rate", kind="stable").reset_index(drop=True)
    df.insert(1, "rank", np.arange(1, len(df) + 1))
    return df


def pirate_tests(table: pd.DataFrame) -> pd.DataFrame:
    """Every two pirates of one level: beaten-when-faced difference, z-test p, Holm p."""
    rows = []
    for x, y in combinations(table.to_dict("records"), 2):
        kx, ky = (round(r["beaten_rate"] * r["beaten_n"]) if r["beaten_n"] else 0
                  for r in (x, y))                 # a pirate never faced: no test (p NaN)
        rows.append({"level": x["level"], "harder": x["label"], "easier": y["label"],
                     "difference": y["beaten_rate"] - x["beaten_rate"],
                     "p": two_proportion_p(kx, x["beaten_n"], ky, y["beaten_n"])})
    df = pd.DataFrame(rows)
    df["p_holm"] = holm(df["p"].fillna(1.0))
    df["significant"] = df["p_holm"] < 0.05
    return df


def indistinguishable(tests: pd.DataFrame, label: str) -> list[str]:
    """Pirates whose beaten-when-faced rate does not differ significantly from ``label``'s."""
    same = tests[~tests["significant"] & ((tests["harder"] == label) | (tests["easier"] == label))]
    return [b if a == label else a for a, b in zip(same["harder"], same["easier"])]


def pair_table(games: Games, level: int, cards=None) -> pd.DataFrame:
    """Win rate per pirate pair (with its Wilson interval and game count)."""
    t = as_table(cards)
    c = games.counts()
    n, wins = c["pair_games"].astype(int), c["pair_wins"].astype(int)
    rows = [{"level": level, "pirate_a": a, "pirate_b": b,
             "pair": f"{pirate_label(a, t)} + {pirate_label(b, t)}", "games": int(n[i, j]),
             **_rate("win", int(wins[i, j]), int(n[i, j]))}
            for (i, a), (j, b) in combinations(enumerate(C.PIRATE_IDS), 2)]
    return pd.DataFrame(rows).sort_values("win_rate", kind="stable").reset_index(drop=True)


def pirate_study(levels, games, seed, policy, cards=None, options=None, threads=None,
                 quiet=True, cluster=None, chunk=None) -> dict:
    """Tables of ``pirate_table``, ``pirate_tests`` and ``pair_table`` for every level played
    (all of ``levels``, or those begun before Ctrl-C: ``interrupted``; ``level_games`` says
    how many games each level has)."""
    cards = as_table(cards)
    played, interrupted = play(parse_levels(levels), seed, games, policy, [cards], options,
                               threads, quiet, cluster, chunk)
    pirates = [pirate_table(g, level, cards) for level, (g,) in played.items()]
    out = {"pirates": pirates, "tests": [pirate_tests(p) for p in pirates],
           "pairs": [pair_table(g, level, cards) for level, (g,) in played.items()]}
    out = {k: pd.concat(v, ignore_index=True) if v else pd.DataFrame() for k, v in out.items()}
    return {**out, "games": games, "seed": seed, "interrupted": interrupted,
            "level_games": {level: len(g) for level, (g,) in played.items()}}


# --- sweeps --------------------------------------------------------------------------------
def parse_values(text: str) -> list[int]:
    """``A:B`` (step 1), ``A:B:STEP`` (B included when on the grid) or ``A,B,C``."""
    if not isinstance(text, str):
        raise CardTableError(f"values must be a text like A:B, A:B:STEP or A,B,C, not "
                             f"{text!r}", "values")
    ranged = ":" in text
    try:
        values = [int(x) for x in text.split(":" if ranged else ",")]
    except ValueError:
        values = []
    if not values or (ranged and len(values) not in (2, 3)):
        raise CardTableError(f"values {text!r} must look like A:B, A:B:STEP or A,B,C "
                             f"(integers)", "values")
    if ranged:
        a, b = values[:2]
        step = values[2] if len(values) == 3 else (1 if b >= a else -1)
        if step == 0 or (b - a) * step < 0:
            raise CardTableError(f"values {text!r}: the step {step} never goes from {a} to {b}",
                                 "values")
        values = list(range(a, b + (1 if step > 0 else -1), step))
    if len(set(values)) != len(values):
        raise CardTableError(f"values {text!r} repeats a value", "values")
    if len(values) < 2:
        raise CardTableError(f"values {text!r}: a sweep needs at least two values", "values")
    if len(values) > 200:
        raise CardTableError(f"values {text!r}: {len(values)} values; at most 200", "values")
    return values


def check_values(values) -> list[int]:
    """The values of a sweep: a text (``parse_values``) or a list of 2 to 200 distinct whole
    numbers."""
    if isinstance(values, str):
        return parse_values(values)
    if not isinstance(values, (list, tuple, range, np.ndarray)) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        raise CardTableError(f"values must be a list of whole numbers or a text like A:B, "
                             f"A:B:STEP or A,B,C, not {values!r}", "values")
    return parse_values(",".join(str(int(v)) for v in values))


def check_sweep(bootstrap, target_rate) -> tuple[int, float | None]:
    """The sweep's bootstrap replicates (a whole number, 0 or more) and target win rate (None,
    or strictly between 0 and 1), checked before any game."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, (int, np.integer)) \
            or bootstrap < 0:
        raise UsageError(f"bootstrap must be a whole number of replicates, 0 or more, not "
                         f"{bootstrap!r}", "bootstrap")
    if target_rate is not None and (isinstance(target_rate, bool) or not isinstance(
            target_rate, (int, float, np.integer, np.floating)) or not 0 < target_rate < 1):
        raise UsageError(f"target_rate must be a win rate strictly between 0 and 1, not "
                         f"{target_rate!r}", "target_rate")
    return int(bootstrap), None if target_rate is None else float(target_rate)


def sweep_tables(target: str, values, cards=None) -> tuple[int, str, list]:
    """(card, field, the card table of each value) of a sweep of ``target`` (``CARD.FIELD``)
    over ``values``: every value checked against the field's range (CardTableError)."""
    card, field = parse_target(target)
    base = as_table(cards)
    return card, field, [base.with_sets([f"{card}.{field}={v}"]) for v in values]


def sweep(target: str, values, level, games, seed, policy, cards=None, options=None,
          threads=None, target_rate=None, bootstrap=200, quiet=True, cluster=None,
          chunk=None) -> dict:
    """Play the same ``games`` deals with ``target`` (``CARD.FIELD``) at each value (after
    Ctrl-C: the games finished, the same for every value; ``interrupted``).  ``values``: a
    list of whole numbers or a text (``parse_values``).  Every argument is checked before
    any game (UsageError)."""
    values = check_values(values)
    bootstrap, target_rate = check_sweep(bootstrap, target_rate)
    base = as_table(cards)
    card, field, tables = sweep_tables(target, values, base)
    is_pirate = int(C.KIND[card]) == C.KIND_PIRATE
    level = check_level(level)
    played, interrupted = play([level], seed, games, policy, tables, options, threads, quiet,
                               cluster, chunk)
    if not played:
        return {"interrupted": True, "games": 0}
    runs, i = played[level], card - FIRST_PIRATE
    rows = []
    for k, (v, g) in enumerate(zip(values, runs)):
        row = {"value": v, "games": len(g), **_rate("win", int(g.won.sum()), len(g))}
        if k:                             # paired with the previous value: the same deals
            prev = runs[k - 1].won
            only_prev, only_here = int((prev & ~g.won).sum()), int((g.won & ~prev).sum())
            row.update({"win_diff_vs_previous": (only_here - only_prev) / len(g),
                        "mcnemar_p": mcnemar_exact(only_prev, only_here)})
        if is_pirate:
            c = g.counts()
            row.update({"faced": int(c["faced"][i]),
                        **_rate("beaten", c["beaten"][i], c["faced"][i]),
                        "median_other_beaten": median_other(beaten_rates(c), i)})
        rows.append(row)
    crossed = crossing(runs, values, card, is_pirate, target_rate, bootstrap, seed)
    return {"table": pd.DataFrame(rows), "crossing": crossed, "card": card, "field": field,
            "is_pirate": is_pirate, "label": (pirate_label(card, base) if is_pirate
                                              else C.card_label(card, base)),
            "level": level, "games": len(runs[0]), "seed": seed, "base": base,
            "interrupted": interrupted}


def what_if_hardest(study, level, values, games, seed, policy, cards=None, options=None,
                    threads=None, quiet=True, cluster=None, chunk=None) -> dict:
    """Sweep the value of the hardest pirate of ``study`` at ``level`` (its free cards where
    R9.5 computes its value): by default from 20 below the printed value up to it, step 2."""
    t = as_table(cards)
    p = study["pirates"]
    if not len(p) or check_level(level) not in set(p["level"]):
        played = ", ".join(map(str, sorted(set(p["level"])))) if len(p) else "none"
        raise UsageError(f"level {level} was not played in the study (its levels: {played})",
                         "level")
    hardest = int(p[p["level"] == level].iloc[0]["pirate"])
    ability, free, value = pirate_ability(hardest, t)
    if ability in ("plus2_per_aging", "fight_remaining_hazards"):
        field, default = "pirate_free_cards", f"{free}:{free + 10}:1"
    else:
        field, default = "pirate_hazard_value", f"{max(0, value - 20)}:{value}:2"
    return sweep(f"{hardest}.{field}", parse_values(values or default), level, games, seed,
                 policy, t, options, threads, quiet=quiet, cluster=cluster, chunk=chunk)
