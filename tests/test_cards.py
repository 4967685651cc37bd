"""The package's card table (one row per card) against the project's card list (R1.1)."""
import csv
from collections import Counter
from pathlib import Path

import pytest

import sim.cards as C

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cards.csv"


def test_counts_and_id_ranges_follow_r1_1():
    assert (len(C.START_IDS), len(C.AGING_NORMAL_IDS), len(C.AGING_DIFFICULT_IDS),
            len(C.HAZARD_IDS), len(C.PIRATE_IDS)) == (18, 8, 3, 30, 10)
    assert C.START_IDS == tuple(range(18)) and C.PIRATE_IDS == tuple(range(59, 69))
    assert sum(C.FIGHT_VALUE[c] for c in C.START_IDS) == 0
    assert C.NAME[C.VERY_STUPID] == "very stupid" and C.FIGHT_VALUE[C.VERY_STUPID] == -3


@pytest.mark.skipif(not SHARED.exists(), reason="the shared folder is not beside the checkout")
def test_package_cards_expand_the_shared_card_list():
    with SHARED.open(encoding="utf-8") as f:
        by_type = list(csv.DictReader(f))
    expected = Counter()
    for row in by_type:
        key = tuple(v for k, v in row.items() if k != "count")
        expected[key] += int(row["count"])
    with open(Path(C.__file__).parent / "data" / "cards.csv", encoding="utf-8") as f:
        ours = Counter(tuple(v for k, v in row.items() if k != "id") for row in csv.DictReader(f))
    assert ours == expected
