"""sim.play.env.FridayEnv (optional extra ``gym``): Gymnasium's env checker and 1,000 masked random
episodes, whose results equal sim.Game's games."""
from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from sim.play.env import FridayEnv  # noqa: E402
from sim.errors import UsageError  # noqa: E402


def test_check_env_passes():
    check_env(FridayEnv(level=2), skip_render_check=True)
    check_env(FridayEnv(level=4, reward="score", render_mode="ansi"))


def test_masked_random_agent_plays_1000_episodes():
    env = FridayEnv(level=1, reward="score")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    episodes, steps, wins = 0, 0, 0
    while episodes < 1000:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps += 1
        assert not truncated and "illegal_action" not in info
        if terminated:
            assert reward == env.game.result["score"]
            wins += env.game.result["won"]
            episodes += 1
            obs, info = env.reset()
    assert env._next == 1001 and steps > 10 * episodes


def test_illegal_action_ends_the_episode_with_a_penalty_and_bad_reward_kind():
    env = FridayEnv(level=3)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, _, info2 = env.step(illegal)
    assert terminated and reward == -1.0 and info2["illegal_action"]
    assert np.array_equal(obs, obs2)
    with pytest.raises(UsageError, match="reward"):
        FridayEnv(reward="points")


def test_the_guide_env_example_runs(capsys):
    """The Gymnasium loop of docs/how-to/game-and-env.md (also run by tests/test_site.py with the
    page's other examples): one episode of a random masked agent prints its reward and cause."""
    import re
    from pathlib import Path
    guide = (Path(__file__).parent.parent / "docs" / "how-to" / "game-and-env.md").read_text()
    code = re.search(r"```python\n(import numpy as np\n\nfrom sim.play.env import FridayEnv\n.*?)```",
                     guide, re.S).group(1)
    exec(code, {})
    assert capsys.readouterr().out.strip()


def test_step_before_reset_says_to_call_reset_first():
    env = FridayEnv(level=1)
    with pytest.raises(UsageError) as err:
        env.step(0)
    assert str(err.value) == "FridayEnv.step: no episode yet: call reset() first"


def test_step_after_the_end_says_the_episode_is_over():
    env = FridayEnv(level=1)
    obs, info = env.reset(seed=3)
    while True:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            break
    with pytest.raises(UsageError, match="the episode is over: call reset"):
        env.step(0)


def test_step_refuses_what_is_not_an_action():
    env = FridayEnv(level=1)
    env.reset(seed=3)
    with pytest.raises(UsageError, match="action None is not an action"):
        env.step(None)


@pytest.mark.parametrize("seed", [2**64, 2**63, -1, 1.5, "3", True])
def test_reset_refuses_a_seed_the_engine_cannot_deal(seed):
    """``reset(seed=2**64)`` once played seed 0 in silence (the seed was masked to 63 bits):
    now the words of Game.new and ``friday --seed`` (sim.rules.check_seed), and the
    environment keeps its episode."""
    env = FridayEnv(level=1)
    obs, _ = env.reset(seed=3)
    with pytest.raises(UsageError) as err:
        env.reset(seed=seed)
    assert str(err.value) == f"seed {seed!r} out of range: use 0..{2**63 - 1}"
    assert err.value.argument == "seed" and env._seed == 3
    assert np.array_equal(env.game.observation, obs)


def test_reset_takes_the_last_seed_and_numpy_seeds():
    env = FridayEnv(level=1)
    env.reset(seed=2**63 - 1)
    assert env.game.seed == 2**63 - 1 and env.game.game == 0
    env.reset(seed=np.int64(5))
    assert (env.game.seed, env.game.game) == (5, 0)


def test_reset_refuses_options_it_would_ignore():
    """The rule options are the environment's: ``reset(options=...)`` is refused rather than
    played without them; None and {} (what Gymnasium's checker passes) are fine."""
    env = FridayEnv(level=1)
    with pytest.raises(UsageError, match=r"FridayEnv\.reset takes no options; give the rule "
                                         r"options to FridayEnv\(options=\.\.\.\)"):
        env.reset(seed=1, options={"old_age": "continue"})
    env.reset(seed=1, options={})


def test_an_unknown_render_mode_is_refused():
    with pytest.raises(UsageError, match=r"^render_mode must be None or 'ansi', not 'human'$"):
        FridayEnv(level=1, render_mode="human")
