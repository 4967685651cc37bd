"""scripted: plays a given list of textual actions (``fight:31``, ``draw``, ``end``...).

Not a Numba policy: it replays a game played at a table or a test's hand-made line of play.
It stops with a clear error when an action is illegal or the list runs out.  A table game's
transcript also writes down the table's later shuffles where they happened
(``robinson_reshuffle: ids``, ``hazard_reshuffle: ids``, top first): they go to the engine
with the deal (``deal_with_shuffles``, sim.deal RESHUFFLE_KEYS).
"""
from __future__ import annotations

import json
from pathlib import Path

from sim.actions import action_id, action_name
from sim.observation import PHASE_NAMES, O_PHASE
from sim.errors import UsageError


SHUFFLE_LINES = {"robinson_reshuffle": "robinson_reshuffles",
                 "hazard_reshuffle": "hazard_reshuffles"}


class ScriptedPolicy:
    """A given line of play, on the reference engine only (it is no Numba function)."""
    engines = ("reference",)
    searches = False

    def check_engine(self, engine: str):
        if engine not in self.engines:
            raise UsageError("actions (scripted play) run on the reference engine only", "actions")

    def __init__(self, actions, name: str = "scripted"):
        self.name = name
        lines = [str(a).strip() for a in actions if str(a).strip()]
        # a table's shuffle, written where it happened: "robinson_reshuffle: 17 49 14" (R7.1)
        # or "hazard_reshuffle: 40 58" (R8.1), its cards top first (sim.deal RESHUFFLE_KEYS)
        self.shuffles: dict[str, list[list[int]]] = {}
        for line in lines:
            kind, colon, cards = line.partition(":")
            if colon and kind.strip() in SHUFFLE_LINES:
                try:
                    order = [int(c) for c in cards.replace(",", " ").split()]
                except ValueError:
                    raise UsageError(f"{name}: {line!r}: a shuffle lists card ids, top first, "
                                     f"e.g. '{kind.strip()}: 17 49 14'") from None
                self.shuffles.setdefault(SHUFFLE_LINES[kind.strip()], []).append(order)
        self.actions = [a for a in lines if a.partition(":")[0].strip() not in SHUFFLE_LINES]
        self.position = 0
        self.ids = [action_id(a) for a in self.actions]   # unknown names fail here, early

    def deal_with_shuffles(self, deal: dict | None) -> dict | None:
        """``deal`` (a deal dict, or None) with the table's shuffles of the transcript."""
        if not self.shuffles:
            return deal
        both = sorted(set(self.shuffles) & set(deal or {}))
        if both:
            raise UsageError(f"{self.name} and the deal both give {both[0]}: give the table's "
                             f"shuffles in one of them")
        return {**(deal or {}), **self.shuffles}

    @classmethod
    def from_file(cls, path) -> "ScriptedPolicy":
        """One action per line (``#`` starts a comment), or a JSON list."""
        file = Path(path)
        if not file.is_file():
            raise UsageError(f"actions file {str(path)!r} not found")
        text = file.read_text(encoding="utf-8")
        if text.lstrip().startswith("["):
            return cls(json.loads(text), name=f"scripted:{file.name}")
        lines = [line.split("#", 1)[0] for line in text.splitlines()]
        return cls(lines, name=f"scripted:{file.name}")

    def reset(self, seed: int, game: int):
        self.position = 0

    def choose(self, obs, legal, n_legal) -> int:
        if self.position >= len(self.ids):
            legal_names = ", ".join(action_name(a) for a in legal[:n_legal])
            raise UsageError(f"{self.name}: the action list ran out after {len(self.ids)} actions "
                             f"at a {PHASE_NAMES[int(obs[O_PHASE])]} decision; "
                             f"legal: {legal_names}")
        action = self.ids[self.position]
        self.position += 1
        return action
