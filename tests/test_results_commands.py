"""Every file of results/ says how it was made ("Made by `COMMAND`"), and that command reruns as
written from the repository's root and remakes that very file (the site's table of them:
docs/how-to/reproduce-results.md).

* A ``friday`` command is run as written, in this process through the console script's entry
  point, in a temporary folder holding a copy of results/ (so a command that would refuse to
  overwrite, or write elsewhere, fails here), with its game counts made small; the file it
  remakes must record the very command that was run.
* A ``python benchmarks/...`` command (minutes to an hour at full size) is parsed by the
  script's own parser: every argument accepted, its output the file that names it, ``--force``
  given where the script refuses to overwrite, no path outside the repository; where the text
  says "at commit X", that commit is in the repository's history."""
from __future__ import annotations

import re
import runpy
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MADE_BY = re.compile(r"Made by `([^`]+)`(?: at commit ([0-9a-f]{7,40}))?")
SMALL = {"--games": "300", "--what-if-games": "200", "--validate-games": "300"}
SMALL_SEARCH = {**SMALL, "--games": "6"}      # the search: about a second per game


def made_by() -> list[tuple[Path, str, str | None]]:
    """(file, command, commit or None) for every "Made by" of results/ and of the site's
    results pages (docs/results/, which add a file's own command where it has none)."""
    found = []
    for path in sorted((ROOT / "results").rglob("*.md")) + sorted((ROOT / "docs" / "results").rglob("*.md")):
        for command, commit in dict.fromkeys(MADE_BY.findall(path.read_text(encoding="utf-8"))):
            found.append((path, command, commit or None))
    return found


COMMANDS = made_by()
FRIDAY = [c for c in COMMANDS if c[1].startswith("friday ")]
SCRIPTS = [c for c in COMMANDS if c[1].startswith("python ")]


def name(case) -> str:
    return f"{case[0].relative_to(ROOT).as_posix()}: {case[1][:60]}"


def test_every_results_file_names_the_command_that_made_it():
    named = {path for path, _, _ in COMMANDS}
    missing = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "results").rglob("*.md"))
               if p not in named]
    assert missing == []
    assert len(COMMANDS) == len(FRIDAY) + len(SCRIPTS), \
        [c for _, c, _ in COMMANDS if not c.startswith(("friday ", "python "))]
    assert len(FRIDAY) >= 4 and len(SCRIPTS) >= 10


def small(argv: list[str]) -> list[str]:
    """The command with its game counts made small (the rest as written)."""
    policies = [arg for prev, arg in zip([""] + argv, argv) if prev == "--policy"]
    counts = SMALL_SEARCH if any(p.startswith("search") for p in policies) else SMALL
    return [counts.get(prev, arg) for prev, arg in zip([""] + argv, argv)]


def recorded(path: Path) -> list[str]:
    return shlex.split(MADE_BY.search(path.read_text(encoding="utf-8")).group(1))


@pytest.mark.reruns
@pytest.mark.parametrize("case", FRIDAY, ids=name)
def test_a_friday_command_reruns_as_written_and_remakes_its_file(case, tmp_path, friday_here,
                                                                  fast_engine):
    path, command, commit = case
    assert commit is None
    argv = small(shlex.split(command))
    if argv[1] == "tune":
        pytest.importorskip("optuna")
    shutil.copytree(ROOT / "results", tmp_path / "results")
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "results").rglob("*") if p.is_file()}
    run = friday_here(argv[1:], tmp_path)
    assert run.returncode == 0, f"{command}\n{run.stdout}\n{run.stderr}"
    changed = {p.relative_to(tmp_path).as_posix() for p, t in before.items()
               if p.stat().st_mtime_ns != t}
    if path.is_relative_to(ROOT / "results"):
        remade = tmp_path / path.relative_to(ROOT)
        assert remade.relative_to(tmp_path).as_posix() in changed, sorted(changed)
        assert recorded(remade) == argv, "the file records another command than the one run"
    else:                                       # a site page naming the command of its files
        outputs = [v for k, v in zip(argv, argv[1:]) if k in ("--out", "--csv")]
        assert outputs and set(outputs) <= changed, (outputs, sorted(changed))
    assert {p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*")} == {"results"}


class Parsed(Exception):
    def __init__(self, namespace):
        self.namespace = namespace


def parse_script(argv: list[str], monkeypatch):
    """The script's own argparse namespace for these arguments, without running it."""
    from sim.lab.script import ArgumentParser
    original = ArgumentParser.parse_args

    def parse_args(self, args=None, namespace=None):
        raise Parsed(original(self, args, namespace))
    monkeypatch.setattr(ArgumentParser, "parse_args", parse_args)
    monkeypatch.setattr(sys, "argv", [str(ROOT / argv[1]), *argv[2:]])
    monkeypatch.setattr(sys, "path", [str((ROOT / argv[1]).parent), *sys.path])
    monkeypatch.chdir(ROOT)
    try:
        runpy.run_path(str(ROOT / argv[1]), run_name="__main__")
    except Parsed as parsed:
        return parsed.namespace
    except SystemExit as exc:
        pytest.fail(f"{shlex.join(argv)}: exit code {exc.code} before its arguments were read")
    pytest.fail(f"{shlex.join(argv)}: the script read no arguments")


@pytest.mark.parametrize("case", SCRIPTS, ids=name)
def test_a_benchmark_command_parses_and_writes_the_file_that_names_it(case, monkeypatch):
    path, command, commit = case
    argv = shlex.split(command)
    assert argv[0] == "python" and argv[1].startswith("benchmarks/") \
        and (ROOT / argv[1]).is_file(), command
    for arg in argv[2:]:
        assert not Path(arg).is_absolute() and ".." not in Path(arg).parts, \
            f"{command}: {arg} is not a path inside the repository"
    ns = parse_script(argv, monkeypatch)
    out = getattr(ns, "out", None)
    assert out is not None, f"{command}: writes no file"
    target = (ROOT / out).resolve()
    assert path.resolve() in (target, target.with_name(target.name + ".md")), \
        f"{command} writes {out}, not {path.relative_to(ROOT)}"
    if hasattr(ns, "force"):                  # the script refuses to overwrite without it
        assert ns.force, f"{command}: {path.relative_to(ROOT)} is there; add --force"
    if commit is not None and (ROOT / ".git").exists():
        known = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT,
                               capture_output=True)
        assert known.returncode == 0, f"{path.name}: commit {commit} is not in the history"
