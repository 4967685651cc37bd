"""The end of ``friday tune``: the best variant validated on fresh deals against the starting
policy with the paired comparison (sim.lab.compare: the same deals for both, Newcombe's
interval, McNemar's exact p), a verdict that calls a gain within noise so, and the outputs:
``best_policy.txt`` (the spec), ``trials.csv``, the figures ``history.png``,
``importance.png`` (PED-ANOVA, Optuna's default evaluator) and ``slices.png``, and ``tune.md`` naming
the exact command.  Every file through sim.lab.files (checked first, written atomically)."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.rules import options_text
from .compare import compare_paired, play_paired
from .files import write_atomic, write_text
from .plots import finish, pyplot
from .report import shown_path
from .text import pvalue
from .tune import best_trial, finished, optuna

TUNE_FILES = ("tune.md", "best_policy.txt", "trials.csv", "history.png", "importance.png",
              "slices.png")
SAMPLER_TEXT = {"tpe": "Optuna's TPE (multivariate), a fresh sampler per trial seeded from "
                       "(seed, finished trials)",
                "cmaes": "Optuna's CMA-ES (cmaes package; with margin for whole-number "
                         "parameters), a fresh sampler per trial seeded from (seed, finished "
                         "trials), its state kept in the study"}


@dataclass
class Validation:
    """The paired comparison of the tuned variant (a) and the starting policy (b)."""
    row: object                  # the comparison's one row (sim.lab.compare_paired), a - b
    games: int                   # fresh games played by both
    seed: int
    interrupted: bool


def validate(q, best, games: int, seed: int, threads=None, chunk=None, cluster=None,
             quiet: bool = True) -> Validation | None:
    """``best`` and the starting policy on games 0..games-1 of ``seed`` (fresh deals),
    paired; None when Ctrl-C came before any game finished."""
    paired = play_paired([best, q.policy], [q.level], games, seed, q.options, threads, chunk,
                         keep_on_interrupt=True, cluster=cluster, quiet=quiet)
    if len(paired) == 0:
        return None
    comparison = compare_paired(paired)
    return Validation(comparison.iloc[0], len(paired), seed, bool(paired.attrs["interrupted"]))


def difference_text(r) -> str:
    return (f"{100 * r.win_diff:+.2f} pp [95% Newcombe {100 * r.win_diff_low:+.2f}, "
            f"{100 * r.win_diff_high:+.2f}], McNemar p = {pvalue(r.mcnemar_p)}")


def verdict(v: Validation) -> str:
    """One sentence: a real gain (the interval above 0), a loss (below) or noise (across)."""
    r, where = v.row, f"on {v.games:,} fresh deals (seed {v.seed})"
    if r.win_diff_low > 0:
        return (f"a real gain: {where} the tuned variant wins more games than the start, "
                f"{difference_text(r)}.")
    if r.win_diff_high < 0:
        return (f"worse: {where} the tuned variant wins fewer games than the start, "
                f"{difference_text(r)}: its lead on the tuning deals was their luck.")
    return (f"within noise: {where} the difference is {difference_text(r)}; the interval "
            f"includes 0, so no gain is shown.")


def validation_lines(v: Validation) -> list[str]:
    r = v.row
    cut = " (interrupted: the games finished before Ctrl-C)" if v.interrupted else ""
    return [f"validation on {v.games:,} fresh deals (games 0..{v.games - 1} of seed {v.seed})"
            f"{cut}, level {r.level}:",
            *(f"  {name}: {rate:.2%} won [{lo:.2%}, {hi:.2%}], mean score {score:.2f}"
              for name, rate, lo, hi, score in
              ((r.a, r.a_win_rate, r.a_ci_low, r.a_ci_high, r.a_mean_score),
               (r.b, r.b_win_rate, r.b_ci_low, r.b_ci_high, r.b_mean_score))),
            f"  tuned - start: {difference_text(r)}; tuned won and start lost {r.a_only:,}, "
            f"the reverse {r.b_only:,}; score {r.score_diff:+.2f} [{r.score_diff_low:+.2f}, "
            f"{r.score_diff_high:+.2f}] (paired t, p = {pvalue(r.score_p)})",
            "verdict: " + verdict(v)]


IMPORTANCE_TEXT = ("PED-ANOVA (Optuna's default evaluator, Watanabe et al. 2023): how far each "
                   "parameter's values in the best 10% of the trials stand apart from its values "
                   "in all of them, the shares summing to 1")


def importances(study) -> dict | None:
    """The importance of each tuned parameter (PED-ANOVA), None with too few trials."""
    o = optuna()
    if len(finished(study)) < 2:
        return None
    try:
        return dict(o.importance.get_param_importances(study))
    except (RuntimeError, ValueError, ZeroDivisionError):
        return None


def trials_frame(study) -> pd.DataFrame:
    """One row per trial of the study (every state): number, state, win rate, wins, mean
    score, the parameters, the spec played."""
    rows = [{"trial": t.number, "state": t.state.name,
             "win_rate": t.value if t.value is not None else math.nan,
             "wins": t.user_attrs.get("wins"), "mean_score": t.user_attrs.get("mean_score"),
             **t.params, "spec": t.user_attrs.get("spec", "")} for t in study.trials]
    return pd.DataFrame(rows)


def history_figure(study, q, path):
    """Each finished trial's win rate on the tuning deals, the best so far, the start."""
    trials = finished(study)
    fig, ax = pyplot().subplots(figsize=(8, 4.5))
    n = np.array([t.number for t in trials])
    v = np.array([100 * t.value for t in trials])
    ax.scatter(n, v, s=16, label="a trial's win rate")
    ax.step(n, np.maximum.accumulate(v), where="post", color="tab:red", label="best so far")
    start = [t for t in trials if t.user_attrs.get("start")]
    if start:
        ax.axhline(100 * start[0].value, color="grey", ls="--", lw=1, label="starting values")
    p = v.max() / 100 if len(v) else 0.5
    noise = 196 * math.sqrt(p * (1 - p) / q.games)
    ax.set(ylabel="games won (%)",
           title=f"{q.policy.name}, level {q.level}: {len(trials)} trials, each on the same "
                 f"{q.games:,} games (seed {q.seed})")
    ax.set_xlabel(f"trial\n(a trial's win rate estimates its true one within about "
                  f"±{noise:.2f} pp, 95%; trials share their deals, so their differences are "
                  f"less noisy)", fontsize=8)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    finish(fig, path)


def importance_figure(imp: dict | None, n_trials: int, path):
    fig, ax = pyplot().subplots(figsize=(7, 1.6 + 0.5 * max(1, len(imp or {}))))
    if imp:
        names = list(imp)[::-1]
        ax.barh(names, [imp[k] for k in names])
        for y, k in enumerate(names):
            ax.text(imp[k], y, f" {imp[k]:.2f}", va="center", fontsize=8)
        ax.set(xlim=(0, 1.1), xlabel="importance (PED-ANOVA: shares summing to 1)")
    else:
        ax.text(0.5, 0.5, "too few finished trials for an importance", ha="center")
        ax.set_axis_off()
    ax.set_title(f"Parameter importance over {n_trials} finished trials (Optuna, PED-ANOVA)")
    fig.tight_layout()
    finish(fig, path)


def slices_figure(study, q, path):
    """Per parameter: each finished trial's value and win rate (colour: trial number)."""
    trials = finished(study)
    best = best_trial(study)
    fig, axes = pyplot().subplots(1, len(q.ranges), figsize=(4 * len(q.ranges), 3.8),
                                  sharey=True, squeeze=False, layout="constrained")
    for ax, r in zip(axes[0], q.ranges):
        x = [t.params[r.name] for t in trials]
        dots = ax.scatter(x, [100 * t.value for t in trials], c=[t.number for t in trials],
                          cmap="viridis", s=18)
        if best is not None:
            ax.scatter([best.params[r.name]], [100 * best.value], marker="*", s=160,
                       color="tab:red", label="best")
        ax.axvline(q.start_values()[r.name], color="grey", ls="--", lw=1, label="start")
        ax.set(xlabel=f"{r.name} ({r.kind}, {r.low:g}..{r.high:g})")
    axes[0][0].set_ylabel("games won (%)")
    axes[0][0].legend(fontsize=8)
    fig.colorbar(dots, ax=axes[0][-1], label="trial").locator.set_params(integer=True)
    fig.suptitle(f"{q.policy.name}, level {q.level}: win rate on the tuning deals by "
                 f"parameter")
    finish(fig, path)


@dataclass
class Tuned:
    """What a tuning found, for the report: the question, the study (and its file), the best
    finished trial and its spec, the validation (None: not played) and the command."""
    q: object
    study: object
    study_path: str
    best: object
    best_spec: str
    validation: Validation | None
    command: str
    note: str = ""               # why there is no validation, when there is none


def write_outputs(out, t: Tuned) -> list[str]:
    """Every file of TUNE_FILES into ``out`` (checked before the tuning by check_folder)."""
    from pathlib import Path
    out = Path(out)
    imp = importances(t.study)
    write_text(out / "best_policy.txt", t.best_spec + "\n")
    frame = trials_frame(t.study)
    write_atomic(out / "trials.csv", lambda tmp: frame.to_csv(tmp, index=False))
    history_figure(t.study, t.q, out / "history.png")
    importance_figure(imp, len(finished(t.study)), out / "importance.png")
    slices_figure(t.study, t.q, out / "slices.png")
    write_text(out / "tune.md", tune_markdown(t, imp))
    return list(TUNE_FILES)


def tune_markdown(t: Tuned, imp: dict | None) -> str:
    """tune.md: the command, the question, the best variant, the validation and verdict, the
    best trials, the importances and the figures."""
    q, study = t.q, t.study
    trials = finished(study)
    failed = len(study.trials) - len(trials)
    start = [x for x in trials if x.user_attrs.get("start")]
    src = (f" (file `{shown_path(q.policy.source)}`, sha256 `{q.policy.sha256[:12]}`)"
           if q.policy.sha256 else "")
    lines = [f"# Tuning {q.policy.name} at level {q.level}", "",
             f"Made by `{t.command}` (from the repository's root; a rerun with the same "
             f"`--study` file continues that study, so give a new file to repeat it).", "",
             f"- starting policy: `{q.policy.name}`{src}",
             "- tuned: " + ", ".join(f"`{r.name}` in {r.low:g}..{r.high:g} ({r.kind}, start "
                                     f"{q.start_values()[r.name]:g})" for r in q.ranges),
             f"- objective: the share of games won at level {q.level} on games 0..{q.games - 1} "
             f"of seed {q.seed}, the same deals in every trial (common random numbers); rule "
             f"options {options_text(q.options.as_dict())}",
             f"- sampler: {SAMPLER_TEXT[q.sampler]}; Optuna {optuna().__version__}",
             f"- study: `{t.study_path}` (study `friday-tune`), {len(trials)} finished trials"
             + (f", {failed} not finished (interrupted)" if failed else ""), "",
             "## Best variant", "", f"`{t.best_spec}`", "",
             f"Trial {t.best.number}: {t.best.value:.2%} of the tuning games won "
             f"({t.best.user_attrs['wins']:,} of {q.games:,})"
             + (f"; the starting values (trial {start[0].number}): {start[0].value:.2%}, so "
                f"{100 * (t.best.value - start[0].value):+.2f} pp on the tuning deals, where "
                f"the best of {len(trials)} trials is favoured by their luck" if start else "")
             + ".", "", "## Validation on fresh deals", ""]
    lines += _validation_md(t)
    lines += ["", "## Best trials (on the tuning deals)", "",
              "| trial | win rate | wins | mean score | " + " | ".join(r.name for r in q.ranges)
              + " |", "|---|---|---|---|" + "---|" * len(q.ranges)]
    for x in sorted(trials, key=lambda x: (-x.value, x.number))[:10]:
        lines.append(f"| {x.number} | {x.value:.2%} | {x.user_attrs['wins']:,} | "
                     f"{x.user_attrs['mean_score']:.2f} | "
                     + " | ".join(f"{x.user_attrs['values'][r.name]:g}" for r in q.ranges)
                     + " |")
    lines += ["", "## Parameter importance", "",
              IMPORTANCE_TEXT + ": " + (
                  ", ".join(f"`{k}` {v:.2f}" for k, v in imp.items()) if imp else
                  "too few finished trials") + ".", "",
              "![history](history.png)", "", "![importance](importance.png)", "",
              "![slices](slices.png)", "",
              "Every trial: `trials.csv`; the best variant's spec: `best_policy.txt`."]
    return "\n".join(lines) + "\n"


def _validation_md(t: Tuned) -> list[str]:
    v = t.validation
    if v is None:
        return [t.note or "Not validated."]
    r = v.row
    cut = " (interrupted: the games finished before Ctrl-C)" if v.interrupted else ""
    return [f"The tuned variant and the starting policy on the same {v.games:,} fresh deals "
            f"(games 0..{v.games - 1} of seed {v.seed}, never seen by the tuning){cut}:", "",
            "| policy | win rate [95% Wilson] | mean score |", "|---|---|---|",
            f"| `{r.a}` | {r.a_win_rate:.2%} [{r.a_ci_low:.2%}, {r.a_ci_high:.2%}] | "
            f"{r.a_mean_score:.2f} |",
            f"| `{r.b}` | {r.b_win_rate:.2%} [{r.b_ci_low:.2%}, {r.b_ci_high:.2%}] | "
            f"{r.b_mean_score:.2f} |", "",
            f"Tuned - start: {difference_text(r)}; tuned won and start lost {r.a_only:,} "
            f"games, the reverse {r.b_only:,}; mean score {r.score_diff:+.2f} "
            f"[{r.score_diff_low:+.2f}, {r.score_diff_high:+.2f}] (paired t, p = "
            f"{pvalue(r.score_p)}).", "", f"**Verdict: {verdict(v)}**"]
