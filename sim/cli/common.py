"""What every ``friday`` command shares: the option types, the checks Typer cannot make, and
the one place where a RuleError or OSError becomes an ``error:`` line (exit code 2) and
Ctrl-C becomes exit code 130 after what was finished has been reported."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, List, Literal, Optional

import typer

from sim.errors import FridayError
from sim.rng import MAX_SEED
from sim.rules import RuleError, name_values

Engine = Literal["fast", "reference"]


def games_option(help: str):
    return typer.Option(min=1, max=MAX_SEED, help=help)


def index_option(help: str):
    return typer.Option(min=0, max=MAX_SEED, help=f"{help}, 0..{MAX_SEED}")


PolicyOpt = Annotated[str, typer.Option(help="policy name (see `friday policies`), "
                                             "'NAME[PARAM=VALUE,...]' or file.py:function")]
LevelOpt = Annotated[str, typer.Option(help="1, 2, 3, 4, a list like 1,4, or all")]
SeedOpt = Annotated[int, index_option("master seed")]
ThreadsOpt = Annotated[Optional[int], typer.Option(min=1, help="worker threads (default: all "
                                                              "cores)")]
OptionOpt = Annotated[List[str], typer.Option(help="rule option NAME=VALUE (docs/RULES.md §O)")]
ParamOpt = Annotated[List[str], typer.Option(help="policy parameter NAME=VALUE")]
ForceOpt = Annotated[bool, typer.Option(help="overwrite output files that exist")]
QuietOpt = Annotated[bool, typer.Option("--quiet", help="no compile notice, no progress bar")]
CardsOpt = Annotated[Optional[Path], typer.Option(
    "--cards", help="a whole card table in the format of sim/data/cards.csv (what-if)")]
SetOpt = Annotated[List[str], typer.Option(
    "--set", help="edit the card table: CARD.FIELD=VALUE, e.g. 63.pirate_hazard_value=35 "
                  "(repeatable)")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    help="run on Dask: local:N (N worker processes here) or tcp://host:8786 (a running "
         "scheduler); needs pip install 'friday-lab[cluster]'")]
ChunkOpt = Annotated[Optional[int], typer.Option(
    min=1, help="games per chunk (default: about 0.25 s of games in this process, 100,000 per "
                "task on a cluster)")]


def command(app: typer.Typer, name: str | None = None):
    """``@command(app)``: a Typer command whose bad input (RuleError) and files that cannot be
    read or written (OSError) are one ``error:`` line, exit code 2.  Ctrl-C: exit code 130,
    after the command has reported and written what finished (SimulationInterrupted) or at
    once (KeyboardInterrupt)."""
    def register(f):
        @functools.wraps(f)
        def body(*args, **kwargs):
            from sim.lab.progress import SimulationInterrupted
            try:
                return f(*args, **kwargs)
            except SimulationInterrupted as exc:
                typer.echo(f"{exc}: the results above cover the finished games only" if exc.games
                           else "interrupted before any game finished: nothing reported or "
                                "written", err=True)
                raise typer.Exit(130)
            except KeyboardInterrupt:
                typer.echo("\naborted: nothing more reported or written", err=True)
                raise typer.Exit(130)
            except FridayError as exc:         # RuleError, UsageError, MissingExtra
                message = str(exc)
            except OSError as exc:
                where = f"{exc.filename}: " if exc.filename else ""
                message = f"{where}{exc.strerror or exc}"
            typer.echo(f"error: {message}", err=True)
            raise typer.Exit(2)
        return app.command(name)(body)
    return register


def load_policy(spec: str, params: list[str] | None = None):
    """The policy of a spec with --param NAME=VALUE settings."""
    from policies import load_policy as load
    return load(spec, name_values(params, "parameter"))


def load_cards(cards: Path | None, sets: list[str] | None):
    """The run's card table (sim.cardtable): --cards FILE, then every --set."""
    from sim.cardtable import build
    return build(cards, sets)


def cluster_or_none(address: str | None, engine: str = "fast"):
    """The Dask connection of --cluster (a context manager, sim.lab.cluster), checked before
    anything starts; a no-op one without it."""
    import contextlib
    if address is None:
        return contextlib.nullcontext(None)
    if engine != "fast":
        raise RuleError("--cluster runs the fast engine only")
    from sim.lab.cluster import Cluster, parse_address
    parse_address(address)
    return Cluster(address)
