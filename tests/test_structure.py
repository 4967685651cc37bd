"""Code others want to live in: no module of sim/ or policies/ over 400 lines, and every
function of the command line (sim/cli) under 40 lines, its signature included."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for d in ("sim", "policies") for p in (ROOT / d).rglob("*.py"))
MAX_MODULE_LINES = 400
MAX_CLI_FUNCTION_LINES = 40


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_module_over_400_lines(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_MODULE_LINES, f"{path.relative_to(ROOT)} has {n} lines: split it"


def test_every_cli_function_is_short():
    long = []
    for path in sorted((ROOT / "sim" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n >= MAX_CLI_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({n} lines)")
    assert not long, "split these: " + ", ".join(long)
