"""sim.contract.numba_wall: the one module on Numba's internals (tested version, pointers that
cannot outlive their arrays, unique cache names) and imports inside sim.fast that run one way."""
import ast
import re
from pathlib import Path

import numba
import numpy as np
import pytest
from numba import njit
from numba.core.errors import NumbaError

from sim.contract import numba_wall as W

from helpers import run_python

ROOT = Path(__file__).resolve().parent.parent
FAST = ROOT / "sim" / "fast"
no_jit = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled")


def test_the_installed_numba_is_in_the_tested_range_of_pyproject():
    low, high = W.TESTED
    line = next(ln for ln in (ROOT / "pyproject.toml").read_text().splitlines()
                if ln.strip().startswith('"numba'))
    assert line.strip().strip('",') == f"numba>={low},<{high}"
    assert W.numba_version_error(numba.__version__) is None


@pytest.mark.parametrize("version", ["0.67.1", "0.69.0", "1.0.0", "0.70.0rc1"])
def test_an_untested_numba_is_a_clear_error(version):
    message = W.numba_version_error(version)
    assert f"numba>={W.TESTED[0]},<{W.TESTED[1]}" in message and version in message


def test_importing_sim_with_an_untested_numba_fails_at_once():
    code = "import numba; numba.__version__ = '0.70.0'; import sim"
    out = run_python("-c", code, cwd=ROOT, timeout=120)
    assert out.returncode != 0
    assert "ImportError: friday-lab needs numba>=0.68,<0.69" in out.stderr
    assert "not numba 0.70.0" in out.stderr


@pytest.mark.parametrize("version", ["0.68.0", "0.68.1", "0.68.2rc1"])
def test_tested_versions_pass(version):
    assert W.numba_version_error(version) is None


def _sum_through_pointer(a, b):
    gp = W.address_of((a, b))
    return W.field(gp, 0)[0] + W.field(gp, 1)[1]


@no_jit
def test_a_pointer_is_taken_only_where_nothing_is_freed():
    """address_of compiles in a lean_jit function (its arrays are its caller's, alive for the
    call) and is a compile error where Numba counts references (it could free an array whose
    pointer is still in use)."""
    a, b = np.arange(3), np.arange(3) * 10
    assert W.lean_jit(_sum_through_pointer, cache=False)(a, b) == 10
    with pytest.raises(NumbaError, match="address_of is used in a function compiled with"):
        njit(_sum_through_pointer)(a, b)


def _decide_in(folder: Path):
    (folder / "strategy.py").write_text("def decide(obs, legal, n_legal, params, rng):\n"
                                        "    return legal[0]\n")
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"strategy_{folder.name}",
                                                  folder / "strategy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.decide


def test_cache_names_are_unique_per_file_and_stable(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    da, db = _decide_in(tmp_path / "a"), _decide_in(tmp_path / "b")
    assert da.__qualname__ == db.__qualname__
    assert W.cache_name(da, "ask") != W.cache_name(db, "ask")
    assert W.cache_name(da, "ask") == W.cache_name(_decide_in(tmp_path / "a"), "ask")
    assert re.fullmatch(r"ask__decide__[0-9a-f]{16}", W.cache_name(da, "ask"))


def _imports(path: Path) -> set[str]:
    """The sim.fast modules ``path`` imports, at the top or inside functions."""
    here = f"sim.fast.{path.stem}" if path.stem != "__init__" else "sim.fast"
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(here.split(".")[:3 - node.level] + ([base] if base else []))
                if path.stem == "__init__":
                    base = ".".join(["sim", "fast"] + ([node.module] if node.module else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if (ROOT / (sub.replace(".", "/") + ".py")).is_file() else base)
    return {m for m in found if m == "sim.fast" or m.startswith("sim.fast.")} - {here}


def test_imports_inside_sim_fast_run_one_way():
    """No import cycle among the modules of sim.fast (function-level imports included)."""
    graph = {("sim.fast." + p.stem if p.stem != "__init__" else "sim.fast"): _imports(p)
             for p in FAST.glob("*.py")}
    done, path = set(), []

    def visit(m):
        if m in path:
            pytest.fail("import cycle: " + " -> ".join(path[path.index(m):] + [m]))
        if m in done:
            return
        path.append(m)
        for n in sorted(graph.get(m, ())):
            visit(n)
        path.pop()
        done.add(m)
    for m in sorted(graph):
        visit(m)


def test_numba_internals_only_in_the_wall():
    """The engines and the players name their decorator and pointers through the wall: no
    ``_nrt=``, Numba cache internals, cgutils or keep_alive anywhere else in sim or policies."""
    pattern = re.compile(r"_nrt\s*=|populate_array|keep_alive|cgutils|numba\.extending|"
                         r"numba\.core\.caching|numba\.np\b")
    files = [p for d in ("sim", "policies") for p in (ROOT / d).rglob("*.py")]
    bad = [f"{p.relative_to(ROOT)}:{k}" for p in files if p.name != "numba_wall.py"
           for k, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert bad == []
