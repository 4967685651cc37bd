"""scripted: plays a given list of textual actions (``fight:31``, ``draw``, ``end``...).

Not a Numba policy: it replays a game played at a table or a test's hand-made line of play.
It stops with a clear error when an action is illegal or the list runs out.
"""
from __future__ import annotations

import json
from pathlib import Path

from sim.actions import action_id, action_name
from sim.observation import PHASE_NAMES, O_PHASE
from sim.rules import RuleError


class ScriptedPolicy:
    """A given line of play, on the reference engine only (it is no Numba function)."""
    engines = ("reference",)
    searches = False

    def check_engine(self, engine: str):
        if engine not in self.engines:
            raise RuleError("--actions (scripted play) runs on the reference engine only")

    def __init__(self, actions, name: str = "scripted"):
        self.name = name
        self.actions = [str(a).strip() for a in actions if str(a).strip()]
        self.position = 0
        self.ids = [action_id(a) for a in self.actions]   # unknown names fail here, early

    @classmethod
    def from_file(cls, path) -> "ScriptedPolicy":
        """One action per line (``#`` starts a comment), or a JSON list."""
        file = Path(path)
        if not file.is_file():
            raise RuleError(f"actions file {str(path)!r} not found")
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
            raise RuleError(f"{self.name}: the action list ran out after {len(self.ids)} actions "
                            f"at a {PHASE_NAMES[int(obs[O_PHASE])]} decision; legal: {legal_names}")
        action = self.ids[self.position]
        self.position += 1
        return action
