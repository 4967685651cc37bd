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


# --- the derived streams (sim.rng's docstring): specified there, distinct from each other ---
def _spec_streams(seed: int, game: int, decision: int, k: int) -> dict:
    """Every stream start of (seed, game, decision, continuation k), by sim.rng's docstring
    in plain Python (mix64)."""
    from sim.rng import (GOLDEN, MASK64, REVIEW_SALT, SEARCH_SALT, TRAIN_SALT,
                         engine_stream_start, mix64, policy_stream_start)

    def sub(start, i):
        return mix64((start + i * GOLDEN) & MASK64)
    e = engine_stream_start(seed, game)
    search = sub(mix64(e ^ SEARCH_SALT), decision)
    review = sub(mix64(e ^ REVIEW_SALT), decision + 1)
    train = sub(mix64(engine_stream_start(seed ^ TRAIN_SALT, game) ^ REVIEW_SALT), decision + 1)
    return {"engine": e, "policy": policy_stream_start(seed, game), "search": search,
            "review": review, "train": train, "search continuation": sub(search, k + 1),
            "review continuation": sub(review, k + 1), "train continuation": sub(train, k + 1)}


@pytest.mark.parametrize("seed, game, decision, k", [(1, 0, 0, 0), (11, 7, 31, 999),
                                                     (2**63 - 1, 2**40, 3, 5)])
def test_the_jitted_streams_are_the_specified_ones(seed, game, decision, k):
    from sim.fast.search import search_stream
    from sim.lab.review import decision_seed
    from sim.rng import (TRAIN_SALT, continuation_start, engine_stream_start,
                         search_decision_start)
    spec = _spec_streams(seed, game, decision, k)
    search = search_decision_start(np.uint64(search_stream(seed, game)), decision)
    assert search == spec["search"]
    assert decision_seed(seed, game, decision) == spec["review"]
    assert decision_seed(seed ^ TRAIN_SALT, game, decision) == spec["train"]
    assert continuation_start(np.uint64(search), k) == spec["search continuation"]
    assert continuation_start(np.uint64(spec["review"]), k) == spec["review continuation"]
    assert engine_stream_start(seed, game) == spec["engine"]


def test_the_streams_are_distinct():
    """No two purposes (nor two decisions, games or continuations) start the same stream."""
    starts = [(name, s) for seed in (1, 11, 12345) for game in range(3)
              for decision in range(3) for k in range(3)
              for name, s in _spec_streams(seed, game, decision, k).items()]
    assert len({s for _, s in starts}) == len({(n, s) for n, s in starts})
    # 3 seeds x 3 games: engine and policy 9 each; per decision 27 each; per continuation 81
    assert len({s for _, s in starts}) == 2 * 9 + 3 * 27 + 3 * 81
    from sim.rng import REVIEW_SALT, SEARCH_SALT, TRAIN_SALT
    assert len({SEARCH_SALT, REVIEW_SALT, TRAIN_SALT}) == 3
