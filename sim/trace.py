"""Game traces (TRACE.md): the header and JSON lines (the readable log is sim.render)."""
from __future__ import annotations

import json

from . import cards as C


def header(engine: str, level: int, seed: int, game: int, policy: str, options) -> dict:
    return {"e": "header", "format": "friday-trace", "version": 1, "engine": engine,
            "level": level, "seed": seed, "game": game, "policy": policy,
            "options": options.as_dict(), "cards": C.header_table()}


def to_jsonl(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)
