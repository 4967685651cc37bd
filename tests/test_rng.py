"""sim.rng: the Numba generator is the specified one (module docstring of sim.rng)."""
import numpy as np
import pytest

from sim.rng import SplitMix64, nb_below, nb_next


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 0x9E3779B97F4A7C15])
def test_nb_next_is_splitmix64(seed):
    py = SplitMix64(seed)
    state = np.array([seed], dtype=np.uint64)
    for _ in range(100):
        assert int(nb_next(state)) == py.next()


def test_nb_below_is_next_mod_n():
    """``below(n) = next() % n`` in both generators, for every n a game or policy can use."""
    py = SplitMix64(12345)
    state = np.array([12345], dtype=np.uint64)
    for n in list(range(1, 300)) * 40:
        assert nb_below(state, n) == py.below(n)


def _unmix64(y):
    """The inverse of sim.rng.mix64 (xor-shifts and odd multipliers are invertible)."""
    from sim.rng import MASK64, MIX1, MIX2

    def unxorshift(z, k):
        x = z
        for _ in range(64 // k + 1):
            x = z ^ (x >> k)
        return x & MASK64
    y = unxorshift(y, 31)
    y = (y * pow(MIX2, -1, 1 << 64)) & MASK64
    y = unxorshift(y, 27)
    y = (y * pow(MIX1, -1, 1 << 64)) & MASK64
    return unxorshift(y, 30)


def test_nb_below_extreme_outputs():
    """Generator outputs 0, 1, 2**63, 2**64-2, 2**64-1 and n-1, n, n+1 (states found by
    inverting mix64): Numba's unsigned remainder is exactly x % n (no signed overflow)."""
    from sim.rng import GOLDEN, MASK64, mix64
    for n in (2, 3, 5, 7, 69, 255, 256, 257):
        for x in (0, 1, n - 1, n, n + 1, 1 << 63, MASK64 - 1, MASK64):
            out_state = _unmix64(x)
            assert mix64(out_state) == x
            state = np.array([(out_state - GOLDEN) & MASK64], dtype=np.uint64)
            assert nb_below(state, n) == x % n
