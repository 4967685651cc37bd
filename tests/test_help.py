"""`friday --help` and every command's help read well in a terminal, and the CLI reference of the
site (docs/hooks.py) is generated from them: no emoji or other symbol from Rich's markup (its
`:b:` shortcode made "A:B:STEP" read "A🅱STEP"), no help text swallowed as a markup tag
(`'friday-lab[cluster]'`), no `<bool>` after `--help` or a flag, and no hard line break kept
from a docstring: each paragraph is rewrapped to the terminal's width."""
from __future__ import annotations

import re
import unicodedata

import pytest
import typer
from typer.testing import CliRunner

from sim.cli import app

ROOT_COMMAND = typer.main.get_command(app)
ALLOWED = set("§")                                 # the rulebook's options, "§O"


def command_paths(command=ROOT_COMMAND, path=()):
    yield path, command
    for name, child in sorted(getattr(command, "commands", {}).items()):
        yield from command_paths(child, path + (name,))


PATHS = list(command_paths())
IDS = ["friday " + " ".join(p) for p, _ in PATHS]


def help_of(path, width: int) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], terminal_width=width,
                                max_content_width=width)
    assert result.exit_code == 0, result.output
    return result.output


def squeeze(text: str) -> str:
    return " ".join(text.split())


def test_every_command_is_covered():
    names = {" ".join(p) for p, _ in PATHS}
    assert {"", "simulate", "compare", "report", "replay", "play", "policies", "tune", "balance",
            "balance pirates", "balance sweep"} <= names


@pytest.mark.parametrize("path, command", PATHS, ids=IDS)
def test_help_has_no_emoji_no_markup_loss_and_no_bool_flags(path, command):
    shown = help_of(path, 100)
    odd = sorted({c for c in shown if ord(c) > 127 and c not in ALLOWED})
    assert not odd, f"friday {' '.join(path)} --help shows {[unicodedata.name(c, c) for c in odd]}"
    assert "<bool>" not in shown, shown
    assert re.search(r"^\s*--help\s+Show this message and exit\.$", shown, re.M), shown
    wide = squeeze(help_of(path, 10_000))
    for param in command.params:
        if param.help:                          # every word of it, brackets included
            assert squeeze(param.help) in wide, (path, param.name, param.help)


@pytest.mark.parametrize("path, command", PATHS, ids=IDS)
def test_no_hard_line_break_from_a_docstring(path, command):
    """On a terminal wide enough, every paragraph of the command's help and every option's help
    is one line: the docstring's own line breaks are not kept."""
    lines = [squeeze(line) for line in help_of(path, 10_000).splitlines()]
    paragraphs = [squeeze(p) for p in re.split(r"\n\s*\n", command.help or "") if p.strip()]
    paragraphs += [squeeze(p.help) for p in command.params if p.help]
    for paragraph in paragraphs:
        assert any(paragraph in line for line in lines), \
            f"friday {' '.join(path)} --help breaks {paragraph!r} over lines"


def test_the_sweep_values_help_reads_as_written():
    shown = squeeze(help_of(("balance", "sweep"), 100))
    assert "values: A:B, A:B:STEP or A,B,C" in shown
    assert "'friday-lab[cluster]'" in squeeze(help_of(("simulate",), 10_000))
