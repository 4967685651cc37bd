"""MkDocs hooks of the friday-lab site (``hooks:`` in mkdocs.yml): what the site takes from the
code and the repository instead of from hand-written text.

* ``results/``: every results file is on the site at its own path.  A ``results/NAME.md``
  becomes the page ``results/NAME.md`` as written, unless ``docs/results/NAME.md`` exists (a
  page that includes it with ``--8<--`` and adds its figures); its figures, tables and text
  files (png, csv, txt) are copied beside it.  Numbers are never typed into a page.
* ``notebooks/*.ipynb``: rendered by mkdocs-jupyter, with the outputs they were committed with.
* ``reference/cli.md``: the reference of the ``friday`` command, rendered from the Typer app
  (``sim.cli.app``) and its help texts: every command, argument and option.
* Placeholders in a page, one per line: ``<!-- friday:made-by -->`` (a table of every results
  file and the command that made it), ``<!-- friday:actions -->`` and
  ``<!-- friday:observation -->`` (the vocabulary, from ``sim.actions`` and
  ``sim.observation``), ``<!-- friday:policies -->`` (the built-in policies and their
  parameters), ``<!-- friday:csv PATH -->`` (a CSV file of the repository as a table).
  An unknown placeholder fails the build.
"""
from __future__ import annotations

import csv
from fnmatch import fnmatch
import posixpath
import re
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:           # the build imports sim.cli, sim.actions, sim.observation
    sys.path.insert(0, str(ROOT))

STATIC = (".png", ".csv", ".txt", ".svg")
PLACEHOLDER = re.compile(r"^<!-- friday:(\S+)(?: (\S+))? -->$", re.M)


def on_config(config):
    """Included files (pymdownx.snippets) are read from the repository's root, wherever mkdocs
    is started from."""
    config.mdx_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(ROOT)]
    return config


@event_priority(50)                    # before mkdocs-jupyter's on_files sees the notebooks
def on_files(files: Files, config) -> Files:
    for path in sorted((ROOT / "results").rglob("*")):
        uri = path.relative_to(ROOT).as_posix()
        if path.suffix in STATIC or (path.suffix == ".md" and files.get_file_from_path(uri) is None):
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        files.append(File(f"notebooks/{path.name}", src_dir=str(ROOT), dest_dir=config.site_dir,
                          use_directory_urls=config.use_directory_urls))
    files.append(File.generated(config, "reference/cli.md", content=cli_reference()))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    def replace(match: re.Match) -> str:
        name, argument = match.groups()
        if name not in PLACEHOLDERS:
            raise ValueError(f"{page.file.src_uri}: unknown placeholder friday:{name}")
        return PLACEHOLDERS[name](argument, posixpath.dirname(page.file.src_uri))
    return PLACEHOLDER.sub(replace, markdown)


# --- the command line ---------------------------------------------------------------------------

def cli_reference() -> str:
    """Every command of ``friday`` with its help, usage, arguments and options, from the Typer
    app itself (so the page can only say what ``friday COMMAND --help`` says)."""
    import typer
    from sim.cli import app
    root = typer.main.get_command(app)
    out = ["# Command line: `friday`", "",
           "Generated from the Typer app (`sim.cli.app`) when the site is built: each section says "
           "what `friday COMMAND --help` says. The how-to guides show the commands at work.", ""]
    out += _command(root, typer.Context(root, info_name="friday"), ["friday"], level=2)
    return "\n".join(out) + "\n"


def _command(command, ctx, path: list[str], level: int) -> list[str]:
    import typer
    out = [f"{'#' * level} `{' '.join(path)}`" if level > 2 else "## Overview", ""]
    out += [_text(command.help or ""), ""]
    pieces = " ".join(command.collect_usage_pieces(ctx))
    out += ["```text", f"{' '.join(path)} {pieces}".rstrip(), "```", ""]
    rows = [_param_row(p, ctx) for p in command.get_params(ctx) if p.name != "help"]
    if rows:
        out += ["| argument or option | value | default | meaning |", "|---|---|---|---|"] + rows + [""]
    sub = getattr(command, "commands", None)
    if sub:
        out += ["| command | what it does |", "|---|---|"]
        out += [f"| [`{name}`](#{'-'.join(path + [name])}) | "
                f"{_cell(_first_paragraph(sub[name].help or ''))} |" for name in command.list_commands(ctx)]
        out.append("")
        for name in command.list_commands(ctx):
            child = sub[name]
            child_ctx = typer.Context(child, parent=ctx, info_name=name)
            out += _command(child, child_ctx, path + [name], level + 1 if level > 2 else 3)
    return out


def _param_row(param, ctx) -> str:
    """One row from the parameter's help record, the very text ``--help`` prints for it: its
    name and value, and its help with the trailing ``[default: ...; range]`` split off."""
    names, help_text = param.get_help_record(ctx)
    names, _, value = names.partition(" ")
    if param.secondary_opts:
        names, value = " / ".join(param.opts + param.secondary_opts), ""
    notes = re.search(r"\s*\[([^\[\]]*)\]$", help_text or "")
    default, extra = "", []
    if notes and re.match(r"(default: |required|x>=|x<=|\d+<=x)", notes.group(1)):
        help_text = help_text[:notes.start()]
        for note in notes.group(1).split("; "):
            if note.startswith("default: "):
                default = f"`{note.removeprefix('default: ')}`"
            elif note == "required":
                default = "required"
            else:
                extra.append(note.replace(str(2 ** 63 - 1), "2⁶³−1"))
    choices = re.fullmatch(r"<([\w-]+(?:\|[\w-]+)+)>", value)
    value = " \\| ".join(f"`{c}`" for c in choices.group(1).split("|")) if choices else \
        (f"`{value}`" if value else "")
    value = " ".join(([value] if value else []) + extra)
    if getattr(param, "multiple", False):
        value += " (repeatable)"
    names = " / ".join(f"`{n}`" for n in names.split(" / "))
    return f"| {names} | {value} | {default} | {_cell(_text(help_text or ''))} |"


def _text(text: str) -> str:
    """A help text as Markdown: paragraphs kept, lines joined, Typer's \\b markers dropped."""
    paragraphs = [" ".join(line.strip() for line in p.splitlines() if line.strip() != "\b")
                  for p in re.split(r"\n\s*\n", text.strip())]
    return "\n\n".join(p for p in paragraphs if p)


def _first_paragraph(text: str) -> str:
    return _text(text).split("\n\n")[0]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n\n", "<br>").replace("<L>", "&lt;L&gt;")


# --- the vocabulary -------------------------------------------------------------------------------

def actions_table(_=None, here="") -> str:
    """The action space, from sim.actions: the ids and names from its constants, the meanings
    from the table of its docstring (the one place they are written)."""
    from sim import actions as A
    from sim.cards import N_CARDS
    meaning = _action_meanings(A.__doc__)
    rows = [f"| {i} | `{name}` | {meaning[name]} |" for i, name in enumerate(A.SIMPLE_NAMES)]
    for family in A.FAMILIES:
        base = A.FAMILY_BASE[family]
        rows.append(f"| {base}..{base + N_CARDS - 1} | `{family}:<c>` (id {base} + c) | "
                    f"{meaning[family]} |")
    return "\n".join(["| id | name | meaning |", "|---|---|---|", *rows,
                      "", f"{A.N_ACTIONS} actions in all (`sim.actions.N_ACTIONS`), "
                      f"c a card id 0..{N_CARDS - 1}."])


def _action_meanings(doc: str) -> dict[str, str]:
    """name (``end``, or a family such as ``fight``) -> meaning, read from the reST table of
    sim.actions' docstring: an entry starts with text in the first column."""
    lines = doc.splitlines()
    borders = [i for i, line in enumerate(lines) if line.startswith("====")]
    width = len(lines[borders[0]].split()[0]) + 2
    entries: list[list[str]] = []
    for line in lines[borders[1] + 1:borders[2]]:
        if line[:width].strip():
            entries.append([line[:width].strip(), line[width:].strip()])
        else:
            entries[-1][1] += " " + line.strip()
    out = {}
    for key, text in entries:
        name = re.search(r"``([a-z]+)(?::<c>)?``", key + " " + text).group(1)
        out[name] = re.sub(r"\s*``[a-z]+(?::<c>)?``\s*", "", text).replace("``", "`").strip()
    return out


def observation_table(_=None, here="") -> str:
    from sim import observation as O
    from sim.cards import N_CARDS
    meanings = _scalar_meanings()
    def meaning(name: str) -> str:
        text = next((t for pattern, t in meanings.items() if fnmatch(name, pattern)), "")
        return f": {text}" if text else ""
    rows = [f"| {i} | `O.O_{name.upper()}` | `{name}`{meaning(name)} |"
            for i, name in enumerate(O.SCALAR_NAMES)]
    blocks = [
        ("ZONE", O.ZONE, O.ZONE + N_CARDS - 1, "the zone of card c: `obs[O.ZONE + c]`, one of "
         + ", ".join(f"{i} `{z}`" for i, z in enumerate(O.ZONE_NAMES))),
        ("FLAGS", O.FLAGS, O.FLAGS + N_CARDS - 1, "fight flags of card c (bits: "
         f"{O.F_FACE_DOWN} face down, {O.F_DOUBLED} doubled, {O.F_USED} ability used)"),
        ("O_N_FIGHT", O.O_N_FIGHT, O.O_N_FIGHT, "cards in the fight"),
        ("O_DECK_N", O.O_DECK_N, O.O_DECK_N, "Robinson's cards in his stack and discard"),
        ("O_DECK_SUM", O.O_DECK_SUM, O.O_DECK_SUM, "their fight values summed"),
        ("O_STACK_VALUE", O.O_STACK_VALUE, O.O_STACK_VALUE + O.MAX_VALUE - 1,
         "`obs[O.O_STACK_VALUE + v - 1]`: cards of value v in the Robinson stack"),
        ("FIGHT_LIST", O.FIGHT_LIST, O.FIGHT_LIST + O.N_FIGHTING - 1,
         "the fight's cards by ascending id, then -1"),
        ("O_FIGHT_TOTAL", O.O_FIGHT_TOTAL, O.O_FIGHT_TOTAL,
         "the fight's total as R4.6 counts it now (0 outside a fight)"),
        ("O_EFFECTIVE_VALUE", O.O_EFFECTIVE_VALUE, O.O_EFFECTIVE_VALUE,
         "the value that total is compared with (R5.7, R9.5; 0 outside a fight)"),
    ]
    blocks += [(f"CT + {k} × {N_CARDS}", O.CT + k * N_CARDS, O.CT + (k + 1) * N_CARDS - 1,
                f"card table: `{row}` of card c") for k, row in enumerate(O.CT_ROWS)]
    rows += [f"| {lo}..{hi} | `O.{name}` | {text} |" if hi > lo else f"| {lo} | `O.{name}` | {text} |"
             for name, lo, hi, text in blocks]
    phases = ", ".join(f"{i} `{p}`" for i, p in enumerate(O.PHASE_NAMES))
    return "\n".join(["| index | constant | what |", "|---|---|---|", *rows, "",
                      f"{O.OBS_SIZE} entries in all (`O.OBS_SIZE`). Phases "
                      f"(`obs[O.O_PHASE]`): {phases}."])


def _scalar_meanings() -> dict[str, str]:
    """name -> meaning, from the comment "Meaning of the scalars that need one" of
    sim/observation.py (the one place they are written)."""
    lines = (ROOT / "sim" / "observation.py").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "Meaning of the scalars" in line)
    out, name = {}, None
    for line in lines[start + 1:]:
        if not line.startswith("#"):
            break
        entry = re.match(r"#   ([\w*]+)\s+(.*)", line)
        if entry:
            name, out[entry.group(1)] = entry.group(1), entry.group(2).strip()
        elif line.startswith("#" + " " * 10) and name:
            out[name] += " " + line.strip("# ").strip()
        else:
            name = None
    return out


def policies_table(_=None, here="") -> str:
    """The built-in policies (``friday policies``): name, what it does, parameters and
    defaults, from the policy modules themselves."""
    from policies import builtin_policies
    rows = []
    for pol in builtin_policies(search=True).values():
        params = [f"`{n}={v:g}`" for n, v in zip(pol.param_names, pol.params)]
        params += [f"`{k}={v}`" for k, v in getattr(pol, "text_params", {}).items()]
        rows.append(f"| `{pol.name}` | {_cell(pol.description)} | {', '.join(params)} |")
    return "\n".join(["| policy | what it does | parameters (defaults) |", "|---|---|---|", *rows])


# --- results --------------------------------------------------------------------------------------

MADE_BY = re.compile(r"Made by `([^`]+)`")
LEADING_COMMAND = re.compile(r"^`((?:python|friday) [^`]+)`", re.M)


def made_by_table(_=None, here="") -> str:
    """Every results file (results/ and the pages of docs/results that add one) with the
    command(s) written in it."""
    rows = []
    sources = sorted((ROOT / "results").rglob("*.md")) + sorted((ROOT / "docs" / "results").rglob("*.md"))
    for path in sources:
        text = path.read_text(encoding="utf-8")
        commands = list(dict.fromkeys(MADE_BY.findall(text) or LEADING_COMMAND.findall(text)[:1]))
        if not commands:
            continue
        rel = path.relative_to(ROOT / "docs" if path.is_relative_to(ROOT / "docs") else ROOT).as_posix()
        page = rel if rel.startswith("results/") else f"results/{rel}"
        link = f"[{page.removeprefix('results/')}]({posixpath.relpath(page, here or '.')})"
        rows += [f"| {link} | `{_cell(c)}` |" for c in commands]
    return "\n".join(["| file | made by |", "|---|---|", *rows])


def csv_table(path: str, here="") -> str:
    with open(ROOT / path, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    def fmt(cell: str) -> str:
        try:
            number = float(cell)
        except ValueError:
            return cell
        return cell if number.is_integer() and "." not in cell else f"{number:.4g}"
    head, *body = table
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
                      *("| " + " | ".join(fmt(c) for c in row) + " |" for row in body)])


PLACEHOLDERS = {"made-by": made_by_table, "actions": actions_table, "policies": policies_table,
                "observation": observation_table, "csv": csv_table}
