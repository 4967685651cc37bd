"""Tuning a policy's parameters with Optuna (``friday tune``), every trial on the same deals.

* The question (``Question``): a starting policy, the parameters to tune with their ranges
  (``ParamRange``, from ``NAME=LOW:HIGH``), a level, games 0..N-1 of a seed, rule options and
  the sampler.  A trial plays the variant ``POLICY[name=value,...]`` on exactly those games
  (common random numbers: every trial meets the same deals, so trials differ by their
  parameters only) through the one run pipeline (sim.lab.run, summary mode), and its value is
  the share of games won.
* Whole or not: a parameter is suggested as a whole number when its default is whole and both
  bounds are written as whole numbers (``reach_cards=4:22``); otherwise as a float
  (``value_weight=0.4:0.9``, or ``food_bonus=0.0:2.0`` for a whole default).
* The study lives in Optuna's SQLite storage (``--study FILE.db``, sim.lab.tune_study), one
  study named ``friday-tune`` per file, the question stored as its user attribute
  ``friday_tune``: a file that holds another question is refused before anything is played
  or written.  ``trials`` is
  the study's total of finished trials: a run continues a study up to it (rerun the same
  command after Ctrl-C or a crash), and plays nothing when it has them all.
* Resumable exactly: each trial's sampler is made afresh, seeded from (seed, number of
  finished trials), so its suggestion depends on the finished trials only; an interrupted
  trial is stored as failed (``TrialState.FAIL``, ignored by the samplers) and a finished one
  is told to the storage at once.  With TPE an interrupted and resumed study equals the
  uninterrupted one; CMA-ES also mixes the trial's number into its seed (Optuna's
  ``CmaEsSampler``), so there a failed trial shifts the later suggestions.
* The first trial is the starting policy itself (when its values lie in the ranges).  A
  trial plays float values rounded to 4 significant digits (its spec, user attribute
  ``spec``, says exactly what was played).
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass

import numpy as np

from sim.errors import MissingExtra, UsageError
from sim.rules import Options, check_level, check_seed
from .progress import StopFlag

STUDY_NAME = "friday-tune"
ATTR = "friday_tune"
SAMPLERS = ("tpe", "cmaes")
STUDY_SUFFIXES = (".db", ".sqlite", ".sqlite3")
VALIDATE_SEED_OFFSET = 1_000_003
MAX_TRIALS = 100_000             # friday tune --trials
_WHOLE = re.compile(r"\s*[+-]?\d+\s*\Z")
USAGE = "NAME=LOW:HIGH, e.g. value_weight=0.4:0.9 or reach_cards=4:22"


def optuna():
    """Optuna, quiet (warnings only), or one clear error naming the extra to install."""
    try:
        import optuna as o
    except ImportError:
        raise MissingExtra("tune", "Optuna", "friday tune") from None
    o.logging.set_verbosity(o.logging.WARNING)
    return o


@dataclass(frozen=True)
class ParamRange:
    """One tuned parameter: its name, bounds (LOW < HIGH) and kind (``int`` or ``float``)."""
    name: str
    low: float
    high: float
    kind: str

    def distribution(self):
        d = optuna().distributions
        return (d.IntDistribution(int(self.low), int(self.high)) if self.kind == "int"
                else d.FloatDistribution(self.low, self.high))

    def as_list(self) -> list:
        return [self.low, self.high, self.kind]


def _bound(text: str, which: str, value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise UsageError(f"params {text!r}: {which} {value.strip()!r} is not a number "
                         f"({USAGE})", "params") from None
    if not np.isfinite(number):
        raise UsageError(f"params {text!r}: {which} must be a finite number, not {value!r}",
                         "params")
    return number


def parse_ranges(policy, texts) -> tuple[ParamRange, ...]:
    """``NAME=LOW:HIGH`` texts (or a dict name -> (low, high)) as ParamRanges of ``policy``,
    checked: a known numeric parameter, each named once, LOW < HIGH."""
    if isinstance(texts, dict):
        texts = [f"{k}={lo}:{hi}" for k, (lo, hi) in texts.items()]
    elif isinstance(texts, str):
        texts = [texts]
    elif texts is not None and not isinstance(texts, (list, tuple)):
        raise UsageError(f"params must be NAME=LOW:HIGH texts or a dict name -> (low, high), "
                         f"not {texts!r}", "params")
    if not texts:
        raise UsageError(f"params must name at least one parameter to tune, {USAGE} (`friday "
                         f"policies` lists them)", "params")
    out = []
    for text in texts:
        name, eq, span = str(text).partition("=")
        name, (low, colon, high) = name.strip(), span.partition(":")
        if not eq or not colon or ":" in high or not name:
            raise UsageError(f"params {text!r} must be {USAGE}", "params")
        if name in getattr(policy, "text_params", {}):
            raise UsageError(f"parameter {name} of policy {policy.name!r} is a name, not a "
                             f"number: it cannot be tuned")
        if name not in policy.param_names:
            known = ", ".join(policy.param_names) or "none"
            raise UsageError(f"policy {policy.name!r} has no parameter {name!r} (known: {known})")
        if name in [r.name for r in out]:
            raise UsageError(f"params {name} is given twice: give each parameter one range",
                             "params")
        lo, hi = _bound(text, "LOW", low), _bound(text, "HIGH", high)
        if not lo < hi:
            raise UsageError(f"params {text!r}: the range is {'empty' if lo == hi else 'inverted'}"
                             f": LOW must be below HIGH", "params")
        default = float(policy.params[policy.param_names.index(name)])
        whole = default.is_integer() and bool(_WHOLE.match(low)) and bool(_WHOLE.match(high))
        out.append(ParamRange(name, lo, hi, "int" if whole else "float"))
    return tuple(out)


@dataclass(frozen=True)
class Question:
    """What a study answers: which values of ``ranges`` make ``policy`` win most games at
    ``level`` on games 0..games-1 of ``seed`` (rule ``options``), asked with ``sampler``."""
    policy: object
    ranges: tuple
    level: int
    games: int
    seed: int
    options: Options
    sampler: str = "tpe"

    def identity(self) -> dict:
        """The study's user attribute: a study continues only the very same question."""
        return {"policy": self.policy.name, "params": {r.name: r.as_list() for r in self.ranges},
                "level": self.level, "seed": self.seed, "games_per_trial": self.games,
                "options": self.options.as_dict(), "sampler": self.sampler,
                "sha256": self.policy.sha256 if _is_file(self.policy) else None}

    def start_values(self) -> dict:
        """The starting policy's values of the tuned parameters."""
        values = dict(zip(self.policy.param_names, self.policy.params.tolist()))
        return {r.name: (int(values[r.name]) if r.kind == "int" else values[r.name])
                for r in self.ranges}

    def start_in_ranges(self) -> bool:
        return all(r.low <= self.start_values()[r.name] <= r.high for r in self.ranges)

    def variant(self, values: dict):
        """The policy with ``values`` set, floats rounded to 4 significant digits, loaded
        from its printed spec, so that what is reported is exactly what was played."""
        from policies import load_policy
        from policies.spec import parse_policy_spec
        kinds = {r.name: r.kind for r in self.ranges}
        spec = load_policy(self.policy, {k: int(v) if kinds[k] == "int" else float(f"{v:.4g}")
                                         for k, v in values.items()}).name
        return load_policy(self.policy, dict(parse_policy_spec(spec).params))


def _is_file(policy) -> bool:
    from policies.spec import is_file_spec
    return is_file_spec(policy.base or policy.name)


def question(policy, params, level: int, games: int, seed: int, options=None,
             sampler: str = "tpe") -> Question:
    """The Question of a command line or a call, every part checked (UsageError)."""
    from policies import load_policy
    from sim.rules import as_options
    from .simulate import check_games
    if sampler not in SAMPLERS:
        raise UsageError(f"sampler {sampler!r} is unknown: choose tpe or cmaes", "sampler")
    pol = load_policy(policy)
    ranges = parse_ranges(pol, params)
    if sampler == "cmaes" and len(ranges) < 2:
        raise UsageError("sampler cmaes needs at least two params (CMA-ES does not search "
                         "one dimension): use sampler='tpe' for one parameter", "sampler")
    return Question(pol, ranges, check_level(level), check_games(games), check_seed(seed),
                    as_options(options), sampler)


def validation_seed(seed: int, validate_seed: int | None) -> int:
    """The seed of the fresh deals (default seed + 1,000,003, wrapped into 0..2**63-1)."""
    from sim.rng import MAX_SEED
    if validate_seed is None:
        return (seed + VALIDATE_SEED_OFFSET) % (MAX_SEED + 1)
    if check_seed(validate_seed, "validate_seed") == seed:
        raise UsageError(f"validate_seed must differ from seed={seed}: the validation plays "
                         "fresh deals, never the ones the tuning saw", "validate_seed")
    return validate_seed


def finished(study) -> list:
    """The study's finished trials, in order."""
    return study.get_trials(deepcopy=False, states=(optuna().trial.TrialState.COMPLETE,))


def sampler_for(q: Question, done: int):
    """A fresh sampler for the next trial, seeded from (seed, finished trials)."""
    o = optuna()
    seed = int(np.random.SeedSequence([q.seed, done]).generate_state(1)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", o.exceptions.ExperimentalWarning)
        if q.sampler == "tpe":
            return o.samplers.TPESampler(seed=seed, multivariate=True)
        return o.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False,
                                       with_margin=any(r.kind == "int" for r in q.ranges))


def ask(study, q: Question, done: int):
    """The next trial: the starting values first (when in range), then the sampler's."""
    o = optuna()
    if done == 0 and q.start_in_ranges() and not study.get_trials(
            deepcopy=False, states=(o.trial.TrialState.WAITING,)):
        study.enqueue_trial(q.start_values())
    study.sampler = sampler_for(q, done)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", o.exceptions.ExperimentalWarning)
        return study.ask({r.name: r.distribution() for r in q.ranges})


@dataclass
class Trials:
    """What ``run_trials`` did: trials finished in this run, and whether Ctrl-C stopped it."""
    played: int = 0
    interrupted: bool = False


def run_trials(study, q: Question, trials: int, backend, quiet: bool = True, echo=None) -> Trials:
    """Play trials until the study has ``trials`` finished ones, a whole number 1 .. 100,000
    as ``friday tune --trials`` (or Ctrl-C: the trial in flight is stored as failed, the
    finished ones are kept)."""
    from .tune_progress import TrialBar
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) \
            or not 1 <= trials <= MAX_TRIALS:
        raise UsageError(f"trials must be a whole number 1..{MAX_TRIALS:,}, not {trials!r}",
                         "trials")
    done, out = len(finished(study)), Trials()
    with StopFlag() as flag, TrialBar(quiet, trials, q.games, done, best_text(study)) as bar:
        while done < trials and not flag.stop:
            trial = ask(study, q, done)
            variant = q.variant(trial.params)
            try:
                agg = None if flag.stop else bar.play(q, variant, backend, trial.number)
            except BaseException:          # a policy's error: the trial is not left running
                study.tell(trial, state=optuna().trial.TrialState.FAIL)
                raise
            if agg is None:
                study.tell(trial, state=optuna().trial.TrialState.FAIL)
                out.interrupted = True
                break
            _tell(study, trial, q, variant, agg)
            done, out.played = done + 1, out.played + 1
            bar.trial_done(done, best_text(study))
            if echo is not None:
                echo(trial_line(study, trial.number))
    out.interrupted = out.interrupted or flag.stop
    return out


def _tell(study, trial, q: Question, variant, agg):
    from sim.fast.summary import G_SUM_SCORE, G_WINS
    wins = int(agg[G_WINS])
    trial.set_user_attr("wins", wins)
    trial.set_user_attr("mean_score", float(agg[G_SUM_SCORE]) / q.games)
    trial.set_user_attr("spec", variant.name)
    played = dict(zip(variant.param_names, variant.params.tolist()))
    trial.set_user_attr("values", {r.name: played[r.name] for r in q.ranges})
    trial.set_user_attr("start", trial.params == q.start_values())
    study.tell(trial, wins / q.games)


def params_text(params: dict) -> str:
    return ", ".join(f"{k}={v:g}" for k, v in params.items())


def best_trial(study):
    """The finished trial of the highest win rate (the earliest of equals), or None."""
    trials = finished(study)
    return max(trials, key=lambda t: (t.value, -t.number)) if trials else None


def best_text(study) -> str:
    """``best 24.31% (trial 7)``, or nothing before the first finished trial."""
    best = best_trial(study)
    return "" if best is None else f"best {best.value:.2%} (trial {best.number})"


def trial_line(study, number: int) -> str:
    t = study.trials[number]
    return (f"trial {number}: {t.value:.2%} won ({t.user_attrs['wins']:,} games), "
            f"{params_text(t.user_attrs['values'])}"
            f"{' (the starting values)' if t.user_attrs['start'] else ''}"
            f"; {best_text(study)}")
