"""A user's code as the contract treats it: compiled with bounds checking, and its mistakes
traced to the user's own file, function and line.

* ``is_user``: a function of a user's (a policy file, a notebook cell, a rule given to
  policies.strategy.with_rules), not of this project's sources;
* ``bounds_checked``: a user's rule or helper compiled with bounds checking, the user's
  jitted helpers it calls too (numba_wall.checked_jit): reading ``legal[1000]`` is an
  IndexError named at its line, not a crash (the project's own policies keep their speed);
* ``checked``: a user's decide so compiled, and guarded: one that writes into its inputs
  raises ``WroteIntoInputs``, and the engine stops that game;
* ``Place``: file, line and function of a mistake: ``traced`` (an exception, asked again of
  the plain Python function, ``twin``), ``compiled_at`` (Numba's report of a function that
  does not compile), ``writes_at`` (a statement writing into ``obs``, ``legal`` or ``params``);
* ``inputs``/``changed``: a decision's inputs copied before, and the one the policy changed.
"""
from __future__ import annotations

import ast
import dis
import inspect
import re
import sysconfig
import textwrap
import types
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .numba_wall import lean_jit

INPUTS = ("obs", "legal", "params")     # what decide may read but not change (only rng)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LIBRARY = tuple(str(Path(p).resolve()) for p in
                 {sysconfig.get_paths()[k] for k in ("stdlib", "purelib", "platlib")})


class Place(NamedTuple):
    """Where in a user's code: ``/path/mine.py:12, function brave``."""
    file: str
    line: int
    function: str

    def __str__(self):
        return f"{self.file}:{self.line}, function {self.function}"


def _project_file(file: str) -> bool:
    from sim.numba_cache import ROOT
    path = Path(file).resolve()
    return path.is_relative_to(ROOT / "sim") or path.is_relative_to(ROOT / "policies")


def user_file(file) -> bool:
    """Whether ``file`` is a user's source: not this project's, Python's or a library's."""
    if not file or str(file).startswith("<"):
        return False
    resolved = str(Path(file).resolve())
    return not resolved.startswith(_LIBRARY) and not _project_file(resolved)


def is_user(py) -> bool:
    """Whether ``py`` is a user's function (sim.numba_cache.is_project_source: not ours)."""
    from sim.numba_cache import is_project_source
    return not is_project_source(py)


def bounds_checked(fn):
    """A user's jitted (or plain) function compiled with bounds checking, the user's jitted
    helpers it calls too (numba_wall.checked_jit); the project's own as it is."""
    from .numba_wall import checked_jit
    py = getattr(fn, "py_func", fn)
    if not callable(py) or not hasattr(py, "__code__") or not is_user(py):
        return fn
    return checked_jit(fn, is_user)


class WroteIntoInputs(Exception):
    """What a guarded decide raises after writing into its inputs (its return type kept)."""


def checked(decide):
    """A user's ``decide`` (plain or jitted) compiled with bounds checking and guarded: a
    decision that changes ``obs``, ``legal`` or ``params`` raises WroteIntoInputs, so that
    the engine stops the game as after any exception and the contract, asking again from
    Python, names the write (decision.decide_once).  The project's own policies are returned
    as they are."""
    from numba import njit
    py = getattr(decide, "py_func", decide)
    if (getattr(decide, "friday_guarded", False) or not callable(py)
            or not hasattr(py, "__code__") or not is_user(py)):
        return decide
    from .numba_wall import checked_jit
    user = checked_jit(decide, is_user, inline=True)    # compiled with the guard's flags

    def guarded(obs, legal, n_legal, params, rng):
        before = fingerprint(obs, legal, params)
        action = user(obs, legal, n_legal, params, rng)
        if fingerprint(obs, legal, params) != before:
            raise WroteIntoInputs("wrote into obs, legal or params")
        return action
    guarded.user_py, guarded.py_twin = user.py_func, twin(user.py_func)
    guarded.__name__ = guarded.__qualname__ = py.__name__
    guarded.__doc__ = py.__doc__
    guarded.__dict__.update({k: v for k, v in py.__dict__.items() if k != "py_twin"})
    jitted = njit(guarded)
    jitted.friday_guarded = True
    return jitted


def _fingerprint_py(obs, legal, params):
    """A hash of the decision's inputs (no allocation): a write changes it."""
    h = np.uint64(14695981039346656037)
    for a in (obs, legal):
        for i in range(a.shape[0]):
            h = (h ^ np.uint64(a[i] & 0xFFFFFFFFFFFF)) * np.uint64(1099511628211)
    t = 0.0
    for i in range(params.shape[0]):
        t += params[i] * (i + 1.5)
    return h ^ np.uint64(np.int64(t * 1024.0) & 0xFFFFFFFFFFFF)


fingerprint = lean_jit(_fingerprint_py)


def user_py(py):
    """The user's own function of a guarded decide (``checked``), else ``py``."""
    return getattr(py, "user_py", py)


# --- where a mistake is ----------------------------------------------------------------------
def function_at(file: str, line: int) -> str:
    """The name of the innermost function of ``file`` whose body holds ``line`` ('?')."""
    try:
        tree = ast.parse(Path(file).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return "?"
    best = "?"
    for node in ast.walk(tree):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.lineno <= line <= (node.end_lineno or node.lineno)):
            best = node.name        # ast.walk goes outside in: the last one is the innermost
    return best


def traced(tb) -> Place | None:
    """The innermost frame of a traceback that is in a user's file."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if user_file(code.co_filename):
            found = Place(code.co_filename, tb.tb_lineno, code.co_name)
        tb = tb.tb_next
    return found


def twin(py, _done=None):
    """The plain Python function that decides as ``py`` does, the user's jitted helpers it
    calls by a global name as plain Python too (a copy of its globals): a mistake in them has
    a line (policies.strategy.with_rules gives its decide a ``py_twin``: the rules so)."""
    from .numba_wall import jitted_py
    if hasattr(py, "py_twin"):
        return py.py_twin
    done = {} if _done is None else _done
    if id(py) in done or not hasattr(py, "__code__"):
        return done.get(id(py), py)
    names = dict(py.__globals__)
    copy = done[id(py)] = types.FunctionType(py.__code__, names, py.__name__, py.__defaults__,
                                             py.__closure__)
    for name in py.__code__.co_names:
        value = names.get(name)
        if jitted_py(value) is not None and is_user(value.py_func):
            names[name] = twin(value.py_func, done)
    return copy


def asked_again(py, args, expected=Exception):
    """(place, exception) where the plain Python ``twin(py)``, asked with ``args``, raises an
    ``expected`` exception in a user's file; (None, None) if it does not, or elsewhere.  An
    integer division by zero, which numpy's integers only warn of, raises here."""
    if isinstance(expected, type) and issubclass(expected, ZeroDivisionError):
        expected = (ZeroDivisionError, FloatingPointError)
    try:
        with np.errstate(divide="raise"):
            twin(py)(*args)
    except expected as exc:
        place = traced(exc.__traceback__)
        return (place, exc) if place else (None, None)
    except Exception:       # another mistake of plain Python's (a Numba-only construct)
        return None, None
    return None, None


def named_at(py, text: str) -> Place | None:
    """The first line of ``py``'s source (a user's function) that holds the first quoted
    name of ``text`` (Numba's reason: ``name 'x' is not defined``)."""
    found = re.search(r"'([A-Za-z_]\w*)'", text)
    if found is None or not hasattr(py, "__code__") or not user_file(py.__code__.co_filename):
        return None
    try:
        lines, first = inspect.getsourcelines(py)
    except (OSError, TypeError):
        return None
    for k, line in enumerate(lines):
        if line.lstrip().startswith(("def ", "@")):
            continue
        if re.search(rf"\b{found.group(1)}\b", line.split("#")[0]):
            return Place(py.__code__.co_filename, first + k, py.__name__)
    return None


_FILE_LINE = (re.compile(r'File "([^"]+)", line (\d+)'), re.compile(r"at (\S+\.py) \((\d+)\)"))


def compiled_at(report: str) -> Place | None:
    """The first place in a user's file that Numba's report of a compile error names."""
    text = _ANSI.sub("", report)
    spots = sorted((m.start(), m.group(1), int(m.group(2)))
                   for pattern in _FILE_LINE for m in pattern.finditer(text))
    for _, file, line in spots:
        path = Path(file)
        if not path.is_absolute():
            candidates = [p for p in (Path.cwd() / path,) if p.is_file()]
            path = candidates[0] if candidates else path
        if path.is_file() and user_file(path):
            return Place(str(path), line, function_at(str(path), line))
    return None


def reason(report: str) -> str:
    """The one line of Numba's report that says why a function does not compile."""
    lines = [ln.strip() for ln in _ANSI.sub("", report).splitlines() if ln.strip()]
    skip = ("During:", "File", "^", "Failed in", "<source", "def ", "- ", "Resolution failure")
    found = next((ln for ln in lines if not ln.startswith(skip) and not ln.endswith(":")),
                 lines[0] if lines else "")
    return found.replace("NameError: name", "name")[:300]


# --- writes into the inputs --------------------------------------------------------------------
_IN_PLACE = {"sort", "fill", "put", "itemset", "resize", "partition", "setfield"}


def writes_at(py) -> tuple[str, Place] | None:
    """(input, place) of the first statement of ``py`` (a decide or a rule) that writes into
    ``obs``, ``legal`` or ``params`` by their parameter names (``legal[0] = 3``, ``obs += 1``,
    ``legal.sort()``); a name the function binds again (``obs = obs.copy()``) is its own."""
    try:
        lines, first = inspect.getsourcelines(py)
        tree = ast.parse(textwrap.dedent("".join(lines)))
        file = inspect.getsourcefile(py)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    params = list(inspect.signature(py).parameters)
    names = {params[i]: kind for i, kind in ((0, "obs"), (1, "legal"), (3, "params"))
             if i < len(params)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        names.pop(n.id, None)   # bound again: a name of its own
    for node in ast.walk(tree):
        target = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            target = node.value
        elif isinstance(node, ast.AugAssign):
            target = node.target
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _IN_PLACE):
            target = node.func.value
        if isinstance(target, ast.Name) and target.id in names:
            return names[target.id], Place(file, first + node.lineno - 1, py.__name__)
    return None


def recursion_at(py) -> Place | None:
    """The call that closes a cycle of a user's functions calling one another by global name
    (``decide`` calling ``decide``): compiled, a recursion that goes too deep overflows the
    stack and ends the process without a word, which no check can catch."""
    from .numba_wall import jitted_py

    def callees(fn):            # the globals it loads (not attributes of the same name)
        names = {i.argval for i in dis.get_instructions(fn) if i.opname == "LOAD_GLOBAL"}
        for name in sorted(names):
            value = fn.__globals__.get(name)
            target = jitted_py(value) or (value if isinstance(value, types.FunctionType)
                                          else None)
            if target is not None and hasattr(target, "__code__") and is_user(target):
                yield name, target

    path, seen = [], set()

    def visit(fn):
        path.append(fn)
        for name, target in callees(fn):
            if any(target is p for p in path):
                return named_at(fn, f"'{name}'")
            if id(target) not in seen:
                seen.add(id(target))
                found = visit(target)
                if found:
                    return found
        path.pop()
        return None
    return visit(py) if hasattr(py, "__code__") else None


def inputs(obs, legal, params) -> tuple:
    """Copies of a decision's inputs, to see afterwards whether the policy changed one."""
    return obs.copy(), legal.copy(), params.copy()


def changed(before, obs, legal, params) -> tuple[str, str] | None:
    """(``'obs'``, ``'obs[3] was 1, now 0'``) for the first input the policy changed (None:
    none)."""
    for name, old, new in zip(INPUTS, before, (obs, legal, params)):
        if not np.array_equal(old, new):
            i = int(np.flatnonzero(old != new)[0])
            return name, f"{name}[{i}] was {old[i]:g}, now {new[i]:g}"
    return None
