"""The card table: one row per physical card, with a stable integer id (R1.1).

``sim/data/cards.csv`` has one row per physical card with its id: the project's ``cards.csv``
(one row per card type, with counts) expanded in row order: 18 start cards (0-17), 11 aging
cards (18-28), 30 hazard/knowledge cards (29-58), 10 pirates (59-68).  Everything the engines need
about a card is a column of a read-only numpy array here, indexed by card id; the Numba engine
reads the very same arrays.
"""
from __future__ import annotations

import csv
import io
import sys
from importlib import resources

import numpy as np

# --- card kinds -------------------------------------------------------------------------
KIND_START, KIND_AGING_NORMAL, KIND_AGING_DIFFICULT, KIND_HAZARD, KIND_PIRATE = range(5)
KIND_NAMES = ("start", "aging_normal", "aging_difficult", "hazard", "pirate")

# --- abilities of fighting cards (R5, R6) -----------------------------------------------
ABILITY_NAMES = (
    "none",
    "life_plus1", "life_plus2", "draw_plus1", "draw_plus2", "destroy", "double", "copy",
    "sort3", "step_minus1", "exchange1", "exchange2", "below_pile",
    "aging_life_minus1", "aging_life_minus2", "aging_highest_zero", "aging_stop",
)
(AB_NONE, AB_LIFE1, AB_LIFE2, AB_DRAW1, AB_DRAW2, AB_DESTROY, AB_DOUBLE, AB_COPY,
 AB_SORT3, AB_STEP_MINUS1, AB_EXCHANGE1, AB_EXCHANGE2, AB_BELOW_PILE,
 AB_AGING_LIFE1, AB_AGING_LIFE2, AB_AGING_HIGHEST_ZERO, AB_AGING_STOP) = range(len(ABILITY_NAMES))
FIRST_AGING_ABILITY = AB_AGING_LIFE1

# --- pirate abilities (R9.5) ------------------------------------------------------------
PIRATE_ABILITY_NAMES = ("none", "extra_card_costs_2", "half_cards_count", "plus1_per_card",
                        "fight_remaining_hazards", "plus2_per_aging")
(PA_NONE, PA_EXTRA_COSTS_2, PA_HALF_COUNT, PA_PLUS1_PER_CARD,
 PA_REMAINING_HAZARDS, PA_PLUS2_PER_AGING) = range(len(PIRATE_ABILITY_NAMES))


def _int(text: str) -> int:
    """A blank or '*' field counts 0 (TRACE.md conventions)."""
    text = text.strip()
    return 0 if text in ("", "*") else int(text)


def parse_rows(rows) -> dict:
    """The engine arrays of a card table given as rows of ``cards.csv`` (dicts of strings),
    indexed by card id; ``sim.cardtable`` builds what-if tables with the same function."""
    t = {
        "NAME": tuple(r["name"] for r in rows),
        "KIND": np.array([KIND_NAMES.index(r["kind"]) for r in rows], dtype=np.int64),
        "FIGHT_VALUE": np.array([_int(r["fight_value"]) for r in rows], dtype=np.int64),
        "ABILITY": np.array([ABILITY_NAMES.index(r["ability"]) if r["ability"] else AB_NONE
                             for r in rows], dtype=np.int64),
        "DESTROY_COST": np.array([_int(r["destroy_cost"]) for r in rows], dtype=np.int64),
        "HAZARD_TITLE": tuple(r["hazard_title"] for r in rows),
        "HAZARD_FREE": np.array([_int(r["hazard_free_cards"]) for r in rows], dtype=np.int64),
        # HAZARD_VALUE[card, step] for step green=0, yellow=1, red=2 (R4.1)
        "HAZARD_VALUE": np.array([[_int(r["hazard_green"]), _int(r["hazard_yellow"]),
                                   _int(r["hazard_red"])] for r in rows], dtype=np.int64),
        "PIRATE_FREE": np.array([_int(r["pirate_free_cards"]) for r in rows], dtype=np.int64),
        "PIRATE_VALUE": np.array([_int(r["pirate_hazard_value"]) for r in rows], dtype=np.int64),
        "PIRATE_ABILITY": np.array([PIRATE_ABILITY_NAMES.index(r["pirate_ability"])
                                    if r["pirate_ability"] else PA_NONE for r in rows],
                                   dtype=np.int64),
    }
    t["IS_AGING"] = (t["KIND"] == KIND_AGING_NORMAL) | (t["KIND"] == KIND_AGING_DIFFICULT)
    for a in t.values():
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    return t


_ROWS = list(csv.DictReader(io.StringIO(
    resources.files("sim.data").joinpath("cards.csv").read_text(encoding="utf-8"))))
if [int(r["id"]) for r in _ROWS] != list(range(len(_ROWS))):
    raise ValueError("sim/data/cards.csv: ids must be 0, 1, 2... in row order")
N_CARDS = len(_ROWS)
COLUMNS = tuple(_ROWS[0].keys())        # the columns of cards.csv, in order
(NAME, KIND, FIGHT_VALUE, ABILITY, DESTROY_COST, HAZARD_TITLE, HAZARD_FREE, HAZARD_VALUE,
 PIRATE_FREE, PIRATE_VALUE, PIRATE_ABILITY, IS_AGING) = parse_rows(_ROWS).values()  # its key order
# the ids of each kind, by KIND_START .. KIND_PIRATE
START_IDS, AGING_NORMAL_IDS, AGING_DIFFICULT_IDS, HAZARD_IDS, PIRATE_IDS = (
    tuple(int(i) for i in np.flatnonzero(KIND == kind)) for kind in range(len(KIND_NAMES)))
AGING_IDS = AGING_NORMAL_IDS + AGING_DIFFICULT_IDS
VERY_STUPID = NAME.index("very stupid")

assert (N_CARDS, len(START_IDS), len(AGING_IDS), len(HAZARD_IDS), len(PIRATE_IDS)) == \
    (69, 18, 11, 30, 10), "cards.csv does not match R1.1"


def card_label(card: int, t) -> str:
    """Short label in the card table ``t`` (sim.cardtable.CardTable), e.g. 'genius(+2)#16'."""
    if KIND[card] == KIND_HAZARD:
        return f"{t.HAZARD_TITLE[card]} [{t.NAME[card]} {t.FIGHT_VALUE[card]:+d}]#{card}"
    if KIND[card] == KIND_PIRATE:
        return f"{t.NAME[card]}#{card}"
    return f"{t.NAME[card]}({t.FIGHT_VALUE[card]:+d})#{card}"


def header_table(t=None) -> list[dict]:
    """The card table ``t`` (default the printed one) as TRACE.md's header writes it."""
    t = t or sys.modules[__name__]
    return [{
        "id": c, "kind": KIND_NAMES[KIND[c]], "name": t.NAME[c],
        "fight_value": int(t.FIGHT_VALUE[c]),
        "ability": ABILITY_NAMES[int(t.ABILITY[c])] if KIND[c] != KIND_PIRATE else "none",
        "destroy_cost": int(t.DESTROY_COST[c]),
        "hazard": ({"title": t.HAZARD_TITLE[c], "free": int(t.HAZARD_FREE[c]),
                    "values": [int(v) for v in t.HAZARD_VALUE[c]]}
                   if KIND[c] == KIND_HAZARD else None),
        "pirate": ({"free": int(t.PIRATE_FREE[c]), "value": int(t.PIRATE_VALUE[c]),
                    "ability": PIRATE_ABILITY_NAMES[int(t.PIRATE_ABILITY[c])]}
                   if KIND[c] == KIND_PIRATE else None),
    } for c in range(N_CARDS)]
