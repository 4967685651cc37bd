"""``friday balance pirates`` and ``friday balance sweep``: balance questions on the run
pipeline (sim.lab.run, sim.lab.balance), with --cluster, progress and Ctrl-C as everywhere."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, List, Optional

import typer

from sim.errors import UsageError
from sim.rules import check_level, parse_levels, parse_options
from .common import (CardsOpt, ChunkOpt, ClusterOpt, ForceOpt, LevelOpt, OptionOpt, ParamOpt,
                     PolicyOpt, QuietOpt, SeedOpt, SetOpt, ThreadsOpt, cluster_or_none, command,
                     games_option, load_cards, load_policy)
from .options import LevelNumber

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Balance questions: pirates compared, card values swept.")


def header(policy, engine, seed, options, cards, threads) -> str:
    """The run's header, as ``friday simulate`` and ``compare`` print it (sim.lab.simulate:
    policy, its file and hash, engine, seed, options, parameters, an edited card table), once
    every input is checked (``--threads`` too)."""
    from sim.lab.simulate import check_threads, header as run_header
    check_threads(threads)
    return run_header(policy, engine, seed, options, cards=cards)


@command(app, "pirates")
def pirates(
    policy: PolicyOpt = "expert", level: LevelOpt = "all",
    games: Annotated[int, games_option("games per level")] = 100_000,
    seed: SeedOpt = 1,
    out: Annotated[Optional[Path], typer.Option(help="folder for pirates.md, CSV tables, "
                                                     "figures")] = None,
    force: ForceOpt = False, threads: ThreadsOpt = None,
    what_if_games: Annotated[int, typer.Option(
        min=0, help="also sweep the hardest pirate's value at the highest level on this many "
                    "games per value (0: no)")] = 0,
    what_if_values: Annotated[Optional[str], typer.Option(
        help="values of the what-if sweep (default: 20 below the printed value to it, "
             "step 2)")] = None,
    option: OptionOpt = [], param: ParamOpt = [], cards: CardsOpt = None, set_: SetOpt = [],
    quiet: QuietOpt = False, cluster: ClusterOpt = None, chunk: ChunkOpt = None,
):
    """Per pirate and level: reached, beaten when faced (first, second, overall), win rate
    when drawn, ranked with significance; per pair: win rate.  Ctrl-C reports and writes the
    games finished."""
    from sim.lab import balance as B
    from sim.lab.balance_report import study_files
    from sim.lab.files import check_folder, command_line
    levels = parse_levels(level)
    check_folder(out, study_files(levels, bool(what_if_games)), force)
    options, table = parse_options(option), load_cards(cards, set_)
    if what_if_values is not None:
        B.parse_values(what_if_values)
    pol = load_policy(policy, param)
    connection = cluster_or_none(cluster)          # the address checked, nothing connected yet
    typer.echo(header(pol, "fast", seed, options, cards=table, threads=threads))
    with connection as dask:
        study = B.pirate_study(levels, games, seed, pol, table, options, threads, quiet, dask,
                               chunk)
        what_if = None if not what_if_games or study["interrupted"] else B.what_if_hardest(
            study, max(levels), what_if_values, what_if_games, seed, pol, table, options,
            threads, quiet, dask, chunk)
    _show_study(study, what_if, pol, table, out, command_line(force=True))   # remakes --out


def _show_study(study, what_if, pol, table, out, command_line):
    """Print each level's table (and the what-if sweep, unless Ctrl-C came before any of its
    games finished), write --out; Ctrl-C: what finished."""
    from sim.lab.balance_report import sweep_markdown, terminal_table, write_study
    from sim.lab.progress import SimulationInterrupted
    stopped = what_if is not None and what_if["interrupted"]
    what_if = what_if if what_if and what_if["games"] else None
    for lv, n in study["level_games"].items():
        typer.echo(f"level {lv}: {n:,} games, policy {pol.name}, cards {table.describe()}")
        typer.echo(terminal_table(study["pirates"][study["pirates"]["level"] == lv]))
    if what_if is not None:
        typer.echo("\n".join(sweep_markdown(what_if)))
    if out is not None and study["level_games"]:
        write_study(out, study, pol.name, command_line, table, what_if)
        typer.echo(f"wrote pirates.md, pirates.csv, pirate_pairs.csv and figures to {out}/")
    if study["interrupted"] or stopped:
        raise SimulationInterrupted(sum(study["level_games"].values()))


def parse_target_rate(text: str | None) -> float | None:
    if text is None:
        return None
    t = text.strip()
    try:
        v = float(t[:-1]) / 100 if t.endswith("%") else float(t)
    except ValueError:
        raise UsageError(f"--target {text!r} must be a win rate like 0.2 or 20%") from None
    if not 0 < v < 1:
        raise UsageError(f"--target {text!r} must be a win rate strictly between 0 and 1")
    return v


@command(app, "sweep")
def sweep(
    set_: Annotated[List[str], typer.Option(
        "--set", help="the CARD.FIELD to sweep (once), and any fixed CARD.FIELD=VALUE edits")],
    values: Annotated[str, typer.Option(help="values: A:B, A:B:STEP or A,B,C")],
    policy: PolicyOpt = "expert",
    level: LevelNumber = 4,
    games: Annotated[int, games_option("games per value (the same deals for every value)")]
    = 100_000,
    seed: SeedOpt = 1,
    target: Annotated[Optional[str], typer.Option(
        help="find the value giving this win rate (0.2 or 20%); default for a pirate: beaten "
             "when faced as often as the median other pirate")] = None,
    bootstrap: Annotated[int, typer.Option(min=0, help="bootstrap replicates for the interval "
                                                       "of that value")] = 200,
    out: Annotated[Optional[Path], typer.Option(help="write the figure to this .png file")]
    = None,
    csv: Annotated[Optional[Path], typer.Option(help="write the table to this .csv file")] = None,
    force: ForceOpt = False, threads: ThreadsOpt = None, option: OptionOpt = [],
    param: ParamOpt = [], cards: CardsOpt = None, quiet: QuietOpt = False,
    cluster: ClusterOpt = None, chunk: ChunkOpt = None,
):
    """Win rate (and a pirate's beaten-when-faced rate) against one card field's value, on
    the same deals for every value, and the value where the card is as hard as the median
    pirate (or gives --target).  Ctrl-C reports and writes the games finished."""
    from sim.lab import balance as B
    from sim.lab.files import check_file
    check_level(level)
    swept, fixed = _swept_and_fixed(set_)
    check_file(out, (".png",), force)
    check_file(csv, (".csv",), force, "csv")
    rate, options = parse_target_rate(target), parse_options(option)
    table, vals, pol = load_cards(cards, fixed), B.parse_values(values), load_policy(policy, param)
    B.sweep_tables(swept, vals, table)             # every value checked before the header
    connection = cluster_or_none(cluster)          # the address checked, nothing connected yet
    typer.echo(header(pol, "fast", seed, options, cards=table, threads=threads))
    with connection as dask:
        res = B.sweep(swept, vals, level, games, seed, pol, table, options, threads, rate,
                      bootstrap, quiet, dask, chunk)
    _show_sweep(res, level, pol, table, csv, out)


def _swept_and_fixed(sets: list[str]) -> tuple[str, list[str]]:
    """The one CARD.FIELD to sweep (checked) and the CARD.FIELD=VALUE edits."""
    from sim.cardtable import parse_target
    swept = [s for s in sets if "=" not in s]
    if len(swept) != 1:
        raise UsageError("give exactly one --set CARD.FIELD without a value (the field to "
                         f"sweep); got {len(swept)}: {', '.join(swept) or 'none'}")
    parse_target(swept[0])
    return swept[0], [s for s in sets if "=" in s]


def _show_sweep(res, level, pol, table, csv, out):
    from sim.lab.balance_report import sweep_figure, sweep_markdown, write_sweep_csv
    from sim.lab.progress import SimulationInterrupted
    if res["games"] == 0:
        raise SimulationInterrupted(0)
    typer.echo(f"sweep of {res['label']} {res['field']}, level {level}, policy {pol.name}, "
               f"{res['games']:,} games per value (seed {res['seed']}, same deals), cards "
               f"{table.describe()}")
    typer.echo("\n".join(sweep_markdown(res)))
    if csv is not None:
        write_sweep_csv(res, csv)
        typer.echo(f"wrote {csv}" + ("" if not res["interrupted"] else
                                     " (marked complete=False: the games finished)"))
    if out is not None:
        sweep_figure(res, out, pol.name)
        typer.echo(f"wrote {out}")
    if res["interrupted"]:
        raise SimulationInterrupted(res["games"])
