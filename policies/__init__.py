"""Policies: who chooses the actions.  One file per policy, one decision interface.

A policy is a Numba function ``decide(obs, legal, n_legal, params, rng) -> action`` with
``obs`` int64[:] (layout in sim.observation), ``legal`` int64[:] whose first ``n_legal``
entries are the legal action ids in ascending order (sim.actions), ``params`` float64[:] and
``rng`` uint64[1], the game's policy random stream (use sim.rng.nb_below / nb_uniform).  It
returns one of the legal ids and never mutates anything but ``rng``.

A policy module defines NAME, DESCRIPTION, PARAMS (an ordered dict name -> default) and
``decide``.  ``load_policy`` turns a policy spec (policies.spec: a name, ``file.py:function``,
either with ``[PARAM=VALUE,...]``) into a ``Policy``.

Policy files are loaded under a module name derived from the file's resolved path
(``friday_policy_<sha256 of the path>``), registered in ``sys.modules``, with the file's folder
first on ``sys.path`` while it runs (so ``import helper`` finds a module beside it).  Numba's
on-disk cache is used only for the project's own sources: a user's function is compiled in
each process (sim.fast.api.policy_function), so an edit, a second file with the same function
name, or a load from Python and then from the CLI can never meet a stale or foreign cache entry.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

import numpy as np

from sim.rng import policy_stream_start
from sim.errors import UsageError

from .guard import ask, callable_decide
from .spec import format_value, parse_policy_spec

BUILTIN = ("random_legal", "always_fight", "cull_green", "expert", "veteran", "learned")
SEARCH = ("search", "unfair_clairvoyant")   # on the fast engine's state: not in BUILTIN


class Policy:
    """A named decision function with its parameter vector, usable by both engines.

    ``name`` is the exact spec (``expert[cull_max_missing=0]``); ``base``, ``overrides``,
    ``source`` (the file) and ``sha256`` (of its bytes) say where it came from (``record``)."""
    base = None
    overrides: dict = {}
    source = None
    sha256 = None
    engines = ("fast", "reference")     # the engines that can run it (the player protocol)
    searches = False                    # plays by searching resampled copies (R1.4)
    at_game = None                      # (seed, game index) since reset: errors name it
    decisions = 0                       # decisions asked by choose since reset

    def check_engine(self, engine: str):
        """A UsageError unless ``engine`` can run this player."""
        if engine not in self.engines:
            other = " or ".join(e for e in self.engines)
            raise UsageError(f"engine {engine!r} cannot run policy {self.name!r}: it runs on "
                             f"the {other} engine only", "engine")

    def chunk_sizes(self, engine: str) -> tuple[int, int]:
        """(first, smallest) batch of games (sim.lab.run; later batches follow the measured
        rate): a batch policy starts with 1,024 fast-engine games or 2 reference games."""
        return (1024 if engine == "fast" else 2), 1

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
                raise UsageError(f"policy {self.name!r} has no parameter {key!r} (known: {known})")
            try:
                values[key] = float(value)
            except (TypeError, ValueError):
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
        are one error naming the decision, and it is timed (policies.guard)."""
        self.decisions += 1
        return ask(self, callable_decide(self), obs, legal, n_legal, self.params, self.rng,
                   self.decisions, self.at_game)

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


def _origin(policy: Policy, base: str, source) -> Policy:
    policy.base, policy.source, policy.sha256 = base, source, _sha256(source) if source else None
    return policy


def _variant(policy: Policy, overrides: dict) -> Policy:
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


def _module_policy(module) -> Policy:
    make = getattr(module, "make_policy", Policy)
    policy = make(module.NAME, module.decide, dict(module.PARAMS), module.DESCRIPTION)
    return _origin(policy, module.NAME, module.__file__)


def builtin_policies(search: bool = False) -> dict[str, Policy]:
    """The built-in policies by name; ``search``: with the search player (policies.search),
    which plays on the fast engine only and takes about a second per game."""
    out = {}
    for mod in BUILTIN + (SEARCH if search else ()):
        policy = _module_policy(importlib.import_module(f"policies.{mod}"))
        out[policy.name] = policy
    return out


def load_policy(spec, params: dict | None = None) -> Policy:
    """A policy from a spec (``expert``, ``expert[cull_max_missing=0]``,
    ``path/file.py:function[reserve=3]``, see policies.spec), a Policy, or a Numba function
    with the policy signature (with its module's ``PARAMS``, if any); ``params`` sets more
    parameters by name."""
    if isinstance(spec, Policy):
        policy = spec
    elif callable(spec):
        name = getattr(spec, "__name__", "user")
        py = getattr(spec, "py_func", spec)
        try:
            source = inspect.getsourcefile(py)
        except TypeError:
            source = None
        params_of_module = getattr(inspect.getmodule(py), "PARAMS", None)   # as a file spec
        where = f"{name!r} ({source}, function {name})" if source else repr(name)
        _check_decide(where, py)
        policy = _origin(Policy(name, spec, _check_params(where, params_of_module, py),
                                (py.__doc__ or "").strip()), name, source)
    else:
        parsed = parse_policy_spec(spec)
        if parsed.is_file:
            policy = _load_file_policy(parsed.base)
        else:
            known = builtin_policies(search=True)
            if parsed.base not in known:
                raise UsageError(f"unknown policy {parsed.base!r}: choose one of "
                                 f"{', '.join(known)} or path/to/file.py:function")
            policy = known[parsed.base]
        if parsed.params:
            policy = _variant(policy, dict(parsed.params))
    return _variant(policy, params) if params else policy


DECIDE = "decide(obs, legal, n_legal, params, rng)"


def _check_decide(where: str, py):
    """A UsageError unless ``py`` takes the five arguments of a policy's decide."""
    try:
        signature = inspect.signature(py)
    except (TypeError, ValueError):      # no signature to read: Numba will say
        return
    try:
        signature.bind(*range(5))
    except TypeError:
        names = ", ".join(signature.parameters)
        raise UsageError(f"policy {where} takes {len(signature.parameters)} arguments ({names}), "
                         f"not the 5 of {DECIDE}") from None


def _check_params(where: str, params, py=None) -> dict:
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
        except (TypeError, ValueError):
            number = float("nan")
        if not isinstance(key, str) or not key.isidentifier():
            raise UsageError(f"policy {where}: PARAMS name {key!r} is not a name")
        if isinstance(value, bool) or not np.isfinite(number):
            raise UsageError(f"policy {where}: PARAMS[{key!r}] must be a finite number, "
                             f"not {value!r}")
    return dict(params)


def _module_name(file: Path) -> str:
    """A stable, unique module name for a policy file: the same in every process."""
    return "friday_policy_" + hashlib.sha256(str(file).encode()).hexdigest()[:16]


def _hide_other_modules(folder: Path) -> dict:
    """Take out of sys.modules (until the file has run) the modules named like a module
    beside the policy file but loaded from elsewhere, so that ``import helpers`` in the file
    finds its own ``helpers.py`` even when another ``helpers`` was imported before."""
    names = {p.stem for p in folder.glob("*.py")}
    names |= {p.parent.name for p in folder.glob("*/__init__.py")}
    hidden = {}
    for n in names:
        mod = sys.modules.get(n)
        where = getattr(mod, "__file__", None)
        if mod is not None and (where is None or Path(where).resolve().parent not in
                                (folder, folder / n)):
            hidden[n] = sys.modules.pop(n)
    return hidden


def _load_file_policy(spec: str) -> Policy:
    path, _, func = spec.rpartition(":")
    file = Path(path).expanduser()
    if not file.is_file():
        raise UsageError(f"policy file {path!r} not found")
    file = file.resolve()
    name = _module_name(file)
    module_spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    sys.path.insert(0, str(file.parent))
    hidden = _hide_other_modules(file.parent)
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # a user's file: report, don't crash
        del sys.modules[name]
        raise UsageError(f"policy file {path!r} failed to load: "
                         f"{type(exc).__name__}: {exc}") from None
    finally:
        sys.path.remove(str(file.parent))
        sys.modules.update(hidden)
    decide = getattr(module, func, None)
    if not callable(decide):
        raise UsageError(f"policy file {path!r} has no function {func!r}")
    _check_decide(repr(spec), getattr(decide, "py_func", decide))
    if not hasattr(decide, "py_func"):
        from numba import njit
        decide = njit(decide)
    params = _check_params(repr(spec), getattr(module, "PARAMS", None), decide.py_func)
    policy = Policy(f"{path}:{func}", decide, params, (decide.py_func.__doc__ or "").strip())
    return _origin(policy, policy.name, str(file))
