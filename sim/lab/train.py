"""Training the learned policy (``friday train``, policies.learned): gather the rollout
evaluations of hazard and fight decisions, fit the network, write its weights.

Gathering (round r, level L): games r*G .. (r+1)*G-1 of the master seed at level L, played by
the behaviour policy (round 0: the veteran; later rounds: the network of the round before, so
that the data cover the positions the learned player reaches: DAgger).  At each hazard choice
(R3) and fight decision (R4) with more than one legal action that the network decides
(policies.learned.network_decides: not a fight already won), every legal action is scored on
the same K fair continuations (``sim.fast.review``: hidden orders redrawn, R1.4; the rollout
policy plays to the end), as ``friday review`` does.  A decision's record is its observation
(without the static card-table block), its legal actions and each one's share of won
continuations.  The continuations' streams derive from (seed, game, decision) alone and the
chunks are kept as files, so the data do not depend on workers, chunks or interruptions.

Fitting: each candidate's features (policies.learned), its target the candidate's winning
chance minus the decision's mean (the network ranks the actions of a decision; the position's
own chance is not its job); scikit-learn's MLPRegressor (one ReLU hidden layer, Adam, a fixed
random_state, one BLAS thread: the same weights from the same data) minimises the squared
error; 10% of the games are held out for the record's accuracy figures.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .. import observation as O
from ..fast.layout import S_DECISIONS
from .review import decision_seed, load_rollout_policy, outcomes

TRAIN_SALT = 0x7A1E_D0C5_3B2F_9E41
MAX_LEGAL = 24                      # more legal actions than this: not recorded (never seen)
TARGET_SCALE = 10.0                 # the network is fitted to 10 x chance (better conditioned)
FIELDS = ("obs", "legal", "chance", "game")


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

    def chunks(self, rnd: int) -> list[tuple[int, int, int]]:
        """(level, first game, last game + 1) of each chunk of round ``rnd``."""
        lo, hi = rnd * self.games, (rnd + 1) * self.games
        return [(lv, a, min(a + self.chunk, hi)) for lv in self.levels
                for a in range(lo, hi, self.chunk)]


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
        if len(acts) <= MAX_LEGAL and network_decides(g._obs, len(acts)):
            out = outcomes(g, rollout, rollouts,
                           decision_seed(seed ^ TRAIN_SALT, game, int(g._S[S_DECISIONS])))
            legal = np.full(MAX_LEGAL, -1, np.int16)
            legal[:len(acts)] = acts
            chance = np.zeros(MAX_LEGAL, np.float32)
            chance[:len(acts)] = out.mean(axis=0)
            rows["obs"].append(g._obs[:O.CT].astype(np.int16))
            rows["legal"].append(legal)
            rows["chance"].append(chance)
            rows["game"].append(game)
        g.step(g.policy_action(behaviour))
    n = len(rows["game"])
    return {"obs": np.array(rows["obs"], np.int16).reshape(n, O.CT),
            "legal": np.array(rows["legal"], np.int16).reshape(n, MAX_LEGAL),
            "chance": np.array(rows["chance"], np.float32).reshape(n, MAX_LEGAL),
            "game": np.array(rows["game"], np.int32)}


def gather_chunk(job: dict) -> dict:
    """One chunk's records (a worker's task): ``job`` holds the plan's fields, the level and
    games, and the behaviour as a spec plus, for the learned one, its weights file's text."""
    import os
    import signal
    import tempfile
    import threading
    from policies import load_policy
    if threading.current_thread() is threading.main_thread():   # a local worker process:
        signal.signal(signal.SIGINT, signal.SIG_IGN)            # the parent stops the run
    behaviour = load_policy(job["behaviour"])
    if job.get("weights"):                  # the network so far, as text: a file to load
        fd, path = tempfile.mkstemp(suffix=".json")
        try:
            with os.fdopen(fd, "w") as f:
                f.write(job["weights"])
            behaviour = load_policy(f"learned[weights={path},margin={job['margin']}]")
        finally:
            os.unlink(path)
    rollout = load_rollout_policy(job["rollout_policy"])
    games = [gather_game(job["level"], job["seed"], g, behaviour, rollout, job["rollouts"])
             for g in range(job["first"], job["last"])]
    return {k: np.concatenate([r[k] for r in games]) for k in FIELDS}


def save_chunk(path: Path, arrays: dict):
    from .files import write_atomic
    write_atomic(path, lambda tmp: np.savez_compressed(tmp, **arrays))


def load_data(paths) -> dict:
    """The records of chunk files, concatenated, with the level of each decision."""
    parts = []
    for p in paths:
        with np.load(p) as z:
            part = {k: z[k] for k in FIELDS}
        part["level"] = np.full(len(part["game"]), int(Path(p).name.split("_level")[1]
                                                          .split("_")[0]), np.int16)
        parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in FIELDS + ("level",)}


def candidate_rows(data: dict):
    """X (features of every candidate), y (TARGET_SCALE x its chance minus its decision's
    mean) and the decision of each row, from the records (policies.learned features)."""
    from policies import learned as Lp
    from ..cardtable import printed
    static = O.card_block(printed())                # the training games' card table
    OBS = np.concatenate([data["obs"].astype(np.int64),
                          np.tile(static, (len(data["obs"]), 1))], axis=1)
    legal = data["legal"].astype(np.int64)
    n = (legal >= 0).sum(axis=1)
    X, y = np.zeros((int(n.sum()), Lp.N_FEATURES)), np.zeros(int(n.sum()))
    Lp.candidate_features(OBS, legal, X, y, data["chance"].astype(np.float64))
    return X, y * TARGET_SCALE, np.repeat(np.arange(len(n)), n)


def fit(data: dict, plan: Plan) -> tuple[dict, dict]:
    """The network fitted to the records (module docstring): its weights (W1, b1, w2, b2, the
    output in chance units) and accuracy figures on the held-out games."""
    from sklearn.neural_network import MLPRegressor
    from threadpoolctl import threadpool_limits
    X, y, dec = candidate_rows(data)
    game_key = data["game"].astype(np.int64) + data["level"]
    held = game_key[dec] % 10 == 7
    model = MLPRegressor(hidden_layer_sizes=(plan.hidden,), activation="relu",
                         alpha=plan.alpha, batch_size=256, learning_rate_init=1e-3,
                         max_iter=plan.max_iter, early_stopping=True, n_iter_no_change=8,
                         random_state=plan.seed)
    with threadpool_limits(1):
        model.fit(X[~held], y[~held])
        pred = model.predict(X)
    W1, w2 = model.coefs_
    b1, b2 = model.intercepts_
    weights = {"W1": W1.tolist(), "b1": b1.tolist(), "w2": (w2[:, 0] / TARGET_SCALE).tolist(),
               "b2": float(b2[0]) / TARGET_SCALE}
    return weights, accuracy(pred, y, dec, held, model.n_iter_)


def accuracy(pred, y, dec, held, iterations: int) -> dict:
    """Held-out figures: the correlation of predicted and measured advantages, how often the
    network's best action is the measured best, and the chance its choice loses on average."""
    rows = np.flatnonzero(held)
    starts = np.r_[0, np.cumsum(np.bincount(dec, minlength=dec.max() + 1))]
    same, lost, n = 0, 0.0, 0
    for d in np.unique(dec[rows]):
        a, b = starts[d], starts[d + 1]
        i, j = int(np.argmax(pred[a:b])), int(np.argmax(y[a:b]))
        same += i == j
        lost += (y[a + j] - y[a + i]) / TARGET_SCALE
        n += 1
    return {"iterations": int(iterations), "held_out_decisions": n,
            "held_out_correlation": round(float(np.corrcoef(pred[rows], y[rows])[0, 1]), 4),
            "held_out_best_agrees": round(same / max(n, 1), 4),
            "held_out_chance_lost_per_decision": round(lost / max(n, 1), 5)}


def weights_text(weights: dict, record: dict) -> str:
    """The weights file: JSON, the record first (floats as Python writes them: exact)."""
    return json.dumps({"record": record, **weights}, indent=1) + "\n"


def plan_record(plan: Plan, command: str, counts: dict, fit_figures: dict) -> dict:
    import sklearn
    from policies import learned as Lp
    return {"command": command, "plan": asdict(plan), "data": counts,
            "features": list(Lp.FEATURE_NAMES), "fit": fit_figures,
            "model": f"MLPRegressor (scikit-learn {sklearn.__version__}), one ReLU hidden "
                     f"layer of {plan.hidden}, Adam, batch 256, early stopping on 10%"}


# --- the whole run: rounds of gathering, each followed by a fit --------------------------------
def check_trainer():
    """scikit-learn is the train extra (only training needs it; playing needs numpy alone)."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        from ..errors import MissingExtra
        raise MissingExtra("train", "scikit-learn", "friday train") from None


def check_data_folder(data: Path, plan: Plan):
    """The data folder (created) must hold records of this plan or none (UsageError); more
    rounds continue a folder (round r's records do not depend on the rounds after it)."""
    from ..errors import UsageError
    from .files import check_folder, write_text
    check_folder(data, (), True, "data")
    data.mkdir(parents=True, exist_ok=True)
    marker = data / "plan.json"
    mine = {k: v for k, v in asdict(plan).items() if k != "rounds"}
    if marker.exists():
        theirs = json.loads(marker.read_text())
        if theirs != json.loads(json.dumps(mine)):
            raise UsageError(f"data {data} holds the records of another training plan "
                             f"({marker}): use another folder, or the same options", "data")
    else:
        write_text(marker, json.dumps(mine, sort_keys=True) + "\n")


def gather_round(plan: Plan, rnd: int, data: Path, behaviour: str | None, executor, progress,
                 flag) -> bool:
    """Round ``rnd``'s chunks that are not yet in ``data``, gathered on ``executor`` (a
    concurrent.futures Executor) and saved as they finish; False when stopped (Ctrl-C)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    todo = [c for c in plan.chunks(rnd) if not chunk_path(data, rnd, *c).exists()]
    total = len(plan.chunks(rnd)) * plan.chunk
    task = progress.add_task(f"round {rnd + 1} of {plan.rounds}", total=total,
                             completed=total - len(todo) * plan.chunk)
    base = {"seed": plan.seed, "rollouts": plan.rollouts, "margin": plan.margin,
            "rollout_policy": plan.rollout_policy, "behaviour": "veteran", "weights": behaviour}
    pending = {executor.submit(gather_chunk, {**base, "level": lv, "first": a, "last": b}):
               (lv, a, b) for lv, a, b in todo}
    try:
        while pending:
            done, _ = wait(list(pending), timeout=0.5, return_when=FIRST_COMPLETED)
            for fut in done:
                lv, a, b = pending.pop(fut)
                save_chunk(chunk_path(data, rnd, lv, a, b), fut.result())
                progress.update(task, advance=b - a)
                progress.refresh()
            if flag.stop:
                for fut in pending:
                    fut.cancel()
                return False
    finally:
        for fut in pending:
            fut.cancel()
    return True


def train(plan: Plan, data: Path, command: str, executor, quiet: bool = False):
    """Every round (gather, then fit on all rounds' records so far); returns (the weights
    file's text, the record), or None when Ctrl-C stopped a round (its finished chunks kept)."""
    from .progress import StopFlag, progress_bar
    check_data_folder(data, plan)
    text, record = None, None
    with StopFlag() as flag, progress_bar(quiet, unit="games") as progress:
        for rnd in range(plan.rounds):
            if not gather_round(plan, rnd, data, text, executor, progress, flag):
                return None
            chunks = [(r, *c) for r in range(rnd + 1) for c in plan.chunks(r)]
            records = load_data([chunk_path(data, *c) for c in chunks])
            weights, figures = fit(records, plan)
            counts = {"rounds": rnd + 1, "games": sum(c[3] - c[2] for c in chunks),
                      "decisions": int(len(records["game"])),
                      "candidates": int((records["legal"] >= 0).sum())}
            record = plan_record(plan, command, counts, figures)
            text = weights_text(weights, record)
    return text, record
