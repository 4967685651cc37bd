"""What-if card tables (sim.cardtable): loading, --set edits, validation, metadata, traces."""
from __future__ import annotations

import csv
import io
import json

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from policies import load_policy
from sim import cards as C
from sim.cardtable import CardTableError, build, load_csv, printed
from sim.cli import app
from sim.fast import run_batch
from sim.lab.balance import Games, pirate_table

runner = CliRunner()
PRINTED_CSV = printed().text


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def rows_of(text=PRINTED_CSV):
    return list(csv.DictReader(io.StringIO(text)))


def write_rows(path, rows, fieldnames=C.COLUMNS):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(fieldnames))
        w.writeheader()
        w.writerows(rows)
    return path


def test_printed_table_is_the_package_table():
    t = printed()
    for name in ("KIND", "FIGHT_VALUE", "ABILITY", "DESTROY_COST", "HAZARD_FREE", "HAZARD_VALUE",
                 "PIRATE_FREE", "PIRATE_VALUE", "PIRATE_ABILITY", "IS_AGING"):
        assert np.array_equal(getattr(t, name), getattr(C, name)), name
    assert t.is_printed and t.describe() == "printed" and t.changes() == []
    assert t.header() == C.header_table()


def test_set_edits_by_id_and_by_name(tmp_path):
    t = build(sets=["63.pirate_hazard_value=35", "genius.fight_value=3", "5/*.pirate_free_cards=4"])
    assert t.PIRATE_VALUE[63] == 35 and t.FIGHT_VALUE[16] == 3 and t.PIRATE_FREE[67] == 4
    assert t.PIRATE_VALUE[62] == 35 and C.PIRATE_VALUE[63] == 40          # nothing else moved
    assert "63.pirate_hazard_value=35 (was 40)" in t.changes()
    assert not t.is_printed and t.hash != printed().hash
    assert build(sets=["10/40.pirate_hazard_value=35"]).hash == \
        build(sets=["63.pirate_hazard_value=35"]).hash
    # a whole table written out and read back (from any folder) is the same table
    path = tmp_path / "variant.csv"
    t.write_csv(path)
    assert load_csv(path).hash == t.hash
    assert build(path, ["63.pirate_hazard_value=40"]).changes() == \
        [c for c in t.changes() if not c.startswith("63.")]


@pytest.mark.parametrize("edit, message", [
    ("99.fight_value=1", "unknown card 99"),
    ("banana.fight_value=1", "unknown card 'banana'"),
    ("food.fight_value=1", "shared by ids"),
    ("63.colour=red", "unknown field 'colour'"),
    ("63.fight_value=1", "is a pirate card: it has no field 'fight_value'"),
    ("5.hazard_green=1", "is a start card: it has no field 'hazard_green'"),
    ("63.id=3", "is a pirate card: it has no field 'id'"),
    ("63.pirate_hazard_value=abc", "'abc' is not an integer"),
    ("63.pirate_hazard_value=3.5", "is not an integer"),
    ("63.pirate_free_cards=-1", "pirate_free_cards=-1 is impossible"),
    ("57.fight_value=12", "fight_value=12 is impossible"),
    ("40.ability=fly", "ability 'fly' does not exist"),
    ("40.ability=aging_stop", "ability 'aging_stop' does not exist for a hazard card"),
    ("63.pirate_ability=teleport", "pirate_ability 'teleport' does not exist"),
    ("67.pirate_hazard_value=10", "is computed by its ability plus2_per_aging"),
    ("63.pirate_hazard_value", "must look like CARD.FIELD=VALUE"),
    ("pirate_hazard_value=3", "must look like CARD.FIELD"),
])
def test_bad_set_is_one_clear_error(edit, message):
    with pytest.raises(CardTableError, match=message):
        build(sets=[edit])
    result = run("simulate", "--engine", "reference", "--games", "1", "--level", "1",
                 "--set", edit)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_set_twice_is_an_error():
    with pytest.raises(CardTableError, match="already set"):
        build(sets=["63.pirate_hazard_value=35", "10/40.pirate_hazard_value=30"])


def _bad_files(tmp_path):
    rows = rows_of()
    out = {}
    out["wrong row count"] = (write_rows(tmp_path / "short.csv", rows[:-1]), "68 card rows")
    dup = [dict(r) for r in rows]
    dup[13]["id"] = "12"
    out["duplicate id"] = (write_rows(tmp_path / "dup.csv", dup), "duplicate id 12")
    kind = [dict(r) for r in rows]
    kind[5]["kind"] = "hazard"
    out["kind"] = (write_rows(tmp_path / "kind.csv", kind), "must be kind 'start'")
    bad = [dict(r) for r in rows]
    bad[63]["pirate_hazard_value"] = "forty"
    out["malformed value"] = (write_rows(tmp_path / "bad.csv", bad), "'forty' is not an integer")
    neg = [dict(r) for r in rows]
    neg[40]["hazard_free_cards"] = "-2"
    out["impossible value"] = (write_rows(tmp_path / "neg.csv", neg), "hazard_free_cards=-2 is impossible")
    cols = [c for c in C.COLUMNS if c != "destroy_cost"]
    out["missing column"] = (write_rows(tmp_path / "cols.csv", [{c: r[c] for c in cols} for r in rows],
                                        cols), "missing destroy_cost")
    twice = tmp_path / "twice.csv"                  # the second "name" column would win
    twice.write_text("\n".join(line + (",name" if k == 0 else ",SECOND") for k, line in
                               enumerate(PRINTED_CSV.strip().splitlines())) + "\n")
    out["column twice"] = (twice, "the header must be the columns of cards.csv; named twice: name")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text(PRINTED_CSV.replace("\n5,start,weak,0,none,1,,,,,,,,\n", "\n5,start,weak,0\n"))
    out["ragged line"] = (ragged, "line 7 has 4 fields")
    out["no file"] = (tmp_path / "nope.csv", "no such file")
    return out


@pytest.mark.parametrize("case", ["wrong row count", "duplicate id", "kind", "malformed value",
                                  "impossible value", "missing column", "column twice",
                                  "ragged line", "no file"])
def test_bad_cards_file_is_one_clear_error(tmp_path, case):
    path, message = _bad_files(tmp_path)[case]
    with pytest.raises(CardTableError, match=message):
        load_csv(path)
    for cmd in (["simulate", "--engine", "reference", "--games", "1", "--level", "1"],
                ["replay", "--level", "1", "--seed", "1"],
                ["balance", "pirates", "--games", "1", "--level", "1"]):
        result = run(*cmd, "--cards", path)
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_cards_file_from_another_folder(tmp_path, monkeypatch):
    """A relative --cards path is read from the working folder, wherever that is."""
    table = build(sets=["63.pirate_hazard_value=30"])
    (tmp_path / "sub").mkdir()
    table.write_csv(tmp_path / "sub" / "mine.csv")
    monkeypatch.chdir(tmp_path)
    result = run("replay", "--level", "1", "--seed", "3", "--format", "jsonl", "--engine", "fast",
                 "--cards", "sub/mine.csv")
    assert result.exit_code == 0, result.output
    head = json.loads(result.output.splitlines()[0])
    assert head["x"]["card_table"]["changes"] == ["63.pirate_hazard_value=30 (was 40)"]


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_edited_table_in_trace_header(engine):
    result = run("replay", "--level", "2", "--seed", "4", "--format", "jsonl", "--engine", engine,
                 "--set", "63.pirate_hazard_value=35", "--set", "57.hazard_red=13")
    assert result.exit_code == 0, result.output
    head = json.loads(result.output.splitlines()[0])
    assert head["cards"][63]["pirate"]["value"] == 35
    assert head["cards"][57]["hazard"]["values"] == [5, 9, 13]
    assert head["x"]["card_table"]["table"] == "edited"
    assert head["x"]["card_table"]["hash"] == build(sets=["63.pirate_hazard_value=35",
                                                     "57.hazard_red=13"]).hash


def test_edited_table_in_parquet_metadata(tmp_path):
    out = tmp_path / "edited.parquet"
    result = run("simulate", "--level", "1", "--games", "300", "--out", out,
                 "--set", "63.pirate_hazard_value=35")
    assert result.exit_code == 0, result.output
    assert "cards edited" in result.output
    meta = json.loads(pq.read_schema(out).metadata[b"friday_lab"])
    assert meta["cards"]["changes"] == ["63.pirate_hazard_value=35 (was 40)"]
    assert meta["cards"]["hash"] == build(sets=["63.pirate_hazard_value=35"]).hash
    plain = tmp_path / "plain.parquet"
    assert run("simulate", "--level", "1", "--games", "300", "--out", plain).exit_code == 0
    assert json.loads(pq.read_schema(plain).metadata[b"friday_lab"])["cards"]["table"] == "printed"


@pytest.mark.parametrize("value, low, high, most_won", [(0, 0.97, 1.0, 1.0),
                                                        (999, 0.0, 0.0, 0.0)])
def test_pirate_value_moves_beaten_when_faced(value, low, high, most_won):
    """10/40 at value 0 is (nearly) always beaten when faced, at 999 never, and then no game
    that drew it is won (R9.2)."""
    cards = build(sets=[f"63.pirate_hazard_value={value}"])
    games = Games(run_batch(1, 11, 0, 3000, load_policy("expert"), cards=cards))
    row = pirate_table(games, 1, cards).set_index("pirate").loc[63]
    assert row["beaten_n"] > 100
    assert low <= row["beaten_rate"] <= high
    assert row["win_when_drawn_rate"] <= most_won
    plain = pirate_table(Games(run_batch(1, 11, 0, 3000, load_policy("expert"))), 1)
    assert 0.2 < plain.set_index("pirate").loc[63]["beaten_rate"] < 0.9
