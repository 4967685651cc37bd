"""learned: the veteran with its hazard and fight choices made by a small network trained on
the search's evaluations (``friday train``; docs/explanation/learned.md).

At a hazard choice (R3) or a fight decision (R4) with more than one legal action, unless the
fight is already won (then the veteran's choice stands: the network never learned those), every
candidate is scored by a one-hidden-layer network over features of the observation (R1.4:
life, step, the deck's open contents, the fight) and of the action (its kind; the hazard's
value, free cards and knowledge card; the ability used); the network was fitted to the
winning chance each action had in fair rollouts (``sim.lab.train``).  The veteran's own
choice is kept unless another candidate scores at least ``margin`` more.  Every other
decision (targets, destroys, sort3, pirates) is the veteran's.

Parameters: the veteran's, ``margin`` (winning chance, 0.015), and ``weights`` (text: a weights
file written by ``friday train``, or ``shipped``: policies/learned.json).  The network rides in
the parameter vector after the named parameters (``LearnedPolicy``), so other weights need no
recompilation; nothing but numpy and Numba is needed to play.
"""
import hashlib
import os
from pathlib import Path

import numpy as np
from numba import njit

from sim.contract.numba_wall import lean_jit

from policies.policy import Policy
from policies.arith import (ABILITY_WORTH, ability_of, card_value, cull_count, deck_mean,
                            hazard_free, hazard_value, is_food, stack_best_sum,
                            value_of)
from policies.base import effective_value, fight_total
from policies.veteran import PARAMS as VETERAN_PARAMS
from policies.veteran import decide as veteran_decide
from sim import cards as C
from sim import observation as O
from sim.actions import A_DRAW, A_END, A_FIGHT, A_PAY, A_SKIP, A_USE
from sim.deprecation import moved
from sim.errors import UsageError
from sim.userjson import parse_json

NAME = "learned"
DESCRIPTION = ("the veteran with hazard and fight choices scored by a small network trained "
               "on the search's fair rollouts (friday train)")
PARAMS = dict(VETERAN_PARAMS)
PARAMS["margin"] = 0.015
P_MARGIN = len(VETERAN_PARAMS)
N_NAMED = len(PARAMS)
N_AB = len(C.ABILITY_NAMES)
FIRST_AGING, N_AGING = C.AGING_IDS[0], len(C.AGING_IDS)      # a run of ids (sim.cards)

# --- features: the state block (F[:N_STATE]), then the action block (F[N_STATE:]) ----------
# F_* are positions in the feature vector F (the weights are indexed by position; their names:
# FEATURE_NAMES), not actions (sim.actions A_*) nor state slots (sim.fast.layout S_*).
(F_LEVEL, F_GREEN, F_YELLOW, F_RED, F_LIFE, F_STACK_N, F_DISCARD_N, F_DECK_MEAN, F_DECK_N,
 F_AGING_LEFT, F_HAZARDS_LEFT, F_PIRATE_MAX, F_PIRATE_SUM, F_MISSING, F_FREE_LEFT, F_PIRATE_FIGHT,
 F_PAID_COST, F_FIGHT_N, F_COVER, F_STACK_MEAN, F_DECK_AGING, F_PRIZE, F_LIFE_AFTER_LOSS,
 F_IN_FIGHT, F_STACK_HIGH, F_PIRATES_BEATEN, F_CULL, F_BEST1, F_BEST2, F_BEST3, F_FIGHT_WEAK,
 F_TOP_KNOWN, F_TOP_VALUE) = range(33)
N_STATE = 33
(F_IS_END, F_IS_DRAW, F_IS_PAY, F_IS_SKIP, F_IS_FIGHT, F_IS_USE, F_HAZ_VALUE, F_HAZ_FREE,
 F_HAZ_SHORT, F_KNOW_VALUE, F_KNOW_WORTH, F_KNOW_FOOD, F_LOSS) = range(N_STATE, N_STATE + 13)
F_ABILITY = N_STATE + 13          # one-hot: the ability used (use) or won (fight: a hazard)
N_FEATURES = F_ABILITY + N_AB
FEATURE_NAMES = (
    "level", "green", "yellow", "red", "life", "stack_n", "discard_n", "deck_mean", "deck_n",
    "aging_left", "hazards_left", "pirate_max", "pirate_sum", "missing", "free_left",
    "pirate_fight", "paid_cost", "fight_n", "next_covers", "stack_mean", "deck_aging", "prize",
    "life_after_loss", "in_fight", "stack_high", "pirates_beaten", "cull_if_lost", "best1_margin",
    "best2_margin", "best3_margin", "fight_weak", "top_known", "top_value",
    "is_end", "is_draw", "is_pay", "is_skip", "is_fight", "is_use", "hazard_value",
    "hazard_free", "hazard_shortfall", "knowledge_value", "knowledge_worth", "knowledge_food",
    "loss_if_end") + tuple("ability_" + a for a in C.ABILITY_NAMES)


@lean_jit
def state_features(obs, F):
    """F[:N_STATE]: the decision's situation, each scaled to about 0..1 (R1.4: open facts)."""
    F[:N_STATE] = 0.0
    step = obs[O.O_STEP]
    F[F_LEVEL] = obs[O.O_LEVEL] / 4.0
    F[F_GREEN + min(step, 2)] = 1.0
    F[F_LIFE] = obs[O.O_LIFE] / 20.0
    n_stack = obs[O.O_N_ROBINSON_STACK]
    F[F_STACK_N] = n_stack / 20.0
    F[F_DISCARD_N] = obs[O.O_N_ROBINSON_DISCARD] / 20.0
    F[F_DECK_MEAN] = deck_mean(obs)
    F[F_DECK_N] = obs[O.O_DECK_N] / 30.0
    F[F_AGING_LEFT] = obs[O.O_N_AGING_STACK] / 10.0
    F[F_HAZARDS_LEFT] = obs[O.O_N_HAZARD_STACK] / 20.0
    p1 = obs[O.CT_PIRATE_VALUE + obs[O.O_PIRATE_1]]
    p2 = obs[O.CT_PIRATE_VALUE + obs[O.O_PIRATE_2]]
    F[F_PIRATE_MAX] = max(p1, p2) / 50.0
    F[F_PIRATE_SUM] = (p1 + p2) / 100.0
    F[F_PIRATES_BEATEN] = obs[O.O_PIRATES_BEATEN] / 2.0
    stack_sum, stack_high = 0, 0
    for v in range(1, O.MAX_VALUE + 1):            # the stack's open value counts (R1.4)
        stack_sum += v * obs[O.O_STACK_VALUE + v - 1]
        if v >= 2:
            stack_high += obs[O.O_STACK_VALUE + v - 1]
    aging = 0
    for c in range(FIRST_AGING, FIRST_AGING + N_AGING):
        z = obs[O.ZONE + c]
        if z == O.Z_ROBINSON_STACK or z == O.Z_ROBINSON_DISCARD:
            aging += 1
    F[F_STACK_MEAN] = stack_sum / n_stack if n_stack > 0 else 0.0
    F[F_STACK_HIGH] = stack_high / n_stack if n_stack > 0 else 0.0
    F[F_DECK_AGING] = aging / 10.0
    if obs[O.O_KNOWN_TOP_N] > 0:
        F[F_TOP_KNOWN] = 1.0
        F[F_TOP_VALUE] = value_of(obs, obs[O.O_KNOWN_TOP_0]) / 4.0
    if obs[O.O_PHASE] == O.PH_FIGHT:
        missing = effective_value(obs) - fight_total(obs)
        F[F_IN_FIGHT] = 1.0
        F[F_MISSING] = missing / 10.0
        F[F_FREE_LEFT] = obs[O.O_FREE_LEFT] / 5.0
        F[F_PIRATE_FIGHT] = obs[O.O_OPPONENT_IS_PIRATE]
        F[F_PAID_COST] = obs[O.O_PAID_COST] / 2.0
        F[F_FIGHT_N] = obs[O.O_N_FIGHT] / 10.0
        F[F_LIFE_AFTER_LOSS] = (obs[O.O_LIFE] - max(missing, 0)) / 20.0
        F[F_BEST1] = (stack_best_sum(obs, 1) - missing) / 10.0
        F[F_BEST2] = (stack_best_sum(obs, 2) - missing) / 10.0
        F[F_BEST3] = (stack_best_sum(obs, 3) - missing) / 10.0
        if missing > 0:
            F[F_CULL] = cull_count(obs, missing, 0.0) / 5.0
        weak = 0
        for i in range(obs[O.O_N_FIGHT]):
            c = obs[O.FIGHT_LIST + i]
            if not obs[O.FLAGS + c] & O.F_FACE_DOWN and card_value(obs, c) <= 0:
                weak += 1
        F[F_FIGHT_WEAK] = weak / 5.0
        if missing > 0 and n_stack > 0:
            cover = 0
            for v in range(max(missing, 1), O.MAX_VALUE + 1):
                cover += obs[O.O_STACK_VALUE + v - 1]
            F[F_COVER] = cover / n_stack
        elif missing <= 0:
            F[F_COVER] = 1.0
        if not obs[O.O_OPPONENT_IS_PIRATE]:
            k = obs[O.O_OPPONENT]
            F[F_PRIZE] = (value_of(obs, k) + ABILITY_WORTH[ability_of(obs, k)]) / 4.0


@lean_jit
def action_features(obs, a, F):
    """F[N_STATE:]: what candidate ``a`` is (its kind, the hazard or ability it involves)."""
    F[N_STATE:] = 0.0
    if a == A_END:
        F[F_IS_END] = 1.0
        missing = effective_value(obs) - fight_total(obs)
        F[F_LOSS] = max(missing, 0) / 10.0
    elif a == A_DRAW:
        F[F_IS_DRAW] = 1.0
    elif a == A_PAY:
        F[F_IS_PAY] = 1.0
    elif a == A_SKIP:
        F[F_IS_SKIP] = 1.0
    elif a >= A_FIGHT and a < A_FIGHT + C.N_CARDS:
        c = a - A_FIGHT
        F[F_IS_FIGHT] = 1.0
        v = hazard_value(obs, c, obs[O.O_STEP])
        free = hazard_free(obs, c)
        F[F_HAZ_VALUE] = v / 10.0
        F[F_HAZ_FREE] = free / 5.0
        F[F_HAZ_SHORT] = max(v - free * deck_mean(obs), 0.0) / 10.0
        F[F_KNOW_VALUE] = value_of(obs, c) / 3.0
        F[F_KNOW_WORTH] = ABILITY_WORTH[ability_of(obs, c)] / 3.0
        F[F_KNOW_FOOD] = 1.0 if is_food(obs, c) else 0.0
        F[F_ABILITY + ability_of(obs, c)] = 1.0
    elif a >= A_USE and a < A_USE + C.N_CARDS:
        F[F_IS_USE] = 1.0
        F[F_ABILITY + ability_of(obs, a - A_USE)] = 1.0


# --- the network, read from the parameter vector: params[N_NAMED:] = [n_in, n_hidden, W1 (row
# by input), b1, w2, b2] (LearnedPolicy appends it to the named parameters) ---------------------
@lean_jit
def hidden_of_state(params, F, H):
    """H = b1 + W1[:N_STATE]' F[:N_STATE]: the hidden layer's state part, once a decision."""
    nh = H.shape[0]
    w1, b1 = N_NAMED + 2, N_NAMED + 2 + N_FEATURES * nh
    for j in range(nh):
        H[j] = params[b1 + j]
    for i in range(N_STATE):
        if F[i] != 0.0:
            row = w1 + i * nh
            for j in range(nh):
                H[j] += params[row + j] * F[i]


@lean_jit
def network_decides(obs, n_legal) -> bool:
    """Whether the network scores this decision: a choice (two or more legal actions) of a
    hazard (R3) or in a fight (R4) not yet won (R4.7: the total short of the value)."""
    phase = obs[O.O_PHASE]
    if n_legal < 2:
        return False
    if phase == O.PH_FIGHT:
        return effective_value(obs) - fight_total(obs) > 0
    return phase == O.PH_HAZARD


GROUP = 4              # candidates scored side by side: the four sums s0..s3 below (one each)


@lean_jit
def candidate_scores(obs, legal, n_legal, params, F, H, G, out):
    """out[c], c < n_legal: the network's score of candidate legal[c] (its winning chance,
    centred on the decision's mean), w2 . relu(H + W1[N_STATE:]' F[N_STATE:]) + b2, with
    F[:N_STATE] the state block and H its hidden part; G scratch (candidate c's hidden layer
    at G[c * nh:], n_legal rounded up to GROUP rows).  Each sum runs over the hidden units in
    order, GROUP sums side by side."""
    nh = H.shape[0]
    w1 = N_NAMED + 2
    w2 = w1 + N_FEATURES * nh + nh
    for c in range((n_legal + GROUP - 1) // GROUP * GROUP):
        g = c * nh
        for j in range(nh):
            G[g + j] = H[j]
        if c >= n_legal:
            continue
        action_features(obs, legal[c], F)
        for i in range(N_STATE, N_FEATURES):
            if F[i] != 0.0:
                row = w1 + i * nh
                for j in range(nh):
                    G[g + j] += params[row + j] * F[i]
    for c in range(0, n_legal, GROUP):
        s0 = s1 = s2 = s3 = params[w2 + nh]
        g = c * nh
        for j in range(nh):
            w = params[w2 + j]
            g0, g1, g2, g3 = G[g + j], G[g + nh + j], G[g + 2 * nh + j], G[g + 3 * nh + j]
            s0 += w * (g0 if g0 > 0.0 else 0.0)
            s1 += w * (g1 if g1 > 0.0 else 0.0)
            s2 += w * (g2 if g2 > 0.0 else 0.0)
            s3 += w * (g3 if g3 > 0.0 else 0.0)
        out[c] = s0
        if c + 1 < n_legal:
            out[c + 1] = s1
        if c + 2 < n_legal:
            out[c + 2] = s2
        if c + 3 < n_legal:
            out[c + 3] = s3


@njit(cache=True)
def decide(obs, legal, n_legal, params, rng):
    """R3, R4: the network's choice where it beats the veteran's by ``margin``; else the
    veteran's (module docstring)."""
    base = veteran_decide(obs, legal, n_legal, params, rng)
    if not network_decides(obs, n_legal):
        return base
    nh = np.int64(params[N_NAMED + 1])
    h, o, g = N_FEATURES, N_FEATURES + nh, N_FEATURES + nh + n_legal     # one scratch buffer
    buf = np.empty(g + (n_legal + GROUP - 1) // GROUP * GROUP * nh)
    F, H, out, G = buf[:h], buf[h:o], buf[o:g], buf[g:]
    state_features(obs, F)
    hidden_of_state(params, F, H)
    candidate_scores(obs, legal, n_legal, params, F, H, G, out)
    best, best_score, base_score = base, -1e18, 0.0
    for i in range(n_legal):
        if legal[i] == base:
            base_score = out[i]
        if out[i] > best_score:
            best, best_score = legal[i], out[i]
    if best_score - base_score > params[P_MARGIN]:
        return best
    return base


@njit(cache=True)
def candidate_features(OBS, LEGAL, X, Q, CHANCE):
    """Training rows: for each decision r (OBS[r] a whole observation, LEGAL[r] its legal
    actions, -1 padded) and each candidate, its features into X and its chance minus the
    decision's mean into Q; returns the number of rows."""
    m = 0
    F = np.empty(N_FEATURES)
    for r in range(OBS.shape[0]):
        obs = OBS[r]
        state_features(obs, F)
        n = 0
        mean = 0.0
        while n < LEGAL.shape[1] and LEGAL[r, n] >= 0:
            mean += CHANCE[r, n]
            n += 1
        mean /= n
        for i in range(n):
            action_features(obs, LEGAL[r, i], F)
            X[m] = F
            Q[m] = CHANCE[r, i] - mean
            m += 1
    return m


# --- the policy: the named parameters, then the network read from a weights file ---------------
WEIGHTS = Path(__file__).with_name("learned.json")
REMAKE = "make them again with friday train"


def weights_data(path) -> dict:
    """The JSON object of a weights file, as it is (sim.userjson reads it); a UsageError naming
    the file if it cannot be read, is not UTF-8 JSON or is not an object."""
    try:
        raw = Path(path).read_bytes()
    except (OSError, ValueError) as e:                      # ValueError: a NUL in the name
        raise UsageError(f"cannot read the weights of policy learned from {path}: {e}") from None
    return parse_json(raw, f"the weights file {path} of policy learned", REMAKE,
                      object_of="an object with W1, b1, w2 and b2")


def read_weights(path) -> tuple[np.ndarray, dict]:
    """The network of a weights file (JSON written by ``friday train``: W1, b1, w2, b2 and the
    training record) as the parameter tail [n_in, n_hidden, W1, b1, w2, b2], and its record;
    a file that is not one (unreadable, not UTF-8 JSON, an array missing, of the wrong shape or
    with a value not finite) is a UsageError naming what is wrong."""
    data = weights_data(path)
    arrays = {}
    for key in ("W1", "b1", "w2", "b2"):
        try:
            arrays[key] = np.asarray(data[key], np.float64)
        except (KeyError, TypeError, ValueError, OverflowError) as e:
            why = "missing" if isinstance(e, KeyError) else f"not an array of numbers ({e})"
            raise UsageError(f"the weights in {path} do not fit policy learned: {key} {why} "
                             f"({REMAKE})") from None
    W1 = arrays["W1"]
    nh = W1.shape[1] if W1.ndim == 2 else 0                         # hidden units
    wanted = {"W1": (N_FEATURES, nh), "b1": (nh,), "w2": (nh,), "b2": ()}
    wrong = []
    for key, a in arrays.items():
        if a.shape != wanted[key]:
            wrong.append(f"{key} {a.shape}, expected {wanted[key]}" if key != "W1" else
                         f"W1 {a.shape}, expected ({N_FEATURES}, hidden) for its {N_FEATURES} "
                         "features")
        elif not np.all(np.isfinite(a)):
            wrong.append(f"{key} not all finite numbers")
    if nh == 0 and not wrong:
        wrong.append("no hidden unit")
    if wrong:
        raise UsageError(f"the weights in {path} do not fit policy learned: {'; '.join(wrong)} "
                         f"({REMAKE})")
    return (np.concatenate([[N_FEATURES, nh], W1.ravel(), arrays["b1"], arrays["w2"],
                            [float(arrays["b2"])]]), data.get("record", {}))


class LearnedPolicy(Policy):
    """``learned``: the named parameters (the veteran's and ``margin``) followed by the
    network of the weights file (text parameter ``weights``: a path, or ``shipped``, the
    default: policies/learned.json)."""
    text_defaults = {"weights": "shipped"}

    def __init__(self, name, decide, params=None, description=DESCRIPTION, text=None):
        self.text_params = {**self.text_defaults, **(text or {})}
        super().__init__(name, decide, params if params is not None else PARAMS, description)
        given = self.text_params["weights"]
        self.weights_file = WEIGHTS if given == "shipped" else Path(os.path.expanduser(given))
        tail, self.training = read_weights(self.weights_file)
        self.params = np.concatenate([self.params, tail])

    def with_params(self, overrides: dict) -> "LearnedPolicy":
        named, text = self.named_with(overrides)
        return type(self)(self.name, self.decide, named, self.description, text)

    def record(self) -> dict:
        data = self.weights_file.read_bytes()
        return {**super().record(), "weights": {"file": str(self.weights_file),
                                                "sha256": hashlib.sha256(data).hexdigest()}}


def make_policy(name, decide, params, description, text=None):
    return LearnedPolicy(name, decide, params, description, text=text)


# the feature indices' names before 0.2.0 (S_* state, A_* action features): F_* now
__getattr__ = moved(__name__, {old: "policies.learned:F_" + old[2:] for old in (
    "S_LEVEL", "S_GREEN", "S_YELLOW", "S_RED", "S_LIFE", "S_STACK_N", "S_DISCARD_N",
    "S_DECK_MEAN", "S_DECK_N", "S_AGING_LEFT", "S_HAZARDS_LEFT", "S_PIRATE_MAX", "S_PIRATE_SUM",
    "S_MISSING", "S_FREE_LEFT", "S_PIRATE_FIGHT", "S_PAID_COST", "S_FIGHT_N", "S_COVER",
    "S_STACK_MEAN", "S_DECK_AGING", "S_PRIZE", "S_LIFE_AFTER_LOSS", "S_IN_FIGHT", "S_STACK_HIGH",
    "S_PIRATES_BEATEN", "S_CULL", "S_BEST1", "S_BEST2", "S_BEST3", "S_FIGHT_WEAK", "S_TOP_KNOWN",
    "S_TOP_VALUE", "A_IS_END", "A_IS_DRAW", "A_IS_PAY", "A_IS_SKIP", "A_IS_FIGHT", "A_IS_USE",
    "A_HAZ_VALUE", "A_HAZ_FREE", "A_HAZ_SHORT", "A_KNOW_VALUE", "A_KNOW_WORTH", "A_KNOW_FOOD",
    "A_LOSS", "A_ABILITY")})
