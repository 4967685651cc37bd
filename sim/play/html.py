"""One game as one self-contained HTML page that steps through its decisions
(``friday replay --format html``).

    trace, decisions = record_game("reference", 4, 1, 0, load_policy("expert"))
    page = replay_page(header("reference", 4, 1, 0, "expert", Options()), trace, decisions)

``record_game`` plays the game on either engine and keeps what the engine gave the player at
every decision: the observation (R1.4: contents of the piles, never a hidden order), the legal
actions, the action taken, and how many trace events came before.  On the reference engine the
player is wrapped (the engine asks it, ``sim.reference.Game.decide``); on the fast engine the
game is stepped as a ``sim.play.Game`` with the policy's answers (the batch runner's game,
decision for decision).  The page's frames are read off those observations (life, step, turn,
pile counts, pirates, the fight with the engine's own total and value at the comparison, R4.6,
R5.7) and off the trace (the order in which cards came to the table, the game log of
``sim.play.render``); the actions go in ``friday play``'s words.  Nothing here or in the page's
script works out a rule.  The page has no external resource: cards are inline SVG
(``sim.play.faces``), the style and script come from ``replay.html`` beside this module.
"""
from __future__ import annotations

import json
import re
from html import escape
from importlib import resources

from policies.transcript import MovesRanOut
from sim.contract.interrupt import interruptible

from .. import observation as O
from ..actions import A_FIGHT, N_CARDS, action_name
from ..names import CardNames
from ..observation import cards_in, known_top
from ..errors import UsageError
from ..rules import STEP_NAMES, check_level, check_seed, options_text
from .faces import card_faces
from .picture import MARKS, PILES
from .render import CAUSES, render_marked
from .terminal import PHASE_WORDS, SORT_PHASES, describe_action, menu_order



# --- the game, decision by decision --------------------------------------------------------
class _Recorder:
    """The reference engine's player, wrapped: each answer is kept with its decision."""

    def __init__(self, policy):
        self.policy, self.name = policy, policy.name
        self.game, self.decisions = None, []

    def reset(self, seed: int, game: int):
        if hasattr(self.policy, "reset"):
            self.policy.reset(seed, game)

    def choose(self, obs, legal, n_legal) -> int:
        action = int(self.policy.choose(obs, legal, n_legal))
        self.decisions.append((obs.copy(), [int(a) for a in legal[:n_legal]], action,
                               len(self.game.trace)))
        return action


def record_game(engine: str, level: int, seed: int, game: int, policy, options=None,
                deal: dict | None = None, cards=None):
    """Play the game; (its trace without the header, the decisions as tuples (observation,
    legal action ids, action taken, trace events before it)).  ``engine``: ``"fast"`` or
    ``"reference"``; ``policy``: a spec or a Policy; the level, seed and game index are
    checked as ``Game.new`` checks them, before the game starts (UsageError)."""
    from policies import load_policy
    if engine not in ("fast", "reference"):
        raise UsageError(f"engine {engine!r} is unknown: choose fast or reference", "engine")
    level, seed, game = check_level(level), check_seed(seed), check_seed(game, "game")
    policy = load_policy(policy) if isinstance(policy, str) else policy
    if engine == "reference":
        from ..reference import Game as Reference
        player = _Recorder(policy)
        played = player.game = Reference(level, seed, game, player, options, deal, cards)
        try:
            played.play()
        except MovesRanOut as stop:     # a transcript that ends early: the game so far with it
            stop.trace, stop.decisions = played.trace, player.decisions
            raise
        return played.trace, player.decisions
    from ..fast.layout import card_table
    from .game import Game
    g = Game.new(level, seed, game, options, deal, trace=True,
                 table=None if cards is None else card_table(cards))
    decisions = []

    def play_out():             # Ctrl-C and the time limit stop a policy that never returns
        while not g.is_over:
            action = g.policy_action(policy)
            decisions.append((g.observation, g.legal_actions(), action, len(g.trace)))
            g.step(action)
    interruptible(play_out)
    return g.trace, decisions


# --- frames ------------------------------------------------------------------------------
def _last(events, kind: str) -> int:
    """Index of the last event of ``kind`` (-1: none)."""
    return next((i for i in range(len(events) - 1, -1, -1) if events[i]["e"] == kind), -1)


def _row(obs, zone: int, events) -> list:
    """The fight's cards on one side, in the order they came to the table (the trace's draws
    since the fight began; a card drawn twice counts at its last draw), with their marks."""
    order = {}
    for ev in events[max(0, _last(events, "fight_start")):]:
        if ev["e"] == "draw":
            order.pop(ev["card"], None)
            order[ev["card"]] = len(order)
    cards = sorted(cards_in(obs, zone), key=lambda c: (order.get(c, len(order)), c))
    return [[c, [m for bit, m in MARKS if obs[O.FLAGS + c] & bit]] for c in cards]


def _fight(obs, events) -> dict:
    return {"opponent": int(obs[O.O_OPPONENT]), "pirate": bool(obs[O.O_OPPONENT_IS_PIRATE]),
            "value": int(obs[O.O_FIGHT_VALUE]), "effective": int(obs[O.O_EFFECTIVE_VALUE]),
            "total": int(obs[O.O_FIGHT_TOTAL]), "free_left": int(obs[O.O_FREE_LEFT]),
            "free_open": bool(obs[O.O_FREE_OPEN]),
            "left": _row(obs, O.Z_FIGHT_LEFT, events), "right": _row(obs, O.Z_FIGHT_RIGHT, events)}


def frame(obs, events) -> dict:
    """The position a page draws, from the observation ``obs`` and the trace ``events`` up to
    it (for the order of the cards on the table only)."""
    phase = int(obs[O.O_PHASE])
    drawn = events[_last(events, "hazards_drawn")]["cards"] if phase == O.PH_HAZARD else []
    beaten = cards_in(obs, O.Z_PIRATE_BEATEN)
    f = {"phase": O.PHASE_NAMES[phase], "step": int(obs[O.O_STEP]), "turn": int(obs[O.O_TURN]),
         "life": int(obs[O.O_LIFE]), "max_life": int(obs[O.O_MAX_LIFE]),
         "piles": [[name, int(obs[i])] for name, i in PILES]
         + [["removed", len(cards_in(obs, O.Z_REMOVED))]],
         "pirates": [[int(p), int(p) in beaten] for p in (obs[O.O_PIRATE_1], obs[O.O_PIRATE_2])
                     if p >= 0],
         "offered": [c for c in drawn if obs[O.ZONE + c] == O.Z_HAZARD_DRAWN],
         "sort": cards_in(obs, O.Z_SORT), "top": known_top(obs),
         "budget": int(obs[O.O_DESTROY_BUDGET])}
    if obs[O.O_OPPONENT] >= 0 and phase != O.PH_NONE:
        f["fight"] = _fight(obs, events)
    return f


def frames(head: dict, trace, decisions, ids: bool = False, chances=None):
    """(the game log's lines, one frame per decision and one for the end): each frame with the
    lines of the log that led to it (``log``: from, to), a sort3 line held back until sort3
    is done, as ``friday play`` prints it.  The end has no observation of its own (no player
    is asked): its frame is the last decision's table with the trace's result, life and step.
    ``chances`` (a reviewed game, ``friday review --html``): per decision index, per action
    id, the words of its chance of winning; a frame's ``chance`` lists them in menu order."""
    names = CardNames(head["cards"], ids)
    events = [head] + list(trace)
    lines, before = render_marked(events, ids)
    out, shown = [], 0
    for d, (obs, legal, action, n) in enumerate(decisions):
        phase, cut = int(obs[O.O_PHASE]), n + 1
        if phase in SORT_PHASES:
            cut = max(i for i in range(cut) if events[i].get("ability") == "sort3")
        seen = events[1:n + 1]
        menu = menu_order(phase, legal, seen)
        f = frame(obs, seen)
        f["top"] = [names.short(c) for c in f["top"]]
        f.update(ask=PHASE_WORDS.get(phase, O.PHASE_NAMES[phase]), taken=menu.index(action),
                 chosen=(action - A_FIGHT) % N_CARDS if action >= A_FIGHT else None,
                 legal=[[action_name(a), describe_action(names, obs, a)] for a in menu],
                 log=[shown, max(shown, before[cut])])
        shown = f["log"][1]
        if chances and d in chances:
            f["chance"] = [chances[d].get(a, "") for a in menu]
        out.append(f)
    ev = events[-1]
    if ev["e"] != "game_end":           # moves that end before the game does: theirs only
        return [[[text, style] for text, style in line] for line in lines], out
    last = out[-1] if out else {"turn": 0, "max_life": ev["life"], "piles": [], "pirates": [],
                                "offered": [], "sort": [], "top": [], "budget": 0}
    end = {k: v for k, v in last.items()
           if k not in ("ask", "taken", "chosen", "legal", "chance")}
    end.update(life=ev["life"], step=STEP_NAMES.index(ev["step"]), log=[shown, len(lines)],
               end={"won": ev["won"], "score": ev["score"],
                    "says": "Robinson beats both pirates and wins" if ev["won"] else
                    f"{CAUSES.get(ev['cause'], ev['cause'])}: lost in the {ev['step']} step"})
    return [[[text, style] for text, style in line] for line in lines], out + [end]


# --- the page ------------------------------------------------------------------------------
def _json(data) -> str:
    """JSON safe inside a <script> element (no '<', '>' or '&' outside escapes)."""
    return (json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


def replay_page(head: dict, trace, decisions, ids: bool = False, chances=None) -> str:
    """The page (a string): the game of ``head`` (its TRACE.md header), ``trace`` and the
    decisions of ``record_game``; each action's chance of winning where ``chances`` has it."""
    lines, fr = frames(head, trace, decisions, ids, chances)
    title = (f"Friday, level {head['level']}, seed {head['seed']}, game {head['game']}: "
             f"{head['policy']}")
    table = head.get("x", {}).get("card_table", {})
    sub = (f"engine {head['engine']}; rule options {options_text(head['options'])}; card "
           f"table {table.get('table', 'printed')}" +
           (f" ({'; '.join(map(str, table['changes']))})" if table.get("changes") else ""))
    data = {"title": title, "sub": sub, "lines": lines, "frames": fr}
    parts = {"TITLE": escape(title), "DATA": _json(data), "FACES": _json(card_faces(head["cards"]))}
    page = resources.files(__package__).joinpath("replay.html").read_text(encoding="utf-8")
    return re.sub(r"\{\{(TITLE|DATA|FACES)\}\}", lambda m: parts[m[1]], page)
