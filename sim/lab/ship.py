"""Policies shipped to workers as data: the one way any policy reaches another process.

A worker (a local worker process of ``friday train``, a Dask worker on another machine) may not
see the user's files, so a policy travels as its spec with the *bytes* of every file the spec
names, never as compiled code:

* a policy file ``path/to/file.py:function`` (the ``.py`` files beside it too, for its helpers,
  up to MAX_SHIPPED_BYTES);
* a text parameter that is one, as the search player's ``search[base=file.py:f]``;
* a text parameter that names a file, as the learned player's ``learned[weights=w.json]``.

On the worker the files are written into a folder named after their content hash (under the
temporary folder), with their own names, so a module keeps its name and Numba's cache of it
stays valid from run to run; the spec is then loaded there with those paths (``load_policy``).
"""
from __future__ import annotations

import hashlib
import tempfile
from dataclasses import replace
from pathlib import Path

from policies.spec import is_file_spec
from sim.errors import UsageError
from .files import write_atomic

MAX_SHIPPED_BYTES = 1 << 20          # a policy file and the .py files beside it, at most 1 MiB


def _files_of(text: str) -> tuple[dict, str] | None:
    """(name -> bytes, the text with its path dropped) of the files a spec part names, or None
    when it names none (a built-in's name, a number)."""
    if is_file_spec(text):
        path, _, function = text.rpartition(":")
        path = Path(path)
        if not path.is_file():
            return None
        files = {f.name: f.read_bytes() for f in sorted(path.parent.glob("*.py"))}
        if sum(len(b) for b in files.values()) > MAX_SHIPPED_BYTES:
            files = {path.name: path.read_bytes()}
        return files, f"{path.name}:{function}"
    path = Path(text)
    if path.suffix and path.is_file():
        return {path.name: path.read_bytes()}, path.name
    return None


def _folder_key(files: dict) -> str:
    return hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest()[:16]


def _part(text: str, what: str):
    """One spec part as data: ("text", it) or ("files", files, key, name in the folder)."""
    found = _files_of(text)
    if found is None:
        if is_file_spec(text):
            raise UsageError(f"{what} {text!r} cannot be sent to a worker: its file is not "
                             f"there")
        return ("text", text)
    files, name = found
    return ("files", files, _folder_key(files), name)


def _builtin(source) -> bool:
    import policies
    return Path(source).resolve().parent == Path(policies.__file__).resolve().parent


def policy_wire(policy) -> dict:
    """What a worker needs to rebuild ``policy`` (a ``policies.Policy``): its base and each
    parameter it sets, every file among them with its bytes (module docstring)."""
    record = policy.record()
    params = {k: _part(v, f"policy {policy.name!r}: parameter {k}") if isinstance(v, str)
              else ("number", float(v)) for k, v in record["overrides"].items()}
    base = record["base"]
    if record["file"] and not _builtin(record["file"]):     # a file, or a function loaded
        base = f"{record['file']}:{base.rpartition(':')[2]}"  # from one (load_policy(f))
    return {"name": policy.name, "base": _part(base, f"policy {policy.name!r}"),
            "params": params}


def _unpack(part) -> str | float:
    """A spec part on the worker: its files written once per content hash (atomically:
    workers may race), the part naming them there."""
    if part[0] != "files":
        return part[1]
    _, files, key, name = part
    folder = Path(tempfile.gettempdir()) / "friday-lab-policies" / key
    for file, data in files.items():
        if not (folder / file).is_file():
            write_atomic(folder / file, lambda tmp, data=data: tmp.write_bytes(data))
    return str(folder / name)


def policy_from_wire(wire: dict):
    """The Policy on the worker, loaded from the shipped files (the loader puts a policy
    file's folder first on sys.path, so its helpers import)."""
    from policies import load_policy
    params = {k: _unpack(v) for k, v in wire["params"].items()}
    return load_policy(_unpack(wire["base"]), params)


def to_wire(chunk, wire: dict | None = None):
    """The sim.lab.run.Chunk as data: its setup's policy as ``policy_wire`` (``wire``, if
    already made); the options, the card table and the chunk's work travel as they are."""
    policy = wire or policy_wire(chunk.setup.policy)
    return replace(chunk, setup=replace(chunk.setup, policy=policy))
