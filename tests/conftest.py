import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def fast_engine():
    """The one warm-up of the fast engine: Numba compiles it, or loads it from its disk cache,
    once per session, before the first test that asks, so that no test's own time holds the
    compile and the fresh processes a test starts find the cache.  At once: the one-game entry
    point with the scripted player (play_fast with actions: the rule tests, the playthrough
    files).  Returns ``warm(policy)`` (a policy or its name), which compiles or loads the batch
    entry point with that policy (sim.fast.api.prepare) and returns the policy."""
    from policies import load_policy
    from sim.fast import play_fast
    from sim.fast.api import prepare
    play_fast(1, 0, 0, None, actions=[], stop_when_out=True)

    def warm(policy):
        policy = load_policy(policy) if isinstance(policy, str) else policy
        prepare(policy)
        return policy
    return warm
