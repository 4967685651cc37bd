"""Seeded randomness, specified here so that both engines draw the same numbers.

* Generator: splitmix64.  ``next``: ``state += 0x9E3779B97F4A7C15`` (mod 2**64), output
  ``mix64(state)`` with ``mix64(z) = z ^= z>>30; z *= 0xBF58476D1CE4E5B9; z ^= z>>27;
  z *= 0x94D049BB133111EB; z ^= z>>31`` (all mod 2**64).
* Streams: a game ``g`` of master seed ``s`` has two independent streams: the engine's
  (set-up and every reshuffle) starts at ``mix64(mix64(s) + 2*g)``, the policy's at
  ``mix64(mix64(s) + 2*g + 1)``.  So game ``g`` deals the same cards whatever the policy,
  thread count or chunking.
* Derived streams, each a purpose's own numbers (a salt apiece, so that no purpose replays
  another's): ``salted(start, SALT) = mix64(start ^ SALT)`` and the ``i``-th stream below a
  start, ``sub(start, i) = mix64(start + i * GOLDEN)`` (mod 2**64).  With ``e`` the engine
  stream's start of game ``g`` of seed ``s`` and ``d`` the decisions taken before (R1.4: a
  continuation redraws every hidden order from its stream):

  - search (policies.search, ``SEARCH_SALT``): the game's search stream
    ``salted(e, SEARCH_SALT)``; decision ``d`` starts ``sub(search stream, d)``;
  - review (``friday review``, ``REVIEW_SALT``): decision ``d`` starts
    ``sub(salted(e, REVIEW_SALT), d + 1)``;
  - training (``friday train``, ``TRAIN_SALT``): the review's decision streams of master
    seed ``s ^ TRAIN_SALT``;
  - continuation ``k`` of a decision (search, review, training alike):
    ``sub(decision start, k + 1)``.
* ``below(n) = next() % n`` (bias below 4e-18 for n <= 69).
* Shuffle (Fisher-Yates on a list stored bottom first, top = last element):
  ``for i in n-1 .. 1: j = below(i + 1); swap(a[i], a[j])``.  Every shuffle in the game
  sorts its cards by id first, so only the *set* of cards matters, never the order in which
  they reached a discard pile.
"""
from __future__ import annotations

import numpy as np
from numba import njit

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
MAX_SEED = (1 << 63) - 1
SEARCH_SALT = 0xD1B5_4A32_D192_ED03     # the search player's continuations
REVIEW_SALT = 0x5EC0_4D5A_77E1_1A3B     # friday review's continuations
TRAIN_SALT = 0x7A1E_D0C5_3B2F_9E41      # friday train's records: salts the master seed


def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def engine_stream_start(seed: int, game: int) -> int:
    return mix64(mix64(seed) + 2 * game)


def policy_stream_start(seed: int, game: int) -> int:
    return mix64(mix64(seed) + 2 * game + 1)


class SplitMix64:
    """The engine's generator in plain Python (reference engine)."""

    def __init__(self, state: int):
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        return self.next() % n

    def shuffle(self, cards: list) -> list:
        """Sort by id, then Fisher-Yates (module docstring); returns a new list."""
        a = sorted(cards)
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]
        return a


# --- the same generator for Numba code (policies, fast engine): state is uint64[1] --------
_G, _M1, _M2 = np.uint64(GOLDEN), np.uint64(MIX1), np.uint64(MIX2)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@njit(cache=True)
def nb_mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def nb_next(state):
    """Advance a uint64[1] splitmix64 state and return the next 64-bit output."""
    state[0] = state[0] + _G
    return nb_mix64(state[0])


@njit(cache=True)
def nb_below(state, n):
    """Uniform integer in [0, n) as int64."""
    return np.int64(nb_next(state) % np.uint64(n))


@njit(cache=True)
def nb_uniform(state):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(nb_next(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# --- the derived streams (module docstring), one jitted definition each, called from Python too
_SEARCH, _REVIEW = np.uint64(SEARCH_SALT), np.uint64(REVIEW_SALT)


@njit(cache=True)
def nb_sub(start, i):
    """The ``i``-th stream below ``start`` (uint64): mix64(start + i * GOLDEN)."""
    return nb_mix64(start + np.uint64(i) * _G)


@njit(cache=True)
def search_stream_start(engine_start):
    """The search's stream of a game from its engine stream's start (uint64s)."""
    return nb_mix64(engine_start ^ _SEARCH)


@njit(cache=True)
def search_decision_start(search_start, decision):
    """The stream of the search's continuations at a game's decision ``decision``."""
    return nb_sub(search_start, decision)


@njit(cache=True)
def review_decision_start(engine_start, decision):
    """The stream of a review's continuations at decision ``decision`` (training: the same
    with the master seed salted by TRAIN_SALT)."""
    return nb_sub(nb_mix64(engine_start ^ _REVIEW), decision + 1)


@njit(cache=True)
def continuation_start(decision_start, k):
    """The stream of continuation ``k`` of a decision (search, review and training)."""
    return nb_sub(decision_start, k + 1)
