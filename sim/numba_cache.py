"""Drop Numba's on-disk cache of this project when any of its sources changed.

Numba keys a cached function on its own source file only, but the cached machine code also
holds every function it calls from other files: after an edit of ``sim/fast/abilities.py``
(or an upgrade that changes it), the cached ``run_fight`` of ``sim/fast/fight.py`` would still
run the old abilities (and constants such as the card table are frozen into it too).  So one
stamp, a hash of every ``sim`` and ``policies`` source and of the card data, sits in each of
the project's cache folders; where it differs, that folder's ``*.nbi``/``*.nbc`` files are
deleted before anything is compiled or loaded (``sim/__init__.py`` runs the check;
``FRIDAY_KEEP_NUMBA_CACHE=1`` turns it off).
"""
from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

# Numba's cache folders, index and writer lock are Numba internals (sim.contract.numba_wall); the
# lock and has_cached_code are named here too for sim/__init__.py, sim.fast and sim.lab.progress
from sim.contract.numba_wall import cache_dirs, has_cached_code, lock_cache_files  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = (ROOT / "sim", ROOT / "sim" / "fast", ROOT / "sim" / "contract", ROOT / "policies")
STAMP = "friday-sources.sha256"


def sources_hash() -> str:
    """sha256 over the names and contents of the sources and the card data."""
    files = [f for d in SOURCE_DIRS for f in sorted(d.glob("*.py"))]
    files += sorted((ROOT / "sim" / "data").glob("*.csv"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(ROOT).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def drop_stale_numba_caches() -> list[Path]:
    """Delete the cache files of every folder whose stamp is not the current sources' hash,
    then stamp it; returns the deleted files.  The folder Numba will write to (next to the
    sources, or under NUMBA_CACHE_DIR) is created and stamped if it does not exist yet, so
    that what Numba writes there next counts as current."""
    current = sources_hash()
    deleted = []
    for source_dir in SOURCE_DIRS:
        for k, d in enumerate(cache_dirs(source_dir)):
            stamp = d / STAMP
            try:
                if k == 0:
                    d.mkdir(parents=True, exist_ok=True)
                elif not d.is_dir():
                    continue
                if stamp.is_file() and stamp.read_text().strip() == current:
                    continue
                for f in list(d.glob("*.nbi")) + list(d.glob("*.nbc")):
                    f.unlink()
                    deleted.append(f)
                stamp.write_text(current + "\n")
            except OSError:          # a read-only install: Numba then caches elsewhere
                continue
    return deleted


COMPILE_RECORD = "friday-compile-seconds"


def compile_record_path() -> Path:
    """Where the last measured engine compile time is kept (the fast engine's cache folder)."""
    return cache_dirs(ROOT / "sim" / "fast")[0] / COMPILE_RECORD


def last_compile_seconds() -> float | None:
    try:
        return float(compile_record_path().read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def record_compile_seconds(seconds: float):
    with contextlib.suppress(OSError):
        compile_record_path().write_text(f"{seconds:.1f}\n")


def is_project_source(py) -> bool:
    """Whether ``py`` is defined in this project's sources (cached on disk: the stamp above
    keeps their cache current) or is a user's function (a policy file, a notebook cell, a
    closure such as policies.strategy.with_rules makes: compiled in each process, see
    policies)."""
    import inspect
    if getattr(py, "__closure__", None):     # made by a user's call (strategy.with_rules)
        return False
    try:
        folder = Path(inspect.getsourcefile(py) or "").resolve().parent
    except TypeError:
        return False
    return folder in SOURCE_DIRS
