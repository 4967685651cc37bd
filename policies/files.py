"""A user's policy file loaded by path: ``path/file.py:function`` (policies.spec).

Policy files are loaded under a module name derived from the file's resolved path
(``friday_policy_<sha256 of the path>``), registered in ``sys.modules``, with the file's folder
first on ``sys.path`` while it runs (so ``import helper`` finds a module beside it).  Numba's
on-disk cache is used only for the project's own sources: a user's function is compiled in
each process (sim.fast.ask.policy_function), so an edit, a second file with the same function
name, or a load from Python and then from the CLI can never meet a stale or foreign cache entry.
This is the one place that imports a module by a name not written in the code.

Whatever stops the import (a syntax error, text that is not UTF-8, a missing module, an
exception, ``sys.exit`` at import: every BaseException but Ctrl-C's KeyboardInterrupt) is one
UsageError naming the file, and the line where it can; so is a folder, an empty spec or a name
that is no function.  The function is then checked (policy.check_decide) and, being a user's,
compiled with bounds checking and guarded against writes into its inputs (policy.Policy,
sim.contract.user_code).
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

from sim.contract import DECIDE
from sim.errors import UsageError

from .policy import Policy, check_decide, check_params, origin

def _module_name(file: Path) -> str:
    """A stable, unique module name for a policy file: the same in every process."""
    return "friday_policy_" + hashlib.sha256(str(file).encode()).hexdigest()[:16]


def _hide_other_modules(folder: Path) -> dict:
    """Take out of sys.modules (until the file has run) the modules named like a module
    beside the policy file but loaded from elsewhere, so that ``import helpers`` in the file
    finds its own ``helpers.py`` even when another ``helpers`` was imported before."""
    names = {p.stem for p in folder.glob("*.py")}
    names |= {p.parent.name for p in folder.glob("*/__init__.py")}
    hidden = {}
    for n in names:
        mod = sys.modules.get(n)
        where = getattr(mod, "__file__", None)
        if mod is not None and (where is None or Path(where).resolve().parent not in
                                (folder, folder / n)):
            hidden[n] = sys.modules.pop(n)
    return hidden


def _failed(path: str, file: Path, exc: BaseException) -> UsageError:
    """The one-line error of a file that does not import: its own line where known (a syntax
    error in a module it imports: that module's file and line)."""
    from sim.contract.user_code import traced
    if isinstance(exc, SystemExit):
        what = f"it called sys.exit({exc.code!r}) while being imported"
    elif isinstance(exc, SyntaxError) and exc.lineno is None and "null bytes" in str(exc.msg):
        who = "it holds" if b"\0" in file.read_bytes() else "a module it imports holds"
        what = (f"{type(exc).__name__}: {who} NUL bytes, so it is no UTF-8 text (UTF-16?): "
                f"save it as UTF-8")
    elif isinstance(exc, SyntaxError):
        there = exc.filename and Path(exc.filename).resolve() != file
        what = (f"{type(exc).__name__}" + (f" in {exc.filename}" if there else "")
                + f" at line {exc.lineno}: {exc.msg}")
    else:
        text = " ".join(str(exc).split())[:300]
        place = traced(exc.__traceback__)
        what = (f"{type(exc).__name__}{': ' + text if text else ''}"
                + (f" (at {place})" if place else ""))
    return UsageError(f"policy file {path!r} failed to load: {what}")


def _import(path: str, file: Path):
    """The module of the policy file ``file`` (module docstring); any failure while it runs,
    sys.exit included (not Ctrl-C), is one UsageError naming it."""
    name = _module_name(file)
    module_spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    sys.path.insert(0, str(file.parent))
    hidden = _hide_other_modules(file.parent)
    try:
        module_spec.loader.exec_module(module)
    except KeyboardInterrupt:
        del sys.modules[name]
        raise
    except BaseException as exc:  # a user's file: report, don't crash (SystemExit too)
        del sys.modules[name]
        raise _failed(path, file, exc) from None
    finally:
        sys.path.remove(str(file.parent))
        sys.modules.update(hidden)
    return module


def load_file_policy(spec: str) -> Policy:
    path, _, func = spec.rpartition(":")
    file = Path(path).expanduser()
    if file.is_dir():
        raise UsageError(f"policy file {path!r} is a folder, not a Python file")
    if not file.is_file():
        raise UsageError(f"policy file {path!r} not found")
    if not func.isidentifier():
        raise UsageError(f"policy {spec!r} names no function: write {path}:FUNCTION")
    file = file.resolve()
    module = _import(path, file)
    decide = getattr(module, func, None)
    if decide is None:
        raise UsageError(f"policy file {path!r} has no function {func!r}")
    if not callable(decide) or not hasattr(getattr(decide, "py_func", decide), "__code__"):
        raise UsageError(f"policy file {path!r}: {func!r} is a {type(decide).__name__}, not a "
                         f"function {DECIDE}")
    check_decide(repr(spec), getattr(decide, "py_func", decide))
    if not hasattr(decide, "py_func"):
        from numba import njit
        decide = njit(decide)
    params = check_params(repr(spec), getattr(module, "PARAMS", None), decide.py_func)
    policy = Policy(f"{path}:{func}", decide, params, (decide.py_func.__doc__ or "").strip())
    return origin(policy, policy.name, str(file))
