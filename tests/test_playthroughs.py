"""Playthrough files (tests/playthroughs/, made by tests/make_playthroughs.py, format in
tests/playthrough.py): every engine, given the file's deal and actions, offers the file's legal
actions at every decision and writes the file's trace, event for event."""
import pytest

from playthrough import FOLDER, read, replay_fast, replay_reference

FILES = sorted(FOLDER.glob("*.txt"))
pytestmark = pytest.mark.usefixtures("fast_engine")      # conftest: the one warm-up


def test_there_are_playthroughs():
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_reference_engine_plays_the_file(path):
    p = read(path)
    got = replay_reference(p)
    first = next((i for i, (a, b) in enumerate(zip(got, p.items)) if a != b), None)
    assert first is None and len(got) == len(p.items), (
        f"{path.name}: item {first}: engine {got[first] if first is not None else len(got)} "
        f"file {p.items[first] if first is not None else len(p.items)}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_fast_engine_plays_the_file(path):
    p = read(path)
    trace, legal = replay_fast(p)
    assert legal == p.legal()
    assert trace == p.events()
