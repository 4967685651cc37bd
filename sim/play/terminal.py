"""``friday play``: a person plays one whole game in the terminal, on the reference engine.

The reference engine asks its policy at every decision (``sim.reference.Game.decide``), so the
person is a policy here: ``TerminalPlayer.choose`` prints what happened since the last decision
(the game log of ``sim.play.render``), the state as the observation has it (only what a player may
know, R1.4: contents of the piles, never their hidden order), the legal actions by number and
name, and reads the answer from standard input.  ``?`` asks the hint policy, ``q`` (or the end
of the input) leaves the game, a wrong entry is explained and asked again.  At the end: the
score item by item (R10.3) and the built-in policies on the very same deal.
"""
from __future__ import annotations

import sys

import numpy as np

from .. import cards as C
from .. import observation as O
from ..actions import (A_DESTROY, A_DISCARD, A_DONE, A_DRAW, A_END, A_FIGHT, A_MORE, A_PAY,
                      A_PIRATE, A_PUT, A_SKIP, A_TARGET, A_USE, N_CARDS, action_id, action_name)
from ..names import ABILITY_WORDS, CardNames, count
from .game import position_lines
from .render import render_lines
from ..errors import FridayError
from ..rules import CAUSE_NAMES, STEP_NAMES, Options
from ..trace import header

SORT_PHASES = (O.PH_SORT_TAKE, O.PH_SORT_DISCARD, O.PH_SORT_ORDER)
PHASE_WORDS = {O.PH_HAZARD: "which hazard to fight (R3)", O.PH_PIRATE: "which pirate first (R9.1)",
               O.PH_FIGHT: "the fight (R4)", O.PH_TARGET: "the ability's target (R5)",
               O.PH_MORE: "the ability goes on? (R5)",
               O.PH_SORT_TAKE: "sort3: take the next card? (R5.6)",
               O.PH_SORT_DISCARD: "sort3: discard one? (R5.6)",
               O.PH_SORT_ORDER: "sort3: which card goes back next from the top? (R5.6)",
               O.PH_DESTROY: "destroy with the loss budget (R4.8)"}
# done and more in words, (done, more): by the phase, else by the ability carried out
DONE_MORE = {O.PH_SORT_TAKE: ("stop looking", "look at the next card of the stack"),
             O.PH_SORT_DISCARD: ("discard none of them",) * 2,
             O.PH_DESTROY: ("destroy no more cards",) * 2}
ABILITY_DONE_MORE = {C.AB_DRAW2: ("no second card", "draw the second card"),
                     C.AB_BELOW_PILE: ("no replacement", "draw a free replacement to the left"),
                     C.AB_EXCHANGE2: ("no second exchange",) * 2}
TARGET_VERB = {C.AB_DESTROY: "destroy", C.AB_DOUBLE: "double", C.AB_COPY: "copy the ability of",
               C.AB_EXCHANGE1: "exchange", C.AB_EXCHANGE2: "exchange",
               C.AB_BELOW_PILE: "put under the stack"}
HELP = ("Enter the number or the name of an action (e.g. 2 or draw), ? for a hint, "
        "q to leave the game.")


def menu_order(phase: int, legal: list[int], trace: list[dict]) -> list[int]:
    """The legal actions in the order the menu numbers them: at a hazard decision the hazards
    in the order they were drawn, as the log's ``Hazards:`` line names them, then the skip;
    elsewhere as the engine lists them."""
    if phase != O.PH_HAZARD:
        return legal
    drawn = next(e["cards"] for e in reversed(trace) if e["e"] == "hazards_drawn")
    place = {A_FIGHT + c: i for i, c in enumerate(drawn)}
    return sorted(legal, key=lambda a: place.get(a, len(place)))


def describe_action(n: CardNames, obs, action: int) -> str:
    """An action in words at the decision of the observation ``obs`` (``friday play``'s menu,
    the html replay); card data from ``n``'s table, the game's own."""
    phase, pending = int(obs[O.O_PHASE]), int(obs[O.O_PENDING_ABILITY])
    if action == A_END:
        total, value = int(obs[O.O_FIGHT_TOTAL]), int(obs[O.O_EFFECTIVE_VALUE])
        return (f"end the fight: won, {total} against {value}" if total >= value else
                f"end the fight: lost, {total} against {value}, pay {value - total} life")
    if action == A_DRAW:
        return f"draw a free card ({obs[O.O_FREE_LEFT]} free left)"
    if action == A_PAY:
        return f"pay {obs[O.O_PAID_COST]} life for a card (life {obs[O.O_LIFE]})"
    if action == A_SKIP:
        return "discard this last hazard without a fight"
    if action in (A_DONE, A_MORE):
        words = DONE_MORE.get(phase) or ABILITY_DONE_MORE.get(pending, ("done", "more"))
        return words[action == A_MORE]
    card = (action - A_FIGHT) % N_CARDS
    if action < A_PIRATE:
        return (f"fight {n.hazard(card)}: value {n.hazard_value(card, int(obs[O.O_STEP]))}, "
                f"{count(n.table[card]['hazard']['free'], 'free card')}; beaten, it becomes "
                f"{n.card(card)}")
    if action < A_USE:
        return f"fight {n.pirate(card)} first ({n.pirate_rules(card)})"
    if action < A_TARGET:
        return f"use {n.card(card)}"
    if action < A_DESTROY:
        what = f" ({ABILITY_WORDS[n.table[card]['ability']]})" if pending == C.AB_COPY else ""
        return f"{TARGET_VERB.get(pending, 'target')} {n.short(card)}{what}"
    if action < A_DISCARD:
        return f"destroy {n.short(card)} (costs {n.table[card]['destroy_cost']})"
    if action < A_PUT:
        return f"discard {n.short(card)}"
    return f"put {n.short(card)} back, next from the top"


class PlayerQuit(Exception):
    """The player left the game (``q`` or the end of the input)."""


class TerminalPlayer:
    """A policy that asks a person at the terminal: it writes lines of spans (a text, or (text,
    rich style)), coloured on a terminal (rich), plain otherwise, and reads the answers from
    standard input; ``hint`` is a built-in (or file) policy for ``?``."""

    name = "you"

    def __init__(self, hint, ids: bool = False, coach=None, coach_every: bool = False,
                 moves=()):
        from rich.console import Console
        self.console = Console(highlight=False, soft_wrap=True)
        self.hint = hint
        self.coach, self.coach_every = coach, coach_every   # sim.lab.coach.Coach, --coach
        self.names = CardNames(C.header_table(), ids)
        self.game = self.head = None    # set by play_in_terminal: the Game, its trace header
        self.printed = 0
        self.moves: list[str] = []
        self.queued = [int(a) for a in moves]   # a game left early: its moves come first
        self.finished = False                  # the game played to its end

    def reset(self, seed: int, game: int):
        self.hint.reset(seed, game)

    def line(self, *spans, gap: bool = False):
        """One line of spans; ``gap``: a blank line first."""
        from rich.text import Text
        self.console.print(Text.assemble("\n" if gap else "", *spans))

    def ask(self, prompt: str) -> str:
        """The answer typed, stripped; PlayerQuit at the end of the input."""
        self.console.print(prompt, end="")
        self.console.file.flush()
        answer = sys.stdin.readline()
        if not answer:
            raise PlayerQuit("end of the input")
        if not sys.stdin.isatty():
            self.console.print(answer.rstrip("\n"), highlight=False)   # a transcript shows it
        return answer.strip()

    # --- what happened, and the state --------------------------------------------------
    def show_log(self, hold_sort: bool = False):
        """The game log since the last decision (a sort3 line waits until sort3 is done)."""
        events = [self.head] + self.game.trace
        if hold_sort:
            sorts = [i for i, e in enumerate(events) if e.get("ability") == "sort3"]
            events = events[:sorts[-1]] if sorts else events
        lines = render_lines(events, self.names.ids, cut_note=False)
        for ln in lines[self.printed:]:
            self.line(*ln)
        if not self.printed:
            self.line(HELP, gap=True)
        self.printed = max(self.printed, len(lines))

    def show_state(self, obs):
        """The position as a player may know it (sim.play.game.position_lines)."""
        self.line()
        for spans in position_lines(obs, self.names):
            self.line(*spans)

    # --- the actions -------------------------------------------------------------------
    def choose(self, obs, legal, n_legal) -> int:
        legal = [int(a) for a in legal[:n_legal]]
        if self.queued:                        # checked before the game (friday play --actions)
            action = self.queued.pop(0)
            self.moves.append(action_name(action))
            if self.coach is not None:
                self.coach.moved(action)
            return action
        phase = int(obs[O.O_PHASE])
        self.show_log(hold_sort=phase in SORT_PHASES)
        self.show_state(obs)
        self.line((f"Your choice, {PHASE_WORDS.get(phase, O.PHASE_NAMES[phase])}:", "bold"))
        menu = menu_order(phase, legal, self.game.trace)
        for i, a in enumerate(menu, 1):
            self.line((f"  {i:>2}  ", "bold"), (f"{action_name(a):<12s}", "cyan"),
                      describe_action(self.names, obs, a))
        while True:
            answer = self.ask("> ")
            if answer.lower() in ("q", "quit", "exit"):
                raise PlayerQuit("you left the game")
            if answer == "?":
                self.hint.decisions = len(self.moves)    # an error names this decision's number
                hint = int(self.hint.choose(obs, np.array(legal, dtype=np.int64), len(legal)))
                self.line(f"  {self.hint.name} " + (
                    f"would choose {menu.index(hint) + 1} {action_name(hint)}: "
                    f"{describe_action(self.names, obs, hint)}" if hint in menu else
                    f"answered an illegal action ({hint}): no hint"))
                if self.coach is not None:
                    self.line("  " + self.coach.chances_line(legal, self._label(menu)))
            elif (action := self.parse(answer, menu)) is not None:
                self.moves.append(action_name(action))
                self._coached(legal, action, menu)
                return action

    def _label(self, menu):
        """An action as the menu shows it: its number and name."""
        return lambda a: f"{menu.index(a) + 1} {action_name(a)}"

    def _coached(self, legal, action, menu):
        """With --coach, the chance the move lost (a decision with a choice); the coach's game
        follows the move."""
        if self.coach is None:
            return
        if self.coach_every and len(legal) > 1:
            self.line(("  " + self.coach.loss_line(legal, action, self._label(menu)), "italic"))
        self.coach.moved(action)

    def parse(self, answer: str, legal: list[int]) -> int | None:
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self.line(f"  {answer} is not a choice: enter 1 to {len(legal)}. {HELP}")
            return None
        try:
            action = action_id(answer)
        except FridayError:
            self.line(f"  {answer!r} is not an action here. {HELP}")
            return None
        if action not in legal:
            self.line(f"  {answer} is not legal now. {HELP}")
            return None
        return action


def play_in_terminal(level: int, seed: int, game: int, hint_spec, options: Options,
                     ids: bool = False, coach=None, coach_every: bool = False,
                     save=None, moves=()) -> int:
    """Play one game with a person at the terminal; returns the exit code (0, or 130 after
    Ctrl-C).  ``hint_spec``: the hint policy (a spec or a Policy); ``coach``: chances for
    ``?`` (and after every move with ``coach_every``); ``save(moves, finished)``: called with
    the moves made when the game ends, is left or interrupted; ``moves``: the action ids of a
    game left early, played first (checked legal: policies.transcript)."""
    from policies import load_policy
    player = TerminalPlayer(load_policy(hint_spec), ids, coach, coach_every, moves)
    try:
        return _play(player, level, seed, game, options)
    finally:
        if save is not None:
            save(player.moves, player.finished)


def _play(player, level, seed, game, options) -> int:
    from policies import builtin_policies
    from ..reference import Game
    hint = player.hint
    again = f"friday play --level {level} --seed {seed} --game {game}"
    try:
        player.game = played = Game(level, seed, game, player, options)
        player.head = header("reference", level, seed, game, f"you (hints: {hint.name})", options)
        try:
            played.play()
        except PlayerQuit as stop:
            player.line(f"Game left at turn {played.turn} ({stop}), after {len(player.moves)} "
                        f"moves. The same deal again: {again}", gap=True)
            return 0
        player.finished = True
        player.show_log()
        player.line((f"The same deal (level {level}, seed {seed}, game {game}) played by the "
                     f"built-in policies:", "bold"), gap=True)
        rows = [("you", played)] + [(name, Game(level, seed, game, pol, options).play())
                                    for name, pol in builtin_policies().items()]
        for name, g in rows:
            result = "won" if g.won else f"lost ({CAUSE_NAMES[g.cause]}, {STEP_NAMES[g.step]} step)"
            player.line(f"  {name:<14s}score {g.score:>4d}   {result}")
        return 0
    except KeyboardInterrupt:
        player.line(f"Interrupted (Ctrl-C): game not finished. The same deal again: {again}",
                    gap=True)
        return 130
