"""Policies: who chooses the actions.  One file per policy, one decision interface.

This package's own module is the registry: ``load_policy`` turns a policy spec (policies.spec:
a name, ``file.py:function``, either with ``[PARAM=VALUE,...]``) into a ``Policy``
(policies.policy: the decision interface), building only the player it is asked for (a
built-in's module is imported, and its player made, when first named: a weights file that no
longer fits ``learned`` breaks ``learned`` alone).  A policy module defines NAME, DESCRIPTION,
PARAMS (an ordered dict name -> default) and ``decide``; a user's file is loaded by
policies.files.

The registry sits above the fast engine (the search player is built on its state, R1.4), but
imports it only to build the search: ``load_policy("expert")`` loads no engine module.
"""
from __future__ import annotations

import importlib
import inspect

from sim.errors import UsageError

from . import players
from .policy import Policy, check_decide, check_params, origin, variant
from .spec import parse_policy_spec

# The search players (on the fast engine's state, about a second per game) by name -> module;
# the players the engines run themselves: policies.players.PLAYERS.
SEARCHERS = {"search": "policies.search", "unfair-clairvoyant": "policies.unfair_clairvoyant",
             "unfair-solver": "policies.unfair_solver"}
BUILTIN = tuple(m.split(".")[1] for m in players.PLAYERS.values())     # their modules
SEARCH = tuple(m.split(".")[1] for m in SEARCHERS.values())

__all__ = ["BUILTIN", "SEARCH", "SEARCHERS", "Policy", "builtin_policies", "builtin_policy",
           "load_policy"]


def builtin_policy(name: str, text: dict | None = None) -> Policy:
    """A new built-in player ``name`` (a key of policies.players.PLAYERS or SEARCHERS) at its
    defaults but for the text parameters ``text``: only its module is imported
    (policies.players.build)."""
    if name in SEARCHERS:
        return players.build(importlib.import_module(SEARCHERS[name]), text)
    return players.builtin_policy(name, text)


def builtin_policies(search: bool = False) -> dict[str, Policy]:
    """Every built-in policy by name, each built (``builtin_policy``); ``search``: with the
    search players (policies.search), which play on the fast engine only and take about a
    second per game."""
    return {name: builtin_policy(name)
            for name in [*players.PLAYERS, *(SEARCHERS if search else ())]}


def load_policy(spec, params: dict | None = None) -> Policy:
    """A policy from a spec (``expert``, ``expert[cull_max_missing=0]``,
    ``path/file.py:function[reserve=3]``, see policies.spec), a Policy, or a Numba function
    with the policy signature (with its module's ``PARAMS``, if any); ``params`` sets more
    parameters by name."""
    if isinstance(spec, Policy):
        policy = spec
    elif callable(spec):
        policy = _function_policy(spec)
    else:
        parsed = parse_policy_spec(spec)
        if parsed.is_file:
            from .files import load_file_policy
            policy = load_file_policy(parsed.base)
        elif parsed.base in players.PLAYERS or parsed.base in SEARCHERS:
            policy = builtin_policy(parsed.base, {k: v for k, v in parsed.params
                                                  if isinstance(v, str)})
        else:
            raise UsageError(f"unknown policy {parsed.base!r}: choose one of "
                             f"{', '.join([*players.PLAYERS, *SEARCHERS])} or "
                             "path/to/file.py:function")
        if parsed.params:
            policy = variant(policy, dict(parsed.params))
    return variant(policy, params) if params else policy


def _function_policy(fn) -> Policy:
    """A Policy of a decide function (jitted or not), with its module's PARAMS."""
    name = getattr(fn, "__name__", "user")
    py = getattr(fn, "py_func", fn)
    try:
        source = inspect.getsourcefile(py)
    except TypeError:
        source = None
    params_of_module = getattr(inspect.getmodule(py), "PARAMS", None)   # as a file spec
    where = f"{name!r} ({source}, function {name})" if source else repr(name)
    check_decide(where, py)
    return origin(Policy(name, fn, check_params(where, params_of_module, py),
                         (py.__doc__ or "").strip()), name, source)
