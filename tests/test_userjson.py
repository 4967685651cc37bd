"""A user's JSON file (sim.userjson.parse_json): UTF-8 with or without its byte-order mark,
every other file one UsageError line naming it and saying what to do; and the four readers
(a deal, a weights file, a JSON transcript, a training plan) saying a bad file alike."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from policies.learned import read_weights
from policies.transcript import read_transcript
from sim.deal import load_deal
from sim.errors import UsageError
from sim.lab.train import Plan, check_data_folder
from sim.userjson import parse_json

ROOT = Path(__file__).resolve().parents[1]
BOM = b"\xef\xbb\xbf"
DEEP = "[" * 100_000 + "]" * 100_000


def refused(data, match: str):
    with pytest.raises(UsageError, match=match) as err:
        parse_json(data, "f.json", "do this")
    assert "\n" not in str(err.value)
    return err.value


def test_utf8_with_or_without_its_mark_is_read():
    assert parse_json(b'{"a": "caf\xc3\xa9"}', "f.json", "") == {"a": "café"}
    assert parse_json(BOM + b'{"a": [1]}', "f.json", "") == {"a": [1]}
    assert parse_json('\ufeff["x"]', "f.json", "") == ["x"]           # text, its mark too


def test_bytes_that_are_not_utf8_are_named_at_their_offset():
    refused('{"a": "café"}'.encode("latin-1"), r"^f\.json is not UTF-8 text \(byte 0xe9 at "
                                               r"offset 10, line 1, column 11\): save it as UTF-8$")
    refused(BOM + b'{\n"a": "\xe9"}', r"byte 0xe9 at offset 11, line 2, column 7\)")
    refused(b"\x89PNG\r\n\x1a\n\x00\x00", r"byte 0x89 at offset 0, line 1, column 1")


@pytest.mark.parametrize("encoding, why", [
    ("utf-16", "UTF-16? it starts with a UTF-16 byte-order mark"),
    ("utf-16-be", "UTF-16? every other byte is NUL"),
    ("utf-16-le", "UTF-16? every other byte is NUL"),
    ("utf-32", "UTF-32? it starts with a UTF-32 byte-order mark")])
def test_utf16_and_utf32_are_named_as_a_guess(encoding, why):
    refused('{"a": 1}'.encode(encoding), rf"^f\.json is not UTF-8 text \({re.escape(why)}\): "
                                         "save it as UTF-8$")


def test_a_nul_byte_in_utf8_text_is_placed_and_not_called_utf16():
    refused(b'{"a": 1}\n\x00', r"^f\.json holds a NUL byte \(offset 9, line 2, column 1\): "
                                r"not a text file: save it as UTF-8$")


def test_old_mac_line_ends_place_a_bad_line_as_a_text_editor_does():
    refused(b'{\r"a": 1,\r"b" 2}', r"^f\.json, line 3, column 5: not valid JSON")
    assert parse_json(b'{\r\n"a":\r[1,\r2]}', "f.json", "") == {"a": [1, 2]}


def test_bad_json_is_placed_at_its_line_and_column():
    refused(b'{"a": 1,\n  "b" 2}', r"^f\.json, line 2, column 7: not valid JSON \(Expecting "
                                   r"':' delimiter\): do this$")
    refused(BOM + b'["a', r"line 1, column 2: not valid JSON \(Unterminated string\)")
    refused('\ufeff\n[1,]', r"line 2, column 4: not valid JSON \(Expecting value\)")
    refused(b"1" * 5000, r"^f\.json: not readable as JSON \(Exceeds the limit .*\): do this$")


def test_json_nested_too_deeply_is_one_line():
    err = refused(DEEP.encode(), r"^f\.json: JSON nested too deeply to read: do this$")
    assert err.__cause__ is None and err.__suppress_context__


@pytest.mark.parametrize("data, kind", [(b"[1]", "list"), (b'"x"', "string"), (b"2.5", "number"),
                                        (b"true", "true or false"), (b"null", "null")])
def test_a_reader_wanting_an_object_names_what_the_file_holds(data, kind):
    with pytest.raises(UsageError, match=rf"^f\.json holds a JSON {kind}, not a deal: do this$"):
        parse_json(data, "f.json", "do this", object_of="a deal")
    assert parse_json(b'{"a": 1}', "f.json", "", object_of="a deal") == {"a": 1}


def test_the_encoding_fix_is_the_callers_when_given():
    with pytest.raises(UsageError, match=r"\(byte 0xe9 .*\): make it again$"):
        parse_json(b'["\xe9"]', "f.json", "do this", encoding_fix="make it again")
    with pytest.raises(UsageError, match=r"not a text file: make it again$"):
        parse_json(b'[1]\x00', "f.json", "do this", encoding_fix="make it again")


def test_the_error_carries_the_callers_argument():
    with pytest.raises(UsageError) as err:
        parse_json(b"[", "m.json", "fix", "actions")
    assert err.value.argument == "actions"


# --- the four readers: each names its file in its own words, the shared sentence after it -----
def plan(path: Path):
    """check_data_folder on a data folder whose plan.json holds ``path``'s bytes."""
    folder = path.with_suffix("")
    folder.mkdir()
    path.rename(folder / "plan.json")
    check_data_folder(folder, Plan((1,), games=2, rounds=1, rollouts=2, hidden=4))


READERS = {   # name: (reader of a file x.json, how it names the file, what it says to do)
    "deal": (load_deal, "deal file '{x}'", "a deal is a JSON object"),
    "weights": (read_weights, "the weights file {x} of policy learned",
                "make them again with friday train"),
    "moves": (read_transcript, "x.json", "a JSON list of moves holds strings"),
    "plan": (plan, "the training plan {x}/plan.json", "delete the data folder")}
BAD = {       # case: (the file's bytes, what the line says after the file's name)
    "latin1": ('["café"]'.encode("latin-1"), r" is not UTF-8 text \(byte 0xe9 at offset 5, "
                                             r"line 1, column 6\): "),
    "utf16-bom": ('["x"]'.encode("utf-16"), r" is not UTF-8 text \(UTF-16\? it starts with a "
                                            r"UTF-16 byte-order mark\): "),
    "bad-json": (b'[\n "x",]', r", line 2, column 6: not valid JSON \(Expecting value\): "),
    "deep": (DEEP.encode(), r": JSON nested too deeply to read: "),
    "digits": (b"[" + b"1" * 5000 + b"]", r": not readable as JSON \(Exceeds the limit .*\): ")}


@pytest.mark.parametrize("case", BAD)
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_says_a_bad_file_alike(tmp_path, reader, case):
    read, source, fix = READERS[reader]
    data, says = BAD[case]
    if reader == "moves" and case in ("latin1", "utf16-bom"):
        pytest.skip("a transcript's text is decoded by its own reader, at line and column "
                    "(UTF-16 with its mark is a transcript): tests/test_transcripts.py")
    (tmp_path / "x.json").write_bytes(data)
    with pytest.raises(UsageError) as err:
        read(tmp_path / "x.json")
    line, named = str(err.value), source.format(x=tmp_path / "x" if reader == "plan" else
                                                tmp_path / "x.json")
    assert "\n" not in line and re.match(re.escape(named) + says, line), line
    if case in ("latin1", "utf16-bom"):     # a file friday train wrote: made again, not saved
        fix = fix if reader == "plan" else "save it as UTF-8"
    assert fix in line, line


def test_every_reader_reads_a_file_with_a_utf8_mark(tmp_path):
    """An editor's byte-order mark: a deal and a JSON transcript loaded with it before; a
    weights file and a training plan were refused (they now load)."""
    (tmp_path / "d.json").write_bytes(BOM + b'{"pirates": [59, 60]}')
    assert load_deal(tmp_path / "d.json") == {"pirates": [59, 60]}
    shipped = (ROOT / "policies" / "learned.json").read_bytes()
    (tmp_path / "w.json").write_bytes(BOM + shipped)
    tail, record = read_weights(tmp_path / "w.json")
    assert (tail == read_weights(ROOT / "policies" / "learned.json")[0]).all() and record
    (tmp_path / "m.json").write_bytes(BOM + b'["draw", "end"]')
    assert read_transcript(tmp_path / "m.json").names == ["draw", "end"]
    training = Plan((1,), games=2, rounds=1, rollouts=2, hidden=4)
    check_data_folder(tmp_path / "data", training)                  # writes plan.json
    marker = tmp_path / "data" / "plan.json"
    marker.write_bytes(BOM + marker.read_bytes())
    check_data_folder(tmp_path / "data", training)                  # the same plan: goes on
    assert json.loads(marker.read_bytes()[3:])["games"] == 2


def test_a_deal_file_holding_another_json_value_is_named(tmp_path):
    path = tmp_path / "d.json"
    path.write_text("[59, 60]", encoding="utf-8")
    with pytest.raises(UsageError, match=r"^deal file '.*d\.json' holds a JSON list, not a "
                                         r"deal: a deal is a JSON object"):
        load_deal(str(path))


def test_a_bad_start_weights_file_is_said_as_start(tmp_path):
    """friday train --start FILE: the weights file's error is --start's (sim.cli.common)."""
    from sim.cli.common import error_line
    from sim.lab.train import check_plan
    path = tmp_path / "w.json"
    path.write_bytes(b"not json")
    with pytest.raises(UsageError) as err:
        check_plan(Plan(start=str(path)))
    assert err.value.argument == "start"
    assert error_line(err.value).startswith(f"--start: the weights file {path} of policy "
                                            "learned, line 1, column 1: not valid JSON")
