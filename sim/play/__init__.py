"""One game at a time, on top of the engines:

* ``game``: ``Game``, a game on the fast engine's state, stepped, cloned and resampled from
  Python (``from sim.play import Game``, also ``from sim import Game``);
* ``env``: ``FridayEnv``, the Gymnasium environment (optional extra ``gym``);
* ``terminal``: a game played by a person at the terminal (``friday play``);
* ``render``: the readable game log of a trace (``friday replay``);
* ``html``: a game as one self-contained page that steps through its decisions, its cards
  drawn by ``faces`` (``friday replay --format html``).
"""
from .game import Game

__all__ = ["Game"]

from sim.deprecation import moved  # noqa: E402  (0.1.0's sim/play.py: CHANGELOG.md)

__getattr__ = moved(__name__, {n: f"sim.play.terminal:{n}" for n in
                               ("TerminalPlayer", "play_in_terminal", "PlayerQuit", "HELP")})
