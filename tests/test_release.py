"""Release 0.2.0: one version source, ``friday --version``, the provenance every result file
and trace header records (sim.provenance), and the registered Gymnasium id."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sim
from sim import provenance as P

ROOT = Path(__file__).resolve().parent.parent


def test_one_version_source():
    """pyproject.toml reads the version from sim/provenance.py (no second copy to forget), as
    setuptools does when it builds the package: statically, without importing it."""
    from setuptools.config.expand import read_attr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert read_attr(attr, root_dir=ROOT) == sim.__version__ == P.__version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", sim.__version__)
    assert f"## [{sim.__version__}]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_friday_version():
    from sim.cli import app
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"friday-lab {sim.__version__}\n"


def test_the_engine_hash_covers_the_sources_that_decide_games():
    names = {p.relative_to(P.ROOT).as_posix() for p in P.engine_files()}
    assert {"data/cards.csv", "rules.py", "rng.py", "observation.py", "fast/machine.py",
            "reference/game.py", "reference/fight.py"} <= names
    assert not any(n.startswith(("lab/", "cli/", "play/")) for n in names)
    assert re.fullmatch(r"[0-9a-f]{64}", P.engine_hash()) and P.engine_hash() is P.engine_hash()


def test_a_parquet_file_records_version_and_engine_hash(tmp_path):
    import pandas as pd
    import pyarrow.parquet as pq
    from sim.lab.files import write_parquet
    write_parquet(pd.DataFrame({"won": [1, 0]}), tmp_path / "r.parquet", {"seed": 3})
    meta = json.loads(pq.read_schema(tmp_path / "r.parquet").metadata[b"friday_lab"])
    assert meta == {"seed": 3, "friday_lab_version": sim.__version__,
                    "engine_sha256": P.engine_hash()}


def test_the_trace_header_records_version_and_engine_hash():
    from sim.rules import Options
    from sim.trace import header
    head = header("reference", 1, 2, 3, "expert", Options())
    assert head["x"]["friday_lab"] == {"version": sim.__version__,
                                       "engine_sha256": P.engine_hash()}


def test_the_gymnasium_id_is_registered():
    gym = pytest.importorskip("gymnasium")
    from sim.play.env import ENV_ID, FridayEnv
    assert ENV_ID == "friday_lab/Friday-v0"
    env = gym.make(ENV_ID, level=2, reward="score")
    assert isinstance(env.unwrapped, FridayEnv) and env.unwrapped.level == 2
    obs, info = env.reset(seed=5)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()


def test_the_gymnasium_id_needs_no_import_first():
    """``module:id`` makes Gymnasium import the module that registers the id (in a fresh
    process: nothing of sim imported before)."""
    pytest.importorskip("gymnasium")
    code = ("import gymnasium; env = gymnasium.make('sim.play.env:friday_lab/Friday-v0', "
            "level=3); print(env.spec.id, env.unwrapped.level)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("friday_lab/Friday-v0 3")
