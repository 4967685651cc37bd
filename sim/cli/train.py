"""``friday train``: the learned policy's network trained on fair rollout evaluations
(sim.lab.train), its weights written as a file that ``learned[weights=FILE]`` plays."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Optional

import typer

from sim.rules import parse_levels
from .common import ClusterOpt, ForceOpt, LevelOpt, QuietOpt, SeedOpt, cluster_or_none, command

app = typer.Typer()
ContinuationOpt = Annotated[str, typer.Option(help="who plays the continuations: veteran, or "
                                              "current (expert iteration: each round's own "
                                              "player)")]
WarmOpt = Annotated[bool, typer.Option("--warm/--no-warm", help="start each round's fit from "
                                       "the network before it (round 0: --start's file) "
                                       "instead of random weights")]
StartOpt = Annotated[str, typer.Option(help="round 0's player: veteran, or a weights file "
                                       "(learned[weights=FILE] plays it)")]
FitsOpt = Annotated[int, typer.Option(min=1, max=16, help="networks of the last fit (on "
                                      "every round's records; random seeds SEED, SEED+1, "
                                      "...), played as one: the mean of their outputs, each "
                                      "adding one network's time to a game")]


@command(app)
def train(
    out: Annotated[Path, typer.Option(help="the weights file to write (.json); the shipped "
                                           "one is policies/learned.json")],
    data: Annotated[Path, typer.Option(help="folder for the gathered records (one file per "
                                            "chunk): a rerun continues from what it holds")],
    level: LevelOpt = "all", seed: SeedOpt = 11,
    games: Annotated[int, typer.Option(min=1, max=1_000_000,
                                       help="games per round and level")] = 200,
    rounds: Annotated[int, typer.Option(min=1, max=20, help="rounds: the first played by "
                                        "--start, each later one by the network so "
                                        "far")] = 3,
    rollouts: Annotated[int, typer.Option(min=1, max=100_000, help="fair continuations "
                                          "per decision, every legal action on each")] = 100,
    hidden: Annotated[int, typer.Option(min=1, max=1024, help="hidden units")] = 128,
    continuation: ContinuationOpt = "veteran", start: StartOpt = "veteran",
    warm: WarmOpt = False, fits: FitsOpt = 1,
    workers: Annotated[Optional[int], typer.Option(min=1, help="worker processes (default: "
                                                   "all cores)")] = None,
    force: ForceOpt = False, quiet: QuietOpt = False, cluster: ClusterOpt = None,
):
    """Train the learned policy: gather every legal action's winning chance at the hazard and
    fight decisions of GAMES games per level and round (fair rollouts, as friday review),
    fit a small network to them, write its weights to --out.  With --continuation current
    the continuations of each round are played by that round's player (expert iteration).
    Ctrl-C keeps every finished chunk in --data: the same command continues."""
    from sim.lab.files import check_file, command_line
    from sim.lab.train import Plan, check_data_folder, check_paths, check_trainer
    check_trainer()
    start = start if start == "veteran" else os.path.expanduser(start)     # as weights=
    plan = Plan(tuple(parse_levels(level)), seed, games, rounds, rollouts, hidden=hidden,
                continuation=continuation, start=start, warm=warm, fits=fits)
    check_paths(out, data)
    check_file(out, (".json",), force)
    check_data_folder(data, plan)
    made_by = command_line()
    _announce(plan, data)
    with cluster_or_none(cluster) as dask:
        result = _run(plan, data, made_by, _backend(dask, workers, plan.chunk), quiet)
    _write(out, *result)


def _announce(plan, data: Path):
    who = "the veteran" if plan.continuation == "veteran" else "each round's player"
    typer.echo(f"friday train: levels {','.join(map(str, plan.levels))}, {plan.games} games "
               f"per level in each of {plan.rounds} rounds (seed {plan.seed}), "
               f"{plan.rollouts} continuations per decision played by {who}, records in "
               f"{data}/")


def _backend(dask, workers, chunk):
    """The lab's run backend: the Dask cluster of --cluster, else local worker processes."""
    import os
    from sim.lab.run import OnCluster, Processes
    if dask is not None:
        return OnCluster(dask, chunk)
    return Processes(workers or os.cpu_count() or 1, chunk)


def _run(plan, data, made_by, backend, quiet):
    from sim.lab.train import train as run
    result = run(plan, data, made_by, backend, quiet)
    if result is None:
        typer.echo(f"interrupted: the finished chunks are kept in {data}/; the same command "
                   "continues", err=True)
        raise typer.Exit(130)
    return result


def _write(out: Path, text: str, record: dict):
    from sim.lab.files import write_text
    write_text(out, text)
    data, fit = record["data"], record["fit"]
    typer.echo(f"{data['decisions']:,} decisions ({data['candidates']:,} candidates) from "
               f"{data['games']:,} games; {_held_out(fit)}")
    if fit["iterations"] >= record["plan"]["max_iter"]:
        typer.echo(f"the fit used all {fit['iterations']} iterations without settling: more "
                   "games give a steadier network")
    typer.echo(f"wrote {out}: play it as learned[weights={out}]")


def _held_out(fit: dict) -> str:
    """The held-out figures, or what these games are too few to measure."""
    n = fit["held_out_decisions"]
    if not n:
        return ("held out: no decision (every tenth game is held out; these games are too "
                "few): accuracy not measured")
    corr = fit["held_out_correlation"]
    corr = "not measured (no spread)" if corr is None else corr
    return (f"held out: correlation {corr}, best action agreed "
            f"{fit['held_out_best_agrees']:.1%}, chance lost "
            f"{fit['held_out_chance_lost_per_decision']:.4f} per decision")
