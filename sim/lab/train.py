"""Training the learned policy (``friday train``, policies.learned): gather the rollout
evaluations of hazard and fight decisions, fit the network, write its weights.

Gathering (round r, level L): games r*G .. (r+1)*G-1 of the master seed at level L, played by
the behaviour policy (round 0: the plan's ``start``, the veteran or a weights file's network;
later rounds: the network of the round before, so that the data cover the positions the
learned player reaches: DAgger).  At each hazard choice (R3) and fight decision (R4) with more
than one legal action that the network decides (policies.learned.network_decides: not a fight
already won), every legal action is scored on the same K fair continuations
(``sim.fast.review``: hidden orders redrawn, R1.4; the continuation policy plays to the end),
as ``friday review`` does.  The plan's ``continuation`` says who plays them: ``veteran`` (the
rollout policy, every round) or ``current`` (expert iteration: the round's own behaviour, so
the labels are "this action, then the network so far" and each round's network may improve on
the one before).  A decision's record is its observation (without the static card-table
block), its legal actions and each one's share of won continuations.  The continuations'
streams derive from (seed, game, decision) alone and the chunks are kept as files, so the
data do not depend on workers, chunks or interruptions.  Each round is one run of the lab's
pipeline (sim.lab.run: ``Gather`` is its chunks' work, the chunks kept before are its
``done``), on local worker processes or a Dask cluster, the behaviour and the continuation
policy shipped to them with their weights file's bytes (sim.lab.ship).

Fitting: sim.lab.train_fit.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .. import observation as O
from ..errors import MissingExtra, UsageError
from ..rng import TRAIN_SALT
from ..userjson import parse_json
from .review import decision_seed, load_rollout_policy, outcomes
from .train_fit import (TARGET_SCALE, accuracy, candidate_rows, fit,  # noqa: F401 - the
                        fit_seeds, weights_text)      # fitting's names, also here as before

MAX_LEGAL = 24                      # more legal actions than this: not recorded (never seen)
FIELDS = ("obs", "legal", "chance", "game")
CONTINUATIONS = ("veteran", "current")      # who plays the continuations (module docstring)


@dataclass(frozen=True)
class Plan:
    """What ``friday train`` does; recorded in the weights file."""
    levels: tuple = (1, 2, 3, 4)
    seed: int = 11
    games: int = 200                # per round and level
    rounds: int = 3
    rollouts: int = 100             # continuations per decision (every legal action on each)
    rollout_policy: str = "veteran"
    hidden: int = 128
    alpha: float = 1e-4             # L2 penalty of MLPRegressor
    max_iter: int = 200
    margin: float = 0.02            # the learned behaviour's margin in rounds >= 1
    chunk: int = 10                 # games per chunk file
    continuation: str = "veteran"   # CONTINUATIONS: the rollout policy, or each round's behaviour
    start: str = "veteran"          # round 0's behaviour: the veteran, or a weights file
    warm: bool = False              # each fit starts from the network before it (round 0:
                                    # start's, if a weights file), not from random weights
    fits: int = 1                   # networks of the last fit (every round's records), played
                                    # as one: their mean (random seeds seed, seed + 1, ...)

    def chunks(self, rnd: int) -> list[tuple[int, int, int]]:
        """(level, first game, last game + 1) of each chunk of round ``rnd``."""
        lo, hi = rnd * self.games, (rnd + 1) * self.games
        return [(lv, a, min(a + self.chunk, hi)) for lv in self.levels
                for a in range(lo, hi, self.chunk)]


PLAN_IS = "an object of friday train's options"     # what plan.json holds (parse_json)


def chunk_path(data: Path, rnd: int, level: int, first: int, last: int) -> Path:
    return Path(data) / f"round{rnd}_level{level}_games{first}-{last - 1}.npz"


def gather_game(level: int, seed: int, game: int, behaviour, rollout, rollouts: int) -> dict:
    """The records of one game (module docstring): obs (int16, n x CT), legal (int16, n x
    MAX_LEGAL, -1 padded), chance (float32, n x MAX_LEGAL), game (int32)."""
    from policies.learned import network_decides
    from ..play import Game
    g = Game.new(level, seed, game)
    rows = {k: [] for k in FIELDS}
    while not g.is_over:
        acts = g.legal_actions()
        obs = g.observation
        if len(acts) <= MAX_LEGAL and network_decides(obs, len(acts)):
            out = outcomes(g, rollout, rollouts, decision_seed(seed ^ TRAIN_SALT, game,
                                                               g.decisions))
            legal = np.full(MAX_LEGAL, -1, np.int16)
            legal[:len(acts)] = acts
            chance = np.zeros(MAX_LEGAL, np.float32)
            chance[:len(acts)] = out.mean(axis=0)
            rows["obs"].append(obs[:O.CT].astype(np.int16))
            rows["legal"].append(legal)
            rows["chance"].append(chance)
            rows["game"].append(game)
        g.step(g.policy_action(behaviour))
    n = len(rows["game"])
    return {"obs": np.array(rows["obs"], np.int16).reshape(n, O.CT),
            "legal": np.array(rows["legal"], np.int16).reshape(n, MAX_LEGAL),
            "chance": np.array(rows["chance"], np.float32).reshape(n, MAX_LEGAL),
            "game": np.array(rows["game"], np.int32)}


_ROLLOUT: dict = {}


@dataclass(frozen=True)
class Gather:
    """The work of one chunk (sim.lab.run.Chunk.work): the records of its games, played by
    the chunk's player (the behaviour), each decision scored on ``rollouts`` continuations
    of ``rollout_policy`` (module docstring): a built-in's name, or a policy as data
    (sim.lab.ship.policy_wire: a network travels as its weights file's bytes), rebuilt once
    per worker process."""
    rollouts: int
    rollout_policy: object

    def __call__(self, chunk, threads=None) -> dict:
        key = repr(self.rollout_policy)
        if key not in _ROLLOUT:
            from .ship import policy_from_wire
            spec = self.rollout_policy
            _ROLLOUT[key] = load_rollout_policy(spec if isinstance(spec, str)
                                                else policy_from_wire(spec))
        rollout = _ROLLOUT[key]
        games = [gather_game(chunk.level, chunk.seed, g, chunk.setup.policy, rollout,
                             self.rollouts)
                 for g in range(chunk.first_game, chunk.first_game + chunk.count)]
        return {k: np.concatenate([r[k] for r in games]) for k in FIELDS}


def save_chunk(path: Path, arrays: dict):
    from .files import write_atomic
    write_atomic(path, lambda tmp: np.savez_compressed(tmp, **arrays))


def read_chunk(path: Path, level: int, first: int, last: int) -> dict:
    """A chunk file's records, checked: the arrays of FIELDS with their shapes and types, the
    games of its name; a bad one (cut short, another program's, edited) raises UsageError
    naming it and what to do."""
    try:
        with np.load(path) as z:
            part = {k: z[k] for k in FIELDS}
        n = len(part["game"])
        wanted = {"obs": ((n, O.CT), np.int16), "legal": ((n, MAX_LEGAL), np.int16),
                  "chance": ((n, MAX_LEGAL), np.float32), "game": ((n,), np.int32)}
        for k, (shape, dtype) in wanted.items():
            if part[k].shape != shape or part[k].dtype != dtype:
                raise ValueError(f"{k} is {part[k].dtype} {part[k].shape}")
        if n and not (first <= part["game"].min() and part["game"].max() < last):
            raise ValueError(f"it holds games outside {first}..{last - 1}")
        if not np.isfinite(part["chance"]).all():
            raise ValueError("it holds non-finite chances")
    except Exception as exc:            # noqa: BLE001 - any unreadable file: one message
        raise UsageError(f"{path} is not a chunk of records as this training writes them "
                         f"({type(exc).__name__}: {str(exc)[:200]}): delete it, and the same "
                         f"command gathers its games again") from None
    part["level"] = np.full(n, level, np.int16)
    return part


def load_data(data: Path, chunks) -> dict:
    """The records of ``chunks`` ((round, level, first game, last game + 1)) in ``data``,
    each file checked (read_chunk), concatenated, with the level of each decision."""
    parts = [read_chunk(chunk_path(data, *c), *c[1:]) for c in chunks]
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS + ("level",)}


def plan_dict(plan: Plan) -> dict:
    """The plan as recorded (plan.json, the weights file): every field, ``levels`` a list, a
    weights file of ``start`` as its content's hash (the records depend on the network, not
    on where its file lies); ``continuation``, ``start``, ``warm`` and ``fits`` left out at
    their defaults, so a data folder of a plan made before they existed is still this plan's."""
    out = json.loads(json.dumps(asdict(plan)))
    for k in ("continuation", "start", "warm", "fits"):
        if out[k] == Plan.__dataclass_fields__[k].default:
            del out[k]
    if "start" in out:
        out["start"] = "weights sha256:" + _sha256(plan.start)
    return out


def _sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def plan_record(plan: Plan, command: str, counts: dict, fit_figures: dict,
                rounds: list | None = None) -> dict:
    """The weights file's record: the command, the whole plan (plan_dict), each round's
    behaviour and continuation policy (``rounds``), the data counts and the fit."""
    import sklearn
    from policies import learned as Lp
    extra = {} if rounds is None else {"rounds": rounds}
    return {"command": command, "plan": plan_dict(plan), **extra, "data": counts,
            "features": list(Lp.FEATURE_NAMES), "fit": fit_figures,
            "model": f"MLPRegressor (scikit-learn {sklearn.__version__}), one ReLU hidden "
                     f"layer of {plan.hidden}, Adam, batch 256, early stopping on 10%"
                     + (", each fit started from the network before it" if plan.warm
                        else "")
                     + (f"; the last, the mean of {plan.fits} fits (random seeds "
                        f"{', '.join(str(s) for s in fit_seeds(plan))})" if plan.fits > 1
                        else "")}


def round_record(plan: Plan, rnd: int, behaviour) -> dict:
    """Who played round ``rnd`` and who played its continuations, for the record: a network
    named by the sha256 of its weights (the parameters after the named ones; not its file,
    whose record names the command)."""
    from policies.learned import N_NAMED
    net = np.ascontiguousarray(behaviour.params[N_NAMED:], np.float64).tobytes()
    who = ("veteran" if behaviour.name == "veteran" else
           f"learned (margin {plan.margin}, network sha256:{hashlib.sha256(net).hexdigest()})")
    cont = who if plan.continuation == "current" else plan.rollout_policy
    return {"round": rnd, "behaviour": who, "continuation": cont}


# --- the whole run: rounds of gathering, each followed by a fit --------------------------------
def check_trainer():
    """scikit-learn is the train extra (only training needs it; playing needs numpy alone)."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise MissingExtra("train", "scikit-learn", "training the learned policy") from None


def check_paths(out: Path, data: Path):
    """The weights file and the data folder must not overlap (UsageError), before any work."""
    o, d = Path(out).resolve(), Path(data).resolve()
    if o == d or d in o.parents or o in d.parents:
        raise UsageError(f"the weights file {out} and the data folder {data} overlap: write "
                         f"the weights outside the data folder")


def check_plan(plan: Plan):
    """The continuation is one of CONTINUATIONS and a ``start`` other than the veteran a
    weights file that policy learned plays (UsageError), before any work."""
    from policies import load_policy
    from policies.learned import N_NAMED
    if plan.continuation not in CONTINUATIONS:
        raise UsageError(f"the continuation must be one of {', '.join(CONTINUATIONS)}, not "
                         f"{plan.continuation!r}", "continuation")
    if plan.start != "veteran":
        try:
            start = load_policy(f"learned[weights={plan.start}]")
        except UsageError as e:                     # the weights file's fault: --start's
            raise UsageError(str(e), "start") from None
        hidden = int(start.params[N_NAMED + 1])
        if plan.warm and hidden != plan.hidden:
            raise UsageError(f"--warm starts the fit from {plan.start}, whose network has "
                             f"{hidden} hidden units: give --hidden {hidden}", "hidden")


def check_data_folder(data: Path, plan: Plan):
    """The plan checked (check_plan); the data folder (created) must hold records of this
    plan or none, every chunk of the plan in it readable (UsageError naming a bad file); more
    rounds continue a folder (round r's records do not depend on the rounds after it)."""
    from .files import check_folder, write_text
    check_plan(plan)
    check_folder(data, (), True, "data")
    data.mkdir(parents=True, exist_ok=True)
    marker = data / "plan.json"
    mine = {k: v for k, v in plan_dict(plan).items() if k not in ("rounds", "fits")}
    if marker.exists():
        fix = f"delete the data folder {data}, or use another"
        try:
            raw = marker.read_bytes()
        except OSError as exc:
            raise UsageError(f"{marker} is not a training plan ({type(exc).__name__}): {fix}",
                             "data") from None
        theirs = parse_json(raw, f"the training plan {marker}", fix, "data",
                            object_of=PLAN_IS, encoding_fix=fix)
        if theirs != mine:
            raise UsageError(f"the data folder {data} holds the records of another training "
                             f"plan ({marker}): use another folder, or the same options", "data")
    else:
        write_text(marker, json.dumps(mine, sort_keys=True, allow_nan=False) + "\n")
    for c in chunks_kept(data, plan, range(plan.rounds)):
        read_chunk(chunk_path(data, *c), *c[1:])


def chunks_kept(data: Path, plan: Plan, rounds) -> list:
    """(round, level, first, last + 1) of the chunks of ``rounds`` already in ``data``."""
    return [(r, *c) for r in rounds for c in plan.chunks(r)
            if chunk_path(data, r, *c).exists()]


def continuation_of(plan: Plan, behaviour):
    """Who plays a round's continuations (Gather.rollout_policy): the rollout policy's name;
    for ``current``, the round's behaviour (the veteran's name, or a network as data: its
    weights file's bytes, sim.lab.ship)."""
    from .ship import policy_wire
    if plan.continuation == "veteran":
        return plan.rollout_policy
    return "veteran" if behaviour.name == "veteran" else policy_wire(behaviour)


def gather_round(plan: Plan, rnd: int, data: Path, behaviour, backend, quiet: bool) -> bool:
    """Round ``rnd``'s chunks that are not yet in ``data``, played by ``behaviour`` (a
    Policy), its continuations by ``continuation_of``, as one run of the lab's pipeline
    (sim.lab.run) on ``backend`` and saved as they finish; False when Ctrl-C stopped it
    (every finished chunk kept)."""
    from .run import Plan as RunPlan, Run, Setup
    kept = tuple((lv, a, b - a) for _, lv, a, b in chunks_kept(data, plan, [rnd]))
    work = Gather(plan.rollouts, continuation_of(plan, behaviour))
    run_plan = RunPlan((Setup(behaviour),), plan.levels, plan.games, plan.seed,
                       first_game=rnd * plan.games, work=work, done=kept, in_order=False)
    with Run(run_plan, backend, quiet) as run:
        for part in run:
            end = part.first_game + part.count
            save_chunk(chunk_path(data, rnd, part.level, part.first_game, end),
                       part.results[0])
    return not run.interrupted


def train(plan: Plan, data: Path, command: str, backend, quiet: bool = False):
    """Every round (gather, then fit on all rounds' records so far); returns (the weights
    file's text, the record), or None when Ctrl-C stopped a round (its finished chunks kept).
    ``backend``: sim.lab.run's Processes or OnCluster, in chunks of ``plan.chunk`` games."""
    import tempfile
    from policies import load_policy
    from policies.learned import weights_data
    check_data_folder(data, plan)
    text, record, played, weights = None, None, [], None
    first_net = (weights_data(plan.start) if plan.warm and plan.start != "veteran"
                 else None)                                 # --warm: round 0's fit starts there
    with tempfile.TemporaryDirectory(prefix="friday-train-") as scratch:
        behaviour = (load_policy("veteran") if plan.start == "veteran" else
                     load_policy(f"learned[weights={plan.start},margin={plan.margin}]"))
        for rnd in range(plan.rounds):
            if text is not None:        # the network so far plays (its file, shipped)
                path = Path(scratch) / f"round{rnd}.json"
                path.write_text(text, encoding="utf-8")
                behaviour = load_policy(f"learned[weights={path},margin={plan.margin}]")
            played.append(round_record(plan, rnd, behaviour))
            if not gather_round(plan, rnd, data, behaviour, backend, quiet):
                return None
            chunks = [(r, *c) for r in range(rnd + 1) for c in plan.chunks(r)]
            records = load_data(data, chunks)
            init = (first_net if rnd == 0 else weights) if plan.warm else None
            try:
                weights, figures = fit(records, plan, init,
                                       plan.fits if rnd == plan.rounds - 1 else 1)
            except KeyboardInterrupt:
                return None         # Ctrl-C in the fit: the gathered chunks are kept
            counts = {"rounds": rnd + 1, "games": sum(c[3] - c[2] for c in chunks),
                      "decisions": int(len(records["game"])),
                      "candidates": int((records["legal"] >= 0).sum())}
            record = plan_record(plan, command, counts, figures, played)
            text = weights_text(weights, record)
    return text, record
