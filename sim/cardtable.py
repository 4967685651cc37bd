"""What-if card tables: load one (``cards.csv`` format), apply ``--set CARD.FIELD=VALUE`` edits,
validate, hash and describe it for the metadata of results and traces.

A ``CardTable`` carries the same arrays as ``sim.cards`` (``FIGHT_VALUE``, ``ABILITY``,
``HAZARD_VALUE``, ``PIRATE_VALUE``...), so the reference engine reads ``game.cards.X`` where it
read ``sim.cards.X``; the fast engine gets it as one array (sim.fast.api ``_table``) and the policies
read it from the observation's card-table block (``sim.observation.CT_*``).  The default table
is the printed game's (``printed()``).

What may change: a card's name, fight value, ability and destroy cost (Robinson's cards: start,
aging, knowledge), a hazard's title, free cards and values per step, a pirate's free cards,
value and ability.  What may not: ids and kinds (R1.1 fixes 18 start, 11 aging, 30 hazard and 10
pirate cards, and the engines deal them by id).  A card is named by its id, by a card name that
only it has (``genius``, ``very stupid``), or a pirate by its printed numbers (``10/40``,
``5/*``, ``*/*``).
"""
from __future__ import annotations

import csv
import hashlib
import io
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import cards as C
from .observation import MAX_VALUE, card_block
from .errors import UsageError


class CardTableError(UsageError):
    """A card table or a ``sets`` edit that is not a valid Friday card table; a message that
    starts with ``cards`` or ``sets`` names that parameter (sim.errors.UsageError.argument)."""

    def __init__(self, message: str, argument: str | None = None):
        lead = message.split(" ", 1)[0].rstrip(":")
        super().__init__(message, argument or (lead if lead in ("cards", "sets") else None))


FIELDS = tuple(c for c in C.COLUMNS if c not in ("id", "kind"))      # a card's fields
ROBINSON_FIELDS = ("name", "fight_value", "ability", "destroy_cost")
FIELDS_BY_KIND = {
    "start": ROBINSON_FIELDS, "aging_normal": ROBINSON_FIELDS, "aging_difficult": ROBINSON_FIELDS,
    "hazard": ROBINSON_FIELDS + ("hazard_title", "hazard_free_cards", "hazard_green",
                                 "hazard_yellow", "hazard_red"),
    "pirate": ("name", "pirate_free_cards", "pirate_hazard_value", "pirate_ability"),
}
# the integer fields and their ranges; the fight value range keeps the observation's value
# counts (sim.observation.MAX_VALUE) exact
RANGES = {"fight_value": (-MAX_VALUE, MAX_VALUE), "destroy_cost": (0, 9),
          "hazard_free_cards": (0, 20), "hazard_green": (0, 999), "hazard_yellow": (0, 999),
          "hazard_red": (0, 999), "pirate_free_cards": (0, 20), "pirate_hazard_value": (0, 999)}
KNOWLEDGE_ABILITIES = C.ABILITY_NAMES[:C.FIRST_AGING_ABILITY]
AGING_ABILITIES = ("none",) + C.ABILITY_NAMES[C.FIRST_AGING_ABILITY:]
COMPUTED_VALUE = {"plus2_per_aging": ("pirate_hazard_value",),
                  "fight_remaining_hazards": ("pirate_hazard_value", "pirate_free_cards")}


class CardTable:
    """One validated card table: rows (canonical strings) and the engine arrays of sim.cards."""

    def __init__(self, rows: list[dict], source: str | None = None):
        self.rows = [_canonical(r) for r in rows]
        self.source = source
        self.__dict__.update(C.parse_rows(self.rows))
        self._block = card_block(self)
        self._block.setflags(write=False)
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=C.COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(self.rows)
        self.text = buf.getvalue()
        self.hash = hashlib.sha256(self.text.encode()).hexdigest()[:16]

    # --- identity ----------------------------------------------------------------------
    def changes(self) -> list[str]:
        """Every field that differs from the printed table, as ``CARD.FIELD=VALUE (was V)``."""
        return [f"{mine['id']}.{col}={mine[col]} (was {theirs[col] or 'blank'})"
                for mine, theirs in zip(self.rows, printed().rows) for col in C.COLUMNS
                if mine[col] != theirs[col]]

    @property
    def is_printed(self) -> bool:
        return self.hash == printed().hash

    def describe(self) -> str:
        """``printed`` or the edits, e.g. ``63.pirate_hazard_value=35 (was 40)``."""
        return "printed" if self.is_printed else "; ".join(self.changes())

    def meta(self) -> dict:
        """What results files and trace headers record about the table."""
        return {"table": "printed" if self.is_printed else "edited", "hash": self.hash,
                "changes": self.changes(), "source": self.source}

    def header(self) -> list[dict]:
        """The table as TRACE.md's header writes it."""
        return C.header_table(self)

    def write_csv(self, path) -> None:
        Path(path).write_text(self.text, encoding="utf-8")

    # --- for the engines ---------------------------------------------------------------
    def obs_block(self) -> np.ndarray:
        """The observation's card-table block (sim.observation.CT .. OBS_SIZE)."""
        return self._block

    # --- edits -------------------------------------------------------------------------
    def with_sets(self, sets) -> "CardTable":
        """A new table with edits applied (``CARD.FIELD=VALUE`` strings), validated as a whole."""
        rows = [dict(r) for r in self.rows]
        seen = {}
        for text in sets or ():
            card, field, value = parse_set(str(text))
            if (card, field) in seen:
                raise CardTableError(f"sets {text!r}: {card}.{field} is already set by "
                                     f"{seen[card, field]!r}")
            seen[card, field] = text
            rows[card][field] = value
        return CardTable(validate_rows(rows, where="sets"), self.source)


def _canonical(row: dict) -> dict:
    out, keep = {}, FIELDS_BY_KIND[row["kind"]] + ("id", "kind")
    for col in C.COLUMNS:
        v = (row.get(col) or "").strip()
        if col not in keep:
            v = ""
        elif col in RANGES:
            v = str(C._int(v))
        elif col == "ability":
            v = v or "none"
        elif col == "pirate_ability" and v == "none":
            v = ""
        out[col] = v
    return out


def _check_row(row: dict, where: str) -> None:
    """One row's fields: integers in range, known abilities, no field its kind lacks."""
    card, kind = row["id"], row["kind"]
    allowed = FIELDS_BY_KIND[kind]
    for col in FIELDS:
        v = (row.get(col) or "").strip()
        if col not in allowed:
            if v not in ("", "0", "*") and not (col == "ability" and v == "none"):
                raise CardTableError(f"{where}: card {card} is a {kind} card: it has no {col} "
                                     f"(leave it blank); its fields are {', '.join(allowed)}")
            continue
        if col in RANGES:
            try:
                n = C._int(v)
            except ValueError:
                raise CardTableError(f"{where}: card {card} {col}: {v!r} is not an integer") from None
            lo, hi = RANGES[col]
            if not lo <= n <= hi:
                raise CardTableError(f"{where}: card {card} {col}={n} is impossible: "
                                     f"use {lo}..{hi}")
        elif col == "ability":
            choices = AGING_ABILITIES if kind.startswith("aging") else KNOWLEDGE_ABILITIES
            if (v or "none") not in choices:
                raise CardTableError(f"{where}: card {card} ability {v!r} does not exist for a "
                                     f"{kind} card: choose one of {', '.join(choices)}")
        elif col == "pirate_ability":
            if (v or "none") not in C.PIRATE_ABILITY_NAMES:
                raise CardTableError(f"{where}: card {card} pirate_ability {v!r} does not exist: "
                                     f"choose one of {', '.join(C.PIRATE_ABILITY_NAMES)}")
        elif not v or "\n" in v:
            raise CardTableError(f"{where}: card {card} {col} must be a non-empty line of text")
    for col in COMPUTED_VALUE.get((row.get("pirate_ability") or "").strip(), ()):
        if C._int(row.get(col) or "") != 0 and row["kind"] == "pirate":
            raise CardTableError(
                f"{where}: card {card} {col} is computed by its ability {row['pirate_ability']} "
                f"(R9.5): leave it blank, or change the pirate_ability first")


def validate_rows(rows: list[dict], where: str) -> list[dict]:
    """A whole table: 69 rows, ids 0..68 once each, the printed kind for every id (R1.1)."""
    n = C.N_CARDS
    if len(rows) != n:
        raise CardTableError(f"{where}: {len(rows)} card rows; a card table has {n} "
                             f"(ids 0-{n - 1}, R1.1)")
    by_id = {}
    for line, row in enumerate(rows, start=2):
        text = (row.get("id") or "").strip()
        try:
            card = int(text)
        except ValueError:
            raise CardTableError(f"{where}: line {line}: id {text!r} is not an integer") from None
        if not 0 <= card < n:
            raise CardTableError(f"{where}: line {line}: id {card} is not a card id (0-{n - 1})")
        if card in by_id:
            raise CardTableError(f"{where}: duplicate id {card} (lines {by_id[card][0]} and {line})")
        kind = (row.get("kind") or "").strip()
        printed_kind = C.KIND_NAMES[int(C.KIND[card])]
        if kind != printed_kind:
            raise CardTableError(f"{where}: line {line}: card {card} must be kind {printed_kind!r}, "
                                 f"not {kind!r} (R1.1 fixes the kinds by id)")
        row = {**row, "id": str(card), "kind": kind}
        _check_row(row, where)
        by_id[card] = (line, row)
    return [by_id[c][1] for c in range(n)]


def load_csv(path) -> CardTable:
    """A whole card table in the package's cards.csv format (any row order)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")     # a spreadsheet may add a BOM
    except FileNotFoundError:
        raise CardTableError(f"cards {path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CardTableError(f"cards {path}: cannot read it ({exc.__class__.__name__})") from None
    reader = csv.DictReader(io.StringIO(text))
    header = reader.fieldnames or []
    missing = [c for c in C.COLUMNS if c not in header]
    extra = [c for c in header if c not in C.COLUMNS]
    twice = sorted({c for c in header if header.count(c) > 1})
    if missing or extra or twice:
        raise CardTableError(f"cards {path}: the header must be the columns of cards.csv"
                             + (f"; missing {', '.join(missing)}" if missing else "")
                             + (f"; unknown {', '.join(map(str, extra))}" if extra else "")
                             + (f"; named twice: {', '.join(map(str, twice))}" if twice else ""))
    rows = []
    for row in reader:
        if None in row or any(v is None for v in row.values()):
            raise CardTableError(f"cards {path}: line {reader.line_num} has "
                                 f"{len([v for v in row.values() if v is not None])} fields "
                                 f"where the header has {len(C.COLUMNS)}")
        rows.append(row)
    return CardTable(validate_rows(rows, where=f"cards {path}"), source=str(path.resolve()))


@lru_cache(maxsize=1)
def printed() -> CardTable:
    """The printed game's table (sim/data/cards.csv)."""
    return CardTable(list(C._ROWS), source=None)


def build(cards=None, sets=None) -> CardTable:
    """The table of a run: ``cards`` (a CardTable, a cards.csv path, or None for the printed
    table), then ``sets`` (``CARD.FIELD=VALUE`` strings) applied."""
    if not isinstance(cards, (CardTable, str, Path, type(None))):
        raise CardTableError(f"cards must be a CardTable or a cards.csv path, not {cards!r}")
    table = (cards if isinstance(cards, CardTable)
             else printed() if cards is None else load_csv(cards))
    return table.with_sets(sets) if sets else table


as_table = build        # one argument: None (the printed table), a CardTable, a cards.csv path


# --- names ---------------------------------------------------------------------------------
def resolve_card(text: str) -> int:
    """A card id, a name only one card has, or a pirate's printed numbers (``10/40``)."""
    t = text.strip()
    try:
        card = int(t)
    except ValueError:
        name = t.lower()                # a name, or the numbers of a pirate 'pirate 10/40 ...'
        ids = [c for c in range(C.N_CARDS) if name == C.NAME[c].lower()
               or (c in C.PIRATE_IDS and name == C.NAME[c].split()[1].lower())]
        if not ids:
            raise CardTableError(f"unknown card {text!r}: use an id 0-{C.N_CARDS - 1}, a card "
                                 f"name only one card has, or a pirate like 10/40") from None
        if len(ids) > 1:
            raise CardTableError(f"card name {text!r} is shared by ids "
                                 f"{', '.join(map(str, ids))}: use an id") from None
        return ids[0]
    if not 0 <= card < C.N_CARDS:
        raise CardTableError(f"unknown card {card}: ids are 0-{C.N_CARDS - 1}")
    return card


def parse_target(text: str) -> tuple[int, str]:
    """``CARD.FIELD`` -> (card id, field)."""
    if "." not in text:
        raise CardTableError(f"{text!r} must look like CARD.FIELD, e.g. 63.pirate_hazard_value")
    card_text, field = text.rsplit(".", 1)
    card, field = resolve_card(card_text), field.strip()
    kind = C.KIND_NAMES[int(C.KIND[card])]
    if field not in C.COLUMNS:
        raise CardTableError(f"unknown field {field!r}: the columns of cards.csv are "
                             f"{', '.join(FIELDS)}")
    if field not in FIELDS_BY_KIND[kind]:
        raise CardTableError(f"card {card} ({C.NAME[card]}) is a {kind} card: it has no field "
                             f"{field!r}; its fields are {', '.join(FIELDS_BY_KIND[kind])}")
    return card, field


def parse_set(text: str) -> tuple[int, str, str]:
    """``CARD.FIELD=VALUE`` -> (card id, field, value text)."""
    if "=" not in text:
        raise CardTableError(f"sets {text!r} must look like CARD.FIELD=VALUE, "
                             f"e.g. 63.pirate_hazard_value=35")
    target, value = text.split("=", 1)
    card, field = parse_target(target)
    value = value.strip()
    if field in RANGES:
        try:
            int(value)
        except ValueError:
            raise CardTableError(f"sets {text!r}: {value!r} is not an integer") from None
    return card, field, value
