"""The README's promises: it is short; it opens with the two set-up commands, the second of which
CI runs; every runnable block of it runs as written (tests/fenced.py, as the site's pages run:
```bash blocks of friday commands, ```python blocks, titled blocks saved as files) in a
temporary folder; every link goes to a file of the repository; it names the one command that
builds the site; and every number it quotes is the results file's it names, with the command
that made that file."""
import re
from pathlib import Path

import pandas as pd
import pytest

from fenced import fenced_blocks, prepare, run_block

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SETUP = ["python3 -m venv .venv && .venv/bin/pip install -q -e . && "
         ".venv/bin/friday simulate --games 100000",
         "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && "
         ".venv/bin/python -m pytest -q"]


def made_by(results_file: str) -> str:
    text = (ROOT / "results" / results_file).read_text(encoding="utf-8")
    return re.search(r"Made by `([^`]+)`", text).group(1)


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_is_short():
    assert len(README.splitlines()) <= 155


def test_readme_opens_with_the_two_setup_commands_and_ci_runs_the_test_one():
    first = fenced_blocks(README)[0]
    assert README.lstrip().startswith("# friday-lab") and README.index("```") < README.index("\n## ")
    assert not first.runs, "the set-up block installs: shown (console), never run by the suite"
    assert first.body.strip().splitlines() == SETUP
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(rf"^{re.escape(SETUP[1])}$", ci, re.M), ".ci/run no longer runs it"


def test_the_readme_has_five_tasks_with_one_command_each():
    runs = [b for b in fenced_blocks(README) if b.runs]
    commands = [b for b in runs if b.lang == "bash"]
    assert len(commands) == 4 and all(len(b.body.strip().splitlines()) == 1 for b in commands)
    assert {b.body.split()[1] for b in commands} == {"simulate", "compare", "balance"}
    assert any(b.title == "mine.py" and len(b.body.strip().splitlines()) < 15
               and "with_rules" in b.body for b in runs)    # the issue: fewer than 15 lines
    assert any(b.lang == "python" and b.title is None and "Game.new" in b.body for b in runs)


@pytest.mark.reruns
def test_every_runnable_block_of_the_readme_runs_as_written(tmp_path, monkeypatch):
    blocks = [b for b in fenced_blocks(README) if b.runs]
    assert len(blocks) >= 6
    monkeypatch.chdir(prepare(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    for block in blocks:
        run_block(block, tmp_path, f"README.md:{block.line}")
    assert (tmp_path / "mine.py").is_file()


def test_every_link_and_figure_of_the_readme_is_a_file_here():
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert len(local) >= 20
    for link in local:
        assert (ROOT / link).exists(), f"README links to {link}, which is not in the repository"
    figures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert len(figures) == 1 and figures[0].startswith("results/") and figures[0].endswith(".png")
    made = made_by("policies.md")
    assert "friday report" in made and flat(made) in flat(README)   # the command of that figure


def test_the_readme_names_the_command_that_builds_the_site():
    assert ".venv/bin/mkdocs build --strict" in README and "mkdocs serve" in README
    for page in ("docs/tutorial.md", "docs/how-to/write-a-policy.md", "docs/reference/runs.md",
                 "docs/explanation/performance.md", "docs/results/index.md"):
        assert f"]({page})" in README


def test_the_readme_win_rates_are_results_policies_md():
    assert flat(made_by("policies.md")) in flat(README)
    results = (ROOT / "results" / "policies.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([\w-]+) \| ([\d.]+)% \| ([\d.]+)% \| ([\d.]+)% \| ([\d.]+)% \|$",
                      README, re.M)
    assert len(rows) >= 3
    for policy, *rates in rows:
        for level, rate in enumerate(rates, start=1):
            assert re.search(rf"^\| {policy} \| {level} \| [\d,]+ \| {re.escape(rate)}% \|",
                             results, re.M), (policy, level, rate)


def what_if(results_file: str) -> tuple[str, str, str]:
    """The level-4 fair value of the hardest pirate and its interval, as a pirates.md prints them."""
    text = (ROOT / "results" / results_file).read_text(encoding="utf-8")
    return re.search(r"pirate_hazard_value = ([\d.]+)\*\* \(95% interval \[([\d.]+), ([\d.]+)\]",
                     text).groups()


def percent(rate: float) -> str:
    return f"{100 * rate:.2f}"


def test_the_readme_pirate_numbers_are_results_pirates_learned_csv():
    """The README leads with the study under `learned`: every number is
    results/pirates_learned/'s, next to the command that made it."""
    text = flat(README)
    found = re.search(
        r"The hardest pirate is (\S+) at every level\. The study uses `learned` because it is the "
        r"strongest policy fast enough for a million games per level: it beats \1 in ([\d.]+)% of "
        r"its level-(\d) fights, against ([\d.]+)% for the easiest, ([^;]+); \1 would be fair at "
        r"value ([\d.]+) \(95% interval \[([\d.]+), ([\d.]+)\]\) "
        r"\(\[results/pirates_learned/pirates\.md\]\(results/pirates_learned/pirates\.md\), "
        r"made by `([^`]+)`\)", text)
    assert found, "the README's pirate paragraph no longer leads with the learned study"
    hardest, rate, level, easy_rate, easiest, value, low, high, command = found.groups()
    assert command == flat(made_by("pirates_learned/pirates.md"))
    assert "--policy learned" in command
    table = pd.read_csv(ROOT / "results" / "pirates_learned" / "pirates.csv")
    for _, d in table.groupby("level"):
        assert d.sort_values("rank").iloc[0]["label"] == hardest
    d = table[table["level"] == int(level)].sort_values("rank")
    assert rate == percent(d.iloc[0]["beaten_rate"])
    assert easy_rate == percent(d.iloc[-1]["beaten_rate"])
    assert easiest == d.iloc[-1]["label"]
    assert (value, low, high) == what_if("pirates_learned/pirates.md")


def test_the_readme_pirate_numbers_are_results_pirates_csv():
    """The weak-player contrast: the veteran's figures are results/pirates.csv's and
    results/pirates.md's, with its command; what the README says changes with strength holds."""
    text = flat(README)
    assert flat(made_by("pirates.md")) in text
    found = re.search(
        r"The hardest pirate is (\S+) at every level\..*? of its level-(\d) fights, .*?"
        r"A weaker player finds every pirate harder and the fair value lower: under the veteran "
        r"the figures are ([\d.]+)% and ([\d.]+)% \(its easiest: ([^)]+)\) and the value "
        r"([\d.]+) \(\[results/pirates\.md\]\(results/pirates\.md\), made by `([^`]+)`\)", text)
    assert found, "the README no longer gives the veteran's figures"
    hardest, level, rate, easy_rate, easiest, value, command = found.groups()
    assert command == flat(made_by("pirates.md"))
    assert "--policy veteran" in command
    table = pd.read_csv(ROOT / "results" / "pirates.csv")
    for _, d in table.groupby("level"):
        assert d.sort_values("rank").iloc[0]["label"] == hardest
    d = table[table["level"] == int(level)].sort_values("rank")
    assert rate == percent(d.iloc[0]["beaten_rate"])
    assert easy_rate == percent(d.iloc[-1]["beaten_rate"])
    assert easiest == d.iloc[-1]["label"]
    assert value == what_if("pirates.md")[0]
    # "every pirate harder and the fair value lower" than under learned
    learned = pd.read_csv(ROOT / "results" / "pirates_learned" / "pirates.csv")
    both = table.merge(learned, on=["level", "pirate"], suffixes=("_veteran", "_learned"))
    assert len(both) == len(table) == len(learned)
    assert (both["beaten_rate_veteran"] < both["beaten_rate_learned"]).all()
    assert float(value) < float(what_if("pirates_learned/pirates.md")[0])


def test_the_readme_strong_player_pirate_numbers_are_the_search_study():
    low, high = re.search(r"[Tt]he search beats every pirate in ([\d.]+)% to ([\d.]+)% of its "
                          r"level-4 fights", flat(README)).groups()
    table = pd.read_csv(ROOT / "results" / "pirates_search" / "pirates.csv")
    d = table[table["level"] == 4]
    assert float(low) == pytest.approx(100 * d["beaten_rate"].min(), abs=0.006)
    assert float(high) == pytest.approx(100 * d["beaten_rate"].max(), abs=0.006)
