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


def _iter_batches(level, seed, n_games, policy, options=None, threads=None, chunk=100_000,
                  first_game=0, cards=None):
    """0.1.0's ``iter_batches`` on the 0.2.0 API: ``run_batch`` chunk by chunk (until 0.3.0)."""
    from .api import run_batch
    for done in range(0, n_games, int(chunk)):
        yield run_batch(level, seed, first_game + done, min(int(chunk), n_games - done), policy,
                        options, threads, cards)


from sim.deprecation import moved  # noqa: E402

_engine_getattr = __getattr__
_old_names = moved(__name__, {}, shims={"iter_batches": (
    "sim.fast:_iter_batches", "sim.fast.run_batch chunk by chunk, or sim.lab.simulate")})


def __getattr__(name):  # noqa: F811  (the 0.1.0 names first: CHANGELOG.md)
    return _old_names(name) if name == "iter_batches" else _engine_getattr(name)
