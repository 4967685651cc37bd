"""The shared validators of levels and seeds (sim.rules): the CLI and the Python API (sim.lab)
accept and refuse the same inputs."""
import numpy as np
import pytest

from sim.lab import simulate
from sim.errors import UsageError
from sim.rules import check_seed, parse_levels


def test_levels_accepted():
    assert parse_levels("all") == [1, 2, 3, 4]
    assert parse_levels("1,4") == [1, 4]
    assert parse_levels(np.array([2, 3])) == [2, 3]
    assert parse_levels(np.int64(4)) == [4]


@pytest.mark.parametrize("bad", ["1,1", [2, 2], "x", [], 5, True, "0", 1.0])
def test_levels_refused(bad):
    with pytest.raises(UsageError):
        parse_levels(bad)


def test_seed_range():
    assert check_seed(np.int64(3)) == 3
    assert check_seed(2**63 - 1) == 2**63 - 1
    for bad in (-1, 2**63, True, 1.5, "1"):
        with pytest.raises(UsageError, match="out of range"):
            check_seed(bad)


def test_api_refuses_a_level_twice():
    """The same games counted twice would give a falsely narrow interval (issue 14)."""
    with pytest.raises(UsageError, match="twice"):
        simulate("random", level=[1, 1], games=10)
