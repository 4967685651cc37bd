"""random: uniform over the legal actions at every decision (the floor of any comparison).

Parameters: none.  Randomness comes from the game's policy stream (sim.rng), so a game is
reproducible from (seed, game index) in both engines.
"""
from sim.contract.numba_wall import lean_jit

from sim.rng import nb_below

NAME = "random"
DESCRIPTION = "uniform over the legal actions at every decision"
PARAMS: dict = {}


@lean_jit
def decide(obs, legal, n_legal, params, rng):
    return legal[nb_below(rng, n_legal)]
