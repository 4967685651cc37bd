"""unfair-clairvoyant: an UNFAIR player, an upper bound on how many deals can be won at all.

It breaks R1.4 on purpose: at every decision (every kind) it tries each legal action on a plain
copy of the game (the true order of every stack and the engine's true stream, so every draw and
every future shuffle is known) and plays the copy out with ``base`` (veteran); it takes the base
policy's action unless another one wins where it loses.  With a deterministic base one
continuation per action is exact (``rollouts=1``).  The jitted core is the search's
(sim.fast.search, ``SP_SEES_ALL``).  Never a default and never a fair comparison: its name
says "unfair" wherever it appears (results/strength.md: the fair players as a share of it).
"""
from __future__ import annotations

from policies.search import SearchPolicy

NAME = "unfair-clairvoyant"
DESCRIPTION = ("UNFAIR upper bound: sees the true order of every stack and every future shuffle "
               "(breaks R1.4); one exact continuation per action over veteran")
PARAMS = {"rollouts": 1.0, "margin": 1.0, "budget": 0.0, "prune": 0.0}
decide = None       # the games run in sim.fast.search, as the search's


class ClairvoyantPolicy(SearchPolicy):
    """The search's machinery with plain copies instead of resampled ones (module docstring)."""
    sees_all = True
    text_defaults = {"base": "veteran", "kinds": "all"}


def make_policy(name, decide, params, description, text=None):
    return ClairvoyantPolicy(name, decide, params, description, text=text)
