"""``friday simulate``, ``compare`` and ``report``: many games on the run pipeline
(sim.lab.run), the same --cluster, --chunk, progress, Ctrl-C and --out on each."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim.errors import UsageError
from sim.rules import parse_levels, parse_options
from .common import (CardsOpt, ChunkOpt, ClusterOpt, Engine, ForceOpt, LevelOpt, OptionOpt,
                     ParamOpt, PolicyOpt, QuietOpt, SeedOpt, SetOpt, ThreadsOpt,
                     cluster_or_none, command, games_option, load_cards, load_policy)

app = typer.Typer()
PoliciesArg = Annotated[Optional[List[str]], typer.Argument(
    help="policies: NAME, 'NAME[PARAM=VALUE,...]', file.py:function[...]")]

LogDecisionsOpt = Annotated[Optional[Path], typer.Option(
    "--log-decisions", help="search policy: write one row per searched decision "
    "(observation, candidates, rollouts and wins) to this .parquet file")]
TracesOpt = Annotated[Optional[Path], typer.Option(
    help="write the trace of every game (docs/TRACE.md), one game per line, to this .jsonl "
         "file (.jsonl.gz: gzip-compressed)")]


@command(app)
def simulate(
    policy: PolicyOpt = "expert", level: LevelOpt = "all",
    games: Annotated[int, games_option("games per level")] = 100_000,
    seed: SeedOpt = 1,
    engine: Annotated[Engine, typer.Option(help="fast (Numba) or reference (plain Python)")]
    = "fast",
    threads: ThreadsOpt = None, option: OptionOpt = [], param: ParamOpt = [],
    out: Annotated[Optional[Path], typer.Option(help="write one row per game to this "
                                                     ".parquet file")] = None,
    force: ForceOpt = False,
    summary_only: Annotated[bool, typer.Option(
        "--summary-only", help="aggregate on the fly (flat memory, for 10^8 games)")] = False,
    quiet: QuietOpt = False, cards: CardsOpt = None, set_: SetOpt = [],
    cluster: ClusterOpt = None, chunk: ChunkOpt = None,
    log_decisions: LogDecisionsOpt = None, traces: TracesOpt = None,
):
    """Play GAMES games per level and print win rates (95% interval) and scores.

    Ctrl-C stops within a second and reports (and writes) every finished game, exit code 130.
    Rules: docs/RULES.md."""
    from sim.lab.files import check_file
    from sim.lab.simulate import run_simulation
    levels = parse_levels(level)
    if summary_only and out is not None:
        raise UsageError("--summary-only keeps no rows: it cannot be combined with --out")
    check_file(out, (".parquet",), force)
    _check_traces(traces, summary_only, cluster, log_decisions, force)
    options, table = parse_options(option), load_cards(cards, set_)
    pol = load_policy(policy, param)
    pol.check_engine(engine)
    if log_decisions is not None:
        if out is not None and log_decisions.resolve() == out.resolve():
            raise UsageError("--log-decisions and --out name the same file: give two")
        pol = _with_log(pol, summary_only or cluster is not None, log_decisions, force)
    with cluster_or_none(cluster, engine) as dask:
        run_simulation(levels, games, seed, pol, options, engine, threads, out, summary_only,
                       echo=typer.echo, quiet=quiet, cards=table, cluster=dask, chunk=chunk,
                       log_decisions=log_decisions, traces=traces)


def _check_traces(path: Path | None, summary_only: bool, cluster, log: Path | None,
                  force: bool):
    """--traces: a .jsonl or .jsonl.gz file that may be written, of games played here (and
    played once more, traced: a decision log would hold their decisions twice)."""
    from sim.lab.files import check_file
    if path is None:
        return
    if not path.name.lower().endswith((".jsonl", ".jsonl.gz")):
        raise UsageError(f"traces must end in .jsonl or .jsonl.gz, got {path.name!r}", "traces")
    if summary_only or cluster is not None:
        raise UsageError("--traces writes every game from this process: drop --summary-only "
                         "and --cluster")
    if log is not None:
        raise UsageError("--traces plays every game a second time, traced: run "
                         "--log-decisions without it")
    check_file(path, (".jsonl", ".gz"), force, "traces")


def _with_log(pol, elsewhere: bool, path: Path, force: bool):
    """The search policy that keeps its decision log (--log-decisions), checked."""
    from sim.contract.player import runner_of
    from sim.lab.files import check_file
    if runner_of(pol) is None:
        raise UsageError("--log-decisions records a search policy's decisions: use --policy "
                         "search (or a variant of it)")
    if elsewhere:
        raise UsageError("--log-decisions needs the games in this process: drop "
                         "--summary-only / --cluster")
    check_file(path, (".parquet",), force, "log_decisions")
    return pol.with_log()


@command(app)
def compare(
    policies: PoliciesArg = None, level: LevelOpt = "all",
    games: Annotated[int, games_option("games per level (the same games for every policy)")]
    = 100_000,
    seed: SeedOpt = 1, option: OptionOpt = [], threads: ThreadsOpt = None,
    out: Annotated[Optional[Path], typer.Option(
        help="per-game outcomes of every policy side by side, one row per level and game "
             "(.parquet)")] = None,
    figure: Annotated[Optional[Path], typer.Option(
        help="figure of the paired differences (.png, .pdf or .svg)")] = None,
    force: ForceOpt = False, quiet: QuietOpt = False, cards: CardsOpt = None,
    set_: SetOpt = [], cluster: ClusterOpt = None, chunk: ChunkOpt = None,
):
    """Compare policies game by game on the same deals: win rates, paired differences,
    McNemar's exact test, paired score differences; Holm-adjusted ranking for 3+ policies."""
    from sim.lab.files import check_file
    if not policies or len(policies) < 2:
        raise UsageError("compare needs at least two policies, e.g. `friday compare expert "
                         "'expert[cull_max_missing=0]'` (the same one twice is allowed)")
    levels = parse_levels(level)
    check_file(out, (".parquet",), force)
    check_file(figure, (".png", ".pdf", ".svg"), force, "figure")
    options, table = parse_options(option), load_cards(cards, set_)
    pols = [load_policy(p) for p in policies]
    with cluster_or_none(cluster) as dask:
        _compare(pols, levels, games, seed, options, threads, table, dask, chunk, quiet,
                 out, figure)


def _compare(pols, levels, games, seed, options, threads, table, dask, chunk, quiet, out,
             figure):
    """Play, print the comparison, write --out and --figure; Ctrl-C keeps finished games."""
    from sim.lab import compare_paired, play_paired, ranking, write_paired
    from sim.lab.progress import SimulationInterrupted
    from sim.lab.text import comparison_text
    if not table.is_printed:
        typer.echo(f"cards edited [{table.hash}]: {table.describe()}")
    paired = play_paired(pols, levels, games, seed, options, threads, chunk,
                         keep_on_interrupt=True, cluster=dask, cards=table, quiet=quiet)
    if len(paired) == 0:
        raise SimulationInterrupted(0)
    comparison = compare_paired(paired)
    typer.echo(comparison_text(comparison, ranking(comparison) if len(pols) > 2 else None))
    if out is not None:
        write_paired(paired, out, force=True)
        typer.echo(f"wrote {len(paired):,} rows ({len(pols)} policies side by side) to {out}")
    if figure is not None:
        from sim.lab.plots import plot_paired_differences
        plot_paired_differences(comparison, figure)
        typer.echo(f"wrote {figure}")
    if paired.attrs["interrupted"]:
        raise SimulationInterrupted(len(paired))


@command(app)
def report(
    policies: PoliciesArg = None, level: LevelOpt = "all",
    games: Annotated[int, games_option("games per policy and level")] = 1_000_000,
    seed: SeedOpt = 1, option: OptionOpt = [],
    out: Annotated[Path, typer.Option(help="folder for policies.md and figures")]
    = Path("results"),
    threads: ThreadsOpt = None, force: ForceOpt = False, quiet: QuietOpt = False,
    cluster: ClusterOpt = None, chunk: ChunkOpt = None,
):
    """Compare policies (default: every built-in one) on every level, on the same deals:
    policies.md and figures.  Ctrl-C writes the report of the games finished."""
    from sim.lab.files import check_folder
    from sim.lab.progress import SimulationInterrupted
    from sim.lab.report import REPORT_FILES, policy_report
    levels = parse_levels(level)
    check_folder(out, REPORT_FILES, force)
    options = parse_options(option)
    pols = [load_policy(p) for p in policies or ()] or None
    with cluster_or_none(cluster) as dask:
        paired = policy_report(games, seed, out, threads, True, echo=typer.echo, policies=pols,
                               levels=levels, options=options, quiet=quiet, cluster=dask,
                               chunk=chunk)
    if len(paired) == 0 or paired.attrs["interrupted"]:
        raise SimulationInterrupted(len(paired))
