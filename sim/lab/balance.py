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

import numpy as np
import pandas as pd

from sim import cards as C
from sim.cardtable import CardTableError, as_table, parse_target
from sim.rules import PIRATES, as_options, check_level, check_seed, parse_levels
from .run import Plan, Run, Setup, backend_for
from .simulate import check_games, check_threads
from .stats import holm, mcnemar_exact, rate_with_interval as rate_ci, two_proportion_p

FIRST_PIRATE = C.PIRATE_IDS[0]
N_PIRATES = len(C.PIRATE_IDS)
ABILITY_TEXT = {"extra_card_costs_2": "each paid card costs 2 life",
                "half_cards_count": "only half the fight cards count",
                "plus1_per_card": "+1 per face-up fighting card",
                "plus2_per_aging": "+2 hazard points per aging card taken",
                "fight_remaining_hazards": "fight all remaining hazards at once"}
ABILITY_SHORT = {"extra_card_costs_2": "2 life/card", "half_cards_count": "half count",
                 "plus1_per_card": "+1/card", "plus2_per_aging": "+2/aging",
                 "fight_remaining_hazards": "all hazards"}


# --- names ---------------------------------------------------------------------------------
def pirate_label(p: int, cards=None) -> str:
    """Short readable label: '10/40', '7/16 2 life/card', '5 free +2/aging', 'all hazards'."""
    t = as_table(cards)
    ab = C.PIRATE_ABILITY_NAMES[int(t.PIRATE_ABILITY[p])]
    free, value = int(t.PIRATE_FREE[p]), int(t.PIRATE_VALUE[p])
    if ab == "none":
        return f"{free}/{value}"
    if ab == "plus2_per_aging":
        return f"{free} free, +2/aging"
    if ab == "fight_remaining_hazards":
        return "all hazards"
    return f"{free}/{value} {ABILITY_SHORT[ab]}"


def pirate_description(p: int, cards=None) -> str:
    """The pirate in words, for legends: free cards, value and ability (R9.5)."""
    t = as_table(cards)
    ab = C.PIRATE_ABILITY_NAMES[int(t.PIRATE_ABILITY[p])]
    free, value = int(t.PIRATE_FREE[p]), int(t.PIRATE_VALUE[p])
    if ab == "fight_remaining_hazards":
        return "all hazards: " + ABILITY_TEXT[ab]
    base = f"{free} free cards" + ("" if ab == "plus2_per_aging" else f", value {value}")
    return f"{pirate_label(p, t)}: {base}" + (f", {ABILITY_TEXT[ab]}" if ab != "none" else "")


# --- counting ------------------------------------------------------------------------------
class Games:
    """The per-game columns the balance questions need, compact (int8/bool)."""

    def __init__(self, rows: dict):
        self.a = (np.asarray(rows["pirate_1"]) - FIRST_PIRATE).astype(np.int8)
        self.b = (np.asarray(rows["pirate_2"]) - FIRST_PIRATE).astype(np.int8)
        first = np.asarray(rows["pirate_first"])
        self.first_is_a = first == np.asarray(rows["pirate_1"])
        self.faced = first >= 0                           # a pirate was fought (R9.1)
        self.beaten_a = np.asarray(rows["pirate_1_beaten"]).astype(bool)
        self.beaten_b = np.asarray(rows["pirate_2_beaten"]).astype(bool)
        self.won = np.asarray(rows["won"]).astype(bool)
        self.reached = np.asarray(rows["step"]) == PIRATES
        # who was fought first and second, and whether each was beaten
        self.first = np.where(self.first_is_a, self.a, self.b)
        self.second = np.where(self.first_is_a, self.b, self.a)
        self.beaten_first = np.where(self.first_is_a, self.beaten_a, self.beaten_b) & self.faced
        self.beaten_second = np.where(self.first_is_a, self.beaten_b, self.beaten_a) & self.beaten_first

    def __len__(self):
        return len(self.won)

    @staticmethod
    def concat(parts: list["Games"]) -> "Games":
        out = Games.__new__(Games)
        for key in parts[0].__dict__:
            setattr(out, key, np.concatenate([getattr(p, key) for p in parts]))
        return out

    def counts(self, w=None) -> dict:
        """Counts per pirate (10) and pair (10 x 10, lower index first); ``w`` optional game
        weights (the bootstrap)."""
        n = N_PIRATES

        def bc(idx, mask, weights=None):
            ww = w if weights is None else (weights if w is None else weights * w)
            sel = mask if mask is not None else slice(None)
            return np.bincount(idx[sel], weights=None if ww is None else ww[sel], minlength=n)

        out = {
            "games": float(len(self) if w is None else w.sum()),
            "wins": float(self.won.sum() if w is None else w[self.won].sum()),
            "drawn": bc(self.a, None) + bc(self.b, None),
            "reached": bc(self.a, self.reached) + bc(self.b, self.reached),
            "wins_drawn": bc(self.a, self.won) + bc(self.b, self.won),
            "faced_first": bc(self.first, self.faced),
            "beaten_first": bc(self.first, self.beaten_first),
            "faced_second": bc(self.second, self.beaten_first),
            "beaten_second": bc(self.second, self.beaten_second),
        }
        lo, hi = np.minimum(self.a, self.b), np.maximum(self.a, self.b)
        pair = lo.astype(np.int64) * n + hi
        ww = w
        out["pair_games"] = np.bincount(pair, weights=ww, minlength=n * n).reshape(n, n)
        out["pair_wins"] = np.bincount(pair[self.won], weights=None if ww is None else ww[self.won],
                                       minlength=n * n).reshape(n, n)
        return out


def beaten_rates(games: Games, w=None) -> np.ndarray:
    """Beaten-when-faced rate (first and second fights together) of each pirate."""
    c = games.counts(w)
    faced = c["faced_first"] + c["faced_second"]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (c["beaten_first"] + c["beaten_second"]) / faced


def play(levels, seed, games, policy, tables, options=None, threads=None, quiet=True,
         cluster=None, chunk=None) -> tuple[dict, bool]:
    """``games`` games of every level, played with each card table of ``tables`` on the same
    deals (sim.lab.run): ({level: [Games of each table]}, interrupted).  After Ctrl-C, the
    games finished (the same games for every table)."""
    from policies import load_policy
    from .cluster import connected
    pol = load_policy(policy)
    opts = as_options(options)
    plan = Plan(tuple(Setup(pol, opts, as_table(t)) for t in tables), tuple(levels),
                check_games(games), check_seed(seed))
    parts: dict = {}
    with connected(cluster) as dask:
        with Run(plan, backend_for(dask, chunk, check_threads(threads)), quiet) as run:
            for part in run:
                parts.setdefault(part.level, []).append([Games(r) for r in part.results])
    played = {lv: [Games.concat(list(g)) for g in zip(*ranges)] for lv, ranges in parts.items()}
    return played, run.interrupted


# --- tables --------------------------------------------------------------------------------
def pirate_table(games: Games, level: int, cards=None) -> pd.DataFrame:
    """One row per pirate, ranked hardest first (lowest beaten-when-faced rate)."""
    t = as_table(cards)
    c = games.counts()
    rows = []
    for i, p in enumerate(C.PIRATE_IDS):
        faced = c["faced_first"][i] + c["faced_second"][i]
        beaten = c["beaten_first"][i] + c["beaten_second"][i]
        row = {"level": level, "pirate": p, "label": pirate_label(p, t),
               "description": pirate_description(p, t), "drawn": int(c["drawn"][i])}
        for key, k, n in (("reached", c["reached"][i], c["drawn"][i]),
                          ("beaten_first", c["beaten_first"][i], c["faced_first"][i]),
                          ("beaten_second", c["beaten_second"][i], c["faced_second"][i]),
                          ("beaten", beaten, faced),
                          ("win_when_drawn", c["wins_drawn"][i], c["drawn"][i])):
            r, lo, hi = rate_ci(k, n)
            row.update({f"{key}_n": int(n), f"{key}_rate": r, f"{key}_lo": lo, f"{key}_hi": hi})
        rows.append(row)
    df = pd.DataFrame(rows).sort_values("beaten_rate", kind="stable").reset_index(drop=True)
    df.insert(1, "rank", np.arange(1, len(df) + 1))
    return df


def pirate_tests(table: pd.DataFrame) -> pd.DataFrame:
    """Every two pirates of one level: beaten-when-faced difference, z-test p, Holm p."""
    rows = []
    recs = table.to_dict("records")
    for i in range(len(recs)):
        for j in range(i + 1, len(recs)):
            x, y = recs[i], recs[j]
            kx, nx = x["beaten_rate"] * x["beaten_n"], x["beaten_n"]
            ky, ny = y["beaten_rate"] * y["beaten_n"], y["beaten_n"]
            rows.append({"level": x["level"], "harder": x["label"], "easier": y["label"],
                         "difference": y["beaten_rate"] - x["beaten_rate"],
                         "p": two_proportion_p(round(kx), nx, round(ky), ny)})
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
    rows = []
    for i in range(N_PIRATES):
        for j in range(i + 1, N_PIRATES):
            n, k = int(c["pair_games"][i, j]), int(c["pair_wins"][i, j])
            r, lo, hi = rate_ci(k, n)
            rows.append({"level": level, "pirate_a": C.PIRATE_IDS[i], "pirate_b": C.PIRATE_IDS[j],
                         "pair": f"{pirate_label(C.PIRATE_IDS[i], t)} + "
                                 f"{pirate_label(C.PIRATE_IDS[j], t)}",
                         "games": n, "win_rate": r, "win_lo": lo, "win_hi": hi})
    return pd.DataFrame(rows).sort_values("win_rate", kind="stable").reset_index(drop=True)


def pirate_study(levels, games, seed, policy, cards=None, options=None, threads=None,
                 quiet=True, cluster=None, chunk=None) -> dict:
    """Tables of ``pirate_table``, ``pirate_tests`` and ``pair_table`` for every level played
    (all of ``levels``, or those begun before Ctrl-C: ``interrupted``; ``level_games`` says
    how many games each level has)."""
    cards = as_table(cards)
    levels = parse_levels(levels)
    played, interrupted = play(levels, seed, games, policy, [cards], options, threads, quiet,
                               cluster, chunk)
    out = {"pirates": [], "tests": [], "pairs": [], "games": games, "seed": seed,
           "interrupted": interrupted, "level_games": {}}
    for level, (g,) in played.items():
        table = pirate_table(g, level, cards)
        out["pirates"].append(table)
        out["tests"].append(pirate_tests(table))
        out["pairs"].append(pair_table(g, level, cards))
        out["level_games"][level] = len(g)
    for key in ("pirates", "tests", "pairs"):
        out[key] = pd.concat(out[key], ignore_index=True) if out[key] else pd.DataFrame()
    return out


# --- sweeps --------------------------------------------------------------------------------
def parse_values(text: str) -> list[int]:
    """``A:B`` (step 1), ``A:B:STEP`` (B included when on the grid) or ``A,B,C``."""
    try:
        parts = [int(x) for x in text.split(":" if ":" in text else ",")]
    except ValueError:
        parts = []
    if not parts or (":" in text and len(parts) not in (2, 3)):
        raise CardTableError(f"--values {text!r} must look like A:B, A:B:STEP or A,B,C "
                             f"(integers)")
    if ":" in text:
        a, b = parts[0], parts[1]
        step = parts[2] if len(parts) == 3 else (1 if b >= a else -1)
        if step == 0 or (b - a) * step < 0:
            raise CardTableError(f"--values {text!r}: the step {step} never goes from {a} to {b}")
        values = list(range(a, b + (1 if step > 0 else -1), step))
    else:
        values = parts
    if len(set(values)) != len(values):
        raise CardTableError(f"--values {text!r} repeats a value")
    if len(values) < 2:
        raise CardTableError(f"--values {text!r}: a sweep needs at least two values")
    if len(values) > 200:
        raise CardTableError(f"--values {text!r}: {len(values)} values; at most 200")
    return values


def sweep(target: str, values, level, games, seed, policy, cards=None, options=None,
          threads=None, target_rate=None, bootstrap=200, quiet=True, cluster=None,
          chunk=None) -> dict:
    """Play the same ``games`` deals with ``target`` (``CARD.FIELD``) at each value (after
    Ctrl-C: the games finished, the same for every value; ``interrupted``)."""
    base = as_table(cards)
    card, field = parse_target(target)
    tables = [base.with_sets([f"{card}.{field}={v}"]) for v in values]   # validates every value
    is_pirate = int(C.KIND[card]) == C.KIND_PIRATE
    level = check_level(level)
    played, interrupted = play([level], seed, games, policy, tables, options, threads, quiet,
                               cluster, chunk)
    if not played:
        return {"interrupted": True, "games": 0}
    runs = played[level]
    rows = []
    for k, (v, g, t) in enumerate(zip(values, runs, tables)):
        row = {"value": v, "games": len(g)}
        r, lo, hi = rate_ci(int(g.won.sum()), len(g))
        row.update({"win_rate": r, "win_lo": lo, "win_hi": hi})
        if k:                             # paired with the previous value: the same deals
            prev = runs[k - 1].won
            only_prev, only_here = int((prev & ~g.won).sum()), int((g.won & ~prev).sum())
            row.update({"win_diff_vs_previous": (only_here - only_prev) / len(g),
                        "mcnemar_p": mcnemar_exact(only_prev, only_here)})
        if is_pirate:
            i = card - FIRST_PIRATE
            c = g.counts()
            faced = c["faced_first"][i] + c["faced_second"][i]
            r, lo, hi = rate_ci(c["beaten_first"][i] + c["beaten_second"][i], faced)
            row.update({"faced": int(faced), "beaten_rate": r, "beaten_lo": lo, "beaten_hi": hi,
                        "median_other_beaten": _median_other(beaten_rates(g), i)})
        rows.append(row)
    table = pd.DataFrame(rows)
    crossing = _crossing(runs, values, card, is_pirate, target_rate, bootstrap, seed)
    return {"table": table, "crossing": crossing, "card": card, "field": field,
            "is_pirate": is_pirate, "label": (pirate_label(card, base) if is_pirate
                                              else C.card_label(card, base)),
            "level": level, "games": len(runs[0]), "seed": seed, "base": base,
            "interrupted": interrupted}


def _median_other(rates: np.ndarray, i: int) -> float:
    """The median beaten-when-faced rate of the other pirates (nan if none was faced)."""
    others = np.delete(rates, i)
    others = others[~np.isnan(others)]
    return float(np.median(others)) if len(others) else float("nan")


def _gap(runs, card, is_pirate, target_rate, w=None) -> np.ndarray:
    """What the interpolation sets to zero, per value: the pirate's beaten-when-faced rate
    minus the median other pirate's, or the win rate minus ``target_rate``."""
    out = []
    for g in runs:
        if target_rate is not None:
            won = g.won.mean() if w is None else (w * g.won).sum() / w.sum()
            out.append(won - target_rate)
        else:
            rates = beaten_rates(g, w)
            i = card - FIRST_PIRATE
            out.append(rates[i] - _median_other(rates, i))
    return np.array(out)


def _interpolate(values, gap) -> float:
    """The first value where ``gap`` changes sign, linearly interpolated (nan if none)."""
    for k in range(len(values) - 1):
        y0, y1 = gap[k], gap[k + 1]
        if np.isnan(y0) or np.isnan(y1):
            continue
        if y0 == 0:
            return float(values[k])
        if y0 * y1 < 0:
            return float(values[k] + (values[k + 1] - values[k]) * y0 / (y0 - y1))
    return float(values[-1]) if gap[-1] == 0 else float("nan")


def _crossing(runs, values, card, is_pirate, target_rate, bootstrap, seed) -> dict:
    if target_rate is None and not is_pirate:
        return {"what": None, "value": float("nan"), "lo": float("nan"), "hi": float("nan")}
    what = (f"win rate = {target_rate:.2%}" if target_rate is not None
            else "beaten when faced = median other pirate")
    value = _interpolate(values, _gap(runs, card, is_pirate, target_rate))
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(int(bootstrap)):
        w = rng.poisson(1.0, len(runs[0])).astype(np.float64)   # same games for every value
        boots.append(_interpolate(values, _gap(runs, card, is_pirate, target_rate, w)))
    boots = np.array(boots)
    ok = boots[~np.isnan(boots)]
    lo, hi = (np.percentile(ok, [2.5, 97.5]) if len(ok) else (float("nan"), float("nan")))
    return {"what": what, "value": value, "lo": float(lo), "hi": float(hi),
            "bootstrap": int(bootstrap), "bootstrap_no_crossing": int(len(boots) - len(ok)),
            "method": "linear interpolation between adjacent values; 95% percentile interval "
                      f"of a Poisson bootstrap over games ({int(bootstrap)} replicates, the "
                      "same game weights for every value)"}


def what_if_hardest(study, level, values, games, seed, policy, cards=None, options=None,
                    threads=None, quiet=True, cluster=None, chunk=None) -> dict:
    """Sweep the value of the hardest pirate of ``study`` at ``level`` (its free cards where
    R9.5 computes its value): by default from 20 below the printed value up to it, step 2."""
    t = as_table(cards)
    p = study["pirates"]
    hardest = int(p[p["level"] == level].iloc[0]["pirate"])
    if C.PIRATE_ABILITY_NAMES[int(t.PIRATE_ABILITY[hardest])] in ("plus2_per_aging",
                                                                 "fight_remaining_hazards"):
        field, v0 = "pirate_free_cards", int(t.PIRATE_FREE[hardest])
        default = f"{v0}:{v0 + 10}:1"
    else:
        field, v0 = "pirate_hazard_value", int(t.PIRATE_VALUE[hardest])
        default = f"{max(0, v0 - 20)}:{v0}:2"
    return sweep(f"{hardest}.{field}", parse_values(values or default), level, games, seed,
                 policy, t, options, threads, quiet=quiet, cluster=cluster, chunk=chunk)
