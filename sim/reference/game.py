"""The reference engine: the rules of RULES.md in plain, slow, readable Python.

The state is a handful of named zones (lists of card ids, *bottom first*, top = last) and a few
numbers.  The game is played straight through by ``play``; whenever the player has a choice the
engine asks ``self.decide(phase, legal)``, which hands the policy an observation (R1.4) and the
sorted list of legal action ids and checks the answer.  Losing the game at any moment raises
``GameOver`` (R10.2).  Abilities live in ``sim.reference.abilities``.
"""
from __future__ import annotations

import numpy as np

from sim.contract.interrupt import interruptible

from .. import cards as C
from .. import observation as O
from ..actions import A_FIGHT, A_PIRATE, A_SKIP, action_name, shown_action
from ..deal import RESHUFFLE_KEYS, arrange, is_position, unused_shuffles
from .fight import Fight, FightRules, GameOver
from ..rng import SplitMix64, engine_stream_start
from ..rules import (CAUSE_NAMES, CAUSE_NO_LIFE, CAUSE_OLD_AGE, CAUSE_WON, GREEN, PIRATES, RED,
                    RESULT_COLUMNS, STEP_NAMES, Options, RuleError, check_level, start_life)


class IllegalAction(RuleError):
    """A policy answered with an action that is not legal at this decision."""


class Game(FightRules):
    """One game of Friday at a level, with rule options, seed, game index, policy, deal, and
    card table (``cards``: a sim.cardtable.CardTable, default the printed one; the rules read
    card data as ``self.cards.FIGHT_VALUE[card]``...)."""

    def __init__(self, level: int, seed: int, game: int, policy, options: Options | None = None,
                 deal: dict | None = None, cards=None):
        from ..cardtable import as_table
        self.level = check_level(level)
        self.cards = as_table(cards)
        self.options = options or Options()
        self.seed, self.game_index = seed, game
        self.policy = policy
        if hasattr(policy, "reset"):
            policy.reset(seed, game)          # the policy's own random stream (sim.rng)
        self.deal = deal
        self.rng = SplitMix64(engine_stream_start(seed, game))
        self.trace: list[dict] = []
        # zones (R1.2), bottom first
        self.robinson_stack: list[int] = []
        self.robinson_discard: list[int] = []
        self.aging_stack: list[int] = []
        self.hazard_stack: list[int] = []
        self.hazard_discard: list[int] = []
        self.removed: list[int] = []
        self.out_of_game: list[int] = []
        self.pirates: list[int] = []
        self.pirates_beaten: list[int] = []
        self.pirate_first = -1           # the pirate fought first (R9.1)
        self.hazards_drawn: list[int] = []
        self.sort_hand: list[int] = []
        self.known_top: list[int] = []   # cards the player put on top itself, top first (R1.4)
        # the table's later shuffles a deal gives (sim.deal RESHUFFLE_KEYS), each top first
        self.table_shuffles: dict[str, list[list[int]]] = {k: [] for k in RESHUFFLE_KEYS}
        self.shuffles_done = dict.fromkeys(RESHUFFLE_KEYS, 0)
        self.life = self.max_life = 0
        self.step = GREEN
        self.turn = 0
        self.aging_in_game = 0
        self.fight: Fight | None = None
        self.pending_card = self.pending_ability = -1
        self.destroy_budget = 0
        # results
        self.won = False
        self.cause = CAUSE_WON
        self.score = 0
        self.stats = {"fights_won": [0, 0, 0, 0], "fights_lost": [0, 0, 0, 0], "destroyed": 0}

    # --- trace -------------------------------------------------------------------------
    def emit(self, e: str, **fields):
        self.trace.append({"e": e, **fields})

    # --- decisions ---------------------------------------------------------------------
    def decide(self, phase: int, legal: list[int]) -> int:
        """Ask the policy; the answer must be one of the (sorted) legal action ids."""
        legal = sorted(legal)
        obs = self.observation(phase)
        action = int(self.policy.choose(obs, np.array(legal, dtype=np.int64), len(legal)))
        if action not in legal:
            raise IllegalAction(
                f"policy {self.policy.name!r} chose {shown_action(action)} at a "
                f"{O.PHASE_NAMES[phase]} decision (step {STEP_NAMES[self.step]}, turn "
                f"{self.turn}); legal: {', '.join(action_name(a) for a in legal)}")
        return action

    def observation(self, phase: int) -> np.ndarray:
        """What a player may know (R1.4), in the layout of sim.observation."""
        from .observation import build_observation
        return build_observation(self, phase)

    # --- the game ----------------------------------------------------------------------
    def play(self) -> "Game":
        """Play the whole game; fills self.trace, self.won, self.cause, self.score.  It runs
        in sim.contract.interrupt.interruptible: Ctrl-C stops a policy that never returns,
        and so does the time limit of a decision."""
        return interruptible(self._play)

    def _play(self) -> "Game":
        try:
            self.set_up()
            first = self.step                     # green, or a position's step (sim.deal)
            for step in range(first, RED + 1):
                if step != first:
                    self.start_step(step)
                while self.hazard_stack:          # R3.3 / R8.1: an empty stack ends the step
                    self.hazard_turn()
            self.start_step(PIRATES)
            self.pirate_fights()
            self.won, self.cause = True, CAUSE_WON  # R10.1
        except GameOver as over:
            self.cause = over.cause
            if self.fight is not None and not self.fight.is_pirate:
                self.hazard_discard.append(self.fight.opponent)  # R4.10: undefeated
        self.score = self.compute_score()
        self.emit("game_end", won=self.won, cause=CAUSE_NAMES[self.cause], life=self.life,
                  score=self.score, step=STEP_NAMES[self.step])
        unused = unused_shuffles(self.table_shuffles, self.shuffles_done)
        if unused:
            raise RuleError(unused)
        return self

    def set_up(self):
        """R2: aging stack, Robinson stack, hazard stack, pirates, life.  The shuffles always
        run in this order (so a deal file that fixes some stacks leaves the rest unchanged)."""
        normals = [c for c in C.AGING_NORMAL_IDS if self.level >= 3 or c != C.VERY_STUPID]
        self.out_of_game = [] if self.level >= 3 else [C.VERY_STUPID]       # R2.1
        self.aging_stack = self.rng.shuffle(C.AGING_DIFFICULT_IDS) + self.rng.shuffle(normals)
        robinson = list(C.START_IDS)
        if self.level >= 2:                                                  # R2.2
            robinson.append(self.aging_stack.pop())
        self.robinson_stack = self.rng.shuffle(robinson)
        self.hazard_stack = self.rng.shuffle(C.HAZARD_IDS)                   # R2.3
        pirates = self.rng.shuffle(C.PIRATE_IDS)                             # R2.4
        self.pirates = [pirates[-1], pirates[-2]]
        self.life, self.max_life = start_life(self.level)                   # R2.5
        checked = {}
        if self.deal:                                # the deal's zones (sim.deal), a position's
            from ..deal import check_deal            # life and step
            checked = check_deal(self.level, self.deal)
            for key, value in checked.items():
                if key in RESHUFFLE_KEYS:
                    self.table_shuffles[key] = value
                elif key == "step":
                    self.step = STEP_NAMES.index(value)
                else:
                    setattr(self, key, value if key in ("pirates", "life") else top_first(value))
        # int(): a sum of numpy bools is a numpy int, which made the plus2_per_aging pirate's
        # value (R9.5) and fight_end.won numpy scalars that JSON traces cannot hold
        self.aging_in_game = int(len(self.aging_stack) + sum(
            self.cards.IS_AGING[c] for c in self.robinson_stack + self.robinson_discard
            + self.removed))
        position = {}                # a position's piles and step (TRACE.md, its extension)
        if is_position(checked):
            position = {"robinson_discard": top_first(self.robinson_discard),
                        "hazard_discard": top_first(self.hazard_discard),
                        "removed": top_first(self.removed), "step": STEP_NAMES[self.step]}
        self.emit("setup", robinson_stack=top_first(self.robinson_stack),
                  hazard_stack=top_first(self.hazard_stack), aging_stack=top_first(self.aging_stack),
                  pirates=list(self.pirates), life=self.life, max_life=self.max_life, **position)
        self.emit("step", step=STEP_NAMES[self.step], hazard_stack=top_first(self.hazard_stack))

    def start_step(self, step: int):
        """R8.1: yellow and red shuffle the hazard discard into a new stack; R8.2 pirates."""
        self.step = step
        if step != PIRATES:
            self.hazard_stack = self.table_shuffle("hazard_reshuffles",
                                                   self.rng.shuffle(self.hazard_discard))
            self.hazard_discard = []
        self.emit("step", step=STEP_NAMES[step], hazard_stack=top_first(self.hazard_stack))

    def hazard_turn(self):
        """R3.1 / R3.2: draw two hazards and fight one, or the last one (or skip it)."""
        self.turn += 1
        n = min(2, len(self.hazard_stack))
        self.hazards_drawn = [self.hazard_stack.pop() for _ in range(n)]
        self.emit("hazards_drawn", cards=list(self.hazards_drawn))
        legal = [A_FIGHT + c for c in self.hazards_drawn] + ([A_SKIP] if n == 1 else [])
        action = self.decide(O.PH_HAZARD, legal)
        chosen = None if action == A_SKIP else action - A_FIGHT
        discarded = [c for c in self.hazards_drawn if c != chosen]
        self.hazard_discard.extend(discarded)
        self.hazards_drawn = []
        self.emit("hazard_choice", fight=chosen, discarded=discarded)
        if chosen is not None:
            self.run_fight(chosen, is_pirate=False)

    def pirate_fights(self):
        """R9.1: choose the first pirate, then fight the other at once."""
        legal = [A_PIRATE + p for p in self.pirates]
        first = self.decide(O.PH_PIRATE, legal) - A_PIRATE
        self.pirate_first = first
        for pirate in (first, next(p for p in self.pirates if p != first)):
            self.emit("pirate_choice", fight=pirate)
            self.run_fight(pirate, is_pirate=True)

    # --- drawing and the Robinson stack (R4.2, R4.3, R7) ---------------------------------
    def can_draw(self) -> bool:
        """A card can be drawn (or R7.2 old age reached by trying) (R7.3)."""
        return bool(self.robinson_stack or self.options.old_age == "lose"
                    or self.robinson_discard or self.aging_stack)

    def reshuffle(self):
        """R7.1/R7.2: top aging card (unseen) + robinson_discard become the new stack."""
        if not self.aging_stack and self.options.old_age == "lose":
            raise GameOver(CAUSE_OLD_AGE)
        aging = self.aging_stack.pop() if self.aging_stack else None
        self.robinson_stack = self.table_shuffle("robinson_reshuffles", self.rng.shuffle(
            self.robinson_discard + ([aging] if aging is not None else [])))
        self.robinson_discard = []
        self.known_top = []
        self.emit("reshuffle", aging_added=aging, robinson_stack=top_first(self.robinson_stack))

    def table_shuffle(self, key: str, shuffled: list) -> list:
        """The seed's shuffle (``shuffled``, bottom first: drawn in any case, so the stream is
        the same), with the cards the deal's next table shuffle of ``key`` gives on top."""
        k = self.shuffles_done[key]
        self.shuffles_done[key] = k + 1
        if k >= len(self.table_shuffles[key]):
            return shuffled
        return arrange(shuffled, self.table_shuffles[key][k], key, k, self.turn)

    def take_top(self) -> int:
        """Take the top Robinson card, reshuffling first if the stack is empty (R7.1)."""
        if not self.robinson_stack:
            self.reshuffle()
        card = self.robinson_stack.pop()
        if self.known_top:
            self.known_top.pop(0)
        return card

    def draw_into_fight(self, side: str, reason: str, cost: int = 0, index: int | None = None):
        """Draw a card face up into the fight and write its events (R4.2, R5.2, R5.8-R5.10)."""
        fight = self.fight
        card = self.take_top()
        row = fight.left if side == "left" else fight.right
        row.insert(len(row) if index is None else index, card)
        fight.cards_drawn += 1
        self.emit("draw", card=card, side=side, cost=cost, reason=reason)
        if side == "left" and self.cards.ABILITY[card] == C.AB_AGING_STOP:          # R6.4
            self.emit("ability", card=card, ability="aging_stop", target=None, via_copy=None,
                      detail={})

    def pay_life(self, amount: int, reason: str):
        """Pay life to the reserve; without enough, pay what there is and lose (R4.10)."""
        paid = min(amount, self.life)
        self.life -= paid
        if paid:
            self.emit("life", delta=-paid, life=self.life, reason=reason)
        if paid < amount:
            raise GameOver(CAUSE_NO_LIFE)

    def gain_life(self, amount: int) -> int:
        """R5.1, R2.5: from the reserve, never above max_life."""
        gained = min(amount, self.max_life - self.life)
        self.life += gained
        return gained

    # --- the score (R10.3) ------------------------------------------------------------
    def robinson_cards(self) -> list[int]:
        """Robinson's cards not removed: stack, discard, sort3 hand, cards still in a fight."""
        cards = self.robinson_stack + self.robinson_discard + self.sort_hand
        if self.fight is not None:
            gone = self.fight.face_down | set(self.fight.budget_destroyed)
            cards += [c for c in self.fight.cards() if c not in gone]
        return cards

    def compute_score(self) -> int:
        cards = self.robinson_cards()
        score = sum(-5 if self.cards.IS_AGING[c] else int(self.cards.FIGHT_VALUE[c]) for c in cards)
        score += 15 * len(self.pirates_beaten)
        score += 5 * self.life if self.won else 0
        score -= 3 * (len(self.hazard_stack) + len(self.hazard_discard))
        return score


def top_first(stack: list[int]) -> list[int]:
    """A stack as TRACE.md writes it (top card first)."""
    return list(reversed(stack))


def play_game(level: int, seed: int, game: int, policy, options: Options | None = None,
              deal: dict | None = None, cards=None) -> Game:
    """Play one game with the reference engine and return it (trace, score, cause...)."""
    return Game(level, seed, game, policy, options, deal, cards).play()


def result_row(game: Game) -> dict:
    """A finished game's result row (rules.RESULT_COLUMNS, as the fast engine's rows)."""
    s = game.stats
    return {
        "level": game.level, "game": game.game_index, "won": int(game.won), "cause": game.cause,
        "step": game.step, "pirate_1": game.pirates[0], "pirate_2": game.pirates[1],
        "pirate_1_beaten": int(game.pirates[0] in game.pirates_beaten),
        "pirate_2_beaten": int(game.pirates[1] in game.pirates_beaten),
        "life": game.life, "score": game.score,
        "aging_taken": game.aging_in_game - len(game.aging_stack),
        "destroyed": s["destroyed"],
        "fights_won_green": s["fights_won"][0], "fights_won_yellow": s["fights_won"][1],
        "fights_won_red": s["fights_won"][2], "fights_lost_green": s["fights_lost"][0],
        "fights_lost_yellow": s["fights_lost"][1], "fights_lost_red": s["fights_lost"][2],
        "turns": game.turn, "pirate_first": game.pirate_first,
    }


def play_batch(level, seed, first_game, n_games, policy, options=None, cards=None) -> dict:
    """Games first_game .. first_game+n_games-1, one after the other: result columns."""
    rows = [result_row(play_game(level, seed, g, policy, options, cards=cards))
            for g in range(first_game, first_game + n_games)]
    return {c: np.array([r[c] for r in rows], dtype=np.int64) for c in RESULT_COLUMNS}
