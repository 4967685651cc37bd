"""The layers of friday-lab: imports run one way only (down), and no module imports itself
back round a loop.

Every ``import`` in ``sim/`` and ``policies/`` is read with ``ast``, at module level and inside
functions alike (a lazy import is still a dependency), relative imports resolved.  A module
may import modules of its own layer or of a lower one, never of a higher one, and the import
graph, all imports counted, has no cycle.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from fnmatch import fnmatch
from functools import lru_cache
from pathlib import Path

import pytest

# Module name patterns (fnmatch) -> layer, lowest first.  Each module matches exactly one.
LAYERS = {
    # 0. The game's vocabulary: cards and card tables, rules and options, random numbers,
    #    actions, the observation's layout, deal files, card names, the trace format.
    "sim.cards": 0, "sim.cardtable": 0, "sim.rules": 0, "sim.rng": 0, "sim.actions": 0,
    "sim.observation": 0, "sim.deal": 0, "sim.names": 0, "sim.trace": 0, "sim.data": 0,
    "sim.errors": 0, "sim.deprecation": 0, "sim.provenance": 0,
    # 1. Policies: they read the observation only (R1.4), so they use only the vocabulary;
    #    both engines (and the lab) run them.
    "policies": 1, "policies.*": 1,
    #    ... except the search player, built on the fast engine's state (it resamples the
    #    hidden stacks, R1.4), so above the fast engine, and the UNFAIR clairvoyant bound
    #    built on the search.
    "policies.search": 3.5, "policies.unfair_clairvoyant": 3.5,
    # 2. The reference engine: the rules in plain Python.
    "sim.reference": 2, "sim.reference.*": 2,
    #    (0.1.0's module paths, deprecated shims until 0.3.0: CHANGELOG.md)
    "sim.reference_fight": 2, "sim.reference_abilities": 2, "sim.reference_observation": 2,
    # 3. The fast engine (Numba) and Numba's cache.
    "sim.fast": 3, "sim.fast.*": 3, "sim.numba_cache": 3,
    # 4. One game: the Game object, the gym environment, play at the terminal, the log.
    #    ``sim`` itself (sim/__init__.py) re-exports Game.
    "sim": 4, "sim.play": 4, "sim.play.*": 4,
    "sim.env": 4, "sim.game": 4, "sim.render": 4,            # deprecated shims
    # 5. The lab: many games (run, compare, balance, statistics, plots, cluster, results).
    "sim.lab": 5, "sim.lab.*": 5,
    "sim.progress": 5, "sim.results": 5, "sim.simulate": 5, "sim.report": 5,   # deprecated shims
    # 6. The command line.
    "sim.cli": 6, "sim.cli.*": 6,
}

# Pairs of groups that must not import each other although their layers would allow it: the
# two engines are two independent readings of RULES.md, checked against each other event by
# event (tests/test_differential.py), so neither may lean on the other.
APART = [("sim.reference*", "sim.fast*")]


ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "policies")


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    where: str          # file:line

    def describe(self) -> str:
        return (f"{self.where} {self.importer} (layer {layer_of(self.importer)}) -> "
                f"{self.imported} (layer {layer_of(self.imported)})"
                + ("" if allowed(self) or is_up(self) else ", groups kept APART"))


def modules() -> dict[str, Path]:
    """Every module of sim/ and policies/ by dotted name (a package by its own name)."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


MODULES = modules()


def patterns_of(module: str) -> list[str]:
    """The LAYERS entry of ``module``: its own name if listed, else the patterns it matches."""
    if module in LAYERS:
        return [module]
    return [p for p in LAYERS if fnmatch(module, p)]


def layer_of(module: str) -> int:
    (pattern,) = patterns_of(module)
    return LAYERS[pattern]


def _targets(module: str, node) -> list[str]:
    """The project modules an import statement names (``from X import y``: X.y if that is a
    module, else X)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        here = module.split(".")
        if MODULES[module].name != "__init__.py":
            here = here[:-1]
        base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
    else:
        base = node.module
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]


@lru_cache(maxsize=None)
def edges_of(module: str) -> tuple[Edge, ...]:
    """The imports of one module, module level and inside functions, inside the project."""
    path = MODULES[module]
    where = path.relative_to(ROOT).as_posix()
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {Edge(module, target, f"{where}:{node.lineno}")
                      for target in _targets(module, node) if target in MODULES and target != module}
    return tuple(sorted(found, key=lambda e: (e.imported, int(e.where.rsplit(":", 1)[1]))))


def is_up(edge: Edge) -> bool:
    return layer_of(edge.imported) > layer_of(edge.importer)


def allowed(edge: Edge) -> bool:
    """Down or level, and not between two groups kept APART."""
    a, b = edge.importer, edge.imported
    apart = any((fnmatch(a, p) and fnmatch(b, q)) or (fnmatch(a, q) and fnmatch(b, p))
                for p, q in APART)
    return not is_up(edge) and not apart


@lru_cache(maxsize=None)
def cycles() -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan)."""
    graph = {m: [e.imported for e in edges_of(m)] for m in MODULES}
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(m):
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in graph[m]:
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            component = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                component.append(n)
                if n == m:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for m in MODULES:
        if m not in index:
            visit(m)
    return out


@pytest.mark.parametrize("module, statement, target", [
    ("sim.fast.api", "from ..rules import Options", "sim.rules"),
    ("sim.lab", "from . import stats", "sim.lab.stats"),          # in a package's __init__
    ("sim.reference.game", "from .. import cards as C", "sim.cards"),
    ("sim.reference.game", "from ..deal import check_deal", "sim.deal"),
    ("sim.reference", "from .game import Game", "sim.reference.game"),
    ("sim.play.game", "from sim.fast import api", "sim.fast.api"),
    ("sim.play.game", "from sim.fast import play_fast", "sim.fast"),
    ("sim.play.game", "import sim.fast.layout as Y", "sim.fast.layout"),
])
def test_the_reader_resolves_imports(module, statement, target):
    assert _targets(module, ast.parse(statement).body[0]) == [target]


def test_the_reader_sees_imports_inside_functions():
    assert "sim.deal" in {e.imported for e in edges_of("sim.reference.game")}   # Game.set_up


def test_every_module_has_exactly_one_layer():
    """A new module is placed on purpose: add it to LAYERS."""
    wrong = {m: patterns_of(m) for m in MODULES if len(patterns_of(m)) != 1}
    assert not wrong, "modules matching no pattern or several in LAYERS: " + repr(wrong)
    assert all(any(fnmatch(m, p) for m in MODULES) for p in LAYERS), "a LAYERS pattern names nothing"


@pytest.mark.parametrize("module", list(MODULES))
def test_imports_run_down(module):
    """No import reaches a higher layer, or across groups kept APART."""
    bad = [e for e in edges_of(module) if not allowed(e)]
    assert not bad, "imports against the layers:\n  " + "\n  ".join(e.describe() for e in bad)


@pytest.mark.parametrize("module", list(MODULES))
def test_no_import_cycle(module):
    """No module imports itself back round a loop (function-level imports count)."""
    mine = [c for c in cycles() if module in c]
    lines = []
    for component in mine:
        lines += [e.describe() for m in component for e in edges_of(m) if e.imported in component]
    assert not mine, f"{module} is on an import cycle of {mine}:\n  " + "\n  ".join(lines)
