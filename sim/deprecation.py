"""Moved public names keep working for one release, with a DeprecationWarning (PEP 387).

A module whose names moved ends with ``__getattr__ = moved(__name__, {"old": "new.module:name"})``;
a module that moved as a whole is replaced by a shim that calls ``module_moved``.  Every move is
listed in CHANGELOG.md under "Deprecated" with the release that removes it.
"""
from __future__ import annotations

import importlib
import warnings

REMOVED_IN = "0.3.0"


def _warn(old: str, new: str, stacklevel: int):
    warnings.warn(f"{old} moved to {new}; the old name goes in friday-lab {REMOVED_IN}",
                  DeprecationWarning, stacklevel=stacklevel)


def _resolve(target: str):
    module, _, name = target.partition(":")
    found = importlib.import_module(module)
    return getattr(found, name) if name else found


def moved(module_name: str, names: dict[str, str]):
    """A module ``__getattr__`` serving each old name of ``names`` from its new place
    ("package.module:name"), with a DeprecationWarning naming that place."""
    def __getattr__(name: str):
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        _warn(f"{module_name}.{name}", target.replace(":", "."), stacklevel=3)
        return _resolve(target)
    return __getattr__


def module_moved(old: str, new: str, namespace: dict):
    """In a shim module ``old``: warn once on import and take every public name of ``new``."""
    _warn(old, new, stacklevel=4)
    module = importlib.import_module(new)
    public = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    namespace.update({n: getattr(module, n) for n in public})
