"""What the engines ask of a player, and the one way a player runs its own games.

A player (policies.policy.Policy) has a ``name``, a ``decide`` (sim.contract.decision.DECIDE),
its ``params`` (float64[:]), the ``engines`` that can run it, and ``runner()``: None for a
player the engines run themselves, the usual case (the engine asks ``decide`` at each
decision), or a ``Runner``: a player that plays whole games its own way on the fast engine's
state (the search, which resamples the hidden stacks, R1.4: policies.search_run).  The engines
and the front ends ask ``runner_of(player)``, never a player's other attributes.
"""
from __future__ import annotations

from typing import NamedTuple, Protocol


class Asked(NamedTuple):
    """What a runner asks at the game's own decisions (``Runner.asked``), which an error inside
    the engine asks again, from Python, to name the exception (sim.fast.api)."""
    policy: object      # the policy whose decide is asked (a Policy)
    params: object      # its parameters (float64[:])
    forced: bool        # asked at forced decisions (one legal action) too
    base: str | None    # the name of the policy that plays the runner's continuations, if any


class Runner(Protocol):
    """The entries of a player that runs its own games, each taking the arguments of the fast
    engine's entry of the same name (sim.fast.runner.entry)."""

    entry_py: object    # the plain function whose Numba disk cache holds the runner's batch

    def entry(self, name: str):
        """The callable entry ``batch`` or ``single``, compiled (or loaded) now: not inside a
        timed decision."""

    def decide(self, game, log: bool = False):
        """The player's action at the decision a ``sim.Game`` waits for, as in its games;
        with ``log`` (action, the decision's log row or None)."""

    def asked(self) -> Asked:
        """The policy the runner asks at the game's own decisions, with its parameters,
        whether forced decisions are asked too, and the base of its continuations; an error
        inside the engine asks it again there to name the exception (sim.fast.api; a runner
        without ``asked``: the player's own decide, forced decisions skipped)."""


def runner_of(player) -> Runner | None:
    """The player's own runner (``Runner``), None when the engines run it (a Policy without
    one, or a bare decide function)."""
    runner = getattr(player, "runner", None)
    return runner() if runner is not None else None
