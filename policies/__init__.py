"""Policies: who chooses the actions.  One file per policy, one decision interface.

A policy is a Numba function ``decide(obs, legal, n_legal, params, rng) -> action`` with
``obs`` int64[:] (layout in sim.observation), ``legal`` int64[:] whose first ``n_legal``
entries are the legal action ids in ascending order (sim.actions), ``params`` float64[:] and
``rng`` uint64[1], the game's policy random stream (use sim.rng.nb_below / nb_uniform).  It
returns one of the legal ids and never mutates anything but ``rng``.

A policy module defines NAME, DESCRIPTION, PARAMS (an ordered dict name -> default) and
``decide``.  ``load_policy`` turns a name or ``path/to/file.py:function`` into a ``Policy``.
"""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path

import numpy as np

from sim.rng import policy_stream_start
from sim.rules import RuleError

BUILTIN = ("random_legal", "always_fight", "cull_green", "expert")


class Policy:
    """A named decision function with its parameter vector, usable by both engines."""

    def __init__(self, name: str, decide, params: dict | None = None, description: str = ""):
        self.name = name
        self.decide = decide
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
                raise RuleError(f"policy {self.name!r} has no parameter {key!r} (known: {known})")
            try:
                values[key] = float(value)
            except (TypeError, ValueError):
                values[key] = float("nan")
            if not np.isfinite(values[key]):
                raise RuleError(f"parameter {key} of policy {self.name!r} must be a finite "
                                f"number, not {value!r}")
        return Policy(self.name, self.decide, values, self.description)

    def reset(self, seed: int, game: int):
        """Start the policy's random stream for game ``game`` of seed ``seed`` (sim.rng)."""
        self.rng = np.array([policy_stream_start(seed, game)], dtype=np.uint64)

    def choose(self, obs, legal, n_legal) -> int:
        return int(self.decide(obs, legal, n_legal, self.params, self.rng))


def _module_policy(module) -> Policy:
    return Policy(module.NAME, module.decide, dict(module.PARAMS), module.DESCRIPTION)


def builtin_policies() -> dict[str, Policy]:
    out = {}
    for mod in BUILTIN:
        policy = _module_policy(importlib.import_module(f"policies.{mod}"))
        out[policy.name] = policy
    return out


def load_policy(spec, params: dict | None = None) -> Policy:
    """A policy by name (``friday policies``), ``path/file.py:function``, a Policy, or a
    Numba function with the policy signature."""
    if isinstance(spec, Policy):
        policy = spec
    elif callable(spec):
        policy = Policy(getattr(spec, "__name__", "user"), spec)
    elif ":" in str(spec) and str(spec).split(":")[0].endswith(".py"):
        policy = _load_file_policy(str(spec))
    else:
        known = builtin_policies()
        if spec not in known:
            raise RuleError(f"unknown policy {spec!r}: choose one of {', '.join(known)} "
                            f"or path/to/file.py:function")
        policy = known[spec]
    return policy.with_params(params) if params else policy


def _load_file_policy(spec: str) -> Policy:
    path, _, func = spec.rpartition(":")
    file = Path(path)
    if not file.is_file():
        raise RuleError(f"policy file {path!r} not found")
    module_spec = importlib.util.spec_from_file_location(f"user_policy_{file.stem}", file)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # a user's file: report, don't crash
        raise RuleError(f"policy file {path!r} failed to load: {exc}") from None
    if not hasattr(module, func):
        raise RuleError(f"policy file {path!r} has no function {func!r}")
    decide = getattr(module, func)
    if not hasattr(decide, "py_func"):
        from numba import njit
        decide = njit(decide)
    params = dict(getattr(module, "PARAMS", {}))
    return Policy(f"{file.name}:{func}", decide, params, (decide.py_func.__doc__ or "").strip())
