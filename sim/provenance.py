"""Where a result came from: the package version and the hash of the engine's sources.

``__version__`` is the package's one version source: ``sim.__version__`` re-exports it and
pyproject.toml reads it (``[tool.setuptools.dynamic]``), so a checkout run from its folder and
an installed copy report the version of the code that runs, never that of another install.

``engine_hash()`` is a sha256 over the sources that decide games: both engines
(``sim/reference``, ``sim/fast``), the contract that asks the players (``sim/contract``), the
game's vocabulary (cards, card tables, rules and
options, random numbers, actions, the observation's layout, deals) and the printed card table
``sim/data/cards.csv``.  Two result files with the same hash (and the same policy hash) were
played by the same rules; a different hash says the engines' code changed, not that the games
did (tests/test_differential.py and the playthrough files say that).
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__version__ = "0.2.0"

ROOT = Path(__file__).resolve().parent
ENGINE_SOURCES = ("reference/*.py", "fast/*.py", "contract/*.py", "cards.py", "cardtable.py", "rules.py",
                  "rng.py", "actions.py", "observation.py", "deal.py", "data/cards.csv")


def engine_files() -> list[Path]:
    """The files ``engine_hash`` reads, in the order it reads them."""
    return sorted({p for pattern in ENGINE_SOURCES for p in ROOT.glob(pattern)})


@functools.cache
def engine_hash() -> str:
    """sha256 (hex) of the engine's sources, each file's path (relative to sim/) and bytes with
    line endings made ``\\n``; computed once per process."""
    digest = hashlib.sha256()
    for path in engine_files():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return digest.hexdigest()


def provenance() -> dict:
    """What a result file records about the code that made it (besides the policy's hash)."""
    return {"friday_lab_version": __version__, "engine_sha256": engine_hash()}
