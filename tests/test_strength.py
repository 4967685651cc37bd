"""benchmarks/strength.py (results/strength.md): paired against expert, resumable from its
cache, bad arguments refused."""
import importlib.util
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_table_paired_and_resumed_from_the_cache(strength, tmp_path, capsys):
    args = ["--games", "300", "--chunk", "200", "--policies", "cull-green,expert",
            "--slow", "random", "--slow-games", "100", "--slow-chunk", "50", "--level", "1,4",
            "--cache", str(tmp_path / "c"), "--out", str(tmp_path / "s.md")]
    assert strength.main(args) == 0
    first = capsys.readouterr().err
    assert "level 4 expert: games 200..299" in first and "level 1 random: games 50..99" in first
    md = (tmp_path / "s.md").read_text()
    assert "### Level 1" in md and "### Level 4" in md
    row = next(line for line in md.splitlines() if line.startswith("| random | 100 |"))
    assert "0.00%" in row and "-" in row.split("|")[7]      # paired with expert's first 100
    assert "| expert | 300 |" in md and "(reference)" in md
    assert strength.main(args) == 0                     # every chunk from the cache
    assert "games" not in capsys.readouterr().err
    table = [line.split("|") for line in md.splitlines() if line.startswith("| ")]
    again = [line.split("|") for line in (tmp_path / "s.md").read_text().splitlines()
             if line.startswith("| ")]
    assert [r[:6] + r[7:] for r in again] == [r[:6] + r[7:] for r in table]   # times aside


def test_a_stale_cached_chunk_is_played_again(strength, tmp_path, capsys):
    """The cache check: a kept chunk whose probe games differ from this engine's is replaced."""
    import numpy as np
    cache = tmp_path / "c"
    args = ["--games", "100", "--chunk", "100", "--policies", "expert", "--level", "1",
            "--cache", str(cache), "--out", str(tmp_path / "s.md")]
    assert strength.main(args) == 0
    (path,) = cache.glob("*.npz")
    z = dict(np.load(path))
    z["won"] = ~z["won"]
    np.savez(path, **z)
    capsys.readouterr()
    assert strength.main(args) == 0
    assert "differ from this engine's: played again" in capsys.readouterr().err
    assert np.array_equal(np.load(path)["won"], ~z["won"])


def test_the_cache_keys_do_not_depend_on_the_checkouts_folder(strength, monkeypatch):
    """A chunk's key names the policy's files (and a network's weights file) relative to the
    repository: a clone or worktree in another folder finds the same chunks; a file outside
    the repository keeps its absolute path; the file's sha256 stays in the key."""
    from policies import load_policy
    learned = load_policy("learned")
    here = strength.chunk_key(learned, 4, 2, 0, 100)
    rec = learned.record()
    assert strength.files_here(rec)["file"] == "policies/learned.py"
    assert strength.files_here(rec)["weights"]["file"] == "policies/learned.json"

    class Moved:                         # the same policy, checked out in another folder
        name = learned.name

        def record(self):
            return {**rec, "file": "/elsewhere/policies/learned.py",
                    "weights": {**rec["weights"], "file": "/elsewhere/policies/learned.json"}}
    monkeypatch.setattr(strength, "ROOT", Path("/elsewhere"))
    assert strength.chunk_key(Moved(), 4, 2, 0, 100) == here
    outside = str(Path("/tmp").resolve() / "mine.py")
    assert strength.files_here({"file": outside}) == {"file": outside}

    class Edited(Moved):
        def record(self):
            return {**super().record(), "sha256": "0" * 64}
    assert strength.chunk_key(Edited(), 4, 2, 0, 100) != here


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be positive"),
    (["--policies", "random"], "must include expert"),
    (["--policies", "expert,nope"], "unknown policy 'nope'"),
    (["--level", "1,1"], "twice"),
    (["--level", "1", "--slow-level", "4"], "--slow-level must name levels of --level"),
    (["--slow", "random", "--slow-games", "10", "--games", "5"], "must not exceed"),
])
def test_bad_arguments(strength, tmp_path, capsys, args, message):
    assert strength.main([*args, "--cache", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and message in err and len(err.splitlines()) == 1


def test_games_of_a_compare_file_are_reused(strength, tmp_path, capsys):
    """--paired: the games of friday compare --out are taken, not played again."""
    from sim.lab import play_paired, write_paired
    paired = play_paired(["cull-green", "expert"], [1], 120, 1)
    write_paired(paired, tmp_path / "p.parquet")
    args = ["--games", "120", "--chunk", "60", "--policies", "cull-green,expert", "--level",
            "1", "--cache", str(tmp_path / "c"), "--paired", str(tmp_path / "p.parquet")]
    assert strength.main(args) == 0
    captured = capsys.readouterr()
    assert "level 1 expert: games 0..119 taken from" in captured.err
    assert ": games 0..59 in" not in captured.err                  # nothing played again
    wins = int(paired["cull-green:won"].sum())
    assert f"| cull-green | 120 | {wins / 120:.2%} |" in captured.out
    assert f"The games of cull-green, expert are those of `{tmp_path / 'p.parquet'}`, made by " \
        f"`friday compare cull-green expert --level 1 --games 120 --seed 1 --out " \
        f"{shlex.quote(str(tmp_path / 'p.parquet'))} --force`." in captured.out  # to remake it
    assert strength.main([*args, "--slow", "random", "--slow-games", "10", "--slow-level",
                          "1", "--level", "1,4"]) == 0
    out = capsys.readouterr().out
    assert "| random | 10 |" in out.split("### Level 4")[0] and \
        "| random |" not in out.split("### Level 4")[1]              # slow ones on level 1 only
    assert strength.main([*args[:-1], str(tmp_path / "none.parquet")]) == 2
    assert strength.main([*args, "--seed", "2"]) == 2
    assert "another seed" in capsys.readouterr().err


def test_the_fast_players_games_are_taken_at_every_level_of_the_file(strength, tmp_path, capsys):
    """--paired with --slow-level: the fast players' games of every level of --level are taken
    (not only the slow players' levels); a file none of whose players is in the run is not
    named in the header."""
    from sim.lab import play_paired, write_paired
    write_paired(play_paired(["expert", "always-fight"], [1, 4], 40, 1), tmp_path / "p.parquet")
    args = ["--games", "40", "--chunk", "40", "--level", "1,4", "--slow", "random",
            "--slow-games", "10", "--slow-level", "1", "--cache", str(tmp_path / "c"),
            "--paired", str(tmp_path / "p.parquet")]
    assert strength.main([*args, "--policies", "expert"]) == 0
    captured = capsys.readouterr()
    assert "level 4 expert: games 0..39 taken from" in captured.err
    assert "The games of expert are those of" in captured.out       # always-fight: not here
    write_paired(play_paired(["always-fight", "cull-green"], [1], 10, 1), tmp_path / "q.parquet")
    assert strength.main([*args[:-1], str(tmp_path / "q.parquet"), "--policies", "expert"]) == 0
    assert "are those of" not in capsys.readouterr().out


def test_the_unfair_bound_only_on_the_levels_it_plays(strength, tmp_path, capsys):
    """--slow-level: a level without the unfair player has no share line (and no error)."""
    args = ["--games", "40", "--chunk", "40", "--policies", "cull-green,expert", "--level",
            "1,4", "--slow", "unfair-clairvoyant", "--slow-games", "10", "--slow-level", "4",
            "--cache", str(tmp_path / "c")]
    assert strength.main(args) == 0
    out = capsys.readouterr().out
    one, four = out.split("### Level 4")
    assert "UNFAIR" not in one and "Share of the UNFAIR bound" in four


def test_a_compare_file_of_other_weights_is_not_reused(strength, tmp_path, capsys):
    """--paired: learned with another weights file (same policy file and parameters) is another
    player: its games are refused, not taken for the shipped network's."""
    import json
    from sim.lab import play_paired, write_paired
    shipped = json.loads((ROOT / "policies" / "learned.json").read_text())
    (tmp_path / "w.json").write_text(json.dumps(dict(shipped, b2=shipped["b2"] + 1.0)))
    spec = f"learned[weights={tmp_path / 'w.json'}]"           # plays alike, another file
    paired = play_paired(["expert", spec], [1], 20, 1)
    paired = paired.rename(columns=lambda c: c.replace(spec, "learned"))
    paired.attrs["labels"] = ["expert", "learned"]            # as if it were the shipped one
    write_paired(paired, tmp_path / "p.parquet")
    args = ["--games", "20", "--chunk", "20", "--policies", "expert,learned", "--level", "1",
            "--cache", str(tmp_path / "c"), "--paired", str(tmp_path / "p.parquet")]
    assert strength.main(args) == 2
    assert "its learned is not this checkout's" in capsys.readouterr().err


def test_a_compare_file_whose_search_played_another_network_is_not_reused(strength, tmp_path,
                                                                           capsys):
    """--paired: a search whose base is learned is the same player only with the same network
    (its record's played_by); a file made with other weights is refused."""
    from sim.lab import play_paired, write_paired
    spec = "search[base=learned]"                  # (--slow takes a list: no commas)
    paired = play_paired(["expert", spec], [1], 2, 1)
    paired.attrs["policies"][1]["played_by"]["base"]["weights"]["sha256"] = "0" * 64
    write_paired(paired, tmp_path / "p.parquet")
    args = ["--games", "2", "--policies", "expert", "--slow", spec, "--slow-games", "2",
            "--level", "1", "--cache", str(tmp_path / "c"), "--paired", str(tmp_path / "p.parquet")]
    assert strength.main(args) == 2
    assert f"its {spec} is not this checkout's" in capsys.readouterr().err


def test_a_chunk_kept_under_the_older_key_is_found(strength, tmp_path, capsys):
    """A cache made before the keys named files relative to the repository (their absolute
    paths, this folder's) is not played again: its chunks are linked to the new names."""
    import hashlib
    import numpy as np
    from policies import load_policy
    cache = tmp_path / "c"
    args = ["--games", "100", "--chunk", "100", "--policies", "expert", "--level", "1",
            "--cache", str(cache), "--out", str(tmp_path / "s.md")]
    assert strength.main(args) == 0
    (new,) = cache.glob("*.npz")
    expert = load_policy("expert")
    old = hashlib.sha256(repr((expert.name, expert.record(), 1, 1, 0, 100)).encode()).hexdigest()
    new.rename(cache / f"{old[:24]}.npz")
    capsys.readouterr()
    assert strength.main(args) == 0
    assert "games 0..99 in" not in capsys.readouterr().err and new.exists()
    assert np.array_equal(np.load(new)["won"], np.load(cache / f"{old[:24]}.npz")["won"])


def test_an_output_or_a_paired_file_that_cannot_serve_is_one_error_line_before_any_game(
        strength, tmp_path, capsys):
    """--out that cannot be written (a missing folder under /proc, a folder, not .md) and a
    --paired file that is not Parquet: one error line, exit 2, no game played, no file."""
    (tmp_path / "bad.parquet").write_text("not parquet")
    (tmp_path / "d.md").mkdir()
    base = ["--games", "10", "--policies", "expert", "--level", "1", "--cache",
            str(tmp_path / "c")]
    for extra, said in ((["--out", "/proc/nope/x.md"], "cannot write into /proc/nope"),
                        (["--out", str(tmp_path / "x.txt")], "--out must end in .md"),
                        (["--out", str(tmp_path / "d.md")], "is a folder"),
                        (["--paired", str(tmp_path / "bad.parquet")], "not a Parquet file")):
        assert strength.main([*base, *extra]) == 2
        captured = capsys.readouterr()
        assert captured.err.startswith("error:") and said in captured.err
        assert len(captured.err.splitlines()) == 1 and "games 0.." not in captured.err
    assert not list((tmp_path / "c").glob("*.npz"))
