"""What ``friday tune`` shows while it runs: one rich progress bar of the trials, with the
best so far, and one of the games of the trial in flight (standard error, a terminal only,
not ``--quiet``), as sim.lab.progress draws the other commands' bars.  Lines printed (with
``print``) while it is drawn go above it when standard output is the terminal too, and
straight to standard output when that is a file or a pipe.  Each trial's games run
through sim.lab.run (``Run``: chunks, the backend, Ctrl-C), quietly: its own bar is this one."""
from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeRemainingColumn)

from .run import Plan, Run, Setup


class TrialBar:
    """``with TrialBar(quiet, trials, games, done, best) as bar: agg = bar.play(q, variant,
    backend)``: the aggregate vector of one trial's games, or None when Ctrl-C stopped them."""

    def __init__(self, quiet: bool, trials: int, games: int, done: int, best: str):
        console = Console(stderr=True)
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[unit]}"), TimeRemainingColumn(),
            TextColumn("{task.fields[best]}"), console=console, auto_refresh=False,
            disable=quiet or not console.is_terminal, redirect_stdout=sys.stdout.isatty())
        self.trials = self.progress.add_task("trials", total=trials, completed=min(done, trials),
                                             unit="trials", best=best)
        self.games = self.progress.add_task("trial", total=games, unit="games",
                                            best="", start=False)

    def __enter__(self) -> "TrialBar":
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        self.progress.__exit__(*exc)

    def play(self, q, variant, backend, number: int):
        """Trial ``number``'s games (level q.level, games 0..q.games-1 of q.seed), summed in
        summary mode."""
        plan = Plan((Setup(variant, q.options),), (q.level,), q.games, q.seed, summary=True)
        self.progress.reset(self.games, total=q.games, description=f"trial {number}")
        self.progress.start_task(self.games)
        total = None
        with Run(plan, backend, quiet=True) as run:
            for part in run:
                total = part.results[0] if total is None else total + part.results[0]
                self.progress.advance(self.games, part.count)
                self.progress.refresh()
        return None if run.interrupted else total

    def trial_done(self, done: int, best: str):
        self.progress.update(self.trials, completed=done, best=best)
        self.progress.refresh()
