"""The study file of ``friday tune`` (sim.lab.tune): checked before any game without being
written, then created or continued; and ``tune``, the whole tuning from Python.

A study lives in Optuna's SQLite storage, one study named ``friday-tune`` per file, with the
question (sim.lab.tune.Question.identity) as its user attribute ``friday_tune``.  A file that
is a folder, has another suffix, cannot be written, is not an SQLite database, is another
program's database (never touched: read only), or holds another question is one UsageError."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from sim.errors import UsageError
from .files import check_store
from .tune import ATTR, STUDY_NAME, STUDY_SUFFIXES, Question, optuna, question, run_trials


def _url(path: Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def _optuna_tables(path: Path) -> None:
    """A UsageError unless ``path`` is an empty file or an SQLite database that is empty or
    Optuna's (read only: a database of another program is never touched)."""
    if path.stat().st_size == 0:
        return
    with open(path, "rb") as f:
        head = f.read(16)
    not_ours = f"study {path} is not a study database of friday tune (Optuna's SQLite storage)"
    if head != b"SQLite format 3\x00":
        raise UsageError(not_ours, "study")
    try:
        with sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True) as db:
            tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
    except sqlite3.Error as exc:
        raise UsageError(f"{not_ours}: {exc}", "study") from None
    if tables and not {"studies", "trials", "study_user_attributes"} <= tables:
        raise UsageError(not_ours, "study")


def check_study(path, q: Question):
    """Refuse, before any game and without writing, a --study file that cannot be used: a
    folder, a wrong suffix, not writable, not Optuna's, or holding another question."""
    path = Path(path)
    check_store(path, STUDY_SUFFIXES, "study")
    if path.exists():
        _optuna_tables(path)
        _compare(path, _stored_question(path), q.identity())


def _stored_question(path: Path) -> dict | None:
    """The question stored in the file's friday-tune study (None: no such study yet)."""
    o = optuna()
    try:
        storage = o.storages.RDBStorage(_url(path))
        names = [s.study_name for s in o.get_all_study_summaries(storage)]
    except Exception as exc:             # sqlalchemy's or Optuna's: an unusable database
        raise UsageError(f"study {path} cannot be read as an Optuna study: "
                         f"{type(exc).__name__}: {str(exc).splitlines()[0]}", "study") from None
    if not names:
        return None
    if STUDY_NAME not in names:
        raise UsageError(f"study {path} holds no friday tune study (it has {', '.join(names)}):"
                         f" give another file", "study")
    return o.load_study(study_name=STUDY_NAME, storage=storage).user_attrs.get(ATTR, {})


PARTS = {"policy": "policy", "params": "parameters and ranges", "level": "level",
         "seed": "seed", "games_per_trial": "games per trial", "options": "rule options",
         "sampler": "sampler", "sha256": "policy file (sha256)"}


def _compare(path: Path, stored: dict | None, want: dict):
    if stored is None:
        return
    for key in want:
        if stored.get(key) != want[key]:
            raise UsageError(
                 f"study {path} holds another tuning: its {PARTS[key]}: "
                 f"{_show(key, stored.get(key))}; this command's: {_show(key, want[key])} (a study"
                 f" continues only the same policy, parameters and ranges, level, seed, games per"
                 f" trial, rule options and sampler: give another study file for a new one)",
                 "study")


def _show(key, value) -> str:
    if key == "params" and isinstance(value, dict):
        return ", ".join(f"{n}={lo:g}:{hi:g} ({kind})" for n, (lo, hi, kind) in value.items())
    return repr(value)


def open_study(path, q: Question):
    """The study of ``path``: created with the question as its attribute, or loaded (checked
    by ``check_study`` first: call that before any long work)."""
    o = optuna()
    path = Path(path)
    check_study(path, q)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        storage = o.storages.RDBStorage(_url(path))
        study = o.create_study(storage=storage, study_name=STUDY_NAME, direction="maximize",
                               load_if_exists=True)
        if ATTR not in study.user_attrs:
            study.set_user_attr(ATTR, q.identity())
    except Exception as exc:              # sqlalchemy's, Optuna's or the file system's
        raise UsageError(f"cannot write {path}: {type(exc).__name__}: "
                         f"{str(exc).splitlines()[0]}", "study") from None
    return study


def tune(policy, params, level: int, games_per_trial: int, trials: int, seed: int, study,
         sampler: str = "tpe", options=None, threads=None, cluster=None, chunk=None,
         quiet: bool = True, echo=None):
    """Tune ``params`` (``["value_weight=0.4:0.9", ...]`` or ``{"value_weight": (0.4, 0.9)}``)
    of ``policy`` for its win rate at ``level`` on games 0..games_per_trial-1 of ``seed``,
    until the study in the file ``study`` has ``trials`` finished trials (``friday tune``
    without the validation: sim.lab.tune_report.validate).  Returns (study, Trials); Ctrl-C
    keeps the finished trials (``Trials.interrupted``)."""
    from .cluster import connected
    from .run import backend_for
    q = question(policy, params, level, games_per_trial, seed, options, sampler)
    check_study(study, q)
    with connected(cluster) as dask:
        opened = open_study(study, q)
        return opened, run_trials(opened, q, trials, backend_for(dask, chunk, threads), quiet,
                                  echo)
