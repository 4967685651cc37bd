"""Game traces (TRACE.md): the header and JSON lines (the readable log is sim.play.render)."""
from __future__ import annotations

import json


def header(engine: str, level: int, seed: int, game: int, policy: str, options,
           cards=None) -> dict:
    """TRACE.md's header; ``cards`` the game's card table (sim.cardtable, default printed):
    the whole table, and under ``x`` (TRACE.md allows extra fields only there):
    ``card_table``, which table it is, its hash and what differs from the printed one, and
    ``friday_lab``, the package version and the engine's source hash (sim.provenance)."""
    from .cardtable import as_table
    from .provenance import __version__, engine_hash
    cards = as_table(cards)
    return {"e": "header", "format": "friday-trace", "version": 1, "engine": engine,
            "level": level, "seed": seed, "game": game, "policy": policy,
            "options": options.as_dict(), "cards": cards.header(),
            "x": {"card_table": {k: v for k, v in cards.meta().items() if k != "source"},
                  "friday_lab": {"version": __version__, "engine_sha256": engine_hash()}}}


def to_jsonl(events) -> str:
    return "".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events)


def batch_line(head: dict, events) -> str:
    """One game of a batch's traces (docs/TRACE.md, the traces of a batch): a JSON array of
    its header and its events, on one line."""
    return json.dumps([head, *events], separators=(",", ":")) + "\n"


def read_traces(path):
    """The games of a batch's traces file (``friday simulate --traces``; gzip if the name ends
    in .gz), one list [header, events...] at a time."""
    import gzip
    opener = gzip.open if str(path).lower().endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            yield json.loads(line)
