"""The cards drawn as inline SVG, from a trace header's card table (TRACE.md): the html replay.

Every face is a small standalone ``<svg>`` (viewBox 100 x 140, colours as attributes, no
external font or image), keyed ``r<id>`` for a card in Robinson's hands (a start card, an aging
card, or a hazard's knowledge side: fight value, ability, destroy cost), ``h<id>`` for a hazard
side (title, free cards, the value at the green, yellow and red step, R3, R8) and ``p<id>`` for
a pirate (free cards, value, special rule, R9).  Only what the table says is printed: no value
is worked out here (the engines own the rules).  The hazard values carry the classes ``v0``,
``v1``, ``v2`` so that the page can mark the column of the step being played.
"""
from __future__ import annotations

import textwrap
from html import escape

from ..names import ABILITY_WORDS, PIRATE_WORDS, signed

W, H = 100, 140
KIND_FILL = {"start": "#f4ead2", "aging_normal": "#ddd3ea", "aging_difficult": "#cbbce0",
             "hazard": "#d5e9f5"}
STEP_FILL = ("#57a55a", "#e8c13a", "#d9534f")
INK, PAPER = "#2b2b2b", "#fffdf8"


def _text(x, y, lines, size, *, anchor="middle", weight="normal", fill=INK, extra=""):
    """Lines of text, the first at ``y``, one below the other."""
    spans = "".join(f'<tspan x="{x}" dy="{0 if i == 0 else size * 1.15:.1f}">{escape(t)}'
                    f'</tspan>' for i, t in enumerate(lines))
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}" font-family="sans-serif"{extra}>{spans}</text>')


def _wrap(text: str, width: int, lines: int) -> list[str]:
    out = textwrap.wrap(text, width) or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:max(1, width - 1)].rstrip() + "…"
    return out


def _svg(label: str, fill: str, body: str, cls: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="face {cls}" viewBox="0 0 {W} {H}" '
            f'role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
            f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="8" fill="{fill}" '
            f'stroke="#555" stroke-width="1.5"/>{body}</svg>')


def robinson_face(row: dict) -> str:
    """A card as Robinson fights with it: value, name, ability, destroy cost (R4.8)."""
    value, ability, aging = row["fight_value"], row["ability"], row["kind"].startswith("aging")
    words = ABILITY_WORDS.get(ability, "")
    circle = "#b33a3a" if value < 0 else "#2e6da4" if value > 0 else "#777"
    body = (f'<circle cx="21" cy="21" r="15" fill="{circle}"/>'
            + _text(21, 27, [signed(value)], 16, weight="bold", fill="#fff")
            + (_text(88, 18, ["AGING"], 9, anchor="end", weight="bold", fill="#5b3f86")
               if aging else "")
            + _text(50, 62, _wrap(row["name"], 13, 2), 13, weight="bold")
            + (_text(50, 96, _wrap(words, 16, 2), 10.5, fill="#1d4e78" if not aging
                     else "#7a2f2f", extra=' font-style="italic"') if words else "")
            + _text(50, 131, [f"destroy cost {row['destroy_cost']}"], 8, fill="#666"))
    label = f"{row['name']} ({signed(value)}" + (f", {words}" if words else "") + \
        (", aging" if aging else "") + ")"
    return _svg(label, KIND_FILL.get(row["kind"], PAPER), body, "robinson " + row["kind"])


def hazard_face(row: dict) -> str:
    """A hazard side: title, free cards, the values by step (R3.2), what it becomes beaten."""
    hz = row["hazard"]
    cells = "".join(
        f'<g class="v{s}"><rect x="{5 + 31 * s}" y="86" width="28" height="28" rx="4" '
        f'fill="{STEP_FILL[s]}" stroke="#333" stroke-width="1"/>'
        + _text(19 + 31 * s, 106, [str(v)], 16, weight="bold", fill="#fff") + "</g>"
        for s, v in enumerate(hz["values"]))
    body = (_text(50, 20, _wrap(hz["title"], 16, 3), 10.5, weight="bold")
            + _text(50, 72, [f"{hz['free']} free card" + ("" if hz["free"] == 1 else "s")], 10)
            + cells
            + _text(50, 130, _wrap(f"beaten: {row['name']} ({signed(row['fight_value'])})",
                                   22, 1), 8, fill="#555"))
    label = (f"{hz['title']}: {hz['free']} free, value " +
             "/".join(str(v) for v in hz["values"]) + " (green/yellow/red)")
    return _svg(label, "#f6dcb6", body, "hazard")


def pirate_face(row: dict) -> str:
    """A pirate: free cards and value ('*' where the card prints one, TRACE.md), its rule."""
    p = row["pirate"]
    free, value = (str(p[k]) if p[k] else "*" for k in ("free", "value"))
    words = PIRATE_WORDS.get(p["ability"], "")
    name = row["name"].split(" (")[0]
    body = (_text(50, 20, ["PIRATE"], 10, weight="bold", fill="#f0c05a")
            + _text(50, 36, [name], 10, fill="#ddd")
            + _text(50, 72, [value], 28, weight="bold", fill="#fff")
            + _text(50, 88, [f"free cards {free}"], 10, fill="#ddd")
            + (_text(50, 104, _wrap(words, 18, 3), 9, fill="#f0c05a") if words else ""))
    return _svg(f"{row['name']}: free {free}, value {value}" + (f", {words}" if words else ""),
                "#30344a", body, "pirate")


def card_faces(table) -> dict[str, str]:
    """Every face of the header's card table (a list of TRACE.md rows), by key (module doc)."""
    faces = {}
    for row in table:
        c = int(row["id"])
        if row["kind"] == "pirate":
            faces[f"p{c}"] = pirate_face(row)
            continue
        faces[f"r{c}"] = robinson_face(row)
        if row["kind"] == "hazard":
            faces[f"h{c}"] = hazard_face(row)
    return faces
