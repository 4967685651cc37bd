"""The README's promises: the two set-up commands and the user-policy example."""
import re
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app

README = (Path(__file__).parent.parent / "README.md").read_text()


def test_readme_opens_with_the_two_setup_commands_and_ci_runs_the_test_one():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1).strip().splitlines()
    assert len(block) == 2
    assert "friday simulate" in block[0] and "pytest" in block[1]
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text()
    assert block[1] in ci


def test_user_policy_example_runs(tmp_path):
    code = re.search(r"Save this as `mine.py`:\n\n```python\n(.*?)```", README, re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    (tmp_path / "mine.py").write_text(code)
    result = CliRunner().invoke(app, ["simulate", "--policy", f"{tmp_path / 'mine.py'}:brave",
                                      "--level", "1", "--games", "2000"])
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output
