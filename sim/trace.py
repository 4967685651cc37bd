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


def to_jsonl(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
