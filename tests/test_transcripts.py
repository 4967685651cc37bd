"""Table transcripts (policies.transcript): one reader and one notion of what a transcript may
be, for friday replay, friday review, friday play (--save, --actions) and ScriptedPolicy.

Every bad transcript is one ``error:`` line naming the file (and the line and column where it
can), exit code 2, no traceback, nothing written, in both commands that read one (each case in
a fresh process); the reader gives the same UsageError from Python.  A transcript that ends
before the game does is a position in every command (exit 0, the same note); a move after
the game's end is refused with the same words in every command."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from policies.scripted import ScriptedPolicy
from policies.transcript import SHOWN, MAX_BYTES, read_transcript, shown
from sim.errors import RuleError, UsageError

from helpers import run_cli

LEVEL1_HAZARDS = {"hazard_stack": list(range(29, 59))}   # the first two hazards: 29 and 30


def write(name: str, data):
    """A maker of the file ``name`` holding ``data`` (bytes, or text written as UTF-8)."""
    def make(tmp: Path) -> Path:
        path = tmp / name
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return path
    return make


def directory(tmp: Path) -> Path:
    (tmp / "moves").mkdir()
    return tmp / "moves"


def broken_link(tmp: Path) -> Path:
    (tmp / "moves.txt").symlink_to(tmp / "gone.txt")
    return tmp / "moves.txt"


def unreadable(tmp: Path) -> Path:
    """A file that exists and cannot be read (reading a process's memory at 0: EIO), even
    for root."""
    return Path("/proc/self/mem")


# (case, maker of the file, what the error line says): each refused before any game is played
BAD = [
    ("utf16-without-bom", write("m.txt", "fight:29\ndraw\n".encode("utf-16-le")),
     "m.txt, line 1, column 2: control character U+0000"),
    ("latin1-comment", write("m.txt", "fight:29  # café\n".encode("latin-1")),
     "m.txt, line 1, column 16: byte 0xe9 is not UTF-8"),
    ("latin1-second-line", write("m.txt", "draw\n# Ré\n".encode("latin-1")),
     "m.txt, line 2, column 4: byte 0xe9 is not UTF-8"),
    ("cp1252-quotes", write("m.txt", b"\x93draw\x94\n"), "line 1, column 1: byte 0x93"),
    ("png", write("m.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "byte 0x89 is not UTF-8"),
    ("nul-bytes", write("m.txt", b"draw\x00\x00\n"), "line 1, column 5: control character"),
    ("bell-inside-a-move", write("m.txt", "draw\ndr\aw\n"), "line 2, column 3: control "
                                                            "character U+0007"),
    ("form-feed", write("m.txt", "draw\f\n"), "control character U+000C"),
    ("c1-control", write("m.txt", "draw\u0085\n"), "control character U+0085"),
    ("broken-utf8", write("m.txt", b"draw\n\xc3\x28\n"), "m.txt, line 2, column 1: byte 0xc3"),
    ("utf16-cut-short", write("m.txt", "draw\n".encode("utf-16") + b"\x64"), "not UTF-16"),
    ("utf16-half-a-pair", write("m.txt", b"\xff\xfe" + "d\n".encode("utf-16-le") +
                                b"\x00\xd8"), "not UTF-16"),
    ("json-cut-in-a-string", write("m.json", '["fight:29", "dra'),
     "m.json, line 1, column 14: not valid JSON (Unterminated string): a JSON list of moves "
     "holds strings"),
    ("json-cut-after-a-comma", write("m.json", '["fight:29",\n'),
     "m.json, line 2, column 1: not valid JSON (Expecting value)"),
    ("json-with-bom-cut-short", write("m.json", b"\xef\xbb\xbf[\"draw\""),
     "m.json, line 1, column 8: not valid JSON"),
    ("json-nested-deep", write("m.json", "[" * 100_000 + "]" * 100_000),
     "m.json: JSON nested too deeply to read: a JSON list of moves holds strings"),
    ("json-numbers", write("m.json", "[1, 2]"), "m.json, item 1: '1' is not a move"),
    ("json-nested", write("m.json", '[["draw"]]'), "item 1: '[\"draw\"]' is not a move"),
    ("json-bad-move", write("m.json", '["fight:29", "fly"]'),
     "m.json, item 2: unknown action 'fly'"),
    ("json-empty", write("m.json", "[]"), "m.json holds no move"),
    ("a-deal-file", write("deal.json", json.dumps(LEVEL1_HAZARDS)),
     "deal.json is a JSON object (a deal file?), not a list of moves"),
    ("empty", write("m.txt", ""), "m.txt holds no move (an empty file, or comments only)"),
    ("comments-only", write("m.txt", "# turn 1\n\n   # nothing yet\n"), "m.txt holds no move"),
    ("bom-only", write("m.txt", b"\xef\xbb\xbf"), "m.txt holds no move"),
    ("shuffles-only", write("m.txt", "robinson_reshuffle: 1 2 3\n"),
     "m.txt holds no move (only table shuffles)"),
    ("junk-token", write("m.txt", "fight:29\nfly\n"), "m.txt, line 2, column 1: unknown action "
                                                      "'fly'"),
    ("indented-junk", write("m.txt", "draw\n    xyz  # hm\n"), "line 2, column 5: unknown "
                                                               "action 'xyz'"),
    ("capitals", write("m.txt", "Draw\n"), "unknown action 'Draw' (did you mean 'draw'?)"),
    ("card-out-of-range", write("m.txt", "fight:99\n"), "unknown action 'fight:99'"),
    ("two-moves-on-a-line", write("m.txt", "draw pay\n"), "unknown action 'draw pay'"),
    ("bad-shuffle", write("m.txt", "fight:29\nrobinson_reshuffle: 3 x\n"),
     "line 2, column 1: 'robinson_reshuffle: 3 x': a shuffle lists card ids, top first"),
    ("long-line", write("m.txt", "draw\n" + "x" * 200_000 + "\n"),
     "line 2, column 1: unknown action 'xxxxxxxx"),
    ("too-large", write("m.txt", "draw\n" * (MAX_BYTES // 5 + 1)),
     "holds over 1,048,576 bytes"),
    ("one-huge-line", write("m.txt", "d" * (3 * MAX_BYTES)), "holds over 1,048,576 bytes"),
    ("a-directory", directory, "is a directory, not a file of moves"),
    ("missing", write("other.txt", "draw\n"), "not found"),
    ("broken-link", broken_link, "not found"),
    ("unreadable", unreadable, "cannot be read"),
]


def path_of(case: str, make, tmp: Path) -> Path:
    path = make(tmp)
    return tmp / "missing.txt" if case == "missing" else path


def files_in(folder: Path) -> dict:
    return {p.name: p.lstat().st_mtime_ns for p in folder.iterdir()}


def one_error_line(run, expected: str):
    lines = run.stderr.splitlines()
    assert run.returncode == 2, (run.returncode, run.stdout[-500:], run.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr[-2000:]
    assert expected in lines[0], lines[0]
    assert "Traceback" not in run.stdout + run.stderr
    assert len(lines[0]) < 400, f"{len(lines[0])} characters"       # long text is cut
    return lines[0]


COMMANDS = {"replay": ["replay", "--level", "1", "--seed", "1"],
            "review": ["review", "--level", "1", "--seed", "1", "--rollouts", "10", "--quiet"]}
OUTPUTS = {"replay": ["--format", "html", "--out", "g.html"], "review": ["--out", "r.parquet"]}


# The cases a user met (issue 41) run in a fresh process, as a user runs them; the others run
# the same entry point in this process (conftest's friday_here), which saves each 2-3 s.
FRESH = {"latin1-comment", "png", "json-cut-in-a-string", "json-empty", "empty", "one-huge-line"}
assert FRESH <= {b[0] for b in BAD}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("case, make, expected", BAD, ids=[b[0] for b in BAD])
def test_a_bad_transcript_is_one_error_line_in_every_command(tmp_path, command, case, make,
                                                             expected, friday_here):
    """One error line, exit 2, no traceback, nothing written (FRESH: in a fresh process)."""
    path = path_of(case, make, tmp_path)
    before = files_in(tmp_path)
    args = [*COMMANDS[command], "--actions", path, *OUTPUTS[command]]
    run = run_cli(*args, cwd=tmp_path) if case in FRESH else friday_here(args, tmp_path)
    one_error_line(run, expected)
    assert run.stdout == ""                                 # refused before any game
    assert files_in(tmp_path) == before


@pytest.mark.parametrize("case, make, expected", BAD, ids=[b[0] for b in BAD])
def test_the_reader_gives_the_same_error_from_python(tmp_path, case, make, expected):
    path = path_of(case, make, tmp_path)
    with pytest.raises(UsageError, match=None) as err:
        ScriptedPolicy.from_file(path)
    assert expected in str(err.value) and err.value.argument == "actions"
    with pytest.raises(UsageError):
        read_transcript(path)


def test_the_long_line_is_cut_in_the_message(tmp_path):
    with pytest.raises(UsageError) as err:
        read_transcript(write("m.txt", "x" * 5000 + "\n")(tmp_path))
    assert "..." in str(err.value) and len(str(err.value)) < 300
    assert shown("y" * 1000).endswith("...") and len(shown("y" * 1000)) <= SHOWN + 5
    assert shown("draw") == "'draw'" and shown("a\x00b") == "'a\\x00b'"


# --- what is read ----------------------------------------------------------------------------
MOVES = ["fight:29", "draw", "robinson_reshuffle: 3 4", "end"]


@pytest.mark.parametrize("data", [
    "fight:29\ndraw\nrobinson_reshuffle: 3 4\nend\n",
    "\ufefffight:29\r\ndraw\r\nrobinson_reshuffle: 3 4\r\nend\r\n",          # UTF-8 with BOM
    "fight:29\rdraw\rrobinson_reshuffle: 3 4\rend",                          # old Mac ends
    "# turn 1\n  fight:29   # raft\n\tdraw\n\nrobinson_reshuffle: 3, 4\nend  \n",
    json.dumps(MOVES, indent=1),
], ids=["plain", "utf8-bom-crlf", "cr", "comments-and-blanks", "json"])
def test_every_way_of_writing_the_moves_reads_the_same(tmp_path, data):
    t = read_transcript(write("m.txt", data)(tmp_path))
    assert t.names == ["fight:29", "draw", "end"]
    assert t.shuffles == {"robinson_reshuffles": [[3, 4]]}
    assert [m.where.split()[0] for m in t.moves] == (["item"] * 3 if data.startswith("[")
                                                      else ["line"] * 3)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_notepads_unicode_and_utf8_with_a_bom_are_read(tmp_path, encoding):
    """UTF-16 with its byte-order mark (Notepad's "Unicode", CRLF line ends), either byte
    order, and UTF-8 with a mark: the same moves as plain UTF-8, accents in comments too."""
    text = "# tour 1: Forêt\r\nfight:29\r\ndraw\r\nend\r\n"
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):            # the mark, as Notepad writes it
        data = ("\ufeff" + text).encode(encoding)
    t = read_transcript(write("m.txt", data)(tmp_path))
    assert t.names == ["fight:29", "draw", "end"] and t.moves[0].where == "line 2"


def test_the_table_sample_saved_by_notepad_replays_the_same_game(tmp_path):
    """examples/table_moves.txt as Notepad's "Unicode" (UTF-16, its mark, CRLF) and as
    UTF-8 with a mark: friday replay gives the very same trace as from the plain file."""
    examples = Path(__file__).resolve().parent.parent / "examples"
    text = (examples / "table_moves.txt").read_text(encoding="utf-8")
    (tmp_path / "notepad.txt").write_bytes(text.replace("\n", "\r\n").encode("utf-16"))
    (tmp_path / "bom.txt").write_bytes(text.encode("utf-8-sig"))
    traces = []
    for name in (examples / "table_moves.txt", "notepad.txt", "bom.txt"):
        run = run_cli(*COMMANDS["replay"], "--deal", examples / "table_deal.json", "--actions",
                      name, "--format", "jsonl", cwd=tmp_path)
        assert run.returncode == 0 and run.stderr == "", run.stderr
        traces.append([line for line in run.stdout.splitlines() if '"header"' not in line])
    assert traces[0] == traces[1] == traces[2] and '"game_end"' in traces[0][-1]


def test_a_list_from_python_reads_as_a_transcript():
    script = ScriptedPolicy(["fight:29", "draw", 0, "hazard_reshuffle: 40 58"])
    assert script.actions == ["fight:29", "draw", "end"] and script.ids[2] == 0
    assert script.deal_with_shuffles(None) == {"hazard_reshuffles": [[40, 58]]}
    with pytest.raises(UsageError, match=r"action 2 \(1\.5\) is not a move"):
        ScriptedPolicy(["draw", 1.5])
    with pytest.raises(UsageError, match="not one string"):
        ScriptedPolicy("draw")


# --- the game: early ends, moves after the end, illegal moves ---------------------------------
@pytest.fixture(scope="module")
def expert_moves():
    """The expert's game, level 1, seed 1, game 0, as move names, and its result."""
    from sim.actions import action_name
    from sim.lab.review import play_through
    played = play_through(1, 1, 0, policy="expert")
    return [action_name(a) for a in played.actions], played.end.result


def test_moves_after_the_end_are_refused_with_the_same_words_everywhere(tmp_path, expert_moves):
    moves, result = expert_moves
    path = tmp_path / "m.txt"
    path.write_text("\n".join(moves + ["draw", "end"]) + "\n")
    n = len(moves)
    said = []
    for command in COMMANDS:
        run = run_cli(*COMMANDS[command], "--actions", path, cwd=tmp_path)
        said.append(one_error_line(run, f"m.txt, line {n + 1}: move {n + 1} (draw) comes "
                                        f"after the game's end: the game ended at move {n} "
                                        f"({'won' if result['won'] else 'lost'} in the "
                                        f"{result['step']} step, score {result['score']})"))
    assert said[0] == said[1] and "1 more move after it" in said[0]
    from sim.lab.review import play_through
    with pytest.raises(RuleError, match="comes after the game's end") as err:
        play_through(1, 1, 0, actions=read_transcript(path))
    assert str(err.value) == said[0].removeprefix("error: ")


def test_an_illegal_move_is_the_same_error_in_every_command(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(LEVEL1_HAZARDS))
    (tmp_path / "m.txt").write_text("# turn 1\nfight:29\nskip\n")
    for command in COMMANDS:
        run = run_cli(*COMMANDS[command], "--deal", deal, "--actions", "m.txt", cwd=tmp_path)
        line = one_error_line(run, "m.txt, line 3: ")
        assert line == ("error: m.txt, line 3: move 2 chose 'skip' at a fight decision (step "
                        "green, turn 1): not a legal action; legal: draw, pay")


def test_a_transcript_that_ends_early_is_a_position_in_every_command(tmp_path):
    """replay shows the game up to its last move and says so (exit 0, every format); review
    reviews the moves made; both print the same note."""
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps(LEVEL1_HAZARDS))
    (tmp_path / "m.txt").write_text("fight:29\ndraw\n")
    note = ("m.txt: the moves end before the game does, after move 2 (line 2), at a fight "
            "decision of turn 1; legal there: end, pay")
    base = ["--deal", deal, "--actions", "m.txt"]
    text = run_cli(*COMMANDS["replay"], *base, cwd=tmp_path)
    assert text.returncode == 0 and text.stderr.strip() == note, text.stderr
    assert "free card: weak (0)" in text.stdout and "The trace ends here" in text.stdout
    jsonl = run_cli(*COMMANDS["replay"], *base, "--format", "jsonl", cwd=tmp_path)
    events = [json.loads(line) for line in jsonl.stdout.splitlines()]      # JSON lines only
    assert jsonl.returncode == 0 and events[-1]["e"] == "draw" and jsonl.stderr.strip() == note
    page = run_cli(*COMMANDS["replay"], *base, "--format", "html", "--out", "g.html",
                   cwd=tmp_path)
    assert page.returncode == 0 and page.stderr.strip() == note, page.stderr
    assert "g.html: 2 decisions; the moves end before the game does" in page.stdout
    assert (tmp_path / "g.html").stat().st_size > 1000
    review = run_cli(*COMMANDS["review"], *base, "--html", "r.html", cwd=tmp_path)
    assert review.returncode == 0, review.stderr
    assert note in review.stderr.splitlines() and "stopped before the end" in review.stdout
    assert "r.html" in review.stdout and (tmp_path / "r.html").stat().st_size > 1000


# --- friday play: --save's file replays, reviews and goes on --------------------------------
def test_a_game_left_early_replays_reviews_and_goes_on_as_its_header_says(tmp_path,
                                                                          expert_moves):
    """play --save of a game left after 6 moves: each command of its header works (exit 0),
    and play --actions goes on with it; the expert's moves after that finish the game."""
    moves, result = expert_moves
    left = run_cli("play", "--level", "1", "--seed", "1", "--save", "g.txt", cwd=tmp_path,
                   input="".join(f"{m}\n" for m in moves[:6]) + "q\n")
    assert left.returncode == 0, left.stderr
    saved = (tmp_path / "g.txt").read_text().splitlines()
    assert saved[0].endswith(": 6 moves, left early") and saved[4:] == moves[:6]
    commands = [line[2:].split() for line in saved[1:4]]
    assert [c[:2] for c in commands] == [["friday", "review"], ["friday", "replay"],
                                         ["friday", "play"]]
    for argv in commands[:2]:
        extra = ["--rollouts", "10", "--quiet"] if argv[1] == "review" else []
        run = run_cli(*argv[1:], *extra, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        assert "g.txt: the moves end before the game does, after move 6" in run.stderr
    go_on = commands[2][1:commands[2].index("--save")] + ["--save", "all.txt"]
    rest = run_cli(*go_on, cwd=tmp_path, input="".join(f"{m}\n" for m in moves[6:]))
    assert rest.returncode == 0, rest.stderr
    assert f"Score {result['score']} (R10.3):" in rest.stdout
    whole = (tmp_path / "all.txt").read_text().splitlines()
    assert [m for m in whole if not m.startswith("#")] == moves
    assert "left early" not in whole[0] and not any("friday play" in m for m in whole[1:4])


def test_play_goes_on_only_with_a_game_left_early(tmp_path, expert_moves):
    moves, _ = expert_moves
    (tmp_path / "done.txt").write_text("\n".join(moves) + "\n")
    (tmp_path / "bad.txt").write_text("end\n")
    (tmp_path / "empty.txt").write_text("# nothing\n")
    (tmp_path / "table.txt").write_text(f"{moves[0]}\nrobinson_reshuffle: 1 2\n")
    for name, expected in (("done.txt", "its moves play the game to its end"),
                           ("bad.txt", "bad.txt, line 1: move 1 chose 'end' at a hazard"),
                           ("empty.txt", "holds no move"),
                           ("table.txt", "table.txt gives table shuffles: play deals from the "
                                         "seed only")):
        run = run_cli("play", "--level", "1", "--seed", "1", "--actions", name, cwd=tmp_path,
                      input="q\n")
        one_error_line(run, expected)
        assert "Your choice" not in run.stdout
    no_seed = run_cli("play", "--level", "1", "--actions", "bad.txt", cwd=tmp_path)
    one_error_line(no_seed, "--actions goes on with a game: give its --seed")


def test_a_game_left_before_its_first_move_writes_no_file(tmp_path):
    run = run_cli("play", "--level", "1", "--seed", "1", "--save", "g.txt", cwd=tmp_path,
                  input="q\n")
    assert run.returncode == 0 and "no move made: nothing written to g.txt" in run.stdout
    assert not (tmp_path / "g.txt").exists()


# --- review's own checks ---------------------------------------------------------------------
@pytest.mark.parametrize("rollouts", [0, 5, -1, 100_001, 2.5, True, "100"])
def test_the_review_checks_its_rollouts_as_the_command_does(rollouts):
    from sim import Game
    from sim.lab.review import play_through, review
    played = play_through(1, 1, 0, actions=Game.new(1, 1, 0).legal_action_names()[:1])
    with pytest.raises(UsageError, match="rollouts must be a whole number from 10 to "
                                         "100,000") as err:
        review(played, rollouts=rollouts)
    assert err.value.argument == "rollouts"
    with pytest.raises(UsageError, match="played must be a game from play_through"):
        review([1, 2], rollouts=10)


def test_play_through_refuses_no_moves():
    from sim.lab.review import play_through
    with pytest.raises(UsageError, match="actions hold no move"):
        play_through(1, 1, 0, actions=[])


ALWAYS_END = """from numba import njit


@njit
def always_end(obs, legal, n_legal, params, rng):
    return 0
"""


def test_a_rollout_policy_that_breaks_the_rules_stops_the_review(tmp_path):
    """A rule that answers 'end' at a hazard decision: one error line naming it, exit 2
    (it used to show 0.0% everywhere); from Python a RuleError."""
    (tmp_path / "bad.py").write_text(ALWAYS_END)
    run = run_cli(*COMMANDS["review"], "--rollout-policy", "bad.py:always_end", "--out",
                  "r.parquet", cwd=tmp_path)
    one_error_line(run, "rollout policy 'bad.py:always_end' chose 'end' at a hazard decision "
                        "of a continuation from decision 1: not a legal action; legal: fight:")
    assert not (tmp_path / "r.parquet").exists() and "%" not in run.stdout


@pytest.mark.skipif(os.name != "posix", reason="a policy file loaded by path")
def test_check_rollout_policy_from_python(tmp_path, monkeypatch):
    from policies import load_policy
    from sim import Game
    from sim.lab.review import check_rollout_policy, play_through, review
    (tmp_path / "bad.py").write_text(ALWAYS_END)
    monkeypatch.chdir(tmp_path)
    played = play_through(1, 1, 0, actions=Game.new(1, 1, 0).legal_action_names()[:1])
    with pytest.raises(RuleError, match="rollout policy 'bad.py:always_end' chose 'end'"):
        review(played, rollouts=10, rollout_policy=load_policy("bad.py:always_end"))
    check_rollout_policy(played.start, "veteran")            # a policy of the rules: silent
