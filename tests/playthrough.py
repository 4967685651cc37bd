"""Playthrough files, in the manner of OpenSpiel's: one game as a deal, the legal actions and
the action taken at every decision, and every trace event (docs/TRACE.md) in between.  A file
is the expected behaviour; ``replay_reference`` and ``replay_fast`` play its actions again on
each engine and return what they saw, to compare with the file.

Format (text, one item per line; ``#`` lines describe the game and the rules it shows)::

    # R9.1 ...
    level: 1
    seed: 0
    game: 0
    options: {"old_age": "lose", ...}
    deal: {"robinson_stack": [...], "aging_stack": [...], "hazard_stack": [...], "pirates": [...]}
    event: {"e": "setup", ...}
    legal: fight:29 fight:31
    action: fight:31
    event: {"e": "hazard_choice", ...}
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from policies.scripted import ScriptedPolicy
from sim.actions import action_name
from sim.reference import Game
from sim.rules import Options

FOLDER = Path(__file__).parent / "playthroughs"


@dataclass
class Playthrough:
    level: int
    seed: int
    game: int
    options: dict
    deal: dict
    about: list = field(default_factory=list)      # the '#' lines
    items: list = field(default_factory=list)      # ("event", dict) | ("legal", [names]) | ("action", name)

    def actions(self) -> list[str]:
        return [v for k, v in self.items if k == "action"]

    def legal(self) -> list[list[str]]:
        return [v for k, v in self.items if k == "legal"]

    def events(self) -> list[dict]:
        return [v for k, v in self.items if k == "event"]


def read(path) -> Playthrough:
    head, about, items = {}, [], []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            about.append(line[1:].strip())
            continue
        key, _, value = line.partition(": ")
        if key in ("level", "seed", "game"):
            head[key] = int(value)
        elif key in ("options", "deal"):
            head[key] = json.loads(value)
        elif key == "event":
            items.append(("event", json.loads(value)))
        elif key == "legal":
            items.append(("legal", value.split()))
        elif key == "action":
            items.append(("action", value))
    return Playthrough(about=about, items=items, **head)


def write(path, p: Playthrough):
    lines = [f"# {a}" for a in p.about] + [
        f"level: {p.level}", f"seed: {p.seed}", f"game: {p.game}",
        f"options: {json.dumps(p.options)}", f"deal: {json.dumps(p.deal)}"]
    for kind, value in p.items:
        text = (json.dumps(value) if kind == "event" else " ".join(value) if kind == "legal"
                else value)
        lines.append(f"{kind}: {text}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


class _Recording(Game):
    """The reference Game, noting the legal actions and the trace position of each decision."""

    def decide(self, phase, legal):
        self.seen.append((len(self.trace), [action_name(a) for a in sorted(legal)]))
        return super().decide(phase, legal)


class _Taking:
    """A player that notes the actions it takes."""

    def __init__(self, policy):
        self.policy, self.name, self.taken = policy, policy.name, []

    def reset(self, seed, game):
        self.policy.reset(seed, game)

    def choose(self, obs, legal, n_legal) -> int:
        self.taken.append(int(self.policy.choose(obs, legal, n_legal)))
        return self.taken[-1]


def replay_reference(p: Playthrough, policy=None) -> list:
    """The items the reference engine gives for the file's deal and actions (or ``policy``'s
    choices, to make a file)."""
    player = _Taking(policy or ScriptedPolicy(p.actions()))
    g = _Recording(p.level, p.seed, p.game, player, Options(**p.options), p.deal)
    g.seen = []
    g.play()
    items, done = [], 0
    for (at, legal), action in zip(g.seen, player.taken):
        items += [("event", e) for e in g.trace[done:at]]
        items += [("legal", legal), ("action", action_name(action))]
        done = at
    return items + [("event", e) for e in g.trace[done:]]


def replay_fast(p: Playthrough) -> tuple[list[dict], list[list[str]]]:
    """The fast engine's trace and legal lists for the file's deal and actions."""
    from sim.fast import play_fast
    f = play_fast(p.level, p.seed, p.game, None, Options(**p.options), p.deal,
                  actions=p.actions(), record=True)
    return f["trace"], [[action_name(a) for a in legal] for legal in f["legal"]]
