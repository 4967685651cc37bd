"""Game traces (TRACE.md): the header and JSON lines (the readable log is sim.play.render)."""
from __future__ import annotations

import json


def header(engine: str, level: int, seed: int, game: int, policy: str, options,
           cards=None) -> dict:
    """TRACE.md's header; ``cards`` the game's card table (sim.cardtable, default printed):
    the whole table, and under ``x.card_table`` (TRACE.md allows extra fields only under
    ``x``) which table it is, its hash and what differs from the printed one."""
    from .cardtable import as_table
    cards = as_table(cards)
    return {"e": "header", "format": "friday-trace", "version": 1, "engine": engine,
            "level": level, "seed": seed, "game": game, "policy": policy,
            "options": options.as_dict(), "cards": cards.header(),
            "x": {"card_table": {k: v for k, v in cards.meta().items() if k != "source"}}}


def header_cards(head: dict):
    """The card table a header carries, as a sim.cardtable.CardTable (the arrays the rules
    read); fields a card's kind lacks are blank."""
    from .cardtable import CardTable
    rows = []
    for card in head["cards"]:
        hazard, pirate = card["hazard"] or {}, card["pirate"] or {}
        green, yellow, red = hazard.get("values", ("", "", ""))
        fields = {"id": card["id"], "kind": card["kind"], "name": card["name"],
                  "fight_value": card["fight_value"], "ability": card["ability"],
                  "destroy_cost": card["destroy_cost"], "hazard_title": hazard.get("title"),
                  "hazard_free_cards": hazard.get("free"), "hazard_green": green,
                  "hazard_yellow": yellow, "hazard_red": red,
                  "pirate_free_cards": pirate.get("free"),
                  "pirate_hazard_value": pirate.get("value"),
                  "pirate_ability": pirate.get("ability")}
        rows.append({k: "" if v is None else str(v) for k, v in fields.items()})
    return CardTable(rows, source="trace header")


def to_jsonl(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
