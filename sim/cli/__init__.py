"""The ``friday`` command: one module per family of commands, each command one function.

* ``sim.cli.games``: simulate, compare, report (many games, sim.lab.run);
* ``sim.cli.one_game``: replay, play, policies;
* ``sim.cli.review``: review (one game, every decision scored by fair rollouts);
* ``sim.cli.balance``: balance pirates, balance sweep;
* ``sim.cli.tune``: tune (a policy's parameters, Optuna);
* ``sim.cli.train``: train (the learned policy's network);
* ``sim.cli.common``: the shared option types and the one place where bad input becomes an
  ``error:`` line (exit code 2) and Ctrl-C exit code 130.

Every bad input (unknown policy, level 7, negative game count, existing output file, illegal
action...) ends with one clear ``error:`` line and exit code 2, never a traceback.
"""
import os
import sys

import typer

from . import balance, games, one_game, review, train, tune

# rich_markup_mode=None: Click's plain help, every paragraph rewrapped to the terminal; Rich's
# markup would read "A:B:STEP" as an emoji, '[cluster]' as a tag, and show `--help <bool>`.
app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="friday-lab: rules-exact simulation of the solo game Friday.\n\n"
                       "Rules: docs/RULES.md (the rulebook, rules cited as R1..R10 and options "
                       "§O); traces: docs/TRACE.md.")
app.registered_commands += (games.app.registered_commands + one_game.app.registered_commands
                            + review.app.registered_commands + tune.app.registered_commands
                            + train.app.registered_commands)
app.add_typer(balance.app, name="balance")


def _print_version(asked: bool):
    if asked:
        from sim import __version__
        print(f"friday-lab {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", is_eager=True,
                                          callback=_print_version,
                                          help="Print friday-lab's version and exit.")):
    pass


def main():
    """The ``friday`` command.  A mistyped command, option or value is one ``error:`` line
    (exit code 2), as every other bad input.  After Ctrl-C (exit code 130) the process ends at
    once, without the interpreter's teardown of Numba's threads and the loaded modules (about a
    second on a busy machine): the results are printed and any file written by then."""
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:        # Click's usage errors (typer vendors Click)
        if type(exc).__name__ == "NoArgsIsHelpError":
            app()                                # a bare command group: its help, as ever
        ctx = getattr(exc, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        print(f"error: {exc.format_message()}{where}", file=sys.stderr)
        code = 2
    except typer.Abort:
        print("Aborted!", file=sys.stderr)
        code = 1
    except SystemExit as exc:
        code = exc.code
    if code == 130:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(code if isinstance(code, int) else 0)
