"""friday-lab: rules-exact simulation of Friedemann Friese's solo game *Friday*.

``sim.reference`` is the readable reference engine (the spec in code), ``sim.fast`` the
Numba engine that plays the same games bit for bit.  Rule numbers (R1...) refer to
``RULES.md`` as shipped in the repository's shared folder.
"""
from .provenance import __version__  # noqa: F401  (the one version source)

import os as _os

from . import numba_cache as _numba_cache

_numba_cache.lock_cache_files()         # processes compiling at once (sim.fast.compile_ahead)

if _os.environ.get("FRIDAY_KEEP_NUMBA_CACHE") != "1":
    _numba_cache.drop_stale_numba_caches()   # before anything is compiled or loaded from the cache


def __getattr__(name):
    """``from sim import Game`` (imported on first use: ``import sim`` compiles nothing)."""
    if name == "Game":
        from .play import Game
        return Game
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
