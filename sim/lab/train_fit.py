"""Fitting the learned policy's network (``friday train``, sim.lab.train) to the gathered
records: each candidate's features (policies.learned), its target the candidate's winning
chance minus the decision's mean (the network ranks the actions of a decision; the position's
own chance is not its job); scikit-learn's MLPRegressor (one ReLU hidden layer, Adam, a fixed
random_state, one BLAS thread: the same weights from the same data) minimises the squared
error; 10% of the games are held out for the record's accuracy figures.  Fits of other
random seeds play differently, some points of winning rate apart; the mean of several
(``fits``) plays better than each (docs/explanation/learned.md).
"""
from __future__ import annotations

import dataclasses
import json

import numpy as np

from .. import observation as O
from ..errors import UsageError

TARGET_SCALE = 10.0                 # the network is fitted to 10 x chance (better conditioned)
FIT_SEEDS = 2**32                   # scikit-learn's random seeds: a plan's seed modulo this


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


def fit(data: dict, plan, init: dict | None = None, fits: int = 1) -> tuple[dict, dict]:
    """The network fitted to the records (module docstring) as ``plan`` (sim.lab.train.Plan)
    says: its weights (W1, b1, w2, b2, the output in chance units) and accuracy figures on
    the held-out games.  ``init`` (weights as this returns them): start from that network
    instead of random weights (``--warm``, fine_tune).  ``fits`` > 1: that many networks, of
    the random seeds plan.seed, plan.seed + 1, ... (modulo FIT_SEEDS), as one (mean_network),
    the figures those of their mean, each fit's own under ``members`` and ``iterations`` the
    most any ran."""
    X, y, dec = candidate_rows(data)
    keys = game_keys(data)
    if fits == 1:
        return fit_rows(X, y, dec, keys, plan, init)[:2]
    made = [fit_rows(X, y, dec, keys, dataclasses.replace(plan, seed=seed), init)
            for seed in fit_seeds(plan, fits)]
    members = [figures for _, figures, _ in made]
    figures = accuracy(np.mean([pred for _, _, pred in made], axis=0), y, dec,
                       held_out(keys[dec]), max(f["iterations"] for f in members))
    return mean_network([w for w, _, _ in made]), {**figures, "members": members}


def fit_seeds(plan, fits: int | None = None) -> list[int]:
    """The random seeds of the ``fits`` (default: the plan's) fits of the last fit: the plan's
    seed, seed + 1, ..., each modulo FIT_SEEDS (as fit_rows takes them)."""
    return [(plan.seed + i) % FIT_SEEDS for i in range(plan.fits if fits is None else fits)]


def mean_network(members: list[dict]) -> dict:
    """One network (weights as ``fit`` returns them) whose output is the mean of the
    ``members``' outputs: their hidden units side by side, the output weights divided by
    their number.  policies.learned plays it as it is, at the price of its width."""
    k = len(members)
    return {"W1": np.hstack([np.asarray(m["W1"], np.float64) for m in members]).tolist(),
            "b1": [float(b) for m in members for b in m["b1"]],
            "w2": [float(w) / k for m in members for w in m["w2"]],
            "b2": sum(float(m["b2"]) for m in members) / k}


def game_keys(data: dict):
    """Each decision's game key, game number plus level: its last digit 7 holds the game
    out of the fit (held_out), 3 makes it a checking game of fine_tune."""
    return data["game"].astype(np.int64) + data["level"]


def held_out(game_key):
    """Whether each game key (game_keys) is of a game held out of the fit: every tenth."""
    return game_key % 10 == 7


def fit_rows(X, y, dec, game_key, plan, init: dict | None = None):
    """``fit`` of the candidates' rows X, targets y and decisions dec (candidate_rows; X may
    hold other features: benchmarks/features.py), the games of the decisions by their keys
    (game_keys); returns (weights, figures, the fitted network's output for each row, in
    y's units)."""
    import warnings
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor
    from threadpoolctl import threadpool_limits
    held = held_out(game_key[dec])
    model = MLPRegressor(hidden_layer_sizes=(plan.hidden,), activation="relu",
                         alpha=plan.alpha, batch_size=256, learning_rate_init=1e-3,
                         max_iter=plan.max_iter, early_stopping=init is None,
                         n_iter_no_change=NO_CHANGE,
                         random_state=plan.seed % FIT_SEEDS)
    with threadpool_limits(1), warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("ignore", ConvergenceWarning)     # said by the iterations
        if init is None:
            model.fit(X[~held], y[~held])
            iterations = model.n_iter_
        else:
            check = game_key[dec[~held]] % 10 == 3
            iterations = fine_tune(model, X[~held], y[~held], check, init, plan.max_iter)
    for w in said:
        if INTERRUPTED in str(w.message):
            raise KeyboardInterrupt     # scikit-learn returns a half-fitted network on Ctrl-C
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    with threadpool_limits(1):
        pred = model.predict(X)
    W1, w2 = model.coefs_
    b1, b2 = model.intercepts_
    weights = {"W1": W1.tolist(), "b1": b1.tolist(), "w2": (w2[:, 0] / TARGET_SCALE).tolist(),
               "b2": float(b2[0]) / TARGET_SCALE}
    return weights, accuracy(pred, y, dec, held, iterations), pred


INTERRUPTED = "Training interrupted by user"   # scikit-learn's words for Ctrl-C
NO_CHANGE = 8                       # epochs without a better checking loss: the fit stops


def fine_tune(model, X, y, check, init: dict, max_iter: int) -> int:
    """Fit ``model`` (an MLPRegressor not yet fitted) starting from the network ``init``:
    epochs of partial_fit on the rows not in ``check``, stopped after NO_CHANGE epochs
    without a lower squared error on the ``check`` rows (the games' own early stopping;
    the start network's error is the first to beat), the best epoch's weights kept.
    Returns the epochs run.  Games too few to give both kinds of rows: every tenth row
    checks; rows too few for that: no epoch, the start network kept."""
    if not check.any() or check.all():
        check = np.arange(len(y)) % 10 == 3
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)            # a batch of one row
        model.partial_fit(X[:1], y[:1])         # allocates the layers (public API)
    start = [np.asarray(init["W1"]), np.asarray(init["w2"])[:, None] * TARGET_SCALE,
             np.asarray(init["b1"]), np.array([init["b2"]]) * TARGET_SCALE]
    for have, want in zip(model.coefs_ + model.intercepts_, start):
        have[...] = want                        # in place: the optimizer holds these arrays
    layers = model.coefs_ + model.intercepts_
    if not check.any() or check.all():
        return 0

    def check_loss() -> float:
        return float(np.mean((model.predict(X[check]) - y[check]) ** 2))

    best, best_loss, stale, epoch = [a.copy() for a in layers], check_loss(), 0, 0
    while epoch < max_iter and stale < NO_CHANGE:
        model.partial_fit(X[~check], y[~check])
        epoch += 1
        loss = check_loss()
        stale = 0 if loss < best_loss else stale + 1
        if loss < best_loss:
            best, best_loss = [a.copy() for a in layers], loss
    for have, want in zip(layers, best):
        have[...] = want
    return epoch


def accuracy(pred, y, dec, held, iterations: int) -> dict:
    """Held-out figures: the correlation of predicted and measured advantages, how often the
    network's best action is the measured best, and the chance its choice loses on average;
    None where the held-out games cannot measure it (none held out: every tenth game is; a
    correlation of values that do not vary)."""
    rows = np.flatnonzero(held)
    same, lost = choices(pred, y, dec, np.unique(dec[rows]))
    n = len(same)
    return {"iterations": int(iterations), "held_out_decisions": n,
            "held_out_correlation": _correlation(pred[rows], y[rows]),
            "held_out_best_agrees": round(float(same.mean()), 4) if n else None,
            "held_out_chance_lost_per_decision": round(float(lost.mean()), 5) if n else None}


def choices(pred, y, dec, decisions) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``decisions`` (rows ``dec`` == d, in order): whether the candidate with the
    highest ``pred`` is the measured best, and the chance it loses against that best."""
    starts = np.r_[0, np.cumsum(np.bincount(dec, minlength=dec.max() + 1))]
    same, lost = np.zeros(len(decisions), bool), np.zeros(len(decisions))
    for k, d in enumerate(decisions):
        a, b = starts[d], starts[d + 1]
        i, j = int(np.argmax(pred[a:b])), int(np.argmax(y[a:b]))
        same[k], lost[k] = i == j, (y[a + j] - y[a + i]) / TARGET_SCALE
    return same, lost


def _correlation(a, b) -> float | None:
    if len(a) < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return None
    return round(float(np.corrcoef(a, b)[0, 1]), 4)


def weights_text(weights: dict, record: dict) -> str:
    """The weights file: strict JSON, the record first (floats as Python writes them:
    exact); UsageError when the fit gave a weight that is not a finite number."""
    try:
        return json.dumps({"record": record, **weights}, indent=1, allow_nan=False) + "\n"
    except ValueError:
        raise UsageError("the fit gave weights that are not finite numbers: gather more games "
                         "or change the network's size") from None
