"""search: fair-information rollout search over a base policy (docs/explanation/search.md).

At each searched decision every legal action is tried on the same ``rollouts`` (K)
continuations, each a copy of the game whose hidden orders (the Robinson, hazard and aging
stacks, R1.4) are redrawn at random consistently with what the player knows, played out by
the ``base`` policy; the base policy's own choice is kept unless another action wins at least
``margin`` more of the K continuations.  It never reads the true hidden order.  The jitted
core is sim.fast.search; this module is its Policy: parameters, checks, spec.

Parameters: ``rollouts`` (K), ``margin`` (1..K), ``kinds`` (the decision kinds searched,
``+``-separated: hazard, pirate, fight (where ending is legal), short (a pirate fight
      below its value, where it is not), target, more, sort, destroy, or ``all``), ``base``
(a built-in policy name or file.py:function, at its defaults), ``keep`` (the policy whose
action stands unless another wins ``margin`` more continuations: ``base``, the default, or a
stronger policy whose parameters begin with the base's, as ``learned``'s begin with the
``veteran``'s: the continuations stay the base's, the choice that stands is ``keep``'s at one
call per decision; docs/explanation/search.md), ``budget`` (rollouts per
decision over all candidates, 0: no limit; K is cut to budget // candidates), ``prune``
(z > 0: also drop a candidate that is z standard deviations short of the margin; 0: exact
pruning only, the decision every K rollouts would give).
"""
from __future__ import annotations

import math

import numpy as np

from policies.policy import Policy
from sim.contract import params_copy
from sim.errors import UsageError

NAME = "search"
DESCRIPTION = ("rollout search (fair information: hidden stacks resampled) over a base policy; "
               "fast engine only, about a second per game")
PARAMS = {"rollouts": 224.0, "margin": 5.0, "budget": 0.0, "prune": 1.0}
TEXT_PARAMS = {"base": "veteran", "kinds": "hazard+fight", "keep": "base"}
MAX_ROLLOUTS = 1 << 20
decide = None       # the games run in sim.fast.search; SearchPolicy.decide is the base's


def parse_kinds(text: str) -> int:
    """``hazard+fight`` -> the bit mask of sim.fast.search.KIND_NAMES; ``all``: every kind."""
    from sim.fast.search import KIND_NAMES
    names = [k.strip() for k in str(text).split("+")]
    if names == ["all"]:
        return (1 << len(KIND_NAMES)) - 1
    mask = 0
    for k in names:
        if k not in KIND_NAMES:
            raise UsageError(f"unknown decision kind {k!r} in kinds={text}: choose from "
                             f"{', '.join(KIND_NAMES)} (joined by +) or all")
        mask |= 1 << KIND_NAMES.index(k)
    return mask


def base_policy(name: str, role: str = "base") -> Policy:
    """The ``role`` policy (base, keep) named ``name``: a built-in (not search) or
    file.py:function."""
    from policies.files import load_file_policy
    from policies.players import PLAYERS, builtin_policy
    from policies.policy import variant
    from policies.spec import is_file_spec, parse_policy_spec
    plain = list(PLAYERS)
    if name in plain:
        return builtin_policy(name)
    if is_file_spec(name):
        parsed = parse_policy_spec(name)
        policy = load_file_policy(parsed.base)
        return variant(policy, dict(parsed.params)) if parsed.params else policy
    choices = (["base"] if role == "keep" else []) + plain
    raise UsageError(f"unknown {role} policy {name!r} for search: choose one of "
                     f"{', '.join(choices)} or path/to/file.py:function")


def played_by(**roles) -> dict:
    """``{"played_by": records}`` to add to a search's or solver's record (``{}`` if none): the
    records of the policies it plays its continuations with (``roles``: base, keep; name ->
    (spec, Policy or None)) whose spec does not pin them: a network's weights (``learned``:
    their sha256) or a policy file's code.  A built-in without weights is left out, so the
    default search's record, and its cached results, stay as they were."""
    from policies.spec import is_file_spec
    out = {}
    for role, (spec, policy) in roles.items():
        if policy is None:
            continue
        rec = policy.record()
        if "weights" in rec or is_file_spec(spec):
            out[role] = rec
    return {"played_by": out} if out else {}


def keep_policy(name: str, base_name: str, base: Policy) -> Policy | None:
    """The policy named by ``keep`` (None: the base itself); its parameters must begin with
    the base's, since the continuations' base reads them from the same, longer vector (a base
    from a file must not depend on its length)."""
    if name in ("base", base_name):
        return None
    kept = base_policy(name, "keep")
    n = len(base.params)
    if len(kept.params) < n or not np.array_equal(kept.params[:n], base.params):
        raise UsageError(f"search parameter keep={name}: its parameters must begin with "
                         f"base={base_name}'s, and they do not (keep=learned goes with "
                         "base=veteran)")
    return kept


def _whole(name, value, low, high=None) -> int:
    if value != math.floor(value) or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise UsageError(f"search parameter {name} must be a whole number {span}, not {value:g}")
    return int(value)


class SearchPolicy(Policy):
    """The search player: a Policy whose games run in sim.fast.search (it resamples the
    engine's state, so the fast engine only): its ``runner()`` (policies.search_run) plays
    the games in place of the engine's own runner (sim.contract.player)."""
    engines = ("fast",)
    searches = True
    sees_all = False     # True only for the UNFAIR policies.unfair_clairvoyant
    text_defaults = TEXT_PARAMS

    def chunk_sizes(self, engine: str) -> tuple[int, int]:
        """Two games per thread (about a second per game), so that every thread has work."""
        import numba
        return 2 * numba.get_num_threads(), 2 * numba.get_num_threads()

    def __init__(self, name, decide=None, params=None, description=DESCRIPTION, text=None):
        text = {**self.text_defaults, **(text or {})}
        base = base_policy(text["base"])
        super().__init__(name, base.decide, params if params is not None else PARAMS,
                         description)
        self.base_policy = base
        self.keep_policy = keep_policy(text.get("keep", "base"), text["base"], base)
        self.text_params = text
        values = dict(zip(self.param_names, self.params))
        k = _whole("rollouts", values["rollouts"], 1, MAX_ROLLOUTS)
        _whole("margin", values["margin"], 1, k)
        _whole("budget", values["budget"], 0)
        if values["prune"] < 0:
            raise UsageError(f"search parameter prune must be >= 0, not {values['prune']:g}")
        self.kinds = parse_kinds(text["kinds"])
        from sim.fast import search as X
        self.sp = np.zeros(X.N_SP, np.float64)
        self.sp[X.SP_ROLLOUTS], self.sp[X.SP_MARGIN] = values["rollouts"], values["margin"]
        self.sp[X.SP_KINDS], self.sp[X.SP_BUDGET] = self.kinds, values["budget"]
        self.sp[X.SP_PRUNE] = values["prune"]
        self.sp[X.SP_SEES_ALL] = self.sees_all
        self.log = None                 # a list of decision-log frames (with_log)

    def with_params(self, overrides: dict) -> "SearchPolicy":
        named, text = self.named_with(overrides)
        return type(self)(self.name, None, named, self.description, text)

    def with_log(self) -> "SearchPolicy":
        """A copy that keeps the decision log of every game it plays (``log``, frames)."""
        new = type(self)(self.name, None, dict(zip(self.param_names, self.params)),
                           self.description, self.text_params)
        new.base, new.overrides, new.source, new.sha256 = (self.base, self.overrides,
                                                           self.source, self.sha256)
        new.log = []
        return new

    def choose(self, obs, legal, n_legal) -> int:
        raise UsageError("policy search plays on the fast engine's state (it resamples the "
                         "hidden stacks): use engine='fast' (the reference engine cannot run it)")

    def record(self) -> dict:
        """The spec's record; ``keep`` only when it names another policy than the base (the
        default's record, and so its cached results, stay as before keep existed); the base's
        and keep's own records where the spec does not pin them (``played_by``)."""
        text = {k: v for k, v in self.text_params.items()
                if k != "keep" or self.keep_policy is not None}
        return {**super().record(), "search": {**text,
                                               **dict(zip(self.param_names,
                                                          self.params.tolist()))},
                **played_by(base=(self.text_params["base"], self.base_policy),
                            keep=(self.text_params.get("keep", "base"), self.keep_policy))}

    def header(self) -> str:
        keep = "" if self.keep_policy is None else f", keep {self.text_params['keep']}"
        return (super().header() + f" (base {self.text_params['base']}, kinds "
                f"{self.text_params['kinds']}{keep})")

    # --- the fast engine's runner (sim.contract.player) ----------------------------------
    def base_params(self) -> np.ndarray:
        """The state's parameters: the kept policy's (they begin with the base's)."""
        kept = self.keep_policy or self.base_policy
        return params_copy(kept)

    def keep_function(self, f):
        """The compiled decide of the policy whose action stands (``f``: the base's)."""
        from sim.fast.ask import policy_function
        return f if self.keep_policy is None else policy_function(self.keep_policy)

    def runner(self):
        from policies.search_run import SearchRunner
        return SearchRunner(self)


def make_policy(name, decide, params, description, text=None):
    return SearchPolicy(name, decide, params, description, text=text)
