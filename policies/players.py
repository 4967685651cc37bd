"""The built-in players the engines run themselves, by name: each module imported, and its
player built, only when named (policies: the registry, which adds the search players)."""
from __future__ import annotations

import importlib
import inspect

from sim.errors import FridayError, UsageError

from .policy import Policy, origin

# Each built-in player's name -> its module.
PLAYERS = {"random": "policies.random_legal", "always-fight": "policies.always_fight",
           "cull-green": "policies.cull_green", "expert": "policies.expert",
           "veteran": "policies.veteran", "learned": "policies.learned"}


def build(module, text: dict | None = None) -> Policy:
    """The player of a policy module (NAME, DESCRIPTION, PARAMS, decide, and a ``make_policy``
    when it is no plain Policy) at its defaults, but for ``text``, the text parameters a spec
    sets (``learned[weights=FILE]`` reads FILE, never the shipped weights: a mistake there is
    the spec's UsageError).  A player that cannot be built at its defaults (a shipped weights
    file that no longer fits) is one UsageError."""
    make = getattr(module, "make_policy", Policy)
    if text and "text" in inspect.signature(make).parameters:
        policy = make(module.NAME, module.decide, dict(module.PARAMS), module.DESCRIPTION,
                      text=text)
        return origin(policy, module.NAME, module.__file__)
    try:
        policy = make(module.NAME, module.decide, dict(module.PARAMS), module.DESCRIPTION)
    except FridayError as exc:
        raise UsageError(f"the built-in policy {module.NAME!r} cannot be built: {exc}") from None
    return origin(policy, module.NAME, module.__file__)


def builtin_policy(name: str, text: dict | None = None) -> Policy:
    """A new built-in player ``name`` (a key of PLAYERS) at its defaults (but ``text``)."""
    return build(importlib.import_module(PLAYERS[name]), text)
