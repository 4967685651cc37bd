"""docs/RULES.md and docs/TRACE.md: the rulebook and the trace format every rule number and
trace event in the code cites, identical to the shared folder's copies (``../shared`` beside
the checkout, as in CI), and linked from the README and the command's help."""
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DOCS = ("RULES.md", "TRACE.md")


@pytest.mark.parametrize("name", DOCS)
def test_docs_are_identical_to_the_shared_folder(name):
    shared = SHARED / name
    if not shared.is_file():
        pytest.skip(f"no {shared} beside this checkout")
    ours, theirs = (ROOT / "docs" / name).read_bytes(), shared.read_bytes()
    assert ours == theirs or ours.startswith(theirs + b"\n## friday-lab extensions\n"), \
        f"docs/{name} differs from {shared} (before its own extensions): copy it over"


def test_docs_are_there_and_linked_from_the_readme_and_the_help():
    assert (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8").startswith("# Friday")
    assert "R10.3" in (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert '"e"' in (ROOT / "docs" / "TRACE.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in DOCS:
        assert f"](docs/{name})" in readme
    helps = CliRunner().invoke(app, ["--help"]).output
    assert "docs/RULES.md" in helps and "docs/TRACE.md" in helps
    assert "docs/TRACE.md" in CliRunner().invoke(app, ["replay", "--help"]).output
