"""The fenced examples of a Markdown page (the site's pages under docs/, the README), run as a
reader runs them: in order, in a fresh folder that holds a copy of ``examples/``.

* A block with a title (```` ```python title="mine.py" ````) is a file the reader saves: it is
  written into the folder under that name.
* A ```` ```bash ```` block is commands the reader types: every command is a ``friday ...``
  command (lines ending in ``\\`` continue, ``#`` starts a comment), run in this process
  through the Typer app (``sim.cli.app``) and expected to end with exit code 0.
* A ```` ```python ```` block without a title is code the reader runs: executed in this
  process, in a fresh namespace.
* Any other block (``console``, ``text``, ``json``...) is only shown: ``console`` for commands
  that are not run (installs, a cluster of several machines, hours of games).

Used by tests/test_site.py and tests/test_readme.py.
"""
from __future__ import annotations

import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)"
                   r"^(?P=indent)(?P=fence)[ \t]*$", re.M | re.S)
TITLE = re.compile(r"""title=["']([^"']+)["']""")
RUN = ("bash", "python")


@dataclass(frozen=True)
class Block:
    lang: str
    title: str | None
    body: str
    line: int

    @property
    def runs(self) -> bool:
        return self.lang in RUN or self.title is not None


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block of a Markdown text, in order (blocks indented in a list item or an
    admonition included, their indentation removed)."""
    blocks = []
    for m in FENCE.finditer(text):
        info = m.group("info").strip().lstrip("{").rstrip("}").strip()
        lang = info.split()[0].lstrip(".") if info else ""
        title = TITLE.search(info)
        indent = len(m.group("indent"))
        body = "\n".join(line[indent:] for line in m.group("body").splitlines())
        blocks.append(Block(lang, title.group(1) if title else None, body + "\n",
                            text.count("\n", 0, m.start()) + 1))
    return blocks


def shell_commands(body: str) -> list[list[str]]:
    """The commands of a bash block, each as its argument list."""
    joined = re.sub(r"\\\n\s*", " ", body)
    return [argv for line in joined.splitlines() if (argv := shlex.split(line, comments=True))]


def prepare(folder: Path) -> Path:
    """A folder as a reader's working folder: a copy of the repository's examples/."""
    shutil.copytree(ROOT / "examples", folder / "examples")
    return folder


def run_block(block: Block, folder: Path, where: str) -> None:
    """Run one block as the reader would (the current folder must be ``folder``)."""
    from typer.testing import CliRunner

    from sim.cli import app
    if block.title is not None:
        (folder / block.title).parent.mkdir(parents=True, exist_ok=True)
        (folder / block.title).write_text(block.body, encoding="utf-8")
    elif block.lang == "bash":
        for argv in shell_commands(block.body):
            assert argv[0] == "friday", \
                f"{where}: a bash block runs friday commands only (use console to show others): {argv}"
            result = CliRunner().invoke(app, argv[1:])
            assert result.exit_code == 0, \
                f"{where}: {shlex.join(argv)} ended with exit code {result.exit_code}:\n" \
                f"{result.output}\n{result.exception!r}"
    elif block.lang == "python":
        exec(compile(block.body, where, "exec"), {"__name__": "__main__"})
