"""The ``friday`` command: simulate, replay, policies, report.

Every bad input (unknown policy, level 7, negative game count, existing output file, illegal
action...) ends with one clear ``error:`` line and exit code 2, never a traceback.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from .rules import MAX_SEED_TEXT, RuleError, check_level, parse_options

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="friday-lab: rules-exact simulation of the solo game Friday.\n\n"
                       "Rules: docs/RULES.md (the rulebook, rules cited as R1..R10 and options "
                       "§O); traces: docs/TRACE.md.")


def fail(message: str):
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def parse_levels(text: str) -> list[int]:
    if text == "all":
        return [1, 2, 3, 4]
    try:
        levels = [check_level(int(part)) for part in text.split(",")]
    except ValueError:
        raise RuleError(f"unknown level {text!r}: choose 1, 2, 3, 4, a list like 1,4, or all") from None
    if len(set(levels)) != len(levels):
        raise RuleError(f"level {text!r} names a level twice: the same games would count twice")
    return levels


def parse_params(pairs: list[str] | None) -> dict:
    out = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise RuleError(f"parameter {pair!r} must look like NAME=VALUE")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def check_seed(seed: int) -> int:
    from .rng import MAX_SEED
    if not 0 <= seed <= MAX_SEED:
        raise RuleError(f"seed {seed} out of range: use 0..{MAX_SEED_TEXT}")
    return seed


def check_game(game: int, name: str = "--game") -> int:
    from .rng import MAX_SEED
    if not 0 <= game <= MAX_SEED:
        raise RuleError(f"{name} {game} out of range: use 0..{MAX_SEED_TEXT}")
    return game


def check_out(out: Path | None, force: bool):
    if out is None:
        return
    if out.is_dir():
        raise RuleError(f"{out} is a folder: --out takes a file name ending in .parquet")
    if out.exists() and not force:
        raise RuleError(f"{out} exists: choose another file or pass --force to overwrite it")
    if out.suffix != ".parquet":
        raise RuleError(f"--out must end in .parquet, got {out.name!r}")
    parent = out.resolve().parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise RuleError(f"cannot write {out}: folder {parent} does not exist or is not writable")


@app.command()
def simulate(
    policy: str = typer.Option("expert", help="policy name (see `friday policies`) or file.py:function"),
    level: str = typer.Option("all", help="1, 2, 3, 4, a list like 1,4, or all"),
    games: int = typer.Option(100_000, help="games per level"),
    seed: int = typer.Option(1, help=f"master seed, 0..{MAX_SEED_TEXT}"),
    engine: str = typer.Option("fast", help="fast (Numba) or reference (plain Python)"),
    threads: Optional[int] = typer.Option(None, help="worker threads (default: all cores)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE (docs/RULES.md §O)"),
    param: List[str] = typer.Option([], "--param", help="policy parameter NAME=VALUE"),
    out: Optional[Path] = typer.Option(None, help="write one row per game to this .parquet file"),
    force: bool = typer.Option(False, help="overwrite --out if it exists"),
    summary_only: bool = typer.Option(False, "--summary-only",
                                      help="aggregate on the fly (flat memory, for 10^8 games)"),
    quiet: bool = typer.Option(False, "--quiet", help="no compile notice, no progress bar"),
):
    """Play GAMES games per level and print win rates (95% interval) and scores.

    Ctrl-C stops within a second and reports (and writes) every finished game, exit code 130.
    Rules: docs/RULES.md."""
    from .progress import SimulationInterrupted
    try:
        levels = parse_levels(level)
        if games <= 0:
            raise RuleError(f"--games must be positive, got {games}")
        check_game(games, "--games")
        if threads is not None and threads <= 0:
            raise RuleError(f"--threads must be positive, got {threads}")
        if engine not in ("fast", "reference"):
            raise RuleError(f"unknown engine {engine!r}: choose fast or reference")
        if summary_only and out is not None:
            raise RuleError("--summary-only keeps no rows: it cannot be combined with --out")
        if summary_only and engine == "reference":
            raise RuleError("--summary-only runs on the fast engine only: drop --engine "
                            "reference, or drop --summary-only to play the reference engine")
        check_seed(seed)
        check_out(out, force)
        options = parse_options(option)
        from policies import load_policy
        pol = load_policy(policy, parse_params(param))
        from .simulate import run_simulation
        run_simulation(levels, games, seed, pol, options, engine, threads, out, summary_only,
                       echo=typer.echo, quiet=quiet)
    except SimulationInterrupted as exc:
        if exc.games:
            typer.echo(f"{exc}: the results above cover the finished games only", err=True)
        raise typer.Exit(130)
    except KeyboardInterrupt:            # while compiling, or a second Ctrl-C
        typer.echo("\naborted: nothing more reported or written", err=True)
        raise typer.Exit(130)
    except RuleError as exc:
        fail(str(exc))


@app.command()
def replay(
    level: int = typer.Option(..., help="1-4"),
    seed: int = typer.Option(..., help="master seed"),
    game: int = typer.Option(0, help=f"game index, 0..{MAX_SEED_TEXT}"),
    policy: str = typer.Option("expert", help="policy name or file.py:function"),
    deal: Optional[Path] = typer.Option(None, help="deal file (JSON) fixing the initial stacks"),
    actions: Optional[Path] = typer.Option(None, help="file of textual actions to play (scripted)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE"),
    param: List[str] = typer.Option([], "--param", help="policy parameter NAME=VALUE"),
    format: str = typer.Option("text", "--format", help="text or jsonl"),
    engine: str = typer.Option("reference", help="reference or fast"),
    ids: bool = typer.Option(False, "--ids", help="text: tag every card with its id (#17)"),
):
    """Play one game and print its trace (docs/TRACE.md) or a play-by-play.  A scripted game
    that stops early (illegal action, list run out) prints the trace so far, then the error."""
    try:
        from .deal import load_deal
        from .trace import header
        check_level(level)
        check_seed(seed)
        check_game(game)
        if format not in ("text", "jsonl"):
            raise RuleError(f"unknown format {format!r}: choose text or jsonl")
        if engine not in ("fast", "reference"):
            raise RuleError(f"unknown engine {engine!r}: choose reference or fast")
        options = parse_options(option)
        deal_dict = load_deal(str(deal)) if deal else None
        if actions is not None:
            if engine == "fast":
                raise RuleError("--actions (scripted play) runs on the reference engine only")
            from policies.scripted import ScriptedPolicy
            pol = ScriptedPolicy.from_file(actions)
        else:
            from policies import load_policy
            pol = load_policy(policy, parse_params(param))
        head = header(engine, level, seed, game, pol.name, options)
        if engine == "reference":
            from .reference import Game
            played = Game(level, seed, game, pol, options, deal_dict)
            try:
                played.play()
            except RuleError:
                show_trace([head] + played.trace, format, ids)   # the game so far, then the error
                raise
            events = played.trace
        else:
            from .fast import play_fast
            events = play_fast(level, seed, game, pol, options, deal_dict)["trace"]
        show_trace([head] + events, format, ids)
    except RuleError as exc:
        fail(str(exc))


def show_trace(events, format: str, ids: bool):
    """JSON lines, or the readable log: coloured on a terminal (rich), plain otherwise."""
    import sys
    from .render import render_rich, render_text
    from .trace import to_jsonl
    if format == "jsonl":
        typer.echo(to_jsonl(events), nl=False)
    elif sys.stdout.isatty():
        from rich.console import Console
        Console(highlight=False, soft_wrap=True).print(render_rich(events, ids), end="")
    else:
        typer.echo(render_text(events, ids), nl=False)


@app.command()
def play(
    level: int = typer.Option(..., help="1-4"),
    seed: Optional[int] = typer.Option(None, help="master seed (default: a random one, printed)"),
    game: int = typer.Option(0, help="game index: game G of seed S is always the same deal"),
    hint: str = typer.Option("expert", help="policy that answers '?' (name or file.py:function)"),
    option: List[str] = typer.Option([], "--option", help="rule option NAME=VALUE"),
    ids: bool = typer.Option(False, "--ids", help="tag every card with its id (#17)"),
):
    """Play a whole game yourself: answer each decision by number or name, ? for a hint, q to
    leave (exit 0; Ctrl-C: 130).  Ends with the score and the built-in policies on the same deal."""
    try:
        import secrets
        from .play import play_in_terminal
        check_level(level)
        seed = secrets.randbelow(1 << 31) if seed is None else check_seed(seed)
        check_game(game)
        options = parse_options(option)
        from policies import load_policy
        load_policy(hint)                                   # a bad --hint fails before the game
        code = play_in_terminal(level, seed, game, hint, options, ids)
    except RuleError as exc:
        fail(str(exc))
    raise typer.Exit(code)


@app.command()
def policies():
    """List the policies, what they do, and their parameters."""
    from policies import builtin_policies
    for pol in builtin_policies().values():
        typer.echo(f"{pol.name:14s} {pol.description}")
        for name, value in zip(pol.param_names, pol.params):
            typer.echo(f"{'':14s}   --param {name}={value:g}")


@app.command()
def report(
    games: int = typer.Option(1_000_000, help="games per policy and level"),
    seed: int = typer.Option(1, help="master seed"),
    out: Path = typer.Option(Path("results"), help="folder for policies.md and figures"),
    threads: Optional[int] = typer.Option(None, help="worker threads"),
    force: bool = typer.Option(False, help="overwrite existing report files"),
    quiet: bool = typer.Option(False, "--quiet", help="no compile notice, no progress bar"),
):
    """Compare every built-in policy on every level: results/policies.md and figures."""
    from .progress import SimulationInterrupted
    try:
        if games <= 0:
            raise RuleError(f"--games must be positive, got {games}")
        check_game(games, "--games")
        if threads is not None and threads <= 0:
            raise RuleError(f"--threads must be positive, got {threads}")
        check_seed(seed)
        if out.exists() and not out.is_dir():
            raise RuleError(f"{out} is a file: --out takes a folder for the report files")
        from .report import policy_report
        policy_report(games, seed, out, threads, force, echo=typer.echo, quiet=quiet)
    except (SimulationInterrupted, KeyboardInterrupt):
        typer.echo("\ninterrupted: no report files written", err=True)
        raise typer.Exit(130)
    except RuleError as exc:
        fail(str(exc))


def main():
    """The ``friday`` command.  After Ctrl-C (exit code 130) the process ends at once, without
    the interpreter's teardown of Numba's threads and the loaded modules (about a second on a
    busy machine): the results are printed and any file written by then."""
    try:
        app()
    except SystemExit as exc:
        if exc.code == 130:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(130)
        raise


if __name__ == "__main__":
    main()
