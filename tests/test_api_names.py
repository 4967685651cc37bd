"""Every name the API reference documents imports, without a DeprecationWarning.

docs/reference/api-*.md name the public API with mkdocstrings directives, ``::: module.name``,
optionally followed by an indented YAML ``options:`` block whose ``members`` list names more;
each of them must import as written (a module, or attributes down from the longest importable
module), so a move that forgets the reference fails here rather than in ``mkdocs build``."""
from __future__ import annotations

import importlib
import re
import warnings
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DIRECTIVE = re.compile(r"^:::[ \t]+([\w.]+)[ \t]*\n((?:[ \t]+.*\n|[ \t]*\n)*)", re.M)


def documented() -> list[tuple[str, str]]:
    """(page, dotted name) for every directive and every member it lists."""
    found = []
    for page in sorted((ROOT / "docs" / "reference").glob("api-*.md")):
        for target, block in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            found.append((page.name, target))
            options = (yaml.safe_load(block) or {}).get("options") or {} if block.strip() else {}
            members = options.get("members")
            if isinstance(members, list):
                found += [(page.name, f"{target}.{m}") for m in members]
    return found


def resolve(dotted: str):
    """The object ``dotted`` names: the longest importable module, then its attributes."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:n]))
        except ModuleNotFoundError:
            continue
        for attr in parts[n:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


NAMES = documented()


def test_the_reference_documents_names():
    pages = {page for page, _ in NAMES}
    assert {"api-lab.md", "api-play.md", "api-policies.md"} <= pages and len(NAMES) > 40


@pytest.mark.parametrize("page, dotted", NAMES, ids=[d for _, d in NAMES])
def test_a_documented_name_imports_without_a_warning(page, dotted):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert resolve(dotted) is not None, f"{page}: {dotted}"
