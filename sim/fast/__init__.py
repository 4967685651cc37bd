"""The fast engine: the reference engine's rules (sim.reference) in Numba, bit for bit.

Same RNG draws in the same order, same legal action lists, same observation at every decision,
same trace events.  The engine is a state machine (``machine``: ``new_game``, ``observe``,
``step``, ``clone_into``, ``resample_hidden``); whole games and whole batches run inside Numba as
the loop "observe, ask the policy, step", the policy called as a first-class function
(``policy_function``).  ``sim.play.Game`` is its Python face; many games go through
sim.lab.run.  Python API:

* ``play_fast(level, seed, game, policy, options=None, deal=None, actions=None)`` -> dict
* ``run_batch(level, seed, first_game, n_games, policy, options=None, threads=None)`` -> columns
* ``run_summary(level, seed, n_games, policy, options=None, threads=None, chunk=..., first_game=0)``

Each also takes ``cards=`` (a sim.cardtable.CardTable or a cards.csv path; default the printed
table): the card table is an array argument, so a what-if table needs no recompilation.
"""
__all__ = ["COLUMNS", "play_fast", "policy_function", "run_batch", "run_summary", "warm_up"]


def __getattr__(name):
    """The names above (from sim.fast.api), imported on first use: importing ``sim.fast``
    loads no engine module (a submodule is imported by name: ``from sim.fast import api``)."""
    if name in __all__:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
