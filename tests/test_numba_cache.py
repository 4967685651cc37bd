"""sim.numba_cache: a change in any source drops the project's Numba cache files."""
from pathlib import Path

import pytest

from sim import numba_cache


def _tree(root: Path):
    for rel in ("sim/a.py", "sim/fast/b.py", "policies/c.py", "sim/data/cards.csv"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"# {rel}\n")


def test_stale_cache_files_are_dropped_and_current_ones_kept(tmp_path, monkeypatch):
    from numba.core import config
    monkeypatch.setattr(config, "CACHE_DIR", "")
    _tree(tmp_path)
    monkeypatch.setattr(numba_cache, "ROOT", tmp_path)
    monkeypatch.setattr(numba_cache, "SOURCE_DIRS", (tmp_path / "sim", tmp_path / "sim" / "fast",
                                                     tmp_path / "policies"))
    fast_cache = tmp_path / "sim" / "fast" / "__pycache__"
    fast_cache.mkdir()
    (fast_cache / "b.run-1.py311.nbi").write_text("old")       # made before any stamp
    assert [p.name for p in numba_cache.drop_stale_numba_caches()] == ["b.run-1.py311.nbi"]
    for d in numba_cache.SOURCE_DIRS:                          # every cache folder stamped
        assert (d / "__pycache__" / numba_cache.STAMP).read_text().strip() == \
            numba_cache.sources_hash()
    (fast_cache / "b.run-1.py311.nbi").write_text("current")   # made from these sources
    (fast_cache / "b.run-1.py311.1.nbc").write_text("current")
    assert numba_cache.drop_stale_numba_caches() == []
    assert (fast_cache / "b.run-1.py311.nbi").exists()
    assert (fast_cache / "b.run-1.py311.1.nbc").exists()
    (tmp_path / "policies" / "c.py").write_text("# edited\n")  # another file changes
    dropped = sorted(p.name for p in numba_cache.drop_stale_numba_caches())
    assert dropped == ["b.run-1.py311.1.nbc", "b.run-1.py311.nbi"]
    (tmp_path / "sim" / "data" / "cards.csv").write_text("changed card data\n")
    (fast_cache / "b.run-1.py311.nbi").write_text("x")
    assert len(numba_cache.drop_stale_numba_caches()) == 1


def test_the_real_tree_is_stamped_after_import():
    import os
    import sim  # noqa: F401  (runs the check)
    if os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("the cache lives under NUMBA_CACHE_DIR")
    stamp = Path(numba_cache.ROOT) / "sim" / "fast" / "__pycache__" / numba_cache.STAMP
    assert stamp.read_text().strip() == numba_cache.sources_hash()
