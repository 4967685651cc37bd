""""Made by `COMMAND`": every result file records the command that made it through one builder
(sim.lab.files.command_line), quoted for the shell, so that the recorded command reruns as
typed, a path with a space included."""
from __future__ import annotations

import shlex

from sim.lab.files import command_line


def test_a_path_with_a_space_round_trips():
    argv = ["balance", "pirates", "--policy", "expert[reserve_green=1]", "--out", "my results/a b"]
    made = command_line(argv, force=True)
    assert shlex.split(made) == ["friday", *argv, "--force"]
    assert shlex.split(command_line(argv, "python benchmarks/strength.py")) == \
        ["python", "benchmarks/strength.py", *argv]


def test_force_is_added_once_and_plain_words_stay_plain():
    assert command_line(["report", "--force"], force=True) == "friday report --force"
    assert command_line(["report", "--games", 10]) == "friday report --games 10"
    assert command_line([]) == "friday"


def test_the_report_records_its_folder_quoted(tmp_path, friday_here):
    out = friday_here(["report", "random", "always-fight", "--level", "1", "--games", "20",
                       "--out", "my results", "--quiet"], tmp_path)
    assert out.returncode == 0, out.stderr
    md = (tmp_path / "my results" / "policies.md").read_text()
    made = md.split("Made by `", 1)[1].split("`", 1)[0]
    assert shlex.split(made)[-3:] == ["--out", "my results", "--force"]
