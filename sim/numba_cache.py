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

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE_DIRS = (ROOT / "sim", ROOT / "sim" / "fast", ROOT / "policies")
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


def _dummy():
    pass


def cache_dirs(source_dir: Path) -> list[Path]:
    """Where Numba may keep the cache of the modules in ``source_dir``: next to them, under
    NUMBA_CACHE_DIR, or in the user-wide cache (Numba's own locators say which)."""
    from numba.core import caching, config
    py_file = str(next(source_dir.glob("*.py")))
    if config.CACHE_DIR:
        return [Path(caching.UserProvidedCacheLocator(_dummy, py_file).get_cache_path())]
    return [source_dir / "__pycache__",
            Path(caching.UserWideCacheLocator(_dummy, py_file).get_cache_path())]


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


def has_cached_code(py_func) -> bool:
    """Whether Numba's cache index of ``py_func`` (a plain Python function, jitted with
    ``cache=True`` somewhere) exists and has an entry for the current source file: the same
    locator and index file Numba itself reads.  False when it cannot tell."""
    try:
        from numba.core.caching import FunctionCache
        return bool(FunctionCache(py_func)._cache_file._load_index())
    except Exception:           # a Numba without these internals, an unreadable file
        return False


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
    try:
        compile_record_path().write_text(f"{seconds:.1f}\n")
    except OSError:
        pass


LOCK_NAME = "friday-cache.lock"
_lock_installed = False


def lock_cache_files():
    """Make Numba's cache safe for processes that compile at the same time (the compile
    helper, sim.fast.compile_ahead; Dask workers; two commands at once).  Numba saves an entry
    by reading a function's index, adding a data-file name and writing both back: two processes
    saving two signatures of one function at once could each take the same name, leaving the
    index of one pointing at the code of the other.  Here a save, and a load (index, then data),
    hold an exclusive lock on a file in the cache folder.  Needs ``fcntl`` (not on Windows,
    where nothing is changed and the compile helper stays off)."""
    global _lock_installed
    if _lock_installed:
        return
    try:
        import fcntl
        from numba.core.caching import IndexDataCacheFile
    except ImportError:
        return
    import contextlib
    import os

    @contextlib.contextmanager
    def locked(folder):
        try:
            fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:          # an unwritable folder: Numba will not save there either
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    save, load = IndexDataCacheFile.save, IndexDataCacheFile.load

    def locked_save(self, key, data):
        with locked(self._cache_path):
            return save(self, key, data)

    def locked_load(self, key):
        with locked(self._cache_path):
            return load(self, key)

    IndexDataCacheFile.save, IndexDataCacheFile.load = locked_save, locked_load
    _lock_installed = True


def cache_lock_installed() -> bool:
    return _lock_installed
