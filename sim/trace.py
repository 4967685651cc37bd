"""Game traces (TRACE.md): header, JSON lines, and a readable play-by-play."""
from __future__ import annotations

import json

from . import cards as C


def header(engine: str, level: int, seed: int, game: int, policy: str, options,
           cards=None) -> dict:
    """TRACE.md's header; ``cards`` the game's card table (sim.cardtable, default printed):
    the whole table, and under ``card_table`` its hash and what differs from the printed one."""
    from .cardtable import as_table
    cards = as_table(cards)
    return {"e": "header", "format": "friday-trace", "version": 1, "engine": engine,
            "level": level, "seed": seed, "game": game, "policy": policy,
            "options": options.as_dict(), "cards": cards.header(),
            "card_table": {k: v for k, v in cards.meta().items() if k != "source"}}


def to_jsonl(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


_LABELS: dict = {}


def _card(c) -> str:
    return "-" if c is None else _LABELS.get(int(c)) or C.card_label(int(c))


def _cards(ids) -> str:
    return ", ".join(_card(c) for c in ids) if ids else "none"


def _header_label(card: dict) -> str:
    """sim.cards.card_label, from a trace header's card entry (the game's own table)."""
    if card["kind"] == "hazard":
        return f"{card['hazard']['title']} [{card['name']} {card['fight_value']:+d}]#{card['id']}"
    if card["kind"] == "pirate":
        return f"{card['name']}#{card['id']}"
    return f"{card['name']}({card['fight_value']:+d})#{card['id']}"


def render_text(events) -> str:
    """A play-by-play a player would enjoy reading (cards labelled from the header's table)."""
    lines = []
    _LABELS.clear()
    for ev in events:
        e = ev["e"]
        if e == "header":
            _LABELS.update({int(c["id"]): _header_label(c) for c in ev.get("cards", ())})
            lines.append(f"Friday, level {ev['level']}, seed {ev['seed']} game {ev['game']}, "
                         f"policy {ev['policy']} ({ev['engine']} engine)")
            opts = ", ".join(f"{k}={v}" for k, v in ev["options"].items())
            lines.append(f"  rule options: {opts}")
            edits = ev.get("card_table", {}).get("changes")
            if edits:
                lines.append(f"  card table edited: {'; '.join(edits)}")
        elif e == "setup":
            lines.append(f"Set-up: life {ev['life']}/{ev['max_life']}, pirates "
                         f"{_cards(ev['pirates'])}; {len(ev['robinson_stack'])} Robinson cards, "
                         f"{len(ev['aging_stack'])} aging cards.")
        elif e == "step":
            lines.append("")
            lines.append(f"=== {ev['step'].upper()} step" +
                         (f" ({len(ev['hazard_stack'])} hazards) ===" if ev["step"] != "pirates" else " ==="))
        elif e == "hazards_drawn":
            lines.append(f"Hazards drawn: {_cards(ev['cards'])}")
        elif e == "hazard_choice":
            lines.append(f"  fights {_card(ev['fight'])}" if ev["fight"] is not None
                         else f"  skips {_cards(ev['discarded'])}")
        elif e == "pirate_choice":
            lines.append(f"Robinson faces {_card(ev['fight'])}")
        elif e == "fight_start":
            lines.append(f"  fight vs {_card(ev['opponent'])}: value {ev['value']}, "
                         f"{ev['free_cards']} free cards")
        elif e == "draw":
            cost = f", pays {ev['cost']} life" if ev["cost"] else ""
            lines.append(f"    draws {_card(ev['card'])} ({ev['side']}, {ev['reason']}{cost})")
        elif e == "reshuffle":
            aging = _card(ev["aging_added"]) if ev["aging_added"] is not None else "no aging card"
            lines.append(f"    Robinson stack empty: reshuffles the discard with {aging} "
                         f"({len(ev['robinson_stack'])} cards)")
        elif e == "ability":
            target = f" on {_card(ev['target'])}" if ev["target"] is not None else ""
            via = f" (copied by {_card(ev['via_copy'])})" if ev["via_copy"] is not None else ""
            detail = f" {ev['detail']}" if ev["detail"] else ""
            lines.append(f"    {ev['ability']} of {_card(ev['card'])}{target}{via}{detail}")
        elif e == "life":
            lines.append(f"    life {ev['delta']:+d} ({ev['reason']}) -> {ev['life']}")
        elif e == "fight_end":
            verdict = "WON" if ev["won"] else "LOST"
            extra = ""
            if ev["destroyed"]:
                extra += f"; destroys {_cards(ev['destroyed'])}"
            if ev["removed"]:
                extra += f"; removes face-down {_cards(ev['removed'])}"
            lines.append(f"  {verdict}: total {ev['total']} vs {ev['value']}{extra}")
        elif e == "game_end":
            lines.append("")
            result = "Robinson WINS" if ev["won"] else f"Robinson loses ({ev['cause']})"
            lines.append(f"{result} in the {ev['step']} step with {ev['life']} life. "
                         f"Score {ev['score']}.")
    return "\n".join(lines) + "\n"
