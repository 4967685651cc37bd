"""The documentation site (mkdocs.yml, docs/): it builds in strict mode (a broken link, a missing
page, anchor or included file, any warning fails), it shows every results file and figure, and
every example of its pages runs as written (tests/fenced.py: ```bash blocks of friday commands,
```python blocks, files saved from titled blocks), in a temporary folder so that the committed
results/ are never in the way.

The build needs the docs extra (``pip install -e '.[docs]'``, also in the test extra): without
it the build tests are skipped, except in CI (CI=true), where a missing package fails."""
from __future__ import annotations

import importlib.util
import os
import re
import time
from pathlib import Path

import pytest

from fenced import fenced_blocks, prepare, run_block
from helpers import run_python

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SHARED_COPIES = ("RULES.md", "TRACE.md")          # ../shared's files, kept byte-identical
PAGES = sorted(p for p in DOCS.rglob("*.md") if p.name not in SHARED_COPIES)
EXAMPLES = [p for p in PAGES if any(b.runs for b in fenced_blocks(p.read_text(encoding="utf-8")))]
DOCS_PACKAGES = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python",
                 "mkdocs_jupyter", "yaml")


def missing_docs_packages() -> list[str]:
    missing = []
    for name in DOCS_PACKAGES:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(name)
    return missing


pytestmark = pytest.mark.reruns        # .ci/run: pytest -m reruns (pyproject.toml)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built once with ``mkdocs build --strict`` into a temporary folder: (folder,
    seconds, the build's log)."""
    missing = missing_docs_packages()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI without the docs packages {missing}: the test extra installs them")
        pytest.skip(f"the docs extra is not installed (no {', '.join(missing)}): "
                    "pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    build = run_python("-m", "mkdocs", "build", "--strict", "--site-dir", out, cwd=ROOT,
                       env={"NO_MKDOCS_2_WARNING": "1"}, timeout=300)
    seconds = time.perf_counter() - start
    log = build.stdout + build.stderr
    assert build.returncode == 0, f"mkdocs build --strict failed:\n{log}"
    return out, seconds, log


def test_site_builds_in_strict_mode_without_a_warning(site):
    out, seconds, log = site
    assert not re.search(r"^(WARNING|ERROR)", log, re.M), log
    assert (out / "index.html").is_file() and (out / "reference" / "cli" / "index.html").is_file()
    print(f"site built in {seconds:.1f} s")


def test_every_results_file_and_figure_is_on_the_site(site):
    import yaml
    out = site[0]
    def leaves(item):
        if isinstance(item, str):
            yield item
        for child in (item.values() if isinstance(item, dict) else
                      item if isinstance(item, list) else []):
            yield from leaves(child)
    pages = set(leaves(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]))
    for path in sorted((ROOT / "results").rglob("*.md")):
        assert path.relative_to(ROOT).as_posix() in pages, f"{path} is not in mkdocs.yml's nav"
    html = "\n".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html"))
    for path in sorted((ROOT / "results").rglob("*.png")):
        assert re.search(rf'<img [^>]*src="[^"]*{re.escape(path.name)}"', html), \
            f"no page shows {path.relative_to(ROOT)}"
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert f"notebooks/{notebook.name}" in pages, f"{notebook} is not in the nav"
    for name in SHARED_COPIES:
        assert name in pages, f"docs/{name} is not in the nav"


def test_the_cli_reference_is_generated_from_the_app(site):
    import typer

    from sim.cli import app
    page = (site[0] / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    names = [[name] for name in root.commands]
    names += [["balance", sub] for sub in root.commands["balance"].commands]
    for path in names:
        assert f"friday {' '.join(path)}</code>" in page, f"friday {' '.join(path)} is missing"
    for option in ("--games", "--summary-only", "--log-decisions", "--what-if-games", "--study"):
        assert f"<code>{option}</code>" in page, option


def test_the_tutorial_and_every_how_to_guide_have_examples_to_run():
    expected = [DOCS / "tutorial.md"] + sorted((DOCS / "how-to").glob("*.md"))
    assert [p for p in expected if p not in EXAMPLES and p.name != "index.md"] == []


@pytest.mark.parametrize("page", EXAMPLES, ids=lambda p: p.relative_to(DOCS).as_posix())
def test_the_examples_of_a_page_run_as_written(page, tmp_path, monkeypatch):
    blocks = [b for b in fenced_blocks(page.read_text(encoding="utf-8")) if b.runs]
    monkeypatch.chdir(prepare(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    for block in blocks:
        run_block(block, tmp_path, f"docs/{page.relative_to(DOCS).as_posix()}:{block.line}")
