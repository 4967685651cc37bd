"""The one writer of result files: checked before the long work, written atomically.

* ``check_file`` / ``check_folder``: an output is refused *before* any game is played when it
  is a folder (or a file where a folder is wanted), exists without ``force``, has the wrong
  suffix, or cannot be written (a probe file is created and removed there: a permission bit
  says little to root or on a read-only file system).  Missing folders are created at write
  time, for every command alike.
* ``check_store``: the same checks for a file kept and updated in place (the study database of
  ``friday tune``), which may exist: it must be a file that can be opened for writing.
* ``write_atomic``: the file is written under a temporary name in the same folder, then
  renamed: an error or Ctrl-C never leaves a half-written or ``.partial`` file, and an
  ``OSError`` becomes one UsageError line (``error: cannot write ...``).
* ``command_line``: the command that made a file ("Made by `...`"), quoted for the shell.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path

from sim.errors import UsageError
from sim.provenance import provenance

_UMASK = os.umask(0)
os.umask(_UMASK)                  # read once: files get the mode any other program's would


def _writable_folder(folder: Path):
    """A UsageError unless a file can be created in the nearest existing ancestor of ``folder``
    (itself included)."""
    here = folder.resolve()
    while not here.exists():
        here = here.parent
    if not here.is_dir():
        raise UsageError(f"cannot write into {folder}: {here} is a file, not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=here, prefix=".friday-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"cannot write into {folder}: {exc.strerror or exc}") from None


def _file_name(path: Path, suffixes, argument: str):
    """Refuse a folder or a name without one of ``suffixes`` where a file is wanted."""
    if path.is_dir():
        raise UsageError(f"{argument} {path} is a folder: give a file name ending in "
                         f"{' or '.join(suffixes)}", argument)
    if path.suffix.lower() not in suffixes:
        raise UsageError(f"{argument} must end in {' or '.join(suffixes)}, got {path.name!r}",
                         argument)


def check_file(path: Path | None, suffixes, force: bool, argument: str = "out"):
    """Refuse an output file that could not or should not be written (see module doc);
    ``argument``: the parameter that names it, for the message (sim.errors.UsageError)."""
    if path is None:
        return
    path = Path(path)
    _file_name(path, suffixes, argument)
    if path.exists() and not force:
        raise UsageError(f"{argument} {path} exists: choose another file or pass force=True to "
                         f"overwrite it", argument)
    _writable_folder(path.parent)


def check_folder(out: Path | None, files, force: bool, argument: str = "out"):
    """Refuse an output folder that is a file, holds any of ``files`` without ``force``, or
    cannot be written."""
    if out is None:
        return
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{argument} {out} is a file: give a folder", argument)
    taken = [f for f in files if (out / f).exists()]
    if taken and not force:
        raise UsageError(f"{argument} {out} already has {', '.join(taken)}: choose another folder "
                         f"or pass force=True to overwrite", argument)
    for f in files:
        if (out / f).is_dir():
            raise UsageError(f"{out / f} is a folder: it cannot be overwritten by a file",
                             argument)
    _writable_folder(out)


def check_store(path: Path, suffixes, argument: str):
    """Refuse a file that is created or else read and written in place (a database: ``friday
    tune --study``): a folder, a wrong suffix, a place where no file can be created, an
    existing file that cannot be opened for writing (tried for real, nothing written)."""
    path = Path(path)
    _file_name(path, suffixes, argument)
    if not path.exists():
        _writable_folder(path.parent)
        return
    try:
        with open(path, "r+b"):
            pass
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_atomic(path, write):
    """``write(temporary_path)``, then rename it to ``path`` (its folders created); the
    temporary file keeps the suffix (matplotlib reads the format from it)."""
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.",
                                    suffix=f".partial{path.suffix}")
        os.close(fd)
        tmp = Path(name)
        write(tmp)
        os.chmod(tmp, 0o666 & ~_UMASK)          # mkstemp makes it private (0600)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()


def command_line(argv=None, program: str = "friday", force: bool = False) -> str:
    """The command that made a result file, as recorded in it ("Made by `...`"): ``program``,
    then the arguments as the user typed them (``argv``, default ``sys.argv[1:]``), each
    quoted for the shell (shlex.join: a path with a space reruns as it was); ``force`` adds
    ``--force`` where it is missing (the rerun remakes the files it wrote)."""
    args = [str(a) for a in (sys.argv[1:] if argv is None else argv)]
    if force and "--force" not in args:
        args.append("--force")
    return " ".join([program, shlex.join(args)]) if args else program


def write_text(path, text: str):
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_parquet(df, path, meta: dict):
    """A DataFrame to Parquet with ``meta`` (JSON) in the file's metadata, atomically; the
    record also says which code made the file (sim.provenance: ``friday_lab_version``,
    ``engine_sha256``)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    meta = {**meta, **provenance()}
    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                           b"friday_lab": json.dumps(meta).encode()})
    write_atomic(path, lambda tmp: pq.write_table(table, tmp))


def save_figure(fig, path, **kwargs):
    """A matplotlib figure to ``path``, atomically; the figure is closed."""
    import matplotlib.pyplot as plt
    try:
        write_atomic(path, lambda tmp: fig.savefig(tmp, **kwargs))
    finally:
        plt.close(fig)
