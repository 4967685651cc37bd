"""Every notebook's code cells run (with few games) so the notebooks never rot."""
import json
from pathlib import Path

import matplotlib
import pytest

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_cells_run(path, monkeypatch):
    matplotlib.use("Agg")
    monkeypatch.setenv("FRIDAY_NOTEBOOK_GAMES", "400")
    cells = json.loads(path.read_text())["cells"]
    namespace = {}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}", "exec"), namespace)


def test_notebooks_are_generated_from_make_notebooks():
    assert {p.name for p in NOTEBOOKS} == {"cull_green_question.ipynb", "pirate_pairs.ipynb",
                                            "pirate_balance.ipynb"}
