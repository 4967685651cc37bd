"""Writing a strategy: named parameters, the observation by name, one rule per decision.

A rule-based policy is seven rules, one per kind of decision, each a Numba function
``rule(obs, legal, n_legal, params) -> action id``:

========  ===========================================================================
hazard    R3: which of the drawn hazards to fight, or skip a lone one
pirate    R9.1: which pirate to fight first
ability   R4.4, R5: which ability to use now in a fight, or ``NO_ACTION`` (then ``fight``)
target    R5.3-R5.9: on what card the pending ability acts, and whether once more
fight     R4.3, R4.5, R4.8: draw a free card, pay life for one, or end the fight
destroy   R4.8: which card the loss budget destroys next, or done
sort3     R5.6: which card to discard and in what order the others go back
========  ===========================================================================

``by_rules`` plays them: in a fight it asks ``ability`` first and ``fight`` only if that
uses none.  The rule-based built-in policies (``always-fight``, ``cull-green``, ``expert``,
``veteran``) each export their rules as ``RULES``.  A new policy takes one of them and changes
only what it cares about (docs: Write a policy)::

    PARAMS = {**veteran.PARAMS, "floor": 5.0}
    P = param_index(PARAMS)                    # P.floor == 23: params[P.floor] in Numba code

    @njit
    def fight(obs, legal, n_legal, params): ...

    careful = with_rules(veteran, fight=fight)

Parameters are read by name through ``param_index``: a named tuple of their positions, frozen
into the compiled code as constants.  The observation is read by name through the accessors
below (``life(obs)``, ``points_missing(obs)``...), and this module re-exports what a rule
needs besides: the action ids (``A_END``...), the phases (``PH_FIGHT``...), ``has``,
``value_of``, ``ability_of``.
"""
from __future__ import annotations

import inspect
import sys
from collections import namedtuple

from numba import njit

from sim.contract.numba_wall import lean_jit
from sim.contract.user_code import bounds_checked, is_user, twin

from policies.arith import ability_of, has, value_of  # noqa: F401  (for rules)
from policies.base import (effective_value, fight_total, pick_target,  # noqa: F401 (for rules)
                           sort_decision)
from sim import observation as O
from sim.actions import (A_DESTROY, A_DISCARD, A_DONE, A_DRAW, A_END, A_FIGHT,  # noqa: F401
                         A_MORE, A_PAY, A_PIRATE, A_PUT, A_SKIP, A_TARGET, A_USE)
from sim.observation import (PH_DESTROY, PH_FIGHT, PH_HAZARD, PH_MORE,  # noqa: F401
                             PH_PIRATE, PH_SORT_DISCARD, PH_SORT_ORDER, PH_SORT_TAKE,
                             PH_TARGET)

Rules = namedtuple("Rules", "hazard pirate ability target fight destroy sort3")
RULE_NAMES = Rules._fields
NO_ACTION = -1            # ``ability``: use none now
GREEN, YELLOW, RED = 0, 1, 2   # steps (R8), as ``step(obs)`` reads them


def param_index(params: dict):
    """The positions of a policy's parameters by name: ``P = param_index(PARAMS)``, then
    ``params[P.reserve]`` in Numba code reads the parameter ``reserve``."""
    return namedtuple("ParamIndex", list(params))(*range(len(params)))


# --- the observation by name (R1.4: what a player may know) --------------------------------
@lean_jit(inline=True)
def phase(obs):
    """The kind of decision asked (sim.observation PH_*)."""
    return obs[O.O_PHASE]


@lean_jit(inline=True)
def step(obs):
    """The step (R8): GREEN, YELLOW or RED."""
    return obs[O.O_STEP]


@lean_jit(inline=True)
def level(obs):
    """The game's level, 1 to 4 (R2.3)."""
    return obs[O.O_LEVEL]


@lean_jit(inline=True)
def life(obs):
    """Robinson's life points now (R2.2)."""
    return obs[O.O_LIFE]


@lean_jit(inline=True)
def against_pirate(obs):
    """Whether the fight is against a pirate (R9)."""
    return obs[O.O_OPPONENT_IS_PIRATE] != 0


@lean_jit(inline=True)
def points_missing(obs):
    """How many points the fight's total is short of its value (R4.6; <= 0: won so far)."""
    return effective_value(obs) - fight_total(obs)


@lean_jit(inline=True)
def free_cards_left(obs):
    """Free cards Robinson may still draw in this fight (R4.3)."""
    return obs[O.O_FREE_LEFT]


@lean_jit(inline=True)
def paid_cost(obs):
    """The life one more card costs in this fight (R4.3: 1, or 2 against that pirate)."""
    return obs[O.O_PAID_COST]


# --- playing the rules -------------------------------------------------------------------------
@lean_jit(inline=True, cache=False)
def by_rules(obs, legal, n_legal, params, rules):
    """The action of the rule for this decision (module docstring); ``rules`` a Rules."""
    ph = obs[O.O_PHASE]
    if ph == O.PH_FIGHT:
        a = rules.ability(obs, legal, n_legal, params)
        if a != NO_ACTION:
            return a
        return rules.fight(obs, legal, n_legal, params)
    if ph == O.PH_HAZARD:
        return rules.hazard(obs, legal, n_legal, params)
    if ph == O.PH_TARGET or ph == O.PH_MORE:
        return rules.target(obs, legal, n_legal, params)
    if ph == O.PH_DESTROY:
        return rules.destroy(obs, legal, n_legal, params)
    if ph == O.PH_PIRATE:
        return rules.pirate(obs, legal, n_legal, params)
    if ph == O.PH_SORT_TAKE or ph == O.PH_SORT_DISCARD or ph == O.PH_SORT_ORDER:
        return rules.sort3(obs, legal, n_legal, params)
    return legal[0]


def _check_rule(name: str, rule):
    """A TypeError unless ``rule`` takes the four arguments of a rule."""
    py = getattr(rule, "py_func", rule)
    if not callable(py):
        raise TypeError(f"with_rules: the {name} rule must be a function, not {rule!r}")
    try:
        inspect.signature(py).bind(*range(4))
    except TypeError:
        args = ", ".join(inspect.signature(py).parameters)
        raise TypeError(f"with_rules: the {name} rule {py.__name__}({args}) must take the 4 "
                        f"arguments (obs, legal, n_legal, params)") from None
    except ValueError:        # no signature to read: Numba will say
        pass


def with_rules(base, **overrides):
    """A policy's decide: the rules of ``base`` (a policy module with ``RULES`` and ``PARAMS``:
    ``policies.veteran``...), with the rules named in ``overrides`` replaced.  The policy's
    ``PARAMS`` (those of the module calling ``with_rules``) must start with ``base.PARAMS``
    in their order (its rules read them there); without ``PARAMS`` it gets the base's.  It is
    compiled in each process, like every user's function (policies: never cached on disk)."""
    if not hasattr(base, "RULES"):
        raise TypeError(f"with_rules: {getattr(base, '__name__', base)!r} has no RULES: the "
                        f"rule-based policies are always_fight, cull_green, expert and veteran")
    unknown = sorted(set(overrides) - set(RULE_NAMES))
    if unknown:
        raise TypeError(f"with_rules: no decision {', '.join(map(repr, unknown))}: "
                        f"the rules are {', '.join(RULE_NAMES)}")
    for name, rule in overrides.items():
        _check_rule(name, rule)
    # a user's rule is bounds-checked (sim.contract.user_code), a built-in one kept
    given = {name: bounds_checked(rule if hasattr(rule, "py_func") else njit(rule))
             for name, rule in overrides.items()}
    rules = base.RULES._replace(**given)
    twins = base.RULES._replace(**{name: twin(rule.py_func) for name, rule in given.items()
                                   if is_user(rule.py_func)})

    def decide(obs, legal, n_legal, params, rng):
        return by_rules(obs, legal, n_legal, params, rules)

    def py_twin(obs, legal, n_legal, params, rng):
        """decide in plain Python, the user's rules too: where a mistake is (sim.contract)."""
        return by_rules.py_func(obs, legal, n_legal, params, twins)

    docs = {name: (getattr(getattr(rule, "py_func", rule), "__doc__", None) or "").strip()
            for name, rule in overrides.items()}
    decide.__doc__ = "; ".join([f"{base.NAME} with {name}: {doc}" for name, doc in docs.items()]
                               or [f"{base.NAME}'s rules"])
    decide.base_params = dict(base.PARAMS)
    decide.base_name = base.NAME
    decide.py_twin = py_twin
    decide.rules_given = {name: rule.py_func for name, rule in given.items()
                          if is_user(rule.py_func)}
    caller = sys._getframe(1).f_globals
    yours = ", ".join(f"{n}={r.__name__}" for n, r in decide.rules_given.items())
    decide.written_in = (caller.get("__file__", "?"),
                         f"{base.NAME}'s rules with {yours or 'none of yours'}")
    decide.__name__ = decide.__qualname__ = \
        f"{base.NAME.replace('-', '_')}_with_{'_'.join(overrides) or 'its_rules'}"
    decide.__module__ = caller.get("__name__", decide.__module__)
    return lean_jit(decide, cache=False)


# --- the rules every built-in rule-based policy shares ----------------------------------------
@lean_jit
def target(obs, legal, n_legal, params):
    """R5.3-R5.9: policies.base.pick_target; once more whenever offered (R5.2 the second
    draw, R5.8 the second exchange)."""
    if obs[O.O_PHASE] == O.PH_MORE:
        return A_MORE
    return pick_target(obs, legal, n_legal)


@lean_jit
def sort3(obs, legal, n_legal, params):
    """R5.6: policies.base.sort_decision (take 3, discard the worst if negative, best on top)."""
    return sort_decision(obs, legal, n_legal)
