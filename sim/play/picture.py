"""A position drawn as one static piece of HTML with the cards' inline SVG faces
(``sim.play.faces``, the html replay's): what a ``Game`` shows in a Jupyter notebook
(``Game._repr_html_``: ``g`` in a cell draws the table).

Only what the player may know is drawn (R1.4), read off the observation: step, turn and life,
the piles as counts, the two pirates (beaten or not), the hazards drawn, the fight with its
free (left) and paid (right) cards, their marks, the engine's total against the value at the
comparison (R4.6, R5.7), sort3's hand and the cards put on top, then the decision waited for
with its legal actions, or the result.  No script and no external resource: it draws the same
with or without a trusted notebook.  Nothing here works out a rule.
"""
from __future__ import annotations

from html import escape

import numpy as np

from .. import cards as C
from .. import observation as O
from ..observation import cards_in, known_top
from ..rules import STEP_NAMES
from .faces import card_faces

MARKS = ((O.F_FACE_DOWN, "destroyed"), (O.F_DOUBLED, "doubled"), (O.F_USED, "used"))
PILES = (("Robinson's stack", O.O_N_ROBINSON_STACK), ("discard", O.O_N_ROBINSON_DISCARD),
         ("aging stack", O.O_N_AGING_STACK), ("hazard stack", O.O_N_HAZARD_STACK),
         ("hazard discard", O.O_N_HAZARD_DISCARD))
STEP_COLOURS = ("#57a55a", "#e8c13a", "#d9534f", "#8e44ad")
CARD_PX = 64


def table_rows(T) -> list[dict]:
    """The card table ``T`` (sim.fast.layout.card_table) as TRACE.md header rows: the
    printed names, the numbers of ``T`` (a what-if table draws its own values)."""
    from ..fast import layout as Y
    from ..cards import ABILITY_NAMES, PIRATE_ABILITY_NAMES
    rows = C.header_table()
    for r in rows:
        c = r["id"]
        r["fight_value"], r["destroy_cost"] = int(T[Y.T_VALUE, c]), int(T[Y.T_DCOST, c])
        if r["pirate"] is not None:
            r["pirate"] = {"free": int(T[Y.T_PFREE, c]), "value": int(T[Y.T_PVALUE, c]),
                           "ability": PIRATE_ABILITY_NAMES[int(T[Y.T_PABILITY, c])]}
            continue
        r["ability"] = ABILITY_NAMES[int(T[Y.T_ABILITY, c])]
        if r["hazard"] is not None:
            r["hazard"] = {**r["hazard"], "free": int(T[Y.T_HFREE, c]),
                           "values": [int(T[k, c]) for k in (Y.T_HV0, Y.T_HV1, Y.T_HV2)]}
    return rows


def _cards(faces: dict, keys, marks=None) -> str:
    """A row of faces; ``marks`` (per key, a list of words) written under each card."""
    out = []
    for i, key in enumerate(keys):
        words = ", ".join(marks[i]) if marks and marks[i] else ""
        dim = "opacity:.45;" if marks and "destroyed" in marks[i] else ""
        out.append(f'<span style="display:inline-block;width:{CARD_PX}px;margin:2px;'
                   f'vertical-align:top;text-align:center;font-size:10px;{dim}">{faces[key]}'
                   f'{escape(words)}</span>')
    return "".join(out) or '<span style="color:#777">none</span>'


def _box(title: str, body: str) -> str:
    return (f'<div style="background:#fffdf8;border-radius:6px;padding:4px 8px;margin:4px 0">'
            f'<div style="font-size:11px;text-transform:uppercase;color:#555">{escape(title)}'
            f'</div>{body}</div>')


def _fight(obs, faces: dict) -> str:
    """The opponent, the cards on each side with their marks, total against value."""
    opp, pirate = int(obs[O.O_OPPONENT]), bool(obs[O.O_OPPONENT_IS_PIRATE])
    value, eff, total = (int(obs[i]) for i in (O.O_FIGHT_VALUE, O.O_EFFECTIVE_VALUE,
                                               O.O_FIGHT_TOTAL))
    rows = []
    for label, zone in (("free cards (left)", O.Z_FIGHT_LEFT), ("paid cards (right)",
                                                                 O.Z_FIGHT_RIGHT)):
        cards = cards_in(obs, zone)
        marks = [[m for bit, m in MARKS if obs[O.FLAGS + c] & bit] for c in cards]
        rows.append(f"<div>{escape(label)}: {_cards(faces, [f'r{c}' for c in cards], marks)}"
                    "</div>")
    verdict = "beaten" if total >= eff else f"{eff - total} missing"
    lower = f" ({eff} at the comparison)" if eff != value else ""
    head = (f"<b>total {total}</b> against value {value}{lower}: {verdict}; free cards left "
            f"{int(obs[O.O_FREE_LEFT])}")
    opponent = _cards(faces, [f"p{opp}" if pirate else f"h{opp}"])
    return _box("fight", f'<div style="display:flex;gap:10px"><div>{opponent}</div>'
                         f"<div>{head}{''.join(rows)}</div></div>")


def position_html(obs, rows: list[dict], title: str, waiting: str, below: str = "") -> str:
    """The position of observation ``obs`` (module docstring) under the card table ``rows``
    (TRACE.md header rows), headed ``title``, ending with the line ``waiting`` (the decision
    and its legal actions, or the result), then the HTML ``below`` (a review's chances)."""
    obs = np.asarray(obs)
    faces = card_faces(rows)
    step = int(obs[O.O_STEP])
    status = (f'<div style="border-left:8px solid {STEP_COLOURS[step]};padding-left:6px">'
              f"<b>{escape(title)}</b><br/>{STEP_NAMES[step]} step, turn {int(obs[O.O_TURN])}, "
              f"<b>life {int(obs[O.O_LIFE])} of {int(obs[O.O_MAX_LIFE])}</b></div>")
    piles = "; ".join(f"{name} {int(obs[i])}" for name, i in PILES)
    piles += f"; removed {len(cards_in(obs, O.Z_REMOVED))}"
    beaten = cards_in(obs, O.Z_PIRATE_BEATEN)
    pirates = [p for p in (int(obs[O.O_PIRATE_1]), int(obs[O.O_PIRATE_2])) if p >= 0]
    parts = [status, _box("piles", escape(piles)),
             _box("pirates", _cards(faces, [f"p{p}" for p in pirates],
                                    [["beaten"] if p in beaten else [] for p in pirates]))]
    if hazards := cards_in(obs, O.Z_HAZARD_DRAWN):
        parts.append(_box("hazards drawn", _cards(faces, [f"h{c}" for c in hazards])))
    if obs[O.O_OPPONENT] >= 0 and obs[O.O_PHASE] != O.PH_NONE:
        parts.append(_fight(obs, faces))
    if hand := cards_in(obs, O.Z_SORT):
        parts.append(_box("sort3: the cards taken", _cards(faces, [f"r{c}" for c in hand])))
    if top := known_top(obs):
        parts.append(_box("on top of the stack, as put there",
                          _cards(faces, [f"r{c}" for c in top])))
    parts.append(f'<div style="margin-top:4px">{escape(waiting)}{below}</div>')
    return (f'<div class="friday-position" style="font:13px/1.35 sans-serif;background:#1f6f5c;'
            f'color:#222;padding:6px;border-radius:8px;max-width:760px">'
            f'<div style="background:#f4f1e8;padding:6px;border-radius:6px">{"".join(parts)}'
            f"</div></div>")
