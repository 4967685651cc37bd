"""``FridayEnv``: a Gymnasium environment over ``sim.Game`` (optional extra ``gym``).

    pip install -e '.[gym]'
    from sim.play.env import FridayEnv
    env = FridayEnv(level=4, reward="win")
    obs, info = env.reset(seed=1)
    while True:
        action = env.np_random.choice(np.flatnonzero(info["action_mask"]))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

* observation: the engine's observation (sim.observation layout) as an int64 ``Box``;
* actions: ``Discrete(sim.actions.N_ACTIONS)``; the legal ones are ``info["action_mask"]``
  (int8, 1 = legal), as OpenSpiel's legal-action mask;
* reward at the end only: ``reward="win"`` gives 1 for a win, ``"score"`` the R10 score;
* an illegal action ends the episode with reward -1 and ``info["illegal_action"]`` (as Pgx
  does), the game itself is left unchanged;
* ``reset(seed=s)`` plays game 0 of master seed s (the batch runner's deal); later resets
  without a seed play the next game indices of the same seed.  A seed is checked as
  ``Game.new`` and ``friday`` check it (0 .. 2**63-1, sim.rng): one outside is a UsageError,
  never another seed in silence; the rule options are the environment's (``FridayEnv(options=
  ...)``), so ``reset(options=...)`` is refused rather than ignored.
"""
from __future__ import annotations

import numpy as np

from sim import observation as O
from sim.actions import N_ACTIONS
from sim.errors import MissingExtra, UsageError
from sim.play.game import Game, as_action
from sim.rules import as_options, check_level, check_seed

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError:
    raise MissingExtra("gym", "Gymnasium", "sim.play.env (FridayEnv)") from None

OBS_BOUND = 1 << 16        # every observation entry lies well inside +-OBS_BOUND


class FridayEnv(gym.Env):
    """One game of Friday per episode on the fast engine (sim.Game)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, level: int = 4, options=None, reward: str = "win",
                 render_mode: str | None = None):
        if reward not in ("win", "score"):
            raise UsageError(f"reward must be 'win' or 'score', not {reward!r}", "reward")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise UsageError(f"render_mode must be None or 'ansi', not {render_mode!r}",
                             "render_mode")
        self.level = check_level(level)
        self.options = as_options(options)
        self.reward_key = "won" if reward == "win" else "score"     # the result paid at the end
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, shape=(O.OBS_SIZE,),
                                            dtype=np.int64)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self.game: Game | None = None
        self._seed, self._next = 0, 0

    def _info(self, **extra) -> dict:
        return {"action_mask": self.game.legal_mask(), "phase": self.game.phase, **extra}

    def reset(self, *, seed=None, options=None):
        """Game 0 of master ``seed`` (checked: 0 .. 2**63-1), or without one the next game of
        the same seed; ``options`` must be None or {} (the rule options are the environment's)."""
        if seed is not None:
            seed = check_seed(seed)               # before Gymnasium seeds anything
        if options is not None and (not isinstance(options, dict) or options):   # {}: as check_env
            raise UsageError(f"options {options!r}: FridayEnv.reset takes no options; give "
                             f"the rule options to FridayEnv(options=...)", "options")
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._next = seed, 0
        self.game = Game.new(level=self.level, seed=self._seed, game=self._next,
                             options=self.options)
        self._next += 1
        return self.game.observation, self._info()

    def step(self, action):
        g = self.game
        if g is None:
            raise UsageError("FridayEnv.step: no episode yet: call reset() first")
        if g.is_over:
            raise UsageError("FridayEnv.step: the episode is over: call reset() for the next one")
        action = as_action(action)
        if action not in g.legal_actions():
            return g.observation, -1.0, True, False, self._info(illegal_action=True)
        g.step(action)
        reward = float(g.result[self.reward_key]) if g.is_over else 0.0
        return g.observation, reward, g.is_over, False, self._info()

    def render(self):
        return str(self.game) if self.render_mode == "ansi" and self.game is not None else None


ENV_ID = "friday_lab/Friday-v0"
"""The registered, versioned Gymnasium id: ``gymnasium.make(ENV_ID, level=4)`` after
``import sim.play.env``, or ``gymnasium.make("sim.play.env:friday_lab/Friday-v0", level=4)``
with nothing imported first (Gymnasium 1.x imports the module named before the colon; it no
longer loads plugins from entry points).  A change that alters the episodes for the same
arguments (observation, actions, rewards) gets the next version, ``-v1``."""

if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="sim.play.env:FridayEnv")
