"""scripted: plays a given list of textual actions (``fight:31``, ``draw``, ``end``...).

Not a Numba policy: it replays a game played at a table or a test's hand-made line of play.
Its moves come from a transcript (policies.transcript: the one reader of a moves file, and
what a transcript may be) or a list.  It stops with ``MovesRanOut`` (a UsageError) when the
list runs out; an illegal move is the engine's error (sim.reference.IllegalAction).  A table
game's transcript also writes down the table's later shuffles where they happened
(``robinson_reshuffle: ids``, ``hazard_reshuffle: ids``, top first): they go to the engine
with the deal (``deal_with_shuffles``, sim.deal RESHUFFLE_KEYS).
"""
from __future__ import annotations

from sim.actions import action_name
from sim.observation import PHASE_NAMES, O_PHASE, O_TURN
from sim.errors import UsageError

from .transcript import SHUFFLE_LINES  # noqa: F401 (its old place)
from .transcript import MovesRanOut, Transcript, of, read_transcript


class ScriptedPolicy:
    """A given line of play, on the reference engine only (it is no Numba function)."""
    engines = ("reference",)
    searches = False

    def check_engine(self, engine: str):
        if engine not in self.engines:
            raise UsageError("actions (scripted play) run on the reference engine only", "actions")

    def __init__(self, actions, name: str = "scripted"):
        """``actions``: a Transcript, or a list of moves (names, shuffle lines, ids)."""
        self.name = name
        self.transcript: Transcript = of(actions, name)
        self.shuffles = self.transcript.shuffles
        self.actions = self.transcript.names
        self.ids = self.transcript.ids
        self.position = 0

    def deal_with_shuffles(self, deal: dict | None) -> dict | None:
        """``deal`` (a deal dict, or None) with the table's shuffles of the transcript."""
        return self.transcript.with_shuffles(deal)

    @classmethod
    def from_file(cls, path) -> "ScriptedPolicy":
        """One action per line (``#`` starts a comment), or a JSON list
        (policies.transcript.read_transcript)."""
        t = read_transcript(path)
        return cls(t, name=f"scripted:{t.source}")

    def reset(self, seed: int, game: int):
        self.position = 0

    def choose(self, obs, legal, n_legal) -> int:
        if self.position >= len(self.ids):
            names = [action_name(a) for a in legal[:n_legal]]
            phase, turn = PHASE_NAMES[int(obs[O_PHASE])], int(obs[O_TURN])
            raise MovesRanOut(f"{self.name}: the action list ran out after {len(self.ids)} "
                              f"actions at a {phase} decision; legal: "
                              f"{', '.join(names)}", phase, turn, names)
        action = self.ids[self.position]
        self.position += 1
        return action
