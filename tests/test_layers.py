"""The layers of friday-lab: imports run one way only (down), and no module imports itself
back round a loop.

Every ``import`` in ``sim/`` and ``policies/`` is read with ``ast``, at module level and inside
functions alike (a lazy import is still a dependency), relative imports resolved, and so is
every import by name: ``importlib.import_module("name")`` and ``__import__("name")`` with a
constant name, or with a name taken from a module-level table of constant names (the policy
registry's ``PLAYERS[name]``), and the new places a deprecated name or module points to
(``moved``, ``module_moved``, sim.deprecation).  An import by a name that cannot be read so
is allowed only where DYNAMIC says why.  A module may import modules of its own layer or of a
lower one, never of a higher one, and the import graph, all imports counted, has no cycle.
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
    "sim.userjson": 0,                  # a user's JSON file, read alike by every reader
    # 0.5. The contract between engines and players (sim.contract): the decision's signature
    #    and errors, one compiled decide, one decision asked from Python, the time limit and
    #    Ctrl-C, what the engines ask of a player (its runner), the one lean-jit decorator
    #    (the Numba wall) and Numba's disk cache.  Below both engines and every player.
    "sim.contract": 0.5, "sim.contract.*": 0.5, "sim.numba_cache": 0.5,
    # 1. Policies: they read the observation only (R1.4), so they use only the vocabulary and
    #    the contract; both engines (and the lab) run them.  With them: the Policy class, a
    #    user's file loaded by path, and the players the engines run, by name (players).
    "policies.*": 1,
    #    ... except the search player, built on the fast engine's state (it resamples the
    #    hidden stacks, R1.4), so above the fast engine, with its runner, the UNFAIR
    #    clairvoyant bound built on the search, and the registry (``policies`` itself), which
    #    builds any of them (only the one asked for).  The old place of the search's runner
    #    (sim.fast.search_api, a deprecated shim) sits with it.
    "policies": 3.5, "policies.search": 3.5, "policies.search_run": 3.5,
    "policies.search_log": 3.5,
    "policies.unfair_clairvoyant": 3.5, "sim.fast.search_api": 3.5,
    "policies.unfair_solver": 3.5,
    # 2. The reference engine: the rules in plain Python.
    "sim.reference": 2, "sim.reference.*": 2,
    #    (0.1.0's module paths, deprecated shims until 0.3.0: CHANGELOG.md)
    "sim.reference_fight": 2, "sim.reference_abilities": 2, "sim.reference_observation": 2,
    # 3. The fast engine (Numba).
    "sim.fast": 3, "sim.fast.*": 3,
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


# The only modules that import by a name the code does not write, and why.
DYNAMIC = {
    "policies.files": "loads a user's policy file by path (spec_from_file_location)",
    "sim.deprecation": "serves moved names; each caller's constant targets are read as its "
                       "own imports (moved, module_moved)",
    "sim.fast.compile_ahead": "its helper process compiles the caller's project policy, "
                              "named module:function by the caller",
}
BY_NAME = {"import_module", "__import__"}              # importlib.import_module, __import__
DEPRECATED = {"moved", "module_moved"}                # sim.deprecation: their targets
LOADERS = {"spec_from_file_location", "spec_from_loader", "module_from_spec"}

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


def _called(node) -> str | None:
    """The called function's own name (``importlib.import_module`` -> import_module)."""
    if isinstance(node, ast.Call):
        f = node.func
        return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
    return None


def _tables(tree) -> dict[str, list[str]]:
    """Module-level names bound to a dict, tuple or list of constant strings: their strings."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Dict, ast.Tuple, ast.List)):
            items = node.value.values if isinstance(node.value, ast.Dict) else node.value.elts
            if items and all(isinstance(i, ast.Constant) and isinstance(i.value, str)
                             for i in items):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        out[target.id] = [i.value for i in items]
    return out


def _relative(module: str, name: str) -> str:
    """``name`` (``.api``) resolved against ``module``'s package."""
    if not name.startswith("."):
        return name
    level = len(name) - len(name.lstrip("."))
    here = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    return ".".join(here[:len(here) - level + 1] + ([name.lstrip(".")] if name.strip(".") else []))


def _is_target(text: str) -> bool:
    """Whether a string is a place sim.deprecation serves a name from (``package.module:name``,
    or a module's dotted name), not a sentence that advises one."""
    module, colon, _ = text.partition(":")
    dotted = all(part.isidentifier() for part in module.split("."))
    return dotted and "." in module and (bool(colon) or module in MODULES)


def _names_imported(module: str, call, tables) -> list[str] | None:
    """The modules an import by name imports (None: a name the code does not write)."""
    what = _called(call)
    if what in DEPRECATED:
        found = [n.value for n in ast.walk(call) if isinstance(n, ast.Constant)
                 and isinstance(n.value, str) and _is_target(n.value)]
        return [f.partition(":")[0] for f in found if f.partition(":")[0] != module]
    if what in LOADERS:
        return None
    arg = call.args[0] if call.args else None
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [_relative(module, arg.value)]
    if isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name) \
            and arg.value.id in tables:
        return tables[arg.value.id]
    return None


def _import_calls(module: str, tree):
    """(lineno, imported modules or None) of each import by name in ``tree``."""
    tables = _tables(tree)
    for node in ast.walk(tree):
        if _called(node) in BY_NAME | DEPRECATED | LOADERS:
            yield node.lineno, _names_imported(module, node, tables)


@lru_cache(maxsize=None)
def dynamic_imports(module: str) -> tuple[str, ...]:
    """file:line of each import by a name the code does not write (module docstring)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT).as_posix()
    return tuple(f"{where}:{line}" for line, names in _import_calls(module, tree) if names is None)


@lru_cache(maxsize=None)
def edges_of(module: str) -> tuple[Edge, ...]:
    """The imports of one module, module level and inside functions, by statement or by
    name, inside the project."""
    path = MODULES[module]
    where = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found |= {Edge(module, target, f"{where}:{node.lineno}")
                      for target in _targets(module, node) if target in MODULES and target != module}
    for line, names in _import_calls(module, tree):
        found |= {Edge(module, _module_of(name), f"{where}:{line}") for name in names or ()
                  if _module_of(name) not in (None, module)}
    return tuple(sorted(found, key=lambda e: (e.imported, int(e.where.rsplit(":", 1)[1]))))


def _module_of(name: str) -> str | None:
    """The project module ``name`` names, or its nearest project package (None: outside)."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in MODULES:
            return ".".join(parts[:k])
    return None


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


@pytest.mark.parametrize("module, code, imported", [
    ("sim.fast", "importlib.import_module('sim.fast.api')", ["sim.fast.api"]),
    ("sim.fast", "import_module('.api', __name__)", ["sim.fast.api"]),
    ("sim.fast.api", "__import__('sim.rules')", ["sim.rules"]),
    ("policies", "T = {'a': 'policies.expert'}\nimportlib.import_module(T[name])",
     ["policies.expert"]),
    ("policies.guard", "module_moved(__name__, 'sim.contract', globals())", ["sim.contract"]),
    ("sim.fast.ask", "moved(__name__, {'f': 'sim.contract:callable_decide'})", ["sim.contract"]),
    ("sim.fast", "importlib.import_module(f'.{name}', __name__)", None),
    ("policies", "importlib.import_module('policies.' + name)", None),
])
def test_the_reader_sees_imports_by_name(module, code, imported):
    """An import by a constant name, or by a name from a table of constants, is an import; any
    other is a name the code does not write (None)."""
    assert [names for _, names in _import_calls(module, ast.parse(code))] == [imported]


@pytest.mark.parametrize("module", list(MODULES))
def test_no_import_by_a_name_the_code_does_not_write(module):
    """Every import is one the layers can check, except where DYNAMIC says why not."""
    found = dynamic_imports(module)
    assert not found or module in DYNAMIC, (
        f"{module} imports by a name the code does not write (at {', '.join(found)}): import "
        "by a constant name or a module-level table of them, so that the layers can see it")
    assert module not in DYNAMIC or found, f"{module} is in DYNAMIC but imports nothing by name"


def test_the_registry_imports_every_player_by_a_name_the_layers_see():
    assert {"policies.expert", "policies.learned"} <= {
        e.imported for e in edges_of("policies.players")}
    assert "policies.search" in {e.imported for e in edges_of("policies")}


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


def test_no_engine_imports_a_player():
    """sim.reference and sim.fast import nothing of policies (the contract is their floor);
    sim.fast.search_api, the search runner's old place, is no engine module."""
    up = [e.describe() for m in MODULES if m.startswith(("sim.fast", "sim.reference"))
          and m != "sim.fast.search_api" for e in edges_of(m)
          if e.imported.split(".")[0] == "policies"]
    assert up == []
