"""``friday play``: a person plays one whole game in the terminal, on the reference engine.

The reference engine asks its policy at every decision (``sim.reference.Game.decide``), so the
person is a policy here: ``TerminalPlayer.choose`` prints what happened since the last decision
(the game log of ``sim.render``), the state as the observation has it (only what a player may
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
from .render import render_lines
from ..rules import CAUSE_NAMES, STEP_NAMES, Options, RuleError
from ..trace import header

SORT_PHASES = (O.PH_SORT_TAKE, O.PH_SORT_DISCARD, O.PH_SORT_ORDER)
PHASE_WORDS = {O.PH_HAZARD: "which hazard to fight (R3)", O.PH_PIRATE: "which pirate first (R9.1)",
               O.PH_FIGHT: "the fight (R4)", O.PH_TARGET: "the ability's target (R5)",
               O.PH_MORE: "the ability goes on? (R5)", O.PH_SORT_TAKE: "sort3: take the next card? (R5.6)",
               O.PH_SORT_DISCARD: "sort3: discard one? (R5.6)",
               O.PH_SORT_ORDER: "sort3: which card goes back next from the top? (R5.6)",
               O.PH_DESTROY: "destroy with the loss budget (R4.8)"}
HELP = ("Enter the number or the name of an action (e.g. 2 or draw), ? for a hint, "
        "q to leave the game.")


class PlayerQuit(Exception):
    """The player left the game (``q`` or the end of the input)."""


class Screen:
    """Writes lines of (text, style) spans: coloured on a terminal (rich), plain otherwise."""

    def __init__(self):
        from rich.console import Console
        self.console = Console(highlight=False, soft_wrap=True)

    def line(self, spans=()):
        from rich.text import Text
        text = Text()
        for t, style in ([(spans, "")] if isinstance(spans, str) else spans):
            text.append(t, style=style or None)
        self.console.print(text)

    def ask(self, prompt: str) -> str | None:
        self.console.print(prompt, end="")
        self.console.file.flush()
        answer = sys.stdin.readline()
        if answer and not sys.stdin.isatty():
            self.console.print(answer.rstrip("\n"), highlight=False)   # a transcript shows it
        return answer if answer else None         # '' = end of the input


class TerminalPlayer:
    """A policy that asks a person; ``hint`` is a built-in (or file) policy for ``?``."""

    name = "you"

    def __init__(self, hint, screen: Screen, ids: bool = False):
        self.hint, self.screen = hint, screen
        self.names = CardNames(C.header_table(), ids)
        self.game = None          # set by play_in_terminal (the Game calling choose)
        self.head = None
        self.printed = 0
        self.moves: list[str] = []

    def reset(self, seed: int, game: int):
        if hasattr(self.hint, "reset"):
            self.hint.reset(seed, game)

    # --- what happened, and the state --------------------------------------------------
    def show_log(self, hold_sort: bool = False):
        """The game log since the last decision (a sort3 line waits until sort3 is done)."""
        events = [self.head] + self.game.trace
        if hold_sort:
            last = [i for i, e in enumerate(events) if e["e"] == "ability" and e["ability"] == "sort3"]
            events = events[:last[-1]] if last else events
        lines = render_lines(events, self.names.ids)
        if events[-1]["e"] != "game_end":
            lines = [ln for ln in lines if "The trace ends here" not in "".join(t for t, _ in ln)]
            while lines and not "".join(t for t, _ in lines[-1]).strip():
                lines.pop()
        for ln in lines[self.printed:]:
            self.screen.line(ln)
        if not self.printed:
            self.screen.line("")
            self.screen.line(HELP)
        self.printed = max(self.printed, len(lines))

    def pile(self, obs, zone: int) -> list[int]:
        return [c for c in range(O.N_FIGHTING) if obs[O.ZONE + c] == zone]

    def show_state(self, obs):
        n, s = self.names, self.screen
        step = int(obs[O.O_STEP])
        s.line("")
        s.line([(f"-- {STEP_NAMES[step]} step", "bold"), (f", turn {obs[O.O_TURN]}: ", ""),
                (f"life {obs[O.O_LIFE]} of {obs[O.O_MAX_LIFE]}", "bold cyan"),
                (f"; hazard stack {obs[O.O_N_HAZARD_STACK]}, hazard discard "
                 f"{obs[O.O_N_HAZARD_DISCARD]}, aging stack {obs[O.O_N_AGING_STACK]} --", "")])
        stack, discard = self.pile(obs, O.Z_ROBINSON_STACK), self.pile(obs, O.Z_ROBINSON_DISCARD)
        known = [int(obs[O.O_KNOWN_TOP_0 + i]) for i in range(int(obs[O.O_KNOWN_TOP_N]))]
        s.line(f"Robinson's stack ({len(stack)}): {n.grouped(stack) or 'empty'}" +
               (f"; on top, as you put them: {n.listing(known)}" if known else ""))
        s.line(f"Robinson's discard ({len(discard)}): {n.grouped(discard) or 'empty'}")
        pirates = [int(obs[O.O_PIRATE_1]), int(obs[O.O_PIRATE_2])]
        beaten = self.pile_all(obs, O.Z_PIRATE_BEATEN)
        s.line("Pirates: " + "; ".join(f"{n.pirate(p)}{' (beaten)' if p in beaten else ''}"
                                       for p in pirates if p >= 0))
        if obs[O.O_OPPONENT] >= 0:
            opp = int(obs[O.O_OPPONENT])
            value, eff, total = int(obs[O.O_FIGHT_VALUE]), int(obs[O.O_EFFECTIVE_VALUE]), int(obs[O.O_FIGHT_TOTAL])
            side = "pirate" if obs[O.O_OPPONENT_IS_PIRATE] else "hazard side"
            s.line([("Fight against ", ""), (n.opponent(opp), "bold"),
                    (f" ({side}): value {value}" + (f", {eff} at the comparison" if eff != value else "") +
                     f"; free cards left {obs[O.O_FREE_LEFT]}" +
                     ("" if obs[O.O_FREE_OPEN] or not obs[O.O_FREE_LEFT] else " (free drawing stopped)"), "")])
            for label, zone in (("left (free)", O.Z_FIGHT_LEFT), ("right", O.Z_FIGHT_RIGHT)):
                cards = self.pile(obs, zone)
                if cards:
                    s.line(f"  {label}: " + ", ".join(self.fight_card(obs, c) for c in cards))
            verdict = "beaten" if total >= eff else f"{eff - total} missing"
            s.line([("  total ", ""), (f"{total}", "bold cyan"), (f" against {eff}: {verdict}", "")])
        hand = self.pile(obs, O.Z_SORT)
        if hand:
            s.line(f"Sort3, the cards you took: {n.listing(hand)}")
        if obs[O.O_DESTROY_BUDGET] > 0:
            s.line(f"Fight lost: destroy budget {obs[O.O_DESTROY_BUDGET]} left "
                   f"(1 per start or knowledge card, 2 per aging card, R4.8)")

    def pile_all(self, obs, zone: int) -> list[int]:
        return [c for c in range(N_CARDS) if obs[O.ZONE + c] == zone]

    def fight_card(self, obs, c: int) -> str:
        flags = int(obs[O.FLAGS + c])
        marks = [m for bit, m in ((O.F_FACE_DOWN, "destroyed"), (O.F_DOUBLED, "doubled"),
                                  (O.F_USED, "used")) if flags & bit]
        return self.names.card(c) + (f" [{', '.join(marks)}]" if marks else "")

    # --- the actions -------------------------------------------------------------------
    def describe(self, obs, action: int) -> str:
        n = self.names
        phase, pending = int(obs[O.O_PHASE]), int(obs[O.O_PENDING_ABILITY])
        step = int(obs[O.O_STEP])
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
            more = action == A_MORE
            if phase == O.PH_SORT_TAKE:
                return "look at the next card of the stack" if more else "stop looking"
            if phase == O.PH_SORT_DISCARD:
                return "discard none of them"
            if phase == O.PH_DESTROY:
                return "destroy no more cards"
            if pending == C.AB_DRAW2:
                return "draw the second card" if more else "no second card"
            if pending == C.AB_BELOW_PILE:
                return "draw a free replacement to the left" if more else "no replacement"
            return "no second exchange" if pending == C.AB_EXCHANGE2 else ("more" if more else "done")
        card = (action - A_FIGHT) % N_CARDS
        if action < A_PIRATE:
            return (f"fight {n.hazard(card)}: value {n.hazard_value(card, step)}, "
                    f"{count(int(C.HAZARD_FREE[card]), 'free card')}; beaten, it becomes {n.card(card)}")
        if action < A_USE:
            return f"fight {n.pirate(card)} first ({n.pirate_rules(card)})"
        if action < A_TARGET:
            return f"use {n.card(card)}"
        if action < A_DESTROY:
            verb = {C.AB_DESTROY: "destroy", C.AB_DOUBLE: "double", C.AB_COPY: "copy the ability of",
                    C.AB_EXCHANGE1: "exchange", C.AB_EXCHANGE2: "exchange",
                    C.AB_BELOW_PILE: "put under the stack"}.get(pending, "target")
            what = (f" ({ABILITY_WORDS[C.ABILITY_NAMES[C.ABILITY[card]]]})" if pending == C.AB_COPY
                    else "")
            return f"{verb} {n.short(card)}{what}"
        if action < A_DISCARD:
            return f"destroy {n.short(card)} (costs {C.DESTROY_COST[card]})"
        if action < A_PUT:
            return f"discard {n.short(card)}"
        return f"put {n.short(card)} back, next from the top"

    def choose(self, obs, legal, n_legal) -> int:
        legal = [int(a) for a in legal[:n_legal]]
        phase = int(obs[O.O_PHASE])
        self.show_log(hold_sort=phase in SORT_PHASES)
        self.show_state(obs)
        self.screen.line([(f"Your choice, {PHASE_WORDS.get(phase, O.PHASE_NAMES[phase])}:", "bold")])
        for i, a in enumerate(legal, 1):
            self.screen.line([(f"  {i:>2}  ", "bold"), (f"{action_name(a):<12s}", "cyan"),
                              (self.describe(obs, a), "")])
        while True:
            answer = self.screen.ask("> ")
            if answer is None:
                raise PlayerQuit("end of the input")
            answer = answer.strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise PlayerQuit("you left the game")
            if answer == "?":
                hint = int(self.hint.choose(obs, np.array(legal, dtype=np.int64), len(legal)))
                if hint not in legal:
                    self.screen.line(f"  {self.hint.name} answered an illegal action ({hint}): no hint")
                    continue
                self.screen.line(f"  {self.hint.name} would choose {legal.index(hint) + 1} "
                                 f"{action_name(hint)}: {self.describe(obs, hint)}")
                continue
            action = self.parse(answer, legal)
            if action is not None:
                self.moves.append(action_name(action))
                return action

    def parse(self, answer: str, legal: list[int]) -> int | None:
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            self.screen.line(f"  {answer} is not a choice: enter 1 to {len(legal)}. {HELP}")
            return None
        try:
            action = action_id(answer)
        except RuleError:
            self.screen.line(f"  {answer!r} is not an action here. {HELP}")
            return None
        if action not in legal:
            self.screen.line(f"  {answer} is not legal now. {HELP}")
            return None
        return action


def play_in_terminal(level: int, seed: int, game: int, hint_spec: str, options: Options,
                     ids: bool = False) -> int:
    """Play one game with a person at the terminal; returns the exit code (0, or 130 after
    Ctrl-C)."""
    from policies import builtin_policies, load_policy
    from ..reference import Game
    hint = load_policy(hint_spec)
    screen = Screen()
    player = TerminalPlayer(hint, screen, ids)
    again = f"friday play --level {level} --seed {seed} --game {game}"
    try:
        played = Game(level, seed, game, player, options)
        player.game = played
        player.head = header("reference", level, seed, game, f"you (hints: {hint.name})", options)
        try:
            played.play()
        except PlayerQuit as stop:
            screen.line("")
            screen.line(f"Game left at turn {played.turn} ({stop}), after {len(player.moves)} "
                        f"moves. The same deal again: {again}")
            return 0
        player.show_log()
        screen.line("")
        screen.line([(f"The same deal (level {level}, seed {seed}, game {game}) played by the "
                      f"built-in policies:", "bold")])
        rows = [("you", played)] + [(name, Game(level, seed, game, pol, options).play())
                                    for name, pol in builtin_policies().items()]
        for name, g in rows:
            result = "won" if g.won else f"lost ({CAUSE_NAMES[g.cause]}, {STEP_NAMES[g.step]} step)"
            screen.line(f"  {name:<14s}score {g.score:>4d}   {result}")
        return 0
    except KeyboardInterrupt:
        screen.line("")
        screen.line(f"Interrupted (Ctrl-C): game not finished. The same deal again: {again}")
        return 130
