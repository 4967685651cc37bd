"""Release discipline (PEP 387): every public name that moved or went since 0.1.0 still imports
for one release, with a DeprecationWarning naming its new place (sim.deprecation); the new
places import without a warning; the old README's examples run as written; CHANGELOG.md lists
every move."""
from __future__ import annotations

import importlib
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# old "module:name" -> new "module:name" (a moved module: every name of it, one shown here)
MOVED = {
    "sim.env:FridayEnv": "sim.play.env:FridayEnv",
    "sim.env:OBS_BOUND": "sim.play.env:OBS_BOUND",
    "sim.game:Game": "sim.play.game:Game",
    "sim.render:render_text": "sim.play.render:render_text",
    "sim.play:TerminalPlayer": "sim.play.terminal:TerminalPlayer",
    "sim.play:play_in_terminal": "sim.play.terminal:play_in_terminal",
    "sim.play:PlayerQuit": "sim.play.terminal:PlayerQuit",
    "sim.reference:Fight": "sim.reference.fight:Fight",
    "sim.reference:GameOver": "sim.reference.fight:GameOver",
    "sim.reference:result_row": "sim.reference.game:result_row",
    "sim.reference_fight:FightRules": "sim.reference.fight:FightRules",
    "sim.reference_abilities:use_ability": "sim.reference.abilities:use_ability",
    "sim.reference_observation:build_observation": "sim.reference.observation:build_observation",
    "sim.progress:StopFlag": "sim.lab.progress:StopFlag",
    "sim.results:to_frame": "sim.lab.summary:to_frame",
    "sim.results:summarize": "sim.lab.summary:summarize",
    "sim.results:wilson": "sim.lab.stats:wilson_interval",
    "sim.results:COLUMNS": "sim.rules:RESULT_COLUMNS",
    "sim.simulate:run_simulation": "sim.lab.simulate:run_simulation",
    "sim.simulate:write_parquet": "sim.lab.files:write_parquet",
    "sim.report:policy_report": "sim.lab.report:policy_report",
    # moved in 0.2.0 by the contract floor (sim.contract), the search's runner, sim.rng, sim.lab.ship
    "policies.guard:interruptible": "sim.contract:interruptible",
    "policies.guard:ask": "sim.contract:decide_once",
    "policies.guard:callable_decide": "sim.contract:callable_decide",
    "sim.fast.ask:decide_function": "sim.contract:callable_decide",
    "sim.fast.numba_wall:lean_jit": "sim.contract.numba_wall:lean_jit",
    "sim.fast.search_api:decide_at": "policies.search_run:decide_at",
    "sim.fast.search_api:decision_log": "policies.search_log:decision_log",
    "sim.fast.search:SEARCH_SALT": "sim.rng:SEARCH_SALT",
    "sim.lab.review:REVIEW_SALT": "sim.rng:REVIEW_SALT",
    "sim.lab.cluster:policy_from_wire": "sim.lab.ship:policy_from_wire",
    "policies.learned:S_LIFE": "policies.learned:F_LIFE",
    "policies.learned:A_IS_END": "policies.learned:F_IS_END",
}
# removed without a direct successor: served by a shim on the new API; the warning names it
SHIMS = {
    "policies.base:default_decide": "policies.strategy.with_rules",
    "policies.base:fight_decision": "policies.base.draw_or_stop",
    "sim.fast:iter_batches": "sim.fast.run_batch",
    "policies.arith:fight_total": "policies.base.fight_total",
    "policies.arith:effective_value": "policies.base.effective_value",
}
GONE = {"policies.base:ABILITY": "policies.arith.ability_of"}


def _get(where: str):
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


def _dotted(where: str) -> str:
    return where.replace(":", ".")


@pytest.mark.parametrize("old, new", MOVED.items())
def test_an_old_name_warns_and_names_its_new_place(old, new):
    with pytest.warns(DeprecationWarning, match=re.escape(f"moved to {_dotted(new)}")):
        found = _get(old)
    assert found is _get(new)


@pytest.mark.parametrize("old, instead", SHIMS.items())
def test_a_removed_name_is_a_shim_that_names_the_replacement(old, instead):
    with pytest.warns(DeprecationWarning, match=re.escape(instead)):
        assert callable(_get(old))


@pytest.mark.parametrize("old, instead", GONE.items())
def test_a_name_without_a_shim_fails_naming_the_replacement(old, instead):
    with pytest.raises(AttributeError, match=re.escape(instead)):
        _get(old)


@pytest.mark.parametrize("new", sorted(set(MOVED.values())))
def test_the_new_places_import_without_a_warning(new):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _get(new)


def test_the_warning_points_at_the_importing_line():
    """``from sim.game import Game`` in user code: the warning is the user's line's (so Python
    shows it by default in __main__), not sim.deprecation's."""
    with pytest.warns(DeprecationWarning) as caught:
        exec("from sim.game import Game", {"__name__": "user_code"})
    assert all(Path(w.filename).name != "deprecation.py" for w in caught)


def test_an_unknown_name_is_still_an_attribute_error():
    import sim.env
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        sim.env.nonsense  # noqa: B018
    assert "FridayEnv" in dir(sim.env)


def test_iter_batches_is_run_batch_chunk_by_chunk(monkeypatch):
    """The shim does what 0.1.0's did: run_batch over consecutive chunks of game indices."""
    import sim.fast
    from sim.fast import api
    calls = []
    monkeypatch.setattr(api, "run_batch", lambda *a: calls.append(a) or {"n": a[3]})
    with pytest.warns(DeprecationWarning):
        iter_batches = sim.fast.iter_batches
    chunks = list(iter_batches(4, 7, 250, "expert", chunk=100, first_game=5))
    assert [c["n"] for c in chunks] == [100, 100, 50]
    assert [(c[0], c[1], c[2], c[3]) for c in calls] == [(4, 7, 5, 100), (4, 7, 105, 100),
                                                         (4, 7, 205, 50)]


def test_the_old_readme_policy_plays(tmp_path):
    """0.1.0's README policy file (``from policies.base import default_decide``) loads and
    plays a game on the reference engine, with a warning naming the replacement."""
    from policies import load_policy
    from sim.reference import play_game
    (tmp_path / "brave.py").write_text(
        "from numba import njit\n"
        "from policies.base import default_decide, effective_value, fight_total, has\n"
        "from sim import observation as O\n"
        "from sim.actions import A_END\n\n"
        "@njit\n"
        "def brave(obs, legal, n_legal, params, rng):\n"
        "    if obs[O.O_PHASE] == O.PH_FIGHT and has(legal, n_legal, A_END) and "
        "fight_total(obs) >= effective_value(obs):\n"
        "        return A_END\n"
        "    return default_decide(obs, legal, n_legal, 2.0, 3.0, 0.0, 1.0, 6.0)\n")
    with pytest.warns(DeprecationWarning, match="policies.base.default_decide"):
        policy = load_policy(f"{tmp_path / 'brave.py'}:brave")
    assert play_game(1, 1, 0, policy).trace[-1]["e"] == "game_end"


def test_the_old_readme_env_loop_runs():
    """0.1.0's README: ``from sim.env import FridayEnv`` and its random masked loop."""
    import numpy as np
    with pytest.warns(DeprecationWarning, match="sim.play.env.FridayEnv"):
        from sim.env import FridayEnv
    env = FridayEnv(level=4, reward="score")
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        action = env.np_random.choice(np.flatnonzero(info["action_mask"]))
        obs, reward, done, truncated, info = env.step(action)
    assert env.game.result["cause"] in ("won", "no_life", "old_age", "no_cards")


def test_the_changelog_lists_every_move():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    for old, new in [*MOVED.items(), *SHIMS.items(), *GONE.items()]:
        assert f"`{_dotted(old)}`" in text or f"`{old.split(':')[0]}`" in text, old
        assert _dotted(new) in text or f"`{new.split(':')[0]}`" in text, new
