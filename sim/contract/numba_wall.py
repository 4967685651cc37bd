"""The Numba wall: everything of friday-lab that depends on Numba's internals, in one place.

* ``lean_jit``: the decorator of the engines and the built-in policies alike, compiled without
  Numba's reference counting (no incref/decref call per array use, about 2x faster games; such
  a function cannot allocate).
* ``address_of`` / ``field``: one pointer to the state tuple instead of its ~90 flattened
  words per call.  ``address_of`` compiles only in a ``lean_jit`` function: there nothing is
  ever freed, and the arrays it points to are the function's own arguments, which its caller
  holds for the whole call, so a pointer cannot outlive its arrays (a use-after-free would be
  silent).  Elsewhere it is a compile error.
* ``checked_jit``: a user's function compiled with bounds checking (``boundscheck=True``), and
  so are the user's jitted functions it calls by a global name: an index out of range is an
  IndexError, not a read of foreign memory (a crash).  The project's own code keeps its speed.
* ``signature_of``: a jitted entry point's signature from its parameters' names (one table).
* ``ask_copy`` / ``cache_name``: a per-policy copy of a function, named uniquely by the
  policy's source file and qualified name, so that Numba's disk cache gives each policy its
  own files.
* ``has_cached_code``, ``cache_dirs``, ``lock_cache_files``: Numba's cache index, folders and
  a lock around its writer (processes compiling at once).
* Importing this module checks that the installed Numba is a tested version (``TESTED``, the
  range of ``pyproject.toml``).
"""
from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import re
import types as pytypes
from pathlib import Path

import numba
from numba import njit, types
from numba.core import cgutils
from numba.core.errors import NumbaError
from numba.extending import intrinsic

TESTED = ("0.68", "0.69")       # numba>=0.68,<0.69, as in pyproject.toml (0.68.1 tested)


def numba_version_error(version: str) -> str | None:
    """Why ``version`` of Numba is not one this wall was tested with (None: it is)."""
    def key(v):
        return tuple(int(re.match(r"\d*", part).group() or 0) for part in v.split(".")[:2])
    low, high = TESTED
    if key(low) <= key(version) < key(high):
        return None
    return (f"friday-lab needs numba>={low},<{high} (it relies on Numba internals tested with "
            f"that range), not numba {version}: pip install 'numba>={low},<{high}'")


_problem = numba_version_error(numba.__version__)
if _problem:
    raise ImportError(_problem)


def lean_jit(fn=None, *, sig=None, inline=False, cache=True, nogil=False, boundscheck=False):
    """``njit`` without reference counting (the engines' functions, the built-in policies' and
    each policy's ``ask``): ``@lean_jit``, ``@lean_jit(inline=True)``, ``lean_jit(py,
    sig=...)``; ``nogil``: a call from Python releases the GIL (one that another thread waits
    on: sim.contract.interrupt); ``boundscheck``: every index checked (a user's code inlined)."""
    jit = njit(sig, cache=cache, _nrt=False, **({"inline": "always"} if inline else {}),
               **({"nogil": True} if nogil else {}),
               **({"boundscheck": True} if boundscheck else {}))
    return jit if fn is None else jit(fn)


def jitted_py(value):
    """The plain Python function of a Numba-jitted function (a dispatcher), else None."""
    from numba.core.dispatcher import Dispatcher
    return value.py_func if isinstance(value, Dispatcher) else None


def checked_jit(fn, is_user, _done=None, inline=False):
    """``fn`` (a plain or jitted function of a user's) jitted with bounds checking, its
    options kept but ``cache`` (a user's function is never cached on disk); each global it
    names that is a user's jitted function (``is_user(py)``) replaced, in a copy of its
    globals, by such a checked copy too (recursively).  Idempotent: a checked function is
    returned as it is.  ``inline``: inlined into its caller (compiled with the caller's flags,
    its reference counting too: a decide that allocates)."""
    if getattr(fn, "friday_checked", False) and not inline:
        return fn
    py = getattr(fn, "py_func", fn)
    done = {} if _done is None else _done
    if id(py) in done:
        return done[id(py)]
    options = dict(getattr(fn, "targetoptions", {}), boundscheck=True)
    options.pop("cache", None), options.pop("nopython", None)
    if inline:
        options["inline"] = "always"
    names = dict(py.__globals__)
    copy = pytypes.FunctionType(py.__code__, names, py.__name__, py.__defaults__,
                                py.__closure__)
    copy.__kwdefaults__, copy.__qualname__ = py.__kwdefaults__, py.__qualname__
    copy.__doc__, copy.__module__ = py.__doc__, py.__module__
    copy.__dict__.update(py.__dict__)
    checked = njit(**options)(copy)
    if not inline:
        done[id(py)] = checked
    for name in py.__code__.co_names:
        value = names.get(name)
        if jitted_py(value) is not None and is_user(value.py_func):
            names[name] = checked_jit(value, is_user, done)
    if checked is not copy:
        checked.friday_checked = True
    copy.friday_checked = True
    return checked


def signature_of(py, arg_types: dict, ret=types.void):
    """The signature of ``py``: each parameter typed by its name in ``arg_types``."""
    return ret(*(arg_types[name] for name in inspect.signature(py).parameters))


# --- the state pointer ------------------------------------------------------------------------
if numba.config.DISABLE_JIT:        # plain Python (coverage runs): the same game, slowly
    def address_of(g):
        return [g]

    def field(gp, k):
        return gp[0][k]
else:
    @intrinsic
    def address_of(typingctx, g):
        """A pointer to the state tuple ``g``, stored in the caller's frame: valid for the rest
        of the call.  Only in a ``lean_jit`` function (module docstring)."""
        if not isinstance(g, types.BaseTuple):
            return None

        def codegen(context, builder, sig, args):
            if context.enable_nrt:
                raise NumbaError("address_of is used in a function compiled with reference "
                                 "counting: take the pointer in a lean_jit function whose "
                                 "arguments are the state's arrays")
            return cgutils.alloca_once_value(builder, args[0])
        return types.CPointer(g)(g), codegen

    @intrinsic
    def field(typingctx, gp, k):
        """``g[k]`` read through the state pointer: loads that one array's data pointer and
        shape, not the tuple.  The rest of the array structure is constant: C-contiguous
        strides (as Numba itself assumes for a 'C' array) and no meminfo or parent (the
        engine counts no references), so a call that passes the array on loads nothing more."""
        if not isinstance(gp, types.CPointer) or not isinstance(k, types.IntegerLiteral):
            return None
        idx = k.literal_value
        aryty = gp.dtype[idx]
        itemsize = aryty.dtype.bitwidth // 8

        def codegen(context, builder, sig, args):
            from numba.np.arrayobj import populate_array   # 40 ms: not at ``import sim``
            src = context.make_array(aryty)(context, builder,
                                            ref=cgutils.gep_inbounds(builder, args[0], 0, idx))
            shape = cgutils.unpack_tuple(builder, src.shape, aryty.ndim)
            stride = context.get_constant(types.intp, itemsize)
            strides = []
            for n in reversed(shape):
                strides.insert(0, stride)
                stride = builder.mul(stride, n)
            out = context.make_array(aryty)(context, builder)
            populate_array(out, data=src.data, shape=shape, strides=strides, itemsize=itemsize,
                           meminfo=None)
            return out._getvalue()
        return aryty(gp, k), codegen


# --- cache naming -----------------------------------------------------------------------------
def cache_name(py, prefix: str) -> str:
    """``prefix__<qualname>__<hash>``: the hash is of ``py``'s resolved source file and
    qualified name, so two functions of one name in two files never share a name (a user's
    decide guarded by sim.contract.user_code: its own function's, ``user_py``)."""
    py = getattr(py, "user_py", py)
    try:
        where = str(Path(inspect.getsourcefile(py) or "").resolve())
    except TypeError:           # no source file (a builtin, a lambda from exec)
        where = ""
    where = f"{where}:{getattr(py, '__module__', '')}:{py.__qualname__}"
    digest = hashlib.sha256(where.encode()).hexdigest()[:16]
    return f"{prefix}__{re.sub(r'[^0-9A-Za-z_]', '_', py.__qualname__)}__{digest}"


def ask_copy(template, py, prefix="ask", **names):
    """A copy of ``template`` (a plain function) whose globals ``names`` are replaced, named
    ``cache_name(py, prefix)``: Numba names a function's cache files by its name, so each
    policy function ``py`` gets its own."""
    name = cache_name(py, prefix)
    fn = pytypes.FunctionType(template.__code__.replace(co_name=name),
                              dict(template.__globals__, **names), name)
    fn.__qualname__ = name
    return fn


# --- Numba's disk cache -----------------------------------------------------------------------
def cache_dirs(source_dir: Path) -> list[Path]:
    """Where Numba may keep the cache of the modules in ``source_dir``: next to them, under
    NUMBA_CACHE_DIR, or in the user-wide cache (Numba's own locators say which; of the
    function a locator takes it reads only the line number, so this one serves)."""
    from numba.core import caching, config
    py_file = str(next(source_dir.glob("*.py")))
    if config.CACHE_DIR:
        return [Path(caching.UserProvidedCacheLocator(cache_dirs, py_file).get_cache_path())]
    return [source_dir / "__pycache__",
            Path(caching.UserWideCacheLocator(cache_dirs, py_file).get_cache_path())]


def has_cached_code(py_func) -> bool:
    """Whether Numba's cache index of ``py_func`` (a plain Python function, jitted with
    ``cache=True`` somewhere) exists and has an entry for the current source file: the same
    locator and index file Numba itself reads.  False when it cannot tell."""
    try:
        from numba.core.caching import FunctionCache
        return bool(FunctionCache(py_func)._cache_file._load_index())
    except Exception:           # an unreadable file
        return False


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
