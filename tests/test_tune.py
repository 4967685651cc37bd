"""friday tune (sim.lab.tune, tune_study, tune_report): ranges read and checked, a study
continued by a second run exactly as one run would have made it, Ctrl-C keeping every
finished trial (and the resumed study equal to an uninterrupted one), a study of another
question refused untouched, and the report with its figures written.  Tiny budgets: trials of
200-300 games of veteran at level 1; bad command lines: tests/test_every_command.py."""
from __future__ import annotations

import hashlib
import re
import sqlite3

import pandas as pd
import pytest

from helpers import interrupt_cli, run_cli

optuna = pytest.importorskip("optuna")

from policies import load_policy                       # noqa: E402
from sim.lab import tune as T                          # noqa: E402
from sim.lab.tune_study import check_study, tune       # noqa: E402
from sim.errors import UsageError                       # noqa: E402

RANGES = ["value_weight=0.4:0.8", "reach_cards=10:22"]


def _trials(path) -> list[tuple]:
    """(played values, win rate, wins) of the finished trials of a study file, in order."""
    study = optuna.load_study(study_name=T.STUDY_NAME, storage=f"sqlite:///{path}")
    return [(t.user_attrs["values"], t.value, t.user_attrs["wins"]) for t in T.finished(study)]


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_ranges_whole_numbers_only_for_a_whole_default_and_whole_bounds():
    pol = load_policy("veteran")          # value_weight 0.6, reach_cards 22, food_bonus 1
    got = T.parse_ranges(pol, ["value_weight=0:1", "reach_cards=4:22", "food_bonus=0.0:2.0",
                               "cull_min_life= 8 : 16 "])
    assert [(r.name, r.low, r.high, r.kind) for r in got] == [
        ("value_weight", 0, 1, "float"), ("reach_cards", 4, 22, "int"),
        ("food_bonus", 0, 2, "float"), ("cull_min_life", 8, 16, "int")]
    assert T.parse_ranges(pol, {"reach_cards": (4, 22), "food_bonus": (0.0, 2.0)})[1].kind == \
        "float"
    q = T.question("veteran[value_weight=0.55]", ["value_weight=0.4:0.8"], 1, 100, 1)
    assert q.start_values() == {"value_weight": 0.55} and q.start_in_ranges()
    assert q.variant({"value_weight": 0.123456789}).name == "veteran[value_weight=0.1235]"


@pytest.mark.parametrize("texts, message", [
    ([], "params must name at least one parameter"),
    (["nope=0:1"], "has no parameter 'nope'"),
    (["value_weight=1:0"], "inverted"), (["value_weight=1:1"], "empty"),
    (["value_weight=x:1"], "LOW 'x' is not a number"), (["value_weight=0:nan"], "finite"),
    (["value_weight"], "NAME=LOW:HIGH"), (["value_weight=0:1", "value_weight=0:2"], "twice"),
])
def test_bad_ranges_are_one_clear_error(texts, message):
    with pytest.raises(UsageError, match=message):
        T.parse_ranges(load_policy("veteran"), texts)


def test_validation_seed_is_fresh():
    assert T.validation_seed(1, None) == 1_000_004
    assert T.validation_seed(2**63 - 1, None) == 1_000_002        # wrapped into 0..2**63-1
    with pytest.raises(UsageError, match="must differ"):
        T.validation_seed(5, 5)


def test_a_second_run_continues_the_study_as_one_run_would(tmp_path, fast_engine):
    """--trials is the study's total: 2 trials, then the same question to 3, equals 3 at once;
    the first trial plays the starting values; a run on a full study plays nothing."""
    fast_engine("veteran")
    once, twice = tmp_path / "once.db", tmp_path / "twice.db"
    tune("veteran", RANGES, 1, 200, 3, 7, once, threads=1)
    study, run = tune("veteran", RANGES, 1, 200, 2, 7, twice, threads=1)
    assert run.played == 2 and not run.interrupted
    study, run = tune("veteran", RANGES, 1, 200, 3, 7, twice, threads=1)
    assert run.played == 1 and _trials(twice) == _trials(once)
    assert _trials(once)[0][0] == {"value_weight": 0.6, "reach_cards": 22}
    assert T.finished(study)[0].user_attrs["start"]
    study, run = tune("veteran", RANGES, 1, 200, 2, 7, twice, threads=1)
    assert run.played == 0 and len(_trials(twice)) == 3


def test_cmaes_study_is_played_and_continued(tmp_path, fast_engine):
    fast_engine("veteran")
    path = tmp_path / "cma.db"
    tune("veteran", RANGES, 1, 200, 2, 7, path, sampler="cmaes", threads=1)
    tune("veteran", RANGES, 1, 200, 3, 7, path, sampler="cmaes", threads=1)
    assert len(_trials(path)) == 3


def test_a_study_of_another_question_or_program_is_refused_untouched(tmp_path, fast_engine):
    fast_engine("veteran")
    path = tmp_path / "s.db"
    tune("veteran", RANGES, 1, 200, 1, 7, path, threads=1)
    before = _sha(path)
    for other, part in [(dict(level=2), "level: 1; this command's: 2"),
                        (dict(seed=8), "seed"), (dict(games=300), "games per trial"),
                        (dict(params=RANGES[:1]), "parameters and ranges"),
                        (dict(params=["value_weight=0.4:0.9", RANGES[1]]), "0.4:0.8"),
                        (dict(policy="expert", params=["value_weight=0.4:0.8"]), "policy"),
                        (dict(sampler="cmaes"), "sampler"),
                        (dict(options=["old_age=continue"]), "rule options")]:
        args = {"policy": "veteran", "params": RANGES, "level": 1, "games": 200, "seed": 7,
                **other}
        with pytest.raises(UsageError, match="holds another tuning: its .*" + re.escape(part)):
            check_study(path, T.question(**args))
    assert _sha(path) == before
    mine = tmp_path / "mine.db"                    # another program's database
    with sqlite3.connect(mine) as db:
        db.execute("create table notes (text)")
    before = _sha(mine)
    with pytest.raises(UsageError, match="is not a study database of friday tune"):
        check_study(mine, T.question("veteran", RANGES, 1, 200, 7))
    assert _sha(mine) == before


def test_a_mismatched_study_is_one_error_line_exit_2_and_left_as_it_was(tmp_path, fast_engine):
    fast_engine("veteran")
    tune("veteran", RANGES, 1, 200, 1, 7, tmp_path / "s.db", threads=1)
    before = _sha(tmp_path / "s.db")
    out = run_cli("tune", "veteran", *[a for r in RANGES for a in ("--param", r)],
                  "--level", "2", "--games-per-trial", "200", "--trials", "2", "--seed", "7",
                  "--study", "s.db", "--out", "out", cwd=tmp_path)
    errors = [line for line in out.stderr.splitlines() if line.startswith("error:")]
    assert out.returncode == 2 and len(errors) == 1, out.stdout + out.stderr
    assert "holds another tuning: its level: 1; this command's: 2" in errors[0]
    assert "Traceback" not in out.stdout + out.stderr and "trial" not in out.stdout
    assert _sha(tmp_path / "s.db") == before and not (tmp_path / "out").exists()


def test_the_command_writes_the_report_figures_and_best_spec(tmp_path, fast_engine):
    """Three trials and a validation on 500 fresh games: every file of --out, the exact
    command in tune.md, a best spec that loads; a rerun to 4 trials continues the study."""
    fast_engine("veteran")
    args = ["veteran", *[a for r in RANGES for a in ("--param", r)], "--level", "1",
            "--games-per-trial", "200", "--seed", "7", "--study", "s.db",
            "--validate-games", "500", "--threads", "1"]
    out = run_cli("tune", *args, "--trials", "3", "--out", "out", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert [line.split(":")[0] for line in out.stdout.splitlines()
            if line.startswith("trial ")] == ["trial 0", "trial 1", "trial 2"]
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert files == sorted(("tune.md", "best_policy.txt", "trials.csv", "history.png",
                            "importance.png", "slices.png"))
    md = (tmp_path / "out" / "tune.md").read_text()
    assert "`friday tune " + " ".join(args[:2]) in md and "--out out --force`" in md  # reruns
    assert "**Verdict: " in md and "games 0..499 of seed 1000010" in md
    spec = (tmp_path / "out" / "best_policy.txt").read_text().strip()
    assert f"best variant: {spec}" in out.stdout and load_policy(spec).name == spec
    assert len(pd.read_csv(tmp_path / "out" / "trials.csv")) == 3
    again = run_cli("tune", *args, "--trials", "4", cwd=tmp_path)
    assert again.returncode == 0 and "3 finished trials, continuing to 4" in again.stdout
    assert len(_trials(tmp_path / "s.db")) == 4


def test_ctrl_c_keeps_every_finished_trial_and_the_rerun_equals_one_run(tmp_path,
                                                                        fast_engine):
    """Ctrl-C once two trials have finished (the second one printed): exit code 130, the
    printed trials are all in the study (the one in flight stored as failed); continued to
    one more trial, the study's finished trials equal those of an uninterrupted run."""
    fast_engine("veteran")
    games, args = "20000", ["--level", "1", "--seed", "7", "--threads", "1"]
    run = interrupt_cli("tune", "veteran", *[a for r in RANGES for a in ("--param", r)], *args,
                        "--games-per-trial", games, "--trials", "50", "--study", "s.db",
                        cues=["(?m)^trial 1:"], cwd=tmp_path)
    out, err = run.stdout, run.stderr
    assert run.returncode == 130 and "Traceback" not in out + err, out + err
    printed = [line for line in out.splitlines() if line.startswith("trial ")]
    kept = _trials(tmp_path / "s.db")
    assert len(kept) == len(printed) >= 2 and "the same command continues it" in err
    assert all(f"({wins:,} games)" in line for line, (_, _, wins) in zip(printed, kept))
    n = len(kept) + 1
    tune("veteran", RANGES, 1, int(games), n, 7, tmp_path / "s.db", threads=1)
    tune("veteran", RANGES, 1, int(games), n, 7, tmp_path / "once.db", threads=1)
    assert _trials(tmp_path / "s.db") == _trials(tmp_path / "once.db")
