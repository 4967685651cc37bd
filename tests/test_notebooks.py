"""Every notebook runs top to bottom in a fresh kernel (nbclient) on few games, and the
committed notebooks are exactly make_notebooks.py's cells, with the outputs of a run."""
import importlib.util
import json
from pathlib import Path

import pytest

HERE = Path(__file__).parent.parent / "notebooks"
NOTEBOOKS = sorted(HERE.glob("*.ipynb"))


def make_notebooks():
    spec = importlib.util.spec_from_file_location("make_notebooks", HERE / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.reruns
@pytest.mark.parametrize("name", sorted(make_notebooks().NOTEBOOKS))
def test_notebook_executes_top_to_bottom(name, monkeypatch):
    monkeypatch.setenv("FRIDAY_NOTEBOOK_GAMES", "300")
    mk = make_notebooks()
    nb = mk.execute(mk.notebook(mk.NOTEBOOKS[name]), timeout=900)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for c in code for o in c.outputs)


def test_committed_notebooks_are_generated_and_keep_their_outputs():
    mk = make_notebooks()
    assert {p.name for p in NOTEBOOKS} == set(mk.NOTEBOOKS)
    for path in NOTEBOOKS:
        cells = json.loads(path.read_text())["cells"]
        expected = mk.notebook(mk.NOTEBOOKS[path.name])["cells"]
        assert ["".join(c["source"]) for c in cells] == \
            ["".join(c["source"]) for c in expected], path.name
        code = [c for c in cells if c["cell_type"] == "code"]
        assert all(c["outputs"] for c in code if "plt.show()" in "".join(c["source"])
                   or "".join(c["source"]).rstrip().endswith(")")), path.name
        text = " ".join(str(o) for c in code for o in c["outputs"])
        assert "Error" not in text and "Traceback" not in text


def test_notebooks_use_only_the_python_api():
    mk = make_notebooks()
    for cells in mk.NOTEBOOKS.values():
        imports = [ln for kind, src in cells if kind == "code" for ln in src.splitlines()
                   if ln.startswith(("import", "from"))]
        for line in imports:
            assert line.startswith(("import os", "import time", "import numpy", "import pandas",
                                    "import matplotlib", "from sim.lab", "from sim import cards", "from sim import Game",
                                    "from sim.cardtable", "from sim.fast import run_batch",
                                    "from scipy", "from policies import load_policy")), line
