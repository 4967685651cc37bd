"""Option types that several ``friday`` commands share beyond sim.cli.common's: one game's
level, index, deal, card ids and rollouts (replay, play, review, balance sweep, tune)."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .common import index_option

LevelNumber = Annotated[int, typer.Option(help="1-4")]
GameOpt = Annotated[int, index_option("game index: game G of seed S is always the same deal")]
DealOpt = Annotated[Optional[Path], typer.Option(help="deal file (JSON): the stacks")]
IdsOpt = Annotated[bool, typer.Option("--ids", help="tag every card with its id (#17)")]


def rollouts_option(help: str):
    """Continuations per action (fair rollouts, R1.4): 10 to 100,000."""
    return typer.Option(min=10, max=100_000, help=help)
