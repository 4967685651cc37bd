"""The player as the engines run it: ``Policy``, a named decide with its parameters.

A policy is a Numba function ``decide(obs, legal, n_legal, params, rng) -> action``
(sim.contract.decision.DECIDE) with ``obs`` int64[:] (layout in sim.observation), ``legal``
int64[:] whose first ``n_legal`` entries are the legal action ids in ascending order
(sim.actions), ``params`` float64[:] and ``rng`` uint64[1], the game's policy random stream
(use sim.rng.nb_below / nb_uniform).  It returns one of the legal ids and never mutates
anything but ``rng``.  ``Policy`` holds it with its parameter vector and its origin; the
registry (``policies``) and the file loader (policies.files) make one.
"""
from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

import numpy as np

from sim.contract import DECIDE, PolicyError, callable_decide, decide_once, params_copy
from sim.contract.user_code import checked, recursion_at, writes_at
from sim.rng import policy_stream_start
from sim.errors import UsageError

from .spec import format_value

class Policy:
    """A named decision function with its parameter vector, usable by both engines.

    ``name`` is the exact spec (``expert[cull_max_missing=0]``); ``base``, ``overrides``,
    ``source`` (the file) and ``sha256`` (of its bytes) say where it came from (``record``)."""
    base = None
    overrides: dict = {}
    source = None
    sha256 = None
    engines = ("fast", "reference")     # the engines that can run it (sim.contract.player)
    searches = False                    # plays by searching resampled copies (R1.4)
    at_game = None                      # (seed, game index) since reset: errors name it
    decisions = 0                       # decisions asked by choose since reset

    def check_engine(self, engine: str):
        """A UsageError unless ``engine`` can run this player."""
        if engine not in self.engines:
            other = " or ".join(e for e in self.engines)
            raise UsageError(f"engine {engine!r} cannot run policy {self.name!r}: it runs on "
                             f"the {other} engine only", "engine")

    def runner(self):
        """None: the engines run this player, asking ``decide`` at each decision; a player
        that runs its own games returns its runner (sim.contract.player.Runner)."""
        return None

    def chunk_sizes(self, engine: str) -> tuple[int, int]:
        """(first, smallest) batch of games (sim.lab.run; later batches follow the measured
        rate): a batch policy starts with 1,024 fast-engine games or 2 reference games."""
        return (1024 if engine == "fast" else 2), 1

    def __init__(self, name: str, decide, params: dict | None = None, description: str = ""):
        self.name = name
        self.decide = checked(decide)       # a user's code: bounds-checked (sim.contract)
        self.param_names = tuple((params or {}).keys())
        self.params = np.array([float(v) for v in (params or {}).values()] or [0.0],
                               dtype=np.float64)
        self.description = description
        self.rng = np.zeros(1, dtype=np.uint64)

    def with_params(self, overrides: dict) -> "Policy":
        values = dict(zip(self.param_names, self.params))
        for key, value in overrides.items():
            if key not in values:
                known = ", ".join(self.param_names) or "none"
                raise UsageError(f"policy {self.name!r} has no parameter {key!r} (known: {known})")
            try:
                values[key] = float(value)
            except (TypeError, ValueError, OverflowError):
                values[key] = float("nan")
            if not np.isfinite(values[key]):
                raise UsageError(f"parameter {key} of policy {self.name!r} must be a finite "
                                 f"number, not {value!r}")
        return Policy(self.name, self.decide, values, self.description)

    def named_with(self, overrides: dict) -> tuple[dict, dict]:
        """(numeric parameters, text parameters) with ``overrides`` set by name, each checked:
        the new values of a policy whose class takes text parameters too (``text_defaults``:
        search's base and kinds, learned's weights)."""
        defaults = getattr(self, "text_defaults", {})
        text, numeric = dict(getattr(self, "text_params", {})), {}
        for key, value in overrides.items():
            if key in defaults:
                text[key] = str(value).strip()
            elif key in self.param_names:
                numeric[key] = value
            else:
                known = ", ".join(self.param_names + tuple(defaults))
                raise UsageError(f"policy {self.name!r} has no parameter {key!r} (known: "
                                 f"{known})")
        plain = Policy(self.name, self.decide, dict(zip(self.param_names, self.params)))
        plain = plain.with_params(numeric)
        return dict(zip(plain.param_names, plain.params)), text

    def reset(self, seed: int, game: int):
        """Start the policy's random stream for game ``game`` of seed ``seed`` (sim.rng)."""
        self.rng = np.array([policy_stream_start(seed, game)], dtype=np.uint64)
        self.at_game, self.decisions = (seed, game), 0

    def choose(self, obs, legal, n_legal) -> int:
        """The action at one decision asked from Python (the reference engine): its mistakes
        are one error naming the decision, and it is timed (sim.contract)."""
        self.decisions += 1
        return decide_once(self, callable_decide(self), obs, legal, n_legal, params_copy(self),
                           self.rng, self.decisions, self.at_game)

    def record(self) -> dict:
        """What a results file and a printed header record: the exact policy."""
        return {"policy": self.name, "base": self.base or self.name,
                "overrides": dict(self.overrides), "file": self.source, "sha256": self.sha256,
                "params": dict(zip(self.param_names, self.params.tolist()))}

    def header(self) -> str:
        """One line for printed headers: name, parameters set, file hash."""
        text = self.name
        if self.source:
            text += f" (file {self.source}, sha256 {(self.sha256 or '')[:12]})"
        return text


def _sha256(path) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except (OSError, TypeError):
        return None


def origin(policy: Policy, base: str, source) -> Policy:
    policy.base, policy.source, policy.sha256 = base, source, _sha256(source) if source else None
    return policy


def variant(policy: Policy, overrides: dict) -> Policy:
    """``policy`` with parameters set by name (checked by Policy.with_params), named exactly."""
    new = policy.with_params(overrides)
    base = policy.base or policy.name
    values = {**dict(zip(new.param_names, new.params.tolist())),
              **getattr(new, "text_params", {})}
    new.overrides = {**policy.overrides, **{k: values[k] for k in overrides}}
    new.name = base + "[" + ",".join(f"{k}={format_value(v)}"
                                     for k, v in new.overrides.items()) + "]"
    new.base, new.source, new.sha256 = base, policy.source, policy.sha256
    return new


def check_decide(where: str, py):
    """A UsageError unless ``py`` takes the five arguments of a policy's decide; a
    PolicyError if it (or a rule given to policies.strategy.with_rules, ``rules_given``)
    writes into ``obs``, ``legal`` or ``params`` (sim.contract.user_code.writes_at) or calls
    itself (``recursion_at``)."""
    try:
        signature = inspect.signature(py)
    except (TypeError, ValueError):      # no signature to read: Numba will say
        return
    names = str(signature.replace(return_annotation=inspect.Signature.empty))[1:-1]
    by_position = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if any(p.kind not in by_position for p in signature.parameters.values()):
        raise UsageError(f"policy {where} takes ({names}): a decide takes its 5 arguments by "
                         f"position, {DECIDE}, without *args, **kwargs or keyword-only ones "
                         f"(Numba compiles it)")
    kind = ("async" if inspect.iscoroutinefunction(py) else
            "a generator" if inspect.isgeneratorfunction(py) else None)
    if kind:
        raise UsageError(f"policy {where} is {kind}: a decide is a plain function that returns "
                         f"an action id, {DECIDE}")
    try:
        signature.bind(*range(5))
    except TypeError:
        raise UsageError(f"policy {where} takes {len(signature.parameters)} arguments ({names}), "
                         f"not the 5 of {DECIDE}") from None
    for fn in [py, *getattr(py, "rules_given", {}).values()]:
        found = writes_at(fn)
        if found:
            name, place = found
            raise PolicyError(f"policy {where} ({place}) writes into {name}: your rule must not "
                              f"change its inputs (obs, legal, params), only rng; copy one to "
                              f"change it ({name}.copy())")
        place = recursion_at(fn)
        if place:
            raise PolicyError(f"policy {where} ({place}) recurses: compiled code that recurses "
                              f"too deep ends the process without a word; write a loop")


def check_params(where: str, params, py=None) -> dict:
    """A policy's PARAMS (None: none), checked: names mapped to finite numbers.  A decide made
    by policies.strategy.with_rules (``py``) plays a base's rules, which read the base's
    parameters first: its PARAMS must start with them (None: the base's)."""
    base = getattr(py, "base_params", None)
    if base is not None:
        name = py.base_name
        if params is None:
            return dict(base)
        if not isinstance(params, dict) or list(params)[:len(base)] != list(base):
            raise UsageError(f"policy {where} plays {name}'s rules, so its PARAMS must start "
                             f"with {name}'s {len(base)} parameters in their order: PARAMS = "
                             f"{{**{name.replace('-', '_')}.PARAMS, ...}}")
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise UsageError(f"policy {where}: PARAMS must be a dict of name: number, "
                         f"not {type(params).__name__}")
    for key, value in params.items():
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):       # OverflowError: 10**400
            number = float("nan")
        if not isinstance(key, str) or not key.isidentifier():
            raise UsageError(f"policy {where}: PARAMS name {key!r} is not a name")
        if isinstance(value, bool) or not np.isfinite(number):
            raise UsageError(f"policy {where}: PARAMS[{key!r}] must be a finite number, "
                             f"not {repr(value)[:40]}{'...' if len(repr(value)) > 40 else ''}")
    return dict(params)
