"""The fight (R4) for the reference engine: drawing, paying, ending, the total, the loss.

``FightRules`` is mixed into ``sim.reference.Game``; it reads and changes the game's zones.
Abilities live in ``sim.reference.abilities``.
"""
from __future__ import annotations

from .. import cards as C
from .. import observation as O
from ..actions import A_DESTROY, A_DONE, A_DRAW, A_END, A_PAY, A_USE
from ..rules import CAUSE_NAMES, CAUSE_NO_CARDS, CAUSE_NO_LIFE, GREEN, RED
from .abilities import ability_usable, use_ability


class GameOver(Exception):
    """The game is lost (R10.2) with a cause from rules.CAUSE_NAMES."""

    def __init__(self, cause: int):
        super().__init__(CAUSE_NAMES[cause])
        self.cause = cause


class Fight:
    """One fight (R4): the opponent, the cards on both sides and what has been used."""

    def __init__(self, opponent: int, is_pirate: bool, value: int, free: int):
        self.opponent = opponent
        self.is_pirate = is_pirate
        self.value = value            # hazard: at this step before step_minus1; pirate: fixed
        self.free_left = free         # free cards not yet drawn (R4.2)
        self.free_closed = False      # free drawing stopped by choice (R4.3)
        self.left: list[int] = []     # free cards (and their replacements, R5.10)
        self.right: list[int] = []    # paid cards and cards drawn by abilities
        self.face_down: set[int] = set()   # destroyed by the destroy ability (R5.3)
        self.doubled: set[int] = set()     # R5.4
        self.used: set[int] = set()        # cards whose ability was used this fight (R4.5)
        self.step_minus = 0                # R5.7 uses
        self.cards_drawn = 0               # R4.4
        self.budget_destroyed: list[int] = []  # R4.8

    def cards(self) -> list[int]:
        return self.left + self.right

    def face_up(self) -> list[int]:
        return sorted(c for c in self.left + self.right if c not in self.face_down)


class FightRules:
    """R4, R6 and R9 fight rules of the reference Game."""

    def free_open(self) -> bool:
        """R4.2/R4.3/R6.4: a free card may be drawn now."""
        f = self.fight
        stopped = any(self.cards.ABILITY[c] == C.AB_AGING_STOP and c not in f.face_down for c in f.left)
        return f.free_left > 0 and not f.free_closed and not stopped

    def paid_cost(self) -> int:
        """R4.3, R9.5 extra_card_costs_2."""
        f = self.fight
        if f is not None and f.is_pirate and self.cards.PIRATE_ABILITY[f.opponent] == C.PA_EXTRA_COSTS_2:
            return 2
        return 1

    def opponent_value_and_free(self, opponent: int, is_pirate: bool) -> tuple[int, int]:
        """R4.1 hazard value at this step; R9.2/R9.5 pirate value and free cards."""
        if not is_pirate:
            return int(self.cards.HAZARD_VALUE[opponent, self.step]), int(self.cards.HAZARD_FREE[opponent])
        ability = self.cards.PIRATE_ABILITY[opponent]
        if ability == C.PA_REMAINING_HAZARDS:
            rest = self.hazard_discard + self.hazard_stack
            return int(sum(self.cards.HAZARD_VALUE[h, RED] for h in rest)), int(sum(self.cards.HAZARD_FREE[h] for h in rest))
        if ability == C.PA_PLUS2_PER_AGING:
            return 2 * (self.aging_in_game - len(self.aging_stack)), int(self.cards.PIRATE_FREE[opponent])
        return int(self.cards.PIRATE_VALUE[opponent]), int(self.cards.PIRATE_FREE[opponent])

    def run_fight(self, opponent: int, is_pirate: bool):
        """R4: draw, pay, use abilities until the player ends the fight."""
        value, free = self.opponent_value_and_free(opponent, is_pirate)
        self.fight = Fight(opponent, is_pirate, value, free)
        self.emit("fight_start", opponent=opponent, kind="pirate" if is_pirate else "hazard",
                  free_cards=free, value=value)
        while True:
            legal = self.fight_actions()
            if not legal:                                                   # R9.4
                cannot_pay = self.can_draw() and self.life < self.paid_cost()
                raise GameOver(CAUSE_NO_LIFE if cannot_pay else CAUSE_NO_CARDS)
            action = self.decide(O.PH_FIGHT, legal)
            if action == A_END:
                break
            if action == A_DRAW:
                self.fight.free_left -= 1
                self.draw_into_fight("left", "free")
            elif action == A_PAY:
                if self.free_open():
                    self.fight.free_closed = True                           # R4.3 by choice
                cost = self.paid_cost()
                self.draw_into_fight("right", "paid", cost=cost)
                self.pay_life(cost, "paid_draw")
            else:
                use_ability(self, action - A_USE)
        self.end_fight()

    def fight_actions(self) -> list[int]:
        """Legal actions in a fight (R4.3-R4.6, R9.3)."""
        f = self.fight
        legal = []
        can_draw = self.can_draw()
        if f.cards_drawn > 0 or not can_draw:                               # R4.4
            if not f.is_pirate or self.fight_total()[0] >= self.effective_value():   # R9.3
                legal.append(A_END)
        if can_draw and self.free_open():
            legal.append(A_DRAW)
        if can_draw and self.life > 0:          # R4.3; R9.5: 1 life may buy a 2-life card (R4.10)
            legal.append(A_PAY)
        for card in f.face_up():
            if ability_usable(self, card):
                legal.append(A_USE + card)
        return legal

    def effective_value(self) -> int:
        """R5.7: step_minus1 lowers a hazard's step at the comparison, never below green."""
        f = self.fight
        if f.is_pirate:
            return f.value
        lowered = f.step_minus if self.options.step_minus1_stacks else min(f.step_minus, 1)
        return int(self.cards.HAZARD_VALUE[f.opponent, max(GREEN, self.step - lowered)])

    def zeroed_cards(self) -> list[tuple[int, int | None]]:
        """R6.2: each face-up aging_highest_zero card (by id) zeroes the face-up card with the
        highest positive printed value not zeroed yet; ties: a non-doubled one, then lowest id."""
        f = self.fight
        up = f.face_up()
        out, zeroed = [], set()
        for card in up:
            if self.cards.ABILITY[card] != C.AB_AGING_HIGHEST_ZERO:
                continue
            candidates = [c for c in up if self.cards.FIGHT_VALUE[c] > 0 and c not in zeroed]
            target = None
            if candidates:
                target = min(candidates, key=lambda c: (-self.cards.FIGHT_VALUE[c], c in f.doubled, c))
                zeroed.add(target)
            out.append((card, target))
        return out

    def fight_total(self) -> tuple[int, list]:
        """R4.6 with R5.3 (face down = 0), R5.4, R6.2 and the pirate rules of R9.5."""
        f = self.fight
        zeroing = self.zeroed_cards()
        zeroed = {t for _, t in zeroing if t is not None}
        value = {}
        for c in f.cards():
            v = 0 if (c in f.face_down or c in zeroed) else int(self.cards.FIGHT_VALUE[c])
            value[c] = 2 * v if c in f.doubled else v
        ability = self.cards.PIRATE_ABILITY[f.opponent] if f.is_pirate else C.PA_NONE
        n = len(f.cards())
        if ability == C.PA_HALF_COUNT:
            places = (n + 1) // 2
            aging = [c for c in f.cards() if self.cards.IS_AGING[c] and c not in f.face_down]
            others = sorted((value[c] for c in f.cards() if c not in aging), reverse=True)
            total = sum(value[c] for c in aging) + sum(others[:max(0, places - len(aging))])
        else:
            total = sum(value.values())
            if ability == C.PA_PLUS1_PER_CARD:
                total += n if self.options.plus1_counts_destroyed else n - len(f.face_down)
        return total, zeroing

    def end_fight(self):
        """R4.6-R4.9: compare, destroy with the budget after a loss, pay, age, clear up."""
        f = self.fight
        total, zeroing = self.fight_total()
        for card, target in zeroing:
            self.emit("ability", card=card, ability="aging_highest_zero", target=target,
                      via_copy=None, detail={})
        value = self.effective_value()
        won = total >= value
        deficit = 0 if won else value - total
        if deficit and deficit <= self.life:                                # R4.8 budget
            self.choose_destroys(deficit)
        self.emit("fight_end", total=total, value=value, won=won, life_paid=min(deficit, self.life),
                  destroyed=list(f.budget_destroyed), removed=sorted(f.face_down))
        if deficit:
            self.pay_life(deficit, "lost_fight")
        for card in f.face_up():                                            # R4.9, R6.1
            if card in f.budget_destroyed:
                continue
            if self.cards.ABILITY[card] in (C.AB_AGING_LIFE1, C.AB_AGING_LIFE2):
                self.emit("ability", card=card, ability=C.ABILITY_NAMES[self.cards.ABILITY[card]],
                          target=None, via_copy=None, detail={})
                self.pay_life(1 if self.cards.ABILITY[card] == C.AB_AGING_LIFE1 else 2, "aging")
        # the fight is over: move the cards (R4.7, R4.8)
        gone = set(f.face_down) | set(f.budget_destroyed)
        self.removed.extend(sorted(gone))
        self.robinson_discard.extend(c for c in f.cards() if c not in gone)
        if won:
            self.stats["fights_won"][self.step] += 1
            if f.is_pirate:
                self.pirates_beaten.append(f.opponent)
            else:
                self.robinson_discard.append(f.opponent)                     # knowledge now
        else:
            self.stats["fights_lost"][self.step] += 1
            self.hazard_discard.append(f.opponent)
        self.stats["destroyed"] += len(gone)
        self.fight = None

    def choose_destroys(self, budget: int):
        """R4.8: spend the destroy budget on face-up fight cards (1 or 2 each, R1.3)."""
        f = self.fight
        self.destroy_budget = budget
        while True:
            options = [c for c in f.face_up() if c not in f.budget_destroyed
                       and self.cards.DESTROY_COST[c] <= self.destroy_budget]
            if not options:
                break
            action = self.decide(O.PH_DESTROY, [A_DONE] + [A_DESTROY + c for c in options])
            if action == A_DONE:
                break
            card = action - A_DESTROY
            f.budget_destroyed.append(card)
            self.destroy_budget -= int(self.cards.DESTROY_COST[card])
        self.destroy_budget = 0
