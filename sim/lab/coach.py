"""Coaching in ``friday play``: the chances of the player's actions, scored as ``friday review``
scores them (sim.lab.review), on a fast-engine game that follows the player's moves."""
from __future__ import annotations

import numpy as np

from .review import ROLLOUT_POLICY, check_rollouts, decision_rows, decision_seed, outcomes


class Coach:
    """The chances of ``friday play``'s actions: a fast-engine ``Game`` that follows the
    player's moves on the same deal (both engines play the same game, move for move), each
    decision's legal actions scored as ``review`` scores them (``rollouts`` continuations,
    played out by ``policy``).  ``friday play`` (sim.play.terminal) calls ``chances_line`` on
    ``?``, ``loss_line`` after a move with ``--coach``, and ``moved`` after every move."""

    def __init__(self, level, seed, game, options, rollouts=300, policy=ROLLOUT_POLICY):
        from policies import load_policy
        self.pol, self.rollouts, self.decision = load_policy(policy), check_rollouts(rollouts), 0
        self.level, self.seed, self.game, self.options = level, seed, game, options
        self.moves, self._g, self._out = [], None, None

    @property
    def g(self):
        """The coach's game, made on first use (no fast engine is loaded for a game played
        without ``?`` or ``--coach``), then stepped through the moves made so far."""
        if self._g is None:
            from ..play import Game
            self._g = Game.new(self.level, self.seed, self.game, self.options)
            for a in self.moves:
                if a in self._g.legal_actions():
                    self._g.step(a)
        return self._g

    def _outcomes(self, legal) -> np.ndarray | None:
        """This decision's outcomes (made once), None if the game is not at ``legal``."""
        if sorted(int(a) for a in legal) != self.g.legal_actions():
            return None
        if self._out is None:
            self._out = outcomes(self.g, self.pol, self.rollouts,
                                 decision_seed(self.seed, self.game, self.decision))
        return self._out

    def chances_line(self, legal, label) -> str:
        """Every legal action's chance of winning, best first (``label(action)``: its name)."""
        OUT = self._outcomes(legal)
        if OUT is None:
            return "no chances here (the coach lost the game's thread)"
        k, wins = OUT.shape[0], OUT.sum(axis=0)
        order = sorted(range(len(wins)), key=lambda i: -wins[i])
        parts = [f"{label(self.g.legal_actions()[i])} {wins[i] / k:.0%}" for i in order]
        return f"chance of winning after each ({k} continuations by {self.pol.name}): " + \
            ", ".join(parts)

    def loss_line(self, legal, action, label) -> str:
        """The chance the move ``action`` lost against the best action, with its interval."""
        OUT = self._outcomes(legal)
        if OUT is None or len(legal) < 2:
            return ""
        rows = decision_rows(self.g, self.decision, int(action), OUT, label)
        best = next(r for r in rows if r["best"])
        taken = next(r for r in rows if r["taken"])
        if best["vs_taken"] <= 0:
            return f"coach: {taken['chance']:.0%}, as good as any move here"
        return (f"coach: {taken['chance']:.0%} after your move, {best['chance']:.0%} after "
                f"{best['label']}: {best['vs_taken']:.0%} lost [{best['vs_taken_low']:+.0%}, "
                f"{best['vs_taken_high']:+.0%}]")

    def moved(self, action):
        self.moves.append(int(action))
        if self._g is not None and int(action) in self._g.legal_actions():
            self._g.step(int(action))
        self.decision += 1
        self._out = None
