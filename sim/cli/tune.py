"""``friday tune``: a policy's parameters tuned with Optuna on the same deals in every trial
(sim.lab.tune), the study kept in an SQLite file and continued by a second run, then the best
variant validated on fresh deals against the start with the paired comparison
(sim.lab.tune_report)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Literal, Optional

import typer

from sim.rng import MAX_SEED
from sim.rules import parse_options
from .common import (ChunkOpt, ClusterOpt, ForceOpt, OptionOpt, QuietOpt, SeedOpt, ThreadsOpt,
                     cluster_or_none, command, games_option, index_option)
from .options import LevelNumber

app = typer.Typer()


@command(app)
def tune(
    policy: Annotated[str, typer.Argument(help="the starting policy: NAME, "
                                               "'NAME[PARAM=VALUE,...]' or file.py:function")],
    level: LevelNumber,
    study: Annotated[Path, typer.Option(help="the study file (.db, Optuna's SQLite storage): "
                                             "created, or continued if it holds this tuning")],
    param: Annotated[List[str], typer.Option(help="a parameter to tune: NAME=LOW:HIGH "
                                                  "(repeatable)")] = [],
    games_per_trial: Annotated[int, games_option("games per trial: games 0..N-1 of --seed, "
                                                 "the same deals in every trial")] = 20_000,
    trials: Annotated[int, typer.Option(min=1, max=100_000, help="finished trials the study "
                                        "should have in all (a rerun continues up to it)")] = 40,
    seed: SeedOpt = 1,
    sampler: Annotated[Literal["tpe", "cmaes"], typer.Option(help="Optuna's sampler")] = "tpe",
    validate_games: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="fresh games of the "
                                                "validation (0: none)")] = 100_000,
    validate_seed: Annotated[Optional[int], index_option(
        "seed of the validation's deals (default: --seed + 1000003)")] = None,
    out: Annotated[Optional[Path], typer.Option(
        help="folder for tune.md, best_policy.txt, trials.csv and figures")] = None,
    option: OptionOpt = [], threads: ThreadsOpt = None, force: ForceOpt = False,
    quiet: QuietOpt = False, cluster: ClusterOpt = None, chunk: ChunkOpt = None,
):
    """Tune parameters of POLICY (Optuna: TPE or CMA-ES) for the win rate at one level, every
    trial on the same games; validate the best on fresh deals against POLICY (paired).
    Ctrl-C keeps every finished trial in --study: the same command continues it."""
    from sim.lab import tune as T
    from sim.lab.files import check_folder, command_line
    from sim.lab.tune_report import TUNE_FILES
    from sim.lab.tune_study import check_study
    q = T.question(policy, param, level, games_per_trial, seed, parse_options(option), sampler)
    check_folder(out, TUNE_FILES, force)
    vseed = T.validation_seed(seed, validate_seed)
    check_study(study, q)
    made_by = command_line(force=out is not None)   # --force: tune.md remakes its own folder
    with cluster_or_none(cluster) as dask:
        found = _trials(q, study, trials, threads, chunk, dask, quiet)
        _finish(found, validate_games, vseed, out, threads, chunk, dask, quiet, made_by)


def _trials(q, study_path: Path, trials: int, threads, chunk, dask, quiet):
    """Compile, open the study (only now is it written), play the trials it lacks; the study
    and its best trial.  Ctrl-C: the best so far, then exit code 130."""
    from sim.lab import tune as T
    from sim.lab.run import Plan, Setup, backend_for
    from sim.lab.tune_study import open_study
    backend = backend_for(dask, chunk, threads)
    backend.prepare(Plan((Setup(q.policy, q.options),), (q.level,), q.games, q.seed,
                         summary=True), quiet)
    study = open_study(study_path, q)
    done = len(T.finished(study))
    typer.echo(f"friday tune: {q.policy.name}, " + ", ".join(
        f"{r.name} {r.low:g}..{r.high:g} ({r.kind})" for r in q.ranges)
        + f"; level {q.level}, {q.games:,} games per trial (games 0..{q.games - 1} of seed "
        f"{q.seed}), sampler {q.sampler}; study {study_path}: {done} finished trials"
        + (f", continuing to {trials}" if done < trials else f" (--trials {trials}): none to play"))
    run = T.run_trials(study, q, trials, backend, quiet, lambda line: print(line, flush=True))
    best = T.best_trial(study)
    if best is not None:
        typer.echo(f"best: {q.variant(best.params).name} (trial {best.number}, "
                   f"{best.value:.2%} of the tuning games won)")
    if run.interrupted:
        typer.echo(f"interrupted: the study keeps its {len(T.finished(study))} finished trials; "
                   f"the same command continues it", err=True)
        raise typer.Exit(130)
    return q, study_path, study, best


def _finish(found, validate_games, vseed, out, threads, chunk, dask, quiet, made_by):
    """Validate the best variant (unless it is the start, or --validate-games 0), print the
    verdict, write --out; Ctrl-C during the validation: what finished, exit code 130."""
    from sim.lab.tune_report import Tuned, validate, validation_lines, write_outputs
    q, study_path, study, best = found
    spec = q.variant(best.params).name
    typer.echo(f"best variant: {spec}")
    note, v = "", None
    if best.user_attrs.get("start"):
        note = "The best trial is the starting policy itself: there is nothing to validate."
    elif validate_games == 0:
        note = "Not validated (--validate-games 0)."
    else:
        v = validate(q, q.variant(best.params), validate_games, vseed, threads, chunk, dask,
                     quiet)
    if v is None and not note:
        typer.echo("interrupted before any validation game finished: nothing written", err=True)
        raise typer.Exit(130)
    typer.echo("\n".join(validation_lines(v)) if v is not None else note)
    if out is not None:
        write_outputs(out, Tuned(q, study, str(study_path), best, spec, v, made_by, note))
        typer.echo(f"wrote tune.md, best_policy.txt, trials.csv and figures to {out}/")
    if v is not None and v.interrupted:
        raise typer.Exit(130)
