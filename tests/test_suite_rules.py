"""The test suite's own rule: no test module imports another (what tests share lives in the
helper modules: conftest.py's fixtures, helpers.py, playthrough.py, probe.py,
observations.py)."""
import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_names(path) -> set[str]:
    """Every dotted part of every module and name ``path`` imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(part for a in node.names for part in a.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            names.update((node.module or "").split("."))
            names.update(a.name for a in node.names)
    return names


def test_no_test_module_imports_another():
    modules = sorted(TESTS.glob("test_*.py"))
    tests = {p.stem for p in modules}
    found = {p.name: sorted(_imported_names(p) & tests) for p in modules}
    assert len(modules) > 40 and "test_rules_setup" in tests
    assert {name: got for name, got in found.items() if got} == {}
