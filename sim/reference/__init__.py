"""The reference engine: the rules of RULES.md in plain, slow, readable Python.

* ``game``: the Game (named zones, the turn, the steps, the pirates, the score) and
  ``play_game`` / ``play_batch``;
* ``fight``: one fight (R4) and its end; ``abilities``: the card abilities (R5, R6);
* ``observation``: what the player may know (R1.4), in sim.observation's layout.
"""
from .game import Game, IllegalAction, play_batch, play_game

__all__ = ["Game", "IllegalAction", "play_batch", "play_game"]

from sim.deprecation import moved  # noqa: E402  (0.1.0's sim/reference.py: CHANGELOG.md)

__getattr__ = moved(__name__, {"Fight": "sim.reference.fight:Fight",
                               "FightRules": "sim.reference.fight:FightRules",
                               "GameOver": "sim.reference.fight:GameOver",
                               "result_row": "sim.reference.game:result_row",
                               "top_first": "sim.reference.game:top_first"})
