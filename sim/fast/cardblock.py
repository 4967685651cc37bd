"""The observation's card-table block (sim.observation.CT), filled from ``T`` at set-up."""
from __future__ import annotations


from sim import observation as O
from sim.cards import N_CARDS
from .layout import N_T, T_VALUE
from .numba_wall import lean_jit


@lean_jit
def fill_card_block(obs, T):
    """obs[CT + k * N_CARDS + card] = T[T_VALUE + k, card]: the game's table, as the player
    reads it (R1.4); the policies take card data from here (sim.observation CT_*).  Once per
    state (game.reset keeps it): by new_game and the runner's entry points."""
    n = T.shape[1]              # = N_CARDS, a run-time bound: LLVM does not unroll 759 stores
    for k in range(N_T - T_VALUE):
        for c in range(n):
            obs[O.CT + k * N_CARDS + c] = T[T_VALUE + k, c]
