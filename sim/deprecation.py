"""Moved public names keep working for one release, with a DeprecationWarning (PEP 387).

A module whose names moved ends with ``__getattr__ = moved(__name__, {"old": "new.module:name"})``;
a module that moved as a whole is replaced by a shim module that calls ``module_moved``.  A name
removed without a direct successor is served by a shim that calls the new API (``shims=``), or,
where none can be written, fails with an AttributeError naming what to use (``gone=``).  Every
move is listed in CHANGELOG.md under "Deprecated" or "Removed", with the release that drops it.
"""
from __future__ import annotations

import __future__
import importlib
import types
import warnings

REMOVED_IN = "0.3.0"


def _warn(text: str, stacklevel: int):
    warnings.warn(f"{text}; the old name goes in friday-lab {REMOVED_IN}", DeprecationWarning,
                  stacklevel=stacklevel)


def _resolve(target: str):
    module, _, name = target.partition(":")
    found = importlib.import_module(module)
    return getattr(found, name) if name else found


def moved(module_name: str, names: dict[str, str], shims: dict[str, tuple[str, str]] | None = None,
          gone: dict[str, str] | None = None):
    """A module ``__getattr__`` for the old names of ``module_name``.

    ``names``: old name -> its new place ("package.module:name"), served from there with a
    DeprecationWarning naming that place.  ``shims``: old name -> ("module:name" of a shim
    doing what it did, "what to use instead"), served with a warning naming the replacement.
    ``gone``: old name -> "what to use instead", an AttributeError saying so."""
    shims, gone = shims or {}, gone or {}

    def __getattr__(name: str):
        here = f"{module_name}.{name}"
        if name in names:
            _warn(f"{here} moved to {names[name].replace(':', '.')}", stacklevel=3)
            return _resolve(names[name])
        if name in shims:
            shim, instead = shims[name]
            _warn(f"{here} was removed in friday-lab 0.2.0 (a shim serves it): use {instead}",
                  stacklevel=3)
            return _resolve(shim)
        if name in gone:
            raise AttributeError(f"{here} was removed in friday-lab 0.2.0: use {gone[name]}")
        raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
    return __getattr__


def _public(module) -> list[str]:
    """``__all__``, else the names the module defines itself (not its imports)."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [n for n, v in vars(module).items() if not n.startswith("_")
            and not isinstance(v, (types.ModuleType, __future__._Feature))
            and getattr(v, "__module__", module.__name__) == module.__name__]


def module_moved(old: str, new: str, namespace: dict, renamed: dict[str, str] | None = None):
    """In a shim module ``old`` (a module that moved to ``new`` as a whole): every public name
    of ``new`` is served from there with a DeprecationWarning naming its new place, on each
    use (as scipy's moved private modules do), so the warning never depends on which import
    came first; ``renamed``: old names whose new place has another name or module
    ("package.module:name")."""
    public = _public(importlib.import_module(new)) + list(renamed or {})
    namespace["__all__"] = list(public)
    namespace["__getattr__"] = moved(old, {**{n: f"{new}:{n}" for n in public},
                                           **(renamed or {})})
    namespace["__dir__"] = lambda: list(public)
